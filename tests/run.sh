#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh machine (Python 3.11, pip, apt) and runs it.
#   bash tests/run.sh          the quick run: every test not marked slow (about a minute or two)
#   bash tests/run.sh --all    every test, the slow ones too (what CI runs)
# Further arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
marker=()
if [ "${1:-}" = "--all" ]; then
    shift
    # Overrides the "-m 'not slow'" of pyproject.toml's addopts.
    marker=(-m "slow or not slow")
fi
# The demo's browser test drives Debian's chromium (Playwright's own browser download does not work here).
if [ ! -x /usr/bin/chromium ]; then
    echo "tests/run.sh: /usr/bin/chromium is missing; installing the Debian package chromium with apt-get" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi
# torch first, pinned to the CPU build the machines carry as a local file: anything that needs torch
# later (accelerate) is then satisfied instead of pulling the newest CUDA build (several GB).
# The installs run again whenever this script, pyproject.toml, the interpreter or the checkout's
# place change (a stamp under .pytest_cache records them), so a fresh clone always installs.
stamp=.pytest_cache/update-rouge-installed
wanted="$(cat tests/run.sh pyproject.toml | sha256sum) $(python -c 'import sys; print(sys.executable)') $PWD"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
    python -m pip install --quiet --disable-pip-version-check torch==2.13.0
    python -m pip install --quiet --disable-pip-version-check -e ".[test,demo,fast,multilingual,ray,trl]"
    # Trainer (tests/test_trainer.py) needs accelerate; it depends on torch, so it is not in the test extra.
    python -m pip install --quiet --disable-pip-version-check "accelerate>=1.1"
    mkdir -p .pytest_cache
    echo "$wanted" > "$stamp"
fi
# The publishing tests (tests/test_publish_*.py, the Space runs of tests/test_app_served.py) build
# fresh virtual environments with `python -m venv` and install into them from PyPI; pip's cache
# makes every run after the first fast.
python -m mypy update_rouge
python -m pytest "${marker[@]}" "$@"
