"""The command line's ``--ray [ADDRESS]``: a file's chunks scored by Ray tasks, as worker
processes score them without ``--ray``.

The command line cuts the file into chunks of raw lines (``files.chunks``) and
``files.score_chunks`` hands them out and adds up their per-example tables in input
order; ``RayWorkers`` puts Ray tasks where the worker processes would be: one task a chunk,
each calling the function that parses, checks and scores a chunk (put in the object store
once), one CPU each, at most two per CPU of the cluster submitted and not yet taken in, results
in input order. So a run with ``--ray`` prints the same result, writes the same per-example file
and stops at the same first unusable line as one without it, bit for bit: the same code scores
every chunk. Ray runs a task again on another worker when its worker dies (``MAX_RETRIES``
times); the tasks still running when a run stops early are cancelled.

Tasks, not actors: a task goes to a worker process the cluster has started already, where an
actor starts a process of its own (about a second here, importing Ray), and the tasks of a busy
worker go to the others. Ray Data (``ray_batches.score_dataset``) is not on this path either: its
executor hands blocks from stage to stage one at a time, and on a small machine costs more than
the scoring gains from a second CPU (docs/ray.md).
"""

import contextlib
import math
import os
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any

from ..extras import extra_imports
from ..parallel import THREADS_VARIABLE

with extra_imports(
    "scoring on Ray needs the optional extra: pip install 'update-rouge[ray]'", {"ray": "is_initialized"}
):
    import ray

from .ray_cluster import cluster, ray_reports_to_stderr

IN_FLIGHT_PER_CPU = 2
"""Tasks submitted per CPU of the cluster and not yet taken in: the next is there when one ends."""
MAX_RETRIES = 3
"""How often Ray runs a task again whose worker died."""
CANCEL_WAIT_SECONDS = 10.0
"""How long a run that stops early waits for its cancelled tasks to end."""
CANCEL_POLL_SECONDS = 0.1
"""How often the cancelled tasks that have not ended are cancelled again."""


def size_native_threads() -> None:
    """In a Ray worker, set ``RAYON_NUM_THREADS`` to the CPUs Ray assigned it (rounded down, at
    least 1) unless the environment sets it; elsewhere (a driver) change nothing."""
    context = ray.get_runtime_context()
    if context.worker.mode != ray.WORKER_MODE:
        return
    cpus = context.get_assigned_resources().get("CPU", 1)
    os.environ.setdefault(THREADS_VARIABLE, str(max(1, math.floor(cpus))))


def _call(function: Callable[..., Any], *item: Any) -> Any:
    """The Ray task: ``function(*item)``, in a worker whose native threads are sized to the CPU
    Ray gave it (``size_native_threads``)."""
    size_native_threads()
    return function(*item)


class RayWorkers:
    """The Ray cluster this process is connected to, as ``score_chunks(..., workers=...)``'s
    workers: ``count`` is its CPUs (at least 1)."""

    def __init__(self) -> None:
        self.count = max(1, math.floor(ray.cluster_resources().get("CPU", 1)))

    def starmap_in_order(
        self, function: Callable[..., Any], items: Iterable[tuple], count: int
    ) -> Generator[Any, None, None]:
        """Yield ``function(*item)`` for each item, in the order of ``items``, each called in a
        Ray task, at most ``IN_FLIGHT_PER_CPU * count`` of them submitted and not yet taken in
        (``parallel.starmap_in_order``'s contract, on Ray). A task's exception is raised as
        itself, not as Ray's wrapper of it, so that its one-line message reaches the user."""
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
    so that no task of a stopped run goes on scoring, and Ray reports no error nobody read.

    A task that is on its way to a worker when it is cancelled runs all the same (Ray 2.60: one
    stopped run in three let a task that was just starting finish), so the tasks not yet ended
    are cancelled again every ``CANCEL_POLL_SECONDS``: by then such a task is running, and is
    interrupted. Ray interrupts a running task as SIGINT would, so in a cluster started from a
    process that ignores SIGINT (a shell's background job: its processes inherit that) a running
    task is not interrupted, and this waits for it to end."""
    deadline = time.monotonic() + CANCEL_WAIT_SECONDS
    while refs and time.monotonic() < deadline:
        for ref in refs:
            ray.cancel(ref)
        ended, refs = ray.wait(refs, num_returns=len(refs), timeout=CANCEL_POLL_SECONDS)
        for ref in ended:
            with contextlib.suppress(Exception):
                ray.get(ref)


@contextlib.contextmanager
def ray_workers(address: str | None) -> Iterator[RayWorkers]:
    """The Ray workers of a ``--ray`` run for the block: on the cluster at ``address`` (a new
    local one for ``None``, stopped at the end however the run ends; see ``ray_cluster``), or
    on the Ray this process has initialized already. The cluster's reports that Ray prints go to
    standard error meanwhile (``ray_reports_to_stderr``)."""
    with ray_reports_to_stderr(), contextlib.nullcontext() if ray.is_initialized() else cluster(address):
        yield RayWorkers()
