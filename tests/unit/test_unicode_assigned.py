"""The code points assigned in Unicode 13.0.0 (unicode_assigned, generated): the table's shape and
size, the characters newer than 13.0.0 outside it, and (with a Python 3.10 at hand) the table and
the recorded values that scripts/generate_unicode_assigned.py makes from Python 3.10's unicodedata."""

import shutil
import subprocess
from pathlib import Path

import pytest
from test_normalisation import NEW, RECORDED, assigned

from update_rouge.unicode_assigned import ASSIGNED, UNICODE_VERSION

ROOT = Path(__file__).resolve().parents[2]


def test_the_table_is_of_unicode_13_and_the_new_characters_are_outside_it():
    assert UNICODE_VERSION == RECORDED["unicode_version"] == "13.0.0"
    assert all(first <= last < next_first - 1 for (first, last), (next_first, _) in zip(ASSIGNED, ASSIGNED[1:]))
    assert sum(last - first + 1 for first, last in ASSIGNED) == 283440  # Python 3.10's count of non-Cn
    assert not any(assigned(character) for character in NEW)
    assert assigned("a") and assigned("\u1734") and not assigned("\u0378")


def python_3_10():
    """A Python 3.10 interpreter that runs: pyenv's 3.10.13, else python3.10 on PATH, else None."""
    for candidate in ("/root/.pyenv/versions/3.10.13/bin/python", shutil.which("python3.10")):
        if candidate and subprocess.run([candidate, "-c", ""], capture_output=True).returncode == 0:
            return candidate
    return None


PYTHON_3_10 = python_3_10()


@pytest.mark.skipif(PYTHON_3_10 is None, reason="no Python 3.10 (python3.10 on PATH) to regenerate the tables with")
def test_the_table_and_the_recorded_values_are_those_of_python_3_10():
    check = subprocess.run(
        [PYTHON_3_10, "scripts/generate_unicode_assigned.py", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert check.returncode == 0, check.stderr
