"""The installed ``update-rouge`` script's entry point (update_rouge.cli.script): importing it is
the program's first act, after which a stop signal is the command's one line and 128 + the
signal (the script runs ``re.sub`` of its own before it calls ``run_program``); see
reliability/test_signals.py for real runs."""

import json
import os
import signal
import subprocess
import sys

import pytest

IMPORTED_THEN_SIGNALLED = """
import json, os, signal, sys, time
sys.argv[1:] = json.loads(sys.argv[1])
# Launched as from a terminal, whatever this test's own process inherited (nohup ignores SIGHUP).
signal.signal(signal.SIGINT, signal.default_int_handler)
signal.signal(signal.SIGTERM, signal.SIG_DFL)
signal.signal(signal.SIGHUP, signal.SIG_DFL)
if "ignore SIGHUP" in sys.argv:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
before = set(sys.modules)
import update_rouge.cli.script
imported = sorted(name for name in set(sys.modules) - before if name.startswith("update_rouge") or "." not in name)
print(json.dumps(imported), flush=True)
os.kill(os.getpid(), int(os.environ["SIGNAL"]))
time.sleep(0.5)  # a handler runs between two bytecodes
print("still running", flush=True)
"""


def _import_then_signal(signum, argv):
    return subprocess.run(
        [sys.executable, "-c", IMPORTED_THEN_SIGNALLED, json.dumps(argv)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SIGNAL": str(int(signum))},
    )


@pytest.mark.parametrize(
    "signum, argv, prog",
    [
        (signal.SIGINT, ["data.jsonl"], "update-rouge"),
        (signal.SIGTERM, ["compare", "x.jsonl", "--system", "a"], "update-rouge compare"),
        (signal.SIGHUP, ["score", "data.jsonl"], "update-rouge"),
    ],
    ids=lambda value: getattr(value, "name", None),
)
def test_importing_the_entry_point_makes_a_stop_signal_the_commands_line(signum, argv, prog):
    done = _import_then_signal(signum, argv)
    assert done.returncode == 128 + signum, done.stderr
    assert done.stderr == f"{prog}: interrupted by {signum.name}: stopped; no existing output file was changed\n"
    imported = json.loads(done.stdout.splitlines()[0])
    # Before the handling: the package's light modules alone, none of the commands' (NumPy, workers).
    assert [name for name in imported if name.startswith("update_rouge")] == [
        "update_rouge",
        "update_rouge.cli",
        "update_rouge.cli.script",
        "update_rouge.stop_signals",
        "update_rouge.version",
    ]
    assert "numpy" not in imported and "multiprocessing" not in imported


def test_an_ignored_signal_stays_ignored():
    # nohup update-rouge ...: a SIGHUP the caller made the program ignore is still ignored.
    done = _import_then_signal(signal.SIGHUP, ["data.jsonl", "ignore SIGHUP"])
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[1:] == ["still running"]
