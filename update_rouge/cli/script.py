"""The entry point of the installed ``update-rouge`` script (``[project.scripts]``), which nothing
else imports: importing it is the program's first act, ``stop_at_once``, so that a stop signal is
the command's one line from then on, even in the code pip's script runs before ``run_program``.
In a worker process of ``--num-proc``, which runs the script as ``__mp_main__``, the import
changes nothing: its parent handles the signals.
"""

import sys

from . import program_name, run_program, stop_at_once

if "__mp_main__" not in sys.modules:
    stop_at_once(program_name(sys.argv[1:]))

__all__ = ["run_program"]
