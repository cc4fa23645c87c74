"""A missing optional extra is one line naming the pip command, at every entry point, the option
that needs it in that door's words (``language='zh'``, ``--language zh``, ``language "Chinese (zh)"``).

The command line (both commands, in this process and in worker processes, and ``--ray``)
prints it and exits 2 without a traceback; ``compute`` and the evaluate module raise it as an
``ImportError``; the demo shows it. A package is hidden in two ways: ``sys.modules[name] =
None`` in this process (it is then not installed for ``importlib``), and, for runs in other
processes, a folder first on ``PYTHONPATH`` whose package of that name fails to import (every
process of the run, worker processes too, inherits it). The Ray workers' case is in
``tests/reliability/test_ray_cluster.py``.
"""

import json
import os
import pickle
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from conftest import DATA_DIR, read_jsonl

from update_rouge import compute
from update_rouge.extras import MissingExtra
from update_rouge.parallel import available_cpus

REPO = Path(__file__).resolve().parents[2]
PIP = "install with: pip install 'update-rouge[multilingual]'   (or: pip install jieba)"
NOT_INSTALLED = f"language='zh' segments Chinese words with jieba (not installed); {PIP}"
FLAG_NOT_INSTALLED = f"--language zh segments Chinese words with jieba (not installed); {PIP}"
HIDDEN = f"--language zh segments Chinese words with jieba (cannot be imported: jieba is hidden by the test); {PIP}"
NO_RAY = "scoring on Ray needs the optional extra: pip install 'update-rouge[ray]'"


def chinese_rows():
    return [row for row in read_jsonl("multilingual_triples.jsonl") if row["language"] == "zh"]


@pytest.fixture
def hidden(tmp_path):
    """Write packages that fail to import into a folder; return a function running the command
    line with that folder first on PYTHONPATH."""
    shims = tmp_path / "shims"

    def run(argv, *packages):
        for package in packages:
            (shims / package).mkdir(parents=True, exist_ok=True)
            (shims / package / "__init__.py").write_text(f"raise ImportError('{package} is hidden by the test')\n")
        path = os.pathsep.join([str(shims), str(REPO)])
        return subprocess.run(
            [sys.executable, "-m", "update_rouge", *map(str, argv)],
            capture_output=True,
            text=True,
            cwd=REPO,
            env=dict(os.environ, PYTHONPATH=path),
            timeout=300,
        )

    return run


@pytest.fixture
def chinese_file(tmp_path):
    """2,000 Chinese examples: two chunks of 1,000, so two worker processes score one each."""
    rows = chinese_rows()
    path = tmp_path / "zh.jsonl"
    path.write_text("".join(json.dumps(rows[index % len(rows)]) + "\n" for index in range(2000)), encoding="utf-8")
    return path


@pytest.mark.parametrize("num_proc", [1, pytest.param(2, marks=pytest.mark.slow)])
@pytest.mark.parametrize("command", ["update-rouge", "update-rouge compare"])
def test_the_command_line_says_which_extra_is_missing_in_one_line(hidden, chinese_file, command, num_proc):
    if num_proc > available_cpus():
        pytest.skip("needs 2 CPUs for 2 worker processes")
    compare = ["compare", "--system", "system=prediction", "--system", "copy=source"] if "compare" in command else []
    done = hidden([*compare, chinese_file, "--language", "zh", "--num-proc", num_proc], "jieba")
    assert (done.returncode, done.stderr, done.stdout) == (2, f"{command}: error: {HIDDEN}\n", "")


def test_ray_without_its_extra_is_one_line(hidden):
    done = hidden([DATA_DIR / "fruit_triples.jsonl", "--ray", "127.0.0.1:6379"], "ray")
    assert (done.returncode, done.stderr, done.stdout) == (2, f"update-rouge: error: {NO_RAY}\n", "")


@pytest.fixture
def no_jieba(monkeypatch):
    monkeypatch.setitem(sys.modules, "jieba", None)


def test_compute_raises_an_import_error_with_the_same_line(no_jieba):
    rows = chinese_rows()
    with pytest.raises(ImportError) as raised:
        compute(
            [r["source"] for r in rows], [r["prediction"] for r in rows], [r["reference"] for r in rows], language="zh"
        )
    assert type(raised.value) is MissingExtra and str(raised.value) == NOT_INSTALLED
    # as a worker process sends it back to its parent
    copy = pickle.loads(pickle.dumps(raised.value))
    assert type(copy) is MissingExtra and str(copy) == NOT_INSTALLED


@pytest.mark.slow
def test_the_evaluate_module_raises_the_same_line(no_jieba, evaluate_metric):
    rows = chinese_rows()
    with pytest.raises(ImportError) as raised:
        evaluate_metric.compute(
            sources=[r["source"] for r in rows],
            predictions=[r["prediction"] for r in rows],
            references=[r["reference"] for r in rows],
            language="zh",
        )
    assert str(raised.value) == NOT_INSTALLED


def test_the_demo_shows_the_line(no_jieba):
    from demo import handlers

    row = chinese_rows()[0]
    out = handlers.score_one(row["source"], row["reference"], row["prediction"], ["rouge1"], "none", "zh")
    line = f'language "Chinese (zh)" segments Chinese words with jieba (not installed); {PIP}'
    assert out == {"reference_view": None, "prediction_view": None, "scores": None, "note": f"Error: {line}"}


HARNESS_EXTRAS = [
    (
        "torchmetrics",
        "torchmetrics",
        "UpdateRougeMetric needs the optional extra: pip install 'update-rouge[torchmetrics]'",
    ),
    (
        "lm_eval",
        "lm_eval",
        "the lm-evaluation-harness task needs the optional extra: pip install 'update-rouge[lm-eval]'",
    ),
    ("inspect", "inspect_ai", "the inspect_ai scorer needs the optional extra: pip install 'update-rouge[inspect]'"),
    ("lighteval", "lighteval", "the lighteval metric needs the optional extra: pip install 'update-rouge[lighteval]'"),
]


@pytest.mark.parametrize("module, package, line", HARNESS_EXTRAS, ids=[extra[0] for extra in HARNESS_EXTRAS])
def test_a_harness_integration_without_its_extra_is_one_line(monkeypatch, module, package, line):
    import importlib

    # the package and, where an earlier test imported them, its submodules
    for name in [package, *(name for name in sys.modules if name.startswith(f"{package}."))]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, f"update_rouge.integrations.{module}", raising=False)
    with pytest.raises(ImportError) as raised:
        importlib.import_module(f"update_rouge.integrations.{module}")
    assert type(raised.value) is MissingExtra and str(raised.value) == line


# A folder named like an extra (Ray's own /tmp/ray, a jieba/ beside the data) where the extra
# is not installed: Python imports it as a namespace package, which holds none of its code.
SHADOWED = ("ray", "jieba", "rouge_score_rs")


@pytest.fixture(scope="module")
def venv_without(tmp_path_factory):
    """A virtual environment of this interpreter holding everything this one has but the
    packages ``SHADOWED`` (links to this environment's installed packages but those): a real
    installation without those extras, as a user's is."""
    root = tmp_path_factory.mktemp("without")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")], check=True, timeout=120)
    python = root / "venv" / "bin" / "python"
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    into = Path(subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout.strip())
    for site in {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}:
        for entry in Path(site).iterdir():
            package = entry.name.split("-")[0].split(".")[0]
            if package not in SHADOWED and not (into / entry.name).exists():
                (into / entry.name).symlink_to(entry)
    return python


@pytest.mark.parametrize(
    "options, line",
    [
        (["--ray", "127.0.0.1:6379"], f"{NO_RAY} (the ray that Python finds, {{cwd}}/ray, is not that package)"),
        (["--language", "zh"], FLAG_NOT_INSTALLED),
        (
            ["--engine", "rust"],
            "--engine rust needs the optional accelerator: pip install 'update-rouge[fast]'; instead: leave out --engine, or --engine python",
        ),
    ],
    ids=["ray", "jieba", "rouge_score_rs"],
)
def test_a_folder_named_like_a_missing_extra_is_not_the_extra(venv_without, tmp_path, options, line):
    # python -m puts the working folder first on the path; ray/ there was taken for Ray
    # ("module 'ray' has no attribute 'is_initialized'"), jieba/ for jieba.
    for name in SHADOWED:
        (tmp_path / name).mkdir()
    rows = chinese_rows()[:3]
    (tmp_path / "zh.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    done = subprocess.run(
        [venv_without, "-m", "update_rouge", "zh.jsonl", *options],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == f"update-rouge: error: {line.format(cwd=tmp_path)}\n"


def test_installed_means_a_module_or_a_regular_package(tmp_path, monkeypatch):
    from update_rouge.extras import installed, is_package

    (tmp_path / "folder_only").mkdir()
    (tmp_path / "regular").mkdir()
    (tmp_path / "regular" / "__init__.py").write_text("VALUE = 1\n")
    (tmp_path / "single.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert [installed(name) for name in ("folder_only", "regular", "single", "absent_name")] == [
        False,
        True,
        True,
        False,
    ]
    try:
        import folder_only
        import regular

        found = (is_package(folder_only, "VALUE"), is_package(regular, "VALUE"), is_package(regular, "OTHER"))
    finally:
        for name in ("folder_only", "regular"):
            sys.modules.pop(name, None)
    assert found == (False, True, False)


def test_the_lm_eval_task_folder_command_without_its_extra_is_one_line(tmp_path):
    # docs/harnesses.md runs it inside "$(...)": one line on stderr, nothing on stdout, status 2.
    shims = tmp_path / "shims" / "lm_eval"
    shims.mkdir(parents=True)
    (shims / "__init__.py").write_text("raise ImportError('lm_eval is hidden by the test')\n")
    done = subprocess.run(
        [sys.executable, "-m", "update_rouge.integrations.lm_eval"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(shims.parent), str(REPO)])),
        timeout=120,
    )
    line = "the lm-evaluation-harness task needs the optional extra: pip install 'update-rouge[lm-eval]'"
    want = (2, f"python -m update_rouge.integrations.lm_eval: error: {line}\n", "")
    assert (done.returncode, done.stderr, done.stdout) == want
