"""The ``update-rouge`` command line: ``update-rouge [score] ...`` and ``update-rouge compare ...``.

The first argument names the command when it is one of ``COMMANDS``; any other first argument
begins the ``score`` command's arguments (``update-rouge FILE ...``). A file named like a command
is written with a directory when it comes first: ``update-rouge ./compare``.

``runner`` holds what the commands share; ``score`` and ``compare`` are one command each, imported
when ``main`` runs. This module imports nothing itself but the standard library's ``os``,
``signal`` and ``sys`` and ``stop_signals``, so that the program handles the stop signals first.
"""

import os
import signal
import sys

from ..stop_signals import STOP_SIGNALS, interrupted_line

COMMANDS = ("score", "compare")
"""The commands, each a module of this package with ``add_parser`` and ``run``."""


def run_program() -> int:
    """The installed ``update-rouge`` command (through ``script``) and ``python -m update_rouge``:
    ``main()``, in a process that is the program.

    Its first act (the installed script's, on importing ``script``) is ``stop_at_once``: until a
    command's own handling takes over (``runner.run_command``), a stop signal ends the process at
    once with the command's one line and 128 + the signal, not a traceback. Once ``main`` has
    returned, the signals have their default action. Before the commands import NumPy, it sets
    one OpenBLAS thread unless the environment sets their number (``BLAS_THREADS_VARIABLE``;
    worker processes inherit it)."""
    installed = stop_at_once(program_name(sys.argv[1:]))  # again after script.py's: no harm
    from ..parallel import BLAS_THREADS_VARIABLE

    os.environ.setdefault(BLAS_THREADS_VARIABLE, "1")
    try:
        return main()
    finally:
        for number in installed:
            signal.signal(number, signal.SIG_DFL)


def program_name(argv: list[str]) -> str:
    """The name the command ``argv`` prints its lines with (its module's ``PROG``, not imported yet)."""
    return "update-rouge compare" if argv[:1] == ["compare"] else "update-rouge"


def stop_at_once(prog: str) -> list[int]:
    """Make each stop signal that this process does not ignore write ``prog``'s interrupt line
    to stderr and end the process with 128 + the signal, at once (``os._exit``: there is
    nothing to clean up before a command begins). The signals it handles."""

    def stop(signum: int, _frame: object) -> None:
        try:
            os.write(2, (interrupted_line(prog, signum) + "\n").encode())
        finally:
            os._exit(128 + signum)

    installed = [number for number in STOP_SIGNALS if signal.getsignal(number) is not signal.SIG_IGN]
    for number in installed:
        signal.signal(number, stop)
    return installed


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` (default ``sys.argv[1:]``) names; its exit status. Usage errors
    exit 2 through argparse's ``SystemExit``; ``--help`` and ``--version`` exit 0 through it, also
    when standard output is closed (what they printed is dropped)."""
    import argparse
    import importlib

    from .runner import CommandParser, pipe_closed

    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] not in COMMANDS:
        argv = ["score", *argv]
    # Only the command given is imported (the others' imports would cost its start), and only its
    # parser is made: its usage and its flags in its errors, never the top level's.
    module = importlib.import_module(f".{argv[0]}", __name__)
    parser = CommandParser(prog=program_name([]))
    command = module.add_parser(parser.add_subparsers(dest="command", metavar="COMMAND", required=True))
    try:
        args = command.parse_args(argv[1:], argparse.Namespace(command=argv[0]))
    except SystemExit:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            pipe_closed()
        raise
    except BrokenPipeError:  # a --help longer than the output buffer, written to a closed pipe
        pipe_closed()
        return 0
    return module.run(args, command)
