"""The stop signals and the line a stopped command prints (update_rouge.stop_signals), shared by
the worker pools (parallel), the commands (cli.runner) and the program's first line (cli)."""

import json
import signal
import subprocess
import sys

from update_rouge.stop_signals import NOTHING_CHANGED, STOP_SIGNALS, interrupted_line


def test_the_stop_signals_are_ctrl_c_kill_and_a_closed_terminal():
    assert STOP_SIGNALS == (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def test_the_line_names_the_command_the_signal_and_the_outputs():
    assert (
        interrupted_line("update-rouge", signal.SIGTERM)
        == "update-rouge: interrupted by SIGTERM: stopped; no existing output file was changed"
    )
    assert interrupted_line("update-rouge compare", 2, "per.jsonl had been written completely") == (
        "update-rouge compare: interrupted by SIGINT: stopped; per.jsonl had been written completely"
    )
    assert NOTHING_CHANGED == "no existing output file was changed"


PACKAGE_ONLY = """
import importlib, json, os, signal, sys
before = set(sys.modules)
import update_rouge.stop_signals
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_it_and_the_package_import_nothing_but_signal():
    # The program imports them before anything else (cli.stop_at_once): they must stay light.
    done = subprocess.run([sys.executable, "-c", PACKAGE_ONLY], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == ["update_rouge", "update_rouge.stop_signals", "update_rouge.version"]
