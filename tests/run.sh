#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh machine (Python 3.11, pip, apt) and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
# The demo's browser test drives Debian's chromium (Playwright's own browser download does not work here).
if [ ! -x /usr/bin/chromium ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi
python -m pip install --quiet --disable-pip-version-check -e ".[test,demo,fast]"
python -m pytest "$@"
