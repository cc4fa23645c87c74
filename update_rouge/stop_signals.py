"""The signals that stop a run, the line on stderr of a command they stopped, and a block that holds
them back; imports nothing but ``signal``, so that the command line handles them from its first
line (``cli.run_program``)."""

import signal

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that stop a run: Ctrl-C, ``kill``, a closed terminal or a dropped connection."""
NOTHING_CHANGED = "no existing output file was changed"
"""What ``interrupted_line`` says of the output files when the command had completed none."""


def interrupted_line(prog: str, signum: int, outputs: str = NOTHING_CHANGED) -> str:
    """The line (without its end) on stderr of the command ``prog`` that the signal ``signum``
    stopped; ``outputs`` says what the command did to the output files."""
    return f"{prog}: interrupted by {signal.Signals(signum).name}: stopped; {outputs}"


class DeferredStopSignals:
    """``with DeferredStopSignals():`` within the block, a stop signal is only noted; when the block
    ends, the handlers are put back and the first signal noted is raised again, as if it arrived
    then (blocking it is not enough: another thread may receive it). Outside the main thread the
    block changes nothing."""

    def __enter__(self) -> None:
        import threading  # here: the program's first line imports nothing but signal

        in_main = threading.current_thread() is threading.main_thread()
        self.noted: list[int] = []
        self.previous = {
            number: signal.signal(number, self._note)
            for number in STOP_SIGNALS
            if in_main and signal.getsignal(number) not in (signal.SIG_IGN, None)
        }

    def _note(self, signum: int, _frame: object) -> None:
        self.noted.append(signum)

    def __exit__(self, *_exception: object) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler)
        if self.noted:
            signal.raise_signal(self.noted[0])
