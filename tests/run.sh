#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh machine (Python 3.11, pip, apt) and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet --disable-pip-version-check -e ".[test,demo]"
python -m pytest "$@"
