"""The ``update-rouge`` command line: ``update-rouge [score] ...`` and ``update-rouge compare ...``.

The first argument names the command when it is one of ``COMMANDS``; any other first argument
(a FILE, an option, ``--help``, ``--version``) begins the ``score`` command's arguments, so
``update-rouge FILE ...`` is ``update-rouge score FILE ...``. A file named like a command is
written with a directory when it comes first: ``update-rouge ./compare``.

``runner`` holds what the commands share (exit status, signals, the options of the table,
errors in flags); ``score`` and ``compare`` are one command each. This module imports them when
``main`` runs (so that ``run_program`` comes first) and none of them imports it.
"""

import argparse
import importlib
import os
import sys

from ..parallel import BLAS_THREADS_VARIABLE

COMMANDS = ("score", "compare")
"""The commands, each a module of this package with ``add_parser`` and ``run``."""


def run_program() -> int:
    """The installed ``update-rouge`` command and ``python -m update_rouge``: ``main()``, in a
    process that is the program, which sets for itself, before the commands import NumPy, one
    OpenBLAS thread unless the environment sets their number (``BLAS_THREADS_VARIABLE``:
    nothing here multiplies matrices, and the pool would start a thread per CPU but one, fifteen
    on 16 CPUs, each spinning for a while before it sleeps, in the main process and in every worker
    process, which inherit the setting)."""
    os.environ.setdefault(BLAS_THREADS_VARIABLE, "1")
    return main()


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` (default ``sys.argv[1:]``) names; its exit status. Usage errors
    exit 2 through argparse's ``SystemExit``; ``--help`` and ``--version`` exit 0 through it, also
    when standard output is closed (what they printed is dropped)."""
    from .runner import pipe_closed

    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] not in COMMANDS:
        argv = ["score", *argv]
    modules = {name: importlib.import_module(f".{name}", __name__) for name in COMMANDS}
    parser = argparse.ArgumentParser(prog=modules["score"].PROG)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    parsers = {name: command.add_parser(commands) for name, command in modules.items()}
    try:
        args = parser.parse_args(argv)
    except SystemExit:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            pipe_closed()
        raise
    except BrokenPipeError:  # a --help longer than the output buffer, written to a closed pipe
        pipe_closed()
        return 0
    return modules[args.command].run(args, parsers[args.command])
