#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh machine (Python 3.11, pip, apt) and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
# torch first, pinned to the CPU build the machines carry as a local file: anything that needs torch
# later (accelerate) is then satisfied instead of pulling the newest CUDA build (several GB).
python -m pip install --quiet --disable-pip-version-check torch==2.13.0
python -m pip install --quiet --disable-pip-version-check -e ".[test,demo]"
# Trainer (tests/test_trainer.py) needs accelerate; it depends on torch, so it is not in the test extra.
python -m pip install --quiet --disable-pip-version-check "accelerate>=1.1"
python -m pytest "$@"
