"""The command line's ``--ray ADDRESS``: a file's chunks scored by Ray tasks on a running cluster,
as worker processes score them without ``--ray``.

``ray_workers(address)`` joins the running cluster at ``address`` (``join``: this never starts
one) and leaves it running at the end. ``RayWorkers`` puts Ray tasks where ``files.score_chunks``
would start worker processes: one task a chunk, one CPU each, results in input order, so a run
with ``--ray`` gives the same results and errors as one without it, bit for bit. Ray runs a task
again when its worker dies (``MAX_RETRIES`` times); the tasks still running when a run stops
early are cancelled. Tasks, not actors or Ray Data (docs/ray.md).
"""

import contextlib
import math
import os
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, TextIO, cast

from ..environment import positive_number
from ..extras import extra_imports
from ..parallel import THREADS_VARIABLE
from ..stop_signals import DeferredStopSignals

with extra_imports(
    "scoring on Ray needs the optional extra: pip install 'update-rouge[ray]'", {"ray": "is_initialized"}
):
    import ray

IN_FLIGHT_PER_CPU = 2
"""Tasks submitted per CPU of the cluster and not yet taken in: the next is there when one ends."""
MAX_RETRIES = 3
"""How often Ray runs a task again whose worker died."""
CANCEL_WAIT_SECONDS = 10.0
"""How long a run that stops early waits for its cancelled tasks to end."""
CANCEL_POLL_SECONDS = 0.1
"""How often the cancelled tasks that have not ended are cancelled again."""
CONNECT_TIMEOUT_VARIABLE = "UPDATE_ROUGE_RAY_CONNECT_TIMEOUT"
DEFAULT_CONNECT_TIMEOUT = 30.0


def size_native_threads(cpus: float) -> None:
    """Set ``RAYON_NUM_THREADS`` (rouge-score-rs's threads) to ``cpus``, the CPUs Ray gave this
    worker (rounded down, at least 1), unless the environment sets it."""
    os.environ.setdefault(THREADS_VARIABLE, str(max(1, math.floor(cpus))))


def _call(function: Callable[..., Any], *item: Any) -> Any:
    """The Ray task (one CPU): ``function(*item)``, its native threads sized to that CPU."""
    size_native_threads(1)
    return function(*item)


class RayWorkers:
    """The Ray cluster this process is connected to, as ``score_chunks(..., workers=...)``'s
    workers: ``count`` is its CPUs (at least 1)."""

    def __init__(self) -> None:
        self.count = max(1, math.floor(ray.cluster_resources().get("CPU", 1)))

    def starmap_in_order(
        self, function: Callable[..., Any], items: Iterable[tuple], count: int
    ) -> Generator[Any, None, None]:
        """``parallel.starmap_in_order``'s contract on Ray tasks, at most ``IN_FLIGHT_PER_CPU *
        count`` of them submitted and not yet taken in. A task's exception is raised as itself."""
        task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES)(_call)
        shared = ray.put(function)
        pending: deque[Any] = deque()
        try:
            for item in items:
                pending.append(task.remote(shared, *item))
                if len(pending) >= IN_FLIGHT_PER_CPU * count:
                    yield _result(pending.popleft())
            while pending:
                yield _result(pending.popleft())
        finally:
            _cancel(list(pending))


def _result(ref: Any) -> Any:
    """``ray.get(ref)``; a task's own exception raised as it is (its ``cause``)."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        if isinstance(error.cause, BaseException):
            raise error.cause from None
        raise RuntimeError(str(error)) from None


def _cancel(refs: list) -> None:
    """Cancel the tasks ``refs`` and take in what they end with (within ``CANCEL_WAIT_SECONDS``),
    so that no task of a stopped run goes on scoring, and Ray reports no error nobody read. A task
    on its way to a worker when it is cancelled runs all the same, so the tasks not yet ended are
    cancelled again every ``CANCEL_POLL_SECONDS``. Ray interrupts a running task as SIGINT would:
    on a cluster started from a process that ignores SIGINT, this waits for the task to end."""
    deadline = time.monotonic() + CANCEL_WAIT_SECONDS
    while refs and time.monotonic() < deadline:
        for ref in refs:
            ray.cancel(ref)
        ended, refs = ray.wait(refs, num_returns=len(refs), timeout=CANCEL_POLL_SECONDS)
        for ref in ended:
            with contextlib.suppress(Exception):
                ray.get(ref)


class _OtherThreadsToStderr:
    """``stdout`` for the thread ``owner``; every other thread's writes go to ``sys.stderr``."""

    def __init__(self, stdout: Any, owner: threading.Thread) -> None:
        self._stdout, self._owner = stdout, owner

    def write(self, text: str) -> int:
        if threading.current_thread() is not self._owner:
            return sys.stderr.write(text)
        return self._stdout.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stdout, name)


@contextlib.contextmanager
def ray_workers(address: str) -> Iterator[RayWorkers]:
    """The Ray workers of a ``--ray`` run for the block: of the cluster at ``address``
    (``join``), disconnected from at the end, or of the Ray this process has initialized
    already (a Python caller's), left connected. Meanwhile, what other threads write to
    ``sys.stdout`` (Ray's driver's reports of the cluster) goes to standard error."""
    stdout = sys.stdout
    routed = cast(TextIO, _OtherThreadsToStderr(stdout, threading.current_thread()))
    sys.stdout = routed
    joined = not ray.is_initialized()
    try:
        if joined:
            join(address)
        yield RayWorkers()
    finally:
        if joined:
            ray.shutdown()
        if sys.stdout is routed:
            sys.stdout = stdout


def join(address: str) -> None:
    """Connect this process to the running Ray cluster at ``address``: ``[ray://]HOST:PORT``
    once something accepts a connection there, waiting at most ``connect_timeout()`` seconds
    (then ``ValueError`` naming the address); other values (``auto``) go to ``ray.init`` as they
    are. The stop signals' handlers stay the command line's (``ray.init`` sets its own)."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if colon and host and port.isdigit():
        _wait_until_listening(address, host.strip("[]"), int(port), connect_timeout())
    with DeferredStopSignals():
        ray.init(address=address, log_to_driver=False)


def connect_timeout() -> float:
    """Seconds to wait for a Ray address to answer: ``UPDATE_ROUGE_RAY_CONNECT_TIMEOUT``, default 30."""
    return positive_number(CONNECT_TIMEOUT_VARIABLE, DEFAULT_CONNECT_TIMEOUT, "seconds")


def _wait_until_listening(address: str, host: str, port: int, timeout: float) -> None:
    """Return once ``host:port`` accepts a TCP connection; ``ValueError`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((host, port), timeout=max(0.1, deadline - time.monotonic())):
                return
        except OSError as error:
            if time.monotonic() >= deadline:
                reason = error.strerror or type(error).__name__
                raise ValueError(
                    f"no Ray cluster answers at {address}: nothing accepted a connection for {timeout:g} s "
                    f"({reason}); wait longer with the environment variable {CONNECT_TIMEOUT_VARIABLE}"
                ) from None
            time.sleep(min(0.5, max(0.0, deadline - time.monotonic())))
