# Sourced (not run) by scripts/update-rouge.sh and tests/run.sh, with the checkout as the current
# folder, after they set the shell variable venv_folder (not an argument: a sourced file takes the
# caller's own arguments for its $1). Puts a Python that pip may install into first on PATH, as
# `python`:
# - the active virtual environment ($VIRTUAL_ENV), when there is one;
# - else the folder venv_folder in the checkout (.venv when unset), made with `python3 -m venv` on
#   first use. This is what makes the README's commands work with only a system Python (Debian's
#   is "externally managed": pip refuses to install into it, and there is no `python`, only
#   `python3`). When venv cannot make one (Debian without python3-venv), it installs python3-venv
#   with apt-get and tries again. The run command uses .venv and the test command .venv-tests:
#   the tests' extras pin versions of their own (lighteval pins nltk 3.9.1), which must not
#   change what the run command prints (a stemmed score's signature names the nltk version).
# Then `install_once NAME PIP_ARGUMENTS...` runs `python -m pip install PIP_ARGUMENTS...` unless
# the same request from the same checkout, with the same pyproject.toml and this file, was
# installed into this environment before (a stamp file inside the environment records it, so a
# new environment always installs). Where Python may write bytecode (PYTHONDONTWRITEBYTECODE
# unset), pip does not compile what it installs (--no-compile): Python compiles each module the
# first time it is imported and keeps it, while pip compiled every module of every package (torch
# and the tests' extras on 3.11: 169 CPU seconds to install, 109 without compiling, and the first
# import of them all 21 s more, once); where it may not, every process would compile what it
# imports again, so pip compiles as usual.

if [ -n "${VIRTUAL_ENV:-}" ]; then
    venv_dir="$VIRTUAL_ENV"
else
    venv_dir="$PWD/${venv_folder:-.venv}"
    if ! "$venv_dir/bin/python" -c "" 2>/dev/null; then
        rm -rf "$venv_dir"
        echo "$0: creating the virtual environment $venv_dir with $(command -v python3)" >&2
        if ! python3 -m venv "$venv_dir" >/dev/null 2>&1; then
            rm -rf "$venv_dir"
            echo "$0: python3 -m venv failed; installing the Debian package python3-venv with apt-get" >&2
            sudo=""
            if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
            $sudo apt-get update -qq
            $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
            python3 -m venv "$venv_dir"
        fi
    fi
fi
export PATH="$venv_dir/bin:$PATH"
hash -r

install_once() {
    local stamp="$venv_dir/update-rouge-installed-$1"
    shift
    local wanted
    wanted="$(printf '%s\n' "$@" "$PWD" | cat - pyproject.toml scripts/venv.sh | sha256sum)"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
        local compile=()
        if [ -z "${PYTHONDONTWRITEBYTECODE:-}" ]; then compile=(--no-compile); fi
        python -m pip install --quiet --disable-pip-version-check ${compile[@]+"${compile[@]}"} "$@"
        echo "$wanted" >"$stamp"
    fi
}
