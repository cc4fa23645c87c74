"""The ``update-rouge`` command line: ``update-rouge [score] ...`` and ``update-rouge compare ...``.

The first argument names the command when it is one of ``COMMANDS``; any other first argument
(a FILE, an option, ``--help``, ``--version``) begins the ``score`` command's arguments, so
``update-rouge FILE ...`` is ``update-rouge score FILE ...``. A file named like a command is
written with a directory when it comes first: ``update-rouge ./compare``.

``runner`` holds what the commands share (exit status, signals, the options of the table,
errors in flags); ``score`` and ``compare`` are one command each. This module imports them and
none of them imports it.
"""

import argparse
import sys

from . import compare, score
from .runner import pipe_closed

COMMANDS = {"score": score, "compare": compare}


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` (default ``sys.argv[1:]``) names; its exit status. Usage errors
    exit 2 through argparse's ``SystemExit``; ``--help`` and ``--version`` exit 0 through it, also
    when standard output is closed (what they printed is dropped)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] not in COMMANDS:
        argv = ["score", *argv]
    parser = argparse.ArgumentParser(prog=score.PROG)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    parsers = {name: command.add_parser(commands) for name, command in COMMANDS.items()}
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
    return COMMANDS[args.command].run(args, parsers[args.command])
