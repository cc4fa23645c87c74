"""The package as pip users get it: a wheel and an sdist, installed into a fresh virtual
environment (dependencies from PyPI, no system site-packages) and run outside the repository.

`python -m build` makes the sdist and then the wheel from the sdist, so the wheel proves the
sdist complete; it must build without a deprecation warning, with the newest and the oldest
setuptools that pyproject.toml's build-system allows. Expected values are ROUGE-1.5.5's (tests/data/rouge155_golden.jsonl) and hand
counts, not the package's own output.
"""

import json
import math
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from conftest import DATA_DIR, read_jsonl
from sandbox import clean_env, make_venv

REPO = Path(__file__).resolve().parents[2]
DEFAULT_TYPES = ("rouge1", "rouge2", "rougeLsum")
# The metric's modules, the data module the rouge155 stemmer needs, and a module of each subpackage.
PACKAGE_FILES = {
    "update_rouge/update_rouge.py",
    "update_rouge/wordnet_exceptions.py",
    "update_rouge/metric.py",
    "update_rouge/cli/runner.py",
    "update_rouge/integrations/trainer.py",
}
EVALUATE_SNIPPET = """
import json, sys, evaluate, update_rouge
metric = evaluate.load(update_rouge.metric_path())
result = metric.compute(
    sources=["Dan is a baker."],
    predictions=["Dan is a baker. Dan loves chocolate chip cookies."],
    references=["Dan is a baker. Dan loves chocolate cakes."],
    rouge_types=["rouge1"],
)
print(json.dumps({"file": update_rouge.__file__, "path": update_rouge.metric_path(), "result": result}))
"""


def build(outdir, *options, **env):
    """``python -m build`` of the checkout into ``outdir`` (isolated: pip installs the build-system
    requirements); fails the test on an error or on any deprecation warning in its output."""
    built = subprocess.run(
        [sys.executable, "-m", "build", *options, "--outdir", str(outdir), str(REPO)],
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert built.returncode == 0, built.stderr
    output = built.stdout + built.stderr
    deprecations = [line for line in output.splitlines() if re.search("deprecat", line, re.IGNORECASE)]
    assert deprecations == [], "python -m build warns:\n" + output[-3000:]
    return output


@pytest.mark.slow
def test_the_oldest_setuptools_the_build_allows_builds_without_a_warning(tmp_path):
    # The lower bound of pyproject.toml's build-system requirement, pinned for the build's environment.
    (lowest,) = re.findall(r'"setuptools>=([0-9.]+),', (REPO / "pyproject.toml").read_text(encoding="utf-8"))
    constraint = tmp_path / "constraint.txt"
    constraint.write_text(f"setuptools=={lowest}\n", encoding="utf-8")
    output = build(tmp_path / "dist", "--wheel", PIP_CONSTRAINT=str(constraint))
    assert f"setuptools=={lowest}" in output
    (wheel,) = (tmp_path / "dist").glob("update_rouge-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(archive.read(n).decode() for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
    assert "License-Expression: Apache-2.0" in metadata.splitlines()


@pytest.mark.slow
def test_wheel_and_sdist_install_and_run_outside_the_repository(tmp_path):
    dist = tmp_path / "dist"
    build(dist)
    (wheel,) = dist.glob("update_rouge-*.whl")
    (sdist,) = dist.glob("update_rouge-*.tar.gz")
    wheel_files = set(zipfile.ZipFile(wheel).namelist())
    assert PACKAGE_FILES <= wheel_files
    assert not any(name.startswith(("tests/", "app")) for name in wheel_files)
    sdist_files = {name.split("/", 1)[1] for name in tarfile.open(sdist).getnames() if "/" in name}
    assert PACKAGE_FILES | {"pyproject.toml", "README.md"} <= sdist_files

    python = make_venv(tmp_path / "venv", [str(wheel)])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(DATA_DIR / "fruit_triples.jsonl", elsewhere)
    env = clean_env(HF_HOME=str(tmp_path / "hf"), HF_HUB_OFFLINE="1")

    scored = subprocess.run(
        [str(python.parent / "update-rouge"), "fruit_triples.jsonl"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert scored.returncode == 0, scored.stderr
    corpus = json.loads(scored.stdout)
    golden = [row for row in read_jsonl("rouge155_golden.jsonl") if row["file"] == "fruit_triples.jsonl"]
    for rouge_type in DEFAULT_TYPES:
        expected = math.fsum(row["rouge155"][rouge_type][2] for row in golden) / len(golden)
        assert corpus[f"update_{rouge_type}"] == pytest.approx(expected, abs=1e-12)

    loaded = subprocess.run(
        [str(python), "-c", EVALUATE_SNIPPET], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300
    )
    assert loaded.returncode == 0, loaded.stderr
    out = json.loads(loaded.stdout.splitlines()[-1])
    installed = (tmp_path / "venv").resolve()
    assert installed in Path(out["file"]).resolve().parents
    assert Path(out["path"]).resolve() == Path(out["file"]).resolve().with_name("update_rouge.py")
    # Hand counts: 3 of the prediction's 5 words match 3 of the reference's 4.
    assert out["result"]["update_rouge1_precision"] == pytest.approx(0.6, abs=1e-12)
    assert out["result"]["update_rouge1_recall"] == pytest.approx(0.75, abs=1e-12)
