"""``python -m update_rouge`` (``update_rouge/__main__.py``): the command line run as a module, in a
process of its own, prints what ``compute`` returns."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA_DIR, columns, read_jsonl

from update_rouge import compute

REPO = Path(__file__).resolve().parents[2]


# Two processes from the command line are also in the quick run: test_cli_score.py's test_three_text_files_and_two_processes.
@pytest.mark.parametrize("num_proc", ["1", pytest.param("2", marks=pytest.mark.slow)])
def test_main_job_prints_the_same_scores_as_compute(num_proc):
    completed = subprocess.run(
        [sys.executable, "-m", "update_rouge", str(DATA_DIR / "fruit_triples.jsonl"), "--num-proc", num_proc],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == compute(**columns(read_jsonl("fruit_triples.jsonl")))
