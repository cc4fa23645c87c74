"""scripts/venv.sh, which the README's two commands source: which environment each installs into.

With no virtual environment active, the run command (scripts/update-rouge.sh) uses .venv and the
test command (tests/run.sh) .venv-tests, so that the tests' extras (lighteval pins nltk 3.9.1)
never change what the run command prints; an active one is used by both. The environments here
are stand-ins (a ``bin/python`` that is this interpreter), so nothing is made or installed;
.ci/bare-debian runs the real commands and compares the run command's output before and after
the tests."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What a command does before it sources venv.sh, with its own arguments as its positional ones.
CHOSEN = 'cd "$CHECKOUT"; {setting} source "$REPO/scripts/venv.sh"; echo "$venv_dir"; command -v python'


def chosen(checkout, setting, environment):
    script = CHOSEN.format(setting=setting)
    # The caller's arguments, as scripts/update-rouge.sh has them: its FILE is not a folder to use.
    done = subprocess.run(
        ["bash", "-c", script, "update-rouge.sh", "tests/data/fruit_triples.jsonl"],
        capture_output=True,
        text=True,
        env={**environment, "CHECKOUT": str(checkout), "REPO": str(ROOT)},
        timeout=60,
        check=True,
    )
    return done.stdout.splitlines()


@pytest.fixture
def checkout(tmp_path):
    for name in (".venv", ".venv-tests"):
        (tmp_path / name / "bin").mkdir(parents=True)
        (tmp_path / name / "bin" / "python").symlink_to(sys.executable)
    return tmp_path


@pytest.mark.parametrize(
    "setting, folder", [("venv_folder=.venv;", ".venv"), ("venv_folder=.venv-tests;", ".venv-tests"), ("", ".venv")]
)
def test_without_an_active_environment_each_command_has_its_own(checkout, setting, folder):
    environment = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"}
    assert chosen(checkout, setting, environment) == [str(checkout / folder), str(checkout / folder / "bin" / "python")]


def test_an_active_environment_is_used_by_both(checkout, tmp_path_factory):
    active = tmp_path_factory.mktemp("active")
    (active / "bin").mkdir()
    (active / "bin" / "python").symlink_to(sys.executable)
    for setting in ("venv_folder=.venv;", "venv_folder=.venv-tests;"):
        assert chosen(checkout, setting, {**os.environ, "VIRTUAL_ENV": str(active)}) == [
            str(active),
            str(active / "bin" / "python"),
        ]


def test_the_commands_set_their_folders():
    # The run command's .venv and the test command's .venv-tests (CI's leftovers check uses the tests').
    for path, folder in (
        ("scripts/update-rouge.sh", ".venv"),
        ("tests/run.sh", ".venv-tests"),
        (".ci/leftovers", ".venv-tests"),
    ):
        lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
        source = lines.index("source scripts/venv.sh")
        assert f"venv_folder={folder}" in lines[:source], path
