#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh machine (Python 3.10 to 3.13, apt) and runs it,
# in the active virtual environment or else in .venv-tests in the checkout (see scripts/venv.sh): not
# in the run command's .venv, whose versions the tests' extras would change (lighteval pins nltk).
#   bash tests/run.sh          the quick run: every test not marked slow, a test file per core
#                              (pytest-xdist; -n N or -n 0 chooses otherwise): about 100 s of tests
#                              on a quiet 2-core machine, 5 minutes on a loaded one, after the
#                              first run's installs
#   bash tests/run.sh --all    every test, the slow ones too (what CI runs)
# Further arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
venv_folder=.venv-tests
# shellcheck source=scripts/venv.sh
source scripts/venv.sh
marker=()
if [ "${1:-}" = "--all" ]; then
    shift
    # Overrides the "-m 'not slow'" of pyproject.toml's addopts.
    marker=(-m "slow or not slow")
fi
# The demo's browser tests (marked slow: only --all runs them) drive Debian's chromium (Playwright's own
# browser download does not work here). The quick run changes nothing on the system: only --all installs it.
if [ ${#marker[@]} -gt 0 ] && [ ! -x /usr/bin/chromium ]; then
    echo "tests/run.sh: /usr/bin/chromium is missing; installing the Debian package chromium with apt-get" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi
# torch first, pinned to the CPU build the machines carry as a local file (find-links in pip's
# configuration): anything that needs torch later (accelerate) is then satisfied instead of pulling
# the newest CUDA build (several GB). Where no such file fits the interpreter (it is built for
# CPython 3.11), torch, accelerate and trl are not installed and the tests marked needs_torch are
# skipped, with the reason printed. Whether the file fits is asked once per environment; the
# installs run again whenever pyproject.toml changes (scripts/venv.sh's install_once).
local_torch="$venv_dir/update-rouge-local-torch"
if [ ! -f "$local_torch" ]; then
    if python -m pip install --quiet --dry-run --no-index --no-deps torch==2.13.0 >/dev/null 2>&1; then
        echo yes >"$local_torch"
    else
        echo no >"$local_torch"
    fi
fi
if [ "$(cat "$local_torch")" = yes ]; then
    install_once torch torch==2.13.0
    # tests/entry_points/test_trainer.py needs accelerate; it depends on torch, so it is not in the test extra.
    # The harness extras (docs/harnesses.md) too: lighteval pins nltk 3.9.1 here, within our range; the
    # version matrix's cells keep the newest nltk.
    install_once tests -e ".[test,demo,fast,multilingual,ray,trl,torchmetrics,lm-eval,inspect,lighteval]" "accelerate>=1.1"
else
    python_version="$(python -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
    export UPDATE_ROUGE_SKIP_TORCH_TESTS="no local CPU wheel of torch 2.13.0 for Python $python_version, so torch, accelerate, trl, torchmetrics and lighteval are not installed"
    echo "tests/run.sh: skipping the tests marked needs_torch: $UPDATE_ROUGE_SKIP_TORCH_TESTS" >&2
    install_once tests -e ".[test,demo,fast,multilingual,ray,lm-eval,inspect]"
fi
# What the tests that skip without an extra need: tests/conftest.py stops the run if one is missing.
installed_modules="gradio playwright ray rouge_score_rs jieba fugashi pythainlp transformers lm_eval"
# The inspect extra installs inspect_ai on Python 3.11 and later only (pyproject.toml).
if python -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then installed_modules="$installed_modules inspect_ai"; fi
if [ "$(cat "$local_torch")" = yes ]; then installed_modules="$installed_modules torch accelerate trl torchmetrics lighteval"; fi
export UPDATE_ROUGE_INSTALLED_MODULES="$installed_modules"
# The publishing tests (tests/publishing/test_publish_*.py, the Space runs of tests/entry_points/test_app_served_api.py
# and tests/entry_points/test_app_browser_*.py) build fresh virtual environments with `python -m venv` and
# install into them from PyPI; pip's cache makes every run after the first fast.
# One test file per core (pytest-xdist, in the test extra) unless the arguments choose (-n/--numprocesses).
workers=(-n auto --dist loadfile)
for argument in "$@"; do
    case "$argument" in -n | -n* | --numprocesses | --numprocesses=*) workers=() ;; esac
done
python -m pytest "${marker[@]}" "${workers[@]}" "$@"
