"""The entry point of the installed ``update-rouge`` script (``[project.scripts]``), which
nothing else imports: importing it is the program's first act, ``stop_at_once``, so that a stop
signal is the command's one line from then on. The script that pip writes runs code of its own
between this import and its call of ``run_program`` (``re.sub`` on ``sys.argv[0]``, which
compiles a regular expression: a Ctrl-C there was a ``KeyboardInterrupt`` traceback).

A worker process of ``--num-proc`` (started with ``spawn``) runs the script too, as the module
``__mp_main__``, for what the parent's main module defines: there the import changes nothing, as
the worker is not the program, and its parent handles the signals (a SIGHUP to the process
group printed the line once per process)."""

import sys

from . import program_name, run_program, stop_at_once

if "__mp_main__" not in sys.modules:
    stop_at_once(program_name(sys.argv[1:]))

__all__ = ["run_program"]
