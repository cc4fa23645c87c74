"""The signals that stop a run and the line on stderr of a command they stopped; imports nothing
but ``signal``, so that the command line handles them from its first line (``cli.run_program``)."""

import signal

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that stop a run: Ctrl-C, ``kill``, a closed terminal or a dropped connection."""
NOTHING_CHANGED = "no existing output file was changed"
"""What ``interrupted_line`` says of the output files when the command had completed none."""


def interrupted_line(prog: str, signum: int, outputs: str = NOTHING_CHANGED) -> str:
    """The line (without its end) on stderr of the command ``prog`` that the signal ``signum``
    stopped; ``outputs`` says what the command did to the output files."""
    return f"{prog}: interrupted by {signal.Signals(signum).name}: stopped; {outputs}"
