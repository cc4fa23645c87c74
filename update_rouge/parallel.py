"""Running a function over chunks of work in worker processes, results in input order.

Workers are started with ``spawn`` on every platform (the same on Linux, macOS and Windows, and
safe beside threads): a script using ``num_proc > 1`` must guard its entry point with ``if
__name__ == "__main__":``, and the function (a custom tokenizer bound to it too) must be
importable in a fresh process: top level of a module or script file, not a lambda or notebook cell.

At most ``available_cpus()`` workers run, whatever ``num_proc`` asks for. Each worker's Rayon
pool (rouge-score-rs's threads) gets ``worker_threads`` (``POOL_SHARE`` in a process scoring
beside them) unless ``RAYON_NUM_THREADS`` is set (docs/speed.md). Workers start with SIGINT
blocked: the parent, which gets a terminal's Ctrl-C too, stops them without a traceback from
each. The stop signals (``STOP_SIGNALS``) are held back while the parent builds the pool, starts
a worker or hands it work, so that a signal's exception never leaves a worker half started nor a
semaphore half made. A worker whose parent is gone exits within ``PARENT_CHECK_SECONDS``.
Multiprocessing's resource tracker survives a SIGHUP to the process group (``_start_resource_tracker``).
"""

import contextlib
import os
import pickle
import signal
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .errors import LEFT_OUT, Name, OptionError, Setting
from .option_numbers import is_integer
from .stop_signals import DeferredStopSignals

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

_worker_function: Callable[..., Any] | None = None

THREADS_VARIABLE = "RAYON_NUM_THREADS"
"""The variable that sizes a process's Rayon thread pool when that pool starts (rouge-score-rs's)."""
BLAS_THREADS_VARIABLE = "OPENBLAS_NUM_THREADS"
"""The variable that sizes OpenBLAS's thread pool (NumPy's wheels), whose threads start when NumPy
is imported and spin a while (docs/speed.md). Nothing this package scores with uses BLAS."""
POOL_SHARE = threading.local()
"""Its ``cpus``, in the thread that runs a ``WorkerPool`` that ``helps`` (else ``None`` or unset): the
CPUs that the pieces scored here may use while the pool runs, a worker's share (``worker_threads``)."""
PARENT_CHECK_SECONDS = 0.2
"""How often a worker process checks that its parent process is still there."""
FEEDER_JOIN_SECONDS = 2.0
"""How long a stopped run waits for its work queue's feeder thread to end (else it is abandoned)."""


def check_num_proc(num_proc: Any) -> int:
    """``num_proc`` as an ``int`` if it is a whole number of processes >= 1, else ``ValueError``."""
    if not is_integer(num_proc) or num_proc < 1:
        raise OptionError(
            "num_proc",
            num_proc,
            (Name("num_proc"), f" must be a whole number of processes, 1 or more, got {num_proc!r}"),
            [[Setting("num_proc", LEFT_OUT)]],
        )
    return int(num_proc)


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity where the platform tells it), at least 1."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def worker_threads(num_proc: int) -> int:
    """The native threads each of ``num_proc`` workers may start: its share of ``available_cpus()``, at least 1."""
    return max(1, available_cpus() // num_proc)


def guided_share(remaining: int, num_proc: int, most: int, least: int) -> int:
    """How much the next piece of work may hold (bytes, characters, ...): ``most``, and with
    several workers ``remaining / (2 * num_proc)`` once that is smaller, never less than ``least``
    (guided self-scheduling: the workers finish together). ``remaining`` is 0 when not known."""
    if num_proc <= 1 or remaining <= 0:
        return most
    return max(least, min(most, remaining // (2 * num_proc)))


def _install(pickled_function: bytes, parent: int, threads: int) -> None:
    """Worker initializer: size the Rayon pool to ``threads`` and OpenBLAS's to one thread,
    each unless the environment already does; then unpickle the function and keep it (pickled,
    so that its modules are imported after this); exit when the process ``parent`` is gone."""
    global _worker_function
    os.environ.setdefault(THREADS_VARIABLE, str(threads))
    os.environ.setdefault(BLAS_THREADS_VARIABLE, "1")
    _worker_function = pickle.loads(pickled_function)
    if os.name == "posix":
        threading.Thread(target=_exit_when_orphaned, args=(parent,), name="parent-check", daemon=True).start()


def _exit_when_orphaned(parent: int) -> None:
    """Exit this process at once when its parent ``parent`` is gone (an orphan's parent pid changes)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)


@contextlib.contextmanager
def _blocked(number: int) -> Iterator[None]:
    """Block the signal ``number`` in this thread within the block (where the platform can): it
    is delivered when the block ends, and the processes and threads started within inherit it blocked."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {number})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker, if it is not running, with SIGHUP ``_blocked``:
    it inherits the blocked signal (and never unblocks it), so a SIGHUP to the process group
    leaves it running. Nothing to do without SIGHUP or ``pthread_sigmask`` (Windows)."""
    if hasattr(signal, "SIGHUP") and hasattr(signal, "pthread_sigmask"):
        from multiprocessing import resource_tracker

        with _blocked(signal.SIGHUP):
            resource_tracker.ensure_running()


def _call(arguments: tuple) -> Any:
    if _worker_function is None:
        raise RuntimeError("a worker process was started without its function")
    return _worker_function(*arguments)


class WorkerPool:
    """``num_proc`` spawned worker processes calling ``function`` (a context manager), started
    when the block begins; ``starmap`` hands them the work, once or several times. With ``helps``,
    this process is one of the ``num_proc`` that score: ``num_proc - 1`` workers start, and while
    they start, and whenever each has its two pieces in flight, this process calls ``function`` on
    the next piece itself (its native threads a worker's share, ``POOL_SHARE``), its results,
    exceptions included, in their input order.

    ``function`` is sent to each worker once. ``num_proc`` is capped at ``available_cpus()``;
    with one process, or a ``function`` that cannot be pickled (then with a ``UserWarning``), the
    calls run in this process. A worker that cannot start or dies raises ``RuntimeError``. When
    the block ends early (an exception, including a signal's) or a ``starmap`` was left
    unfinished, the workers are killed at once; otherwise they are shut down.
    """

    def __init__(self, function: Callable[..., Any], num_proc: int, helps: bool = False):
        self.function = function
        self.num_proc = min(num_proc, available_cpus())
        self.helps = helps
        self._pickled = b""
        if self.num_proc > 1:
            try:
                self._pickled = pickle.dumps(function)
            except Exception as error:
                warnings.warn(
                    f"num_proc={self.num_proc} ignored, scoring in this process: {error}. Worker processes "
                    "need a picklable function; define a custom tokenizer at the top level of a module, not "
                    "as a lambda or a local function.",
                    UserWarning,
                    stacklevel=4,
                )
                self.num_proc = 1
        self._pool: ProcessPoolExecutor | None = None
        self._unfinished = False

    def __enter__(self) -> "WorkerPool":
        if self.num_proc > 1:
            try:
                self._start()
            except BaseException as error:
                # A signal's exception or a failed start: no block's end will kill the workers
                # started, and one started after the pool broke would keep the exit waiting for ever.
                self.__exit__(type(error))
                raise
        return self

    def _start(self) -> None:
        """Build the pool and start its workers."""
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # Building the pool creates semaphores and may start the resource tracker, and a submit
        # starts a worker: a signal's exception in the middle would leave a worker half started,
        # or a semaphore the tracker reports as leaked on our standard error.
        with DeferredStopSignals(), _blocked(signal.SIGINT):  # workers never see the parent's Ctrl-C
            _start_resource_tracker()
            self._pool = ProcessPoolExecutor(
                self._workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_install,
                initargs=(self._pickled, os.getpid(), worker_threads(self.num_proc)),
            )
            # Dead workers (a stop signal to the process group) may leave the feeder thread blocked
            # for ever writing into their pipe (CPython issue 94777), and the pool's threads, or the
            # interpreter's exit, would join it: the feeder, a daemon thread, is never joined.
            self._pool._call_queue.cancel_join_thread()  # type: ignore[attr-defined]
        # Apart: starting the resource tracker (above, once per process) unblocks SIGINT
        # and SIGTERM in this thread, and the workers must start with SIGINT blocked.
        with DeferredStopSignals(), _blocked(signal.SIGINT):
            for _ in range(self._workers):  # each submit (of int(), which does nothing) starts a worker
                self._pool.submit(int)
        POOL_SHARE.cpus = worker_threads(self.num_proc) if self.helps else None

    @property
    def _workers(self) -> int:
        """The worker processes to start: ``num_proc``, less this process if it ``helps``."""
        return self.num_proc - 1 if self.helps else self.num_proc

    def starmap(self, items: Iterable[tuple]) -> Generator[Any, None, None]:
        """Yield ``function(*item)`` for each item, in the order of ``items``; at most two items
        per worker are in flight (and, if this process ``helps``, at most ``4 * num_proc`` items
        scored or in flight in all), so a long iterable streams through in bounded memory."""
        pool = self._pool
        if pool is None:
            for item in items:
                yield self.function(*item)
            return
        from concurrent.futures import Future

        self._unfinished = True
        pending: deque[Future] = deque()
        in_flight = 2 * self._workers
        with _broken_pool_explained():
            for item in items:
                while self.helps and pending and pending[0].done():
                    yield pending.popleft().result()
                if self.helps and sum(not future.done() for future in pending) >= in_flight:
                    if len(pending) < 4 * self.num_proc:  # scored here: a done future, raised in its place
                        here: Future = Future()
                        try:
                            here.set_result(self.function(*item))
                        except Exception as error:
                            here.set_exception(error)
                        pending.append(here)
                        continue
                    yield pending.popleft().result()
                with DeferredStopSignals(), _blocked(signal.SIGINT):
                    pending.append(pool.submit(_call, item))
                if not self.helps and len(pending) >= in_flight:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        self._unfinished = False

    def __exit__(self, kind: Any, *_: Any) -> None:
        if self._pool is None:
            return
        vars(POOL_SHARE).pop("cpus", None)
        feeder = _stop_workers(self._pool) if kind is not None or self._unfinished else None
        self._pool.shutdown(wait=True, cancel_futures=True)
        if feeder is not None:  # frozen by the interpreter's exit, it would leave a semaphore leaked
            feeder.join(timeout=FEEDER_JOIN_SECONDS)


@contextlib.contextmanager
def _broken_pool_explained() -> Iterator[None]:
    """Raise a ``BrokenProcessPool`` (a worker that could not start or died) as a ``RuntimeError``
    that says what commonly causes it."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        yield
    except BrokenProcessPool as error:
        raise RuntimeError(
            "a worker process could not start or died. With num_proc > 1, a script must guard its entry "
            'point with `if __name__ == "__main__":` and a custom tokenizer must be importable in a new '
            "Python process (defined in a module or script file, not in a notebook or `python -c`)."
        ) from error


def starmap_in_order(function: Callable[..., Any], items: Iterable[tuple], num_proc: int) -> Generator[Any, None, None]:
    """Yield ``function(*item)`` for each item, in the order of ``items``, called in a ``WorkerPool``
    of ``num_proc`` processes (its contract: stopped early, the workers are killed at once)."""
    with WorkerPool(function, num_proc) as pool:
        yield from pool.starmap(items)


def _stop_workers(pool: "ProcessPoolExecutor") -> threading.Thread | None:
    """Kill the pool's workers now, so that an interrupted run leaves no process behind; return
    the thread that feeds the pool's work queue (``None`` if it never started), which nobody joins.

    ``ProcessPoolExecutor`` has no public way to do this (its ``_processes``: pid -> process). A
    worker holds nothing that needs cleaning up, so SIGKILL loses nothing.
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.kill()
    for process in processes:
        process.join(timeout=10)
    if all(process.exitcode is not None for process in processes):
        # A worker killed while writing its result leaves the manager thread that shutdown() joins
        # waiting for the rest for ever: closing our write end ends that read with EOFError.
        pool._result_queue._writer.close()  # type: ignore[attr-defined]
    return getattr(pool._call_queue, "_thread", None)  # type: ignore[attr-defined]
