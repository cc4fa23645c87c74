"""The command line's commands (``update_rouge/cli/__init__.py``): which command runs, a FILE
named like a command, ``python -m update_rouge`` and the installed ``update-rouge`` script, and
``--version``; what the commands share is in test_cli_runner.py."""

import importlib.metadata
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA_DIR, columns, read_jsonl, run_main

import update_rouge
from update_rouge import compare, compute
from update_rouge.cli import main, run_program
from update_rouge.stop_signals import STOP_SIGNALS

REPO = Path(__file__).resolve().parents[2]
FRUIT = DATA_DIR / "fruit_triples.jsonl"


def fruit_compute(**options):
    rows = read_jsonl("fruit_triples.jsonl")
    return compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        **options,
    )


def test_score_is_the_default_command_and_can_be_named(capsys):
    expected = fruit_compute(rouge_types=["rouge1"], n_bootstrap=20)
    for argv in (
        [FRUIT, "--rouge-types", "rouge1", "--n-bootstrap", "20"],
        ["score", FRUIT, "--rouge-types", "rouge1", "--n-bootstrap", "20"],
    ):
        status, out, err = run_main(argv, capsys)
        assert (status, err) == (0, ""), argv
        assert json.loads(out) == expected, argv


@pytest.mark.parametrize("name", ["compare", "score"])
def test_a_file_named_like_a_command_is_written_with_its_directory(tmp_path, monkeypatch, capsys, name):
    (tmp_path / name).write_bytes(FRUIT.read_bytes())
    monkeypatch.chdir(tmp_path)
    status, out, err = run_main([f"./{name}", "--input-format", "jsonl", "--n-bootstrap", "20"], capsys)
    assert (status, err) == (0, "")
    assert json.loads(out) == fruit_compute(n_bootstrap=20)
    # Unprefixed, the first word is the command: compare then wants its --system.
    status, _, err = run_main(["compare", "--input-format", "jsonl"], capsys)
    assert status == 2 and "the following arguments are required: --system" in err


def test_python_m_runs_both_commands():
    argv = [sys.executable, "-m", "update_rouge"]
    score = subprocess.run([*argv, str(FRUIT), "--n-bootstrap", "20"], capture_output=True, text=True)
    assert (score.returncode, score.stderr) == (0, "")
    assert json.loads(score.stdout) == fruit_compute(n_bootstrap=20)
    systems = ["--system", "prediction", "--system", "copy=source"]
    argv += ["compare", str(FRUIT), *systems, "--n-bootstrap", "20", "--output-format", "json"]
    compared = subprocess.run(argv, capture_output=True, text=True)
    assert (compared.returncode, compared.stderr) == (0, "")
    rows = read_jsonl("fruit_triples.jsonl")
    sources = [r["source"] for r in rows]
    predictions = {"prediction": [r["prediction"] for r in rows], "copy": sources}
    expected = compare(
        sources, [r["reference"] for r in rows], predictions, "prediction", n_bootstrap=20, return_signature=True
    )
    assert json.loads(compared.stdout) == expected


def test_installed_command_runs_the_cli(tmp_path):
    # tests/run.sh installs the package, which declares the update-rouge console script.
    command = shutil.which("update-rouge")
    assert command is not None, "update-rouge is not installed: run pip install -e ."
    env = dict(os.environ, PYTHONPATH=str(REPO))
    completed = subprocess.run(
        [command, str(DATA_DIR / "fruit_triples.jsonl"), "--rouge-types", "rouge2"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert completed.returncode == 0, completed.stderr
    expected = compute(**columns(read_jsonl("fruit_triples.jsonl")), rouge_types=["rouge2"])
    assert json.loads(completed.stdout) == expected


def test_the_program_sets_one_openblas_thread_unless_the_environment_sets_them(monkeypatch):
    # OpenBLAS (NumPy's wheels) starts a thread per CPU but one when NumPy is imported, each
    # spinning about 0.1 s of CPU; the workers inherit the setting.
    monkeypatch.setattr(sys, "argv", ["update-rouge", "--version"])
    # Recorded first, so that the variable is put back as it was, whatever run_program sets.
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "0")
    handlers = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    try:
        for preset, expected in ((None, "1"), ("4", "4")):
            if preset is None:
                monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
            else:
                monkeypatch.setenv("OPENBLAS_NUM_THREADS", preset)
            with pytest.raises(SystemExit):
                run_program()
            assert os.environ.get("OPENBLAS_NUM_THREADS") == expected, f"set beforehand to {preset}"
            # The program's own handling ends with it: the signals' default actions are left, and
            # a signal this process ignored (nohup: SIGHUP) stays ignored.
            assert {number: signal.getsignal(number) for number in STOP_SIGNALS} == {
                number: signal.SIG_IGN if handlers[number] == signal.SIG_IGN else signal.SIG_DFL
                for number in STOP_SIGNALS
            }
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)


PROGRAM = """
import os, runpy, sys
before = sorted({"numpy", "tqdm"} & set(sys.modules))
import update_rouge.cli
imported = sorted({"numpy", "tqdm"} & set(sys.modules))
import update_rouge.cli.score  # what the command line's workers import for the per-example lines
in_worker = "tqdm" in sys.modules
sys.argv = ["update-rouge", "--version"]
try:
    runpy.run_module("update_rouge", run_name="__main__")
except SystemExit:
    pass
print(before, imported, in_worker, os.environ.get("OPENBLAS_NUM_THREADS"))
"""


def test_python_m_update_rouge_is_the_program_and_imports_numpy_after_its_settings():
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=120, env=env)
    assert done.stdout.splitlines()[-1] == "[] [] False 1", done.stdout + done.stderr


IMPORTS_OF_A_RUN = """
import sys
from update_rouge.cli import run_program
sys.argv = ["update-rouge", *sys.argv[1:]]
status = run_program()
print(status, sorted({"numpy", "tqdm", "nltk", "rouge_score_rs", "multiprocessing"} & set(sys.modules)))
"""


@pytest.mark.parametrize(
    "options, imported",
    [
        (["--engine", "python", "--confidence-level", "none"], []),
        (["--engine", "python"], ["numpy"]),  # the bootstrap's
    ],
)
def test_the_command_line_imports_only_what_its_options_need(tmp_path, options, imported):
    path = tmp_path / "one.jsonl"
    path.write_text(FRUIT.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-c", IMPORTS_OF_A_RUN, str(path), *options]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    assert done.stdout.splitlines()[-1] == f"0 {imported}", done.stdout + done.stderr


def test_the_installed_command_is_the_program():
    (command,) = (
        entry for entry in importlib.metadata.entry_points(group="console_scripts") if entry.name == "update-rouge"
    )
    assert command.value == "update_rouge.cli.script:run_program", "reinstall the package (pip install -e .)"


def test_version_is_the_package_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"update-rouge {update_rouge.__version__}"
