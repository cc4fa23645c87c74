#!/usr/bin/env bash
# The README's first command: `bash scripts/update-rouge.sh FILE [OPTIONS]` installs this checkout
# (pip install -e .) into the active virtual environment, or into .venv in the checkout when none is
# active (see scripts/venv.sh), then runs `python -m update_rouge` with the arguments. Paths in the
# arguments are relative to the folder it is run from, as for the update-rouge command itself.
set -euo pipefail
here="$PWD"
cd "$(dirname "$0")/.."
venv_folder=.venv
# shellcheck source=scripts/venv.sh
source scripts/venv.sh
install_once package -e .
cd "$here"
exec python -m update_rouge "$@"
