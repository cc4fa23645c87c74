"""Each visitor's events in the order they reached the server, with no visitor waiting behind another's.

gradio's concurrency groups are one queue for the whole server: with one group of limit 1 per
view, a visitor's one example waited behind another's file being scored. Here every handler runs
in its session's own line (``Turns.run``): the events of one session and one line (``"one"`` for
the one-example view, ``"file"`` for the file view) run one at a time, in the order they reached
their handler; other sessions' events run beside them. A heavy job (scoring a file) also takes one
of ``HEAVY_JOBS`` places, so at most that many files are scored at once; the events of other
sessions, and the one-example line of its own, do not wait for a place. The handlers run in
gradio's worker threads (``anyio.to_thread``), as gradio runs a plain function.
"""

import asyncio
import functools
from collections.abc import Callable
from typing import Any

import anyio

# Files scored at once, in all sessions together (each one still bounded in time: demo.file_handlers).
HEAVY_JOBS = 2


class Turns:
    """Per-session FIFO lines of events, and the places of heavy jobs; one per page."""

    def __init__(self, heavy_jobs: int = HEAVY_JOBS) -> None:
        self.heavy_jobs = heavy_jobs
        self._last: dict[tuple[str, str], asyncio.Future] = {}
        self._heavy: asyncio.Semaphore | None = None

    def waiting(self) -> int:
        """The lines with an event running or waiting (none once every event has ended)."""
        return len(self._last)

    async def run(self, line: tuple[str, str], call: Callable[[], Any], heavy: bool = False) -> Any:
        """``call()``'s result, in a worker thread, once the events that reached ``line``
        (line name, session) before it have ended, and (``heavy``) once a place is free."""
        before = self._last.get(line)
        ended: asyncio.Future = asyncio.get_running_loop().create_future()
        self._last[line] = ended  # taken before any await: the order events reach their handlers
        try:
            if before is not None:
                await asyncio.wait([before])  # its end, not its result: a cancelled one ended too
            if not heavy:
                return await anyio.to_thread.run_sync(call)
            if self._heavy is None:
                self._heavy = asyncio.Semaphore(self.heavy_jobs)
            async with self._heavy:
                return await anyio.to_thread.run_sync(call)
        finally:
            # An event cancelled while it waited ends with the one before it, never earlier.
            if before is None or before.done():
                self._end(line, ended)
            else:
                before.add_done_callback(lambda _: self._end(line, ended))

    def _end(self, line: tuple[str, str], ended: asyncio.Future) -> None:
        ended.set_result(None)
        if self._last.get(line) is ended:
            del self._last[line]


def session_of(request: Any) -> str:
    """The session an event came from (gradio's ``session_hash``; one line for calls without one)."""
    return getattr(request, "session_hash", None) or ""


def bound(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Callable[[], Any]:
    """``call`` with its arguments, to run later in a worker thread."""
    return functools.partial(call, *args, **kwargs)
