"""Running a function over chunks of work in worker processes, results in input order.

Workers are started with the ``spawn`` method on every platform, so the behaviour is the same
on Linux, macOS and Windows and safe in a process that already runs threads (PyTorch, a
Trainer, a Gradio server). Under ``spawn`` a script that uses ``num_proc > 1`` must guard its
entry point with ``if __name__ == "__main__":``, and the function (with everything bound to
it, such as a custom tokenizer) must be importable in a fresh Python process: defined at the
top level of a module or script file, not a lambda, not in a notebook cell.

At most ``available_cpus()`` workers run, whatever ``num_proc`` asks for (more would only
share the same cores). Workers are started with SIGINT blocked: a Ctrl-C at a terminal reaches
the whole process group, and the parent, which gets it too, terminates them
(``starmap_in_order``) without a traceback from each.
"""

import contextlib
import multiprocessing
import os
import pickle
import signal
import warnings
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Generator, Iterable, Iterator, Optional

from .option_numbers import is_integer

_worker_function: Optional[Callable[..., Any]] = None


def check_num_proc(num_proc: Any) -> int:
    """``num_proc`` as an ``int`` if it is a whole number of processes >= 1 (``option_numbers``);
    ``ValueError`` otherwise."""
    if not is_integer(num_proc) or num_proc < 1:
        raise ValueError(f"num_proc must be a whole number of processes, 1 or more, got {num_proc!r}")
    return int(num_proc)


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity where the platform tells it), at least 1."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def _install(function: Callable[..., Any]) -> None:
    global _worker_function
    _worker_function = function


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Block SIGINT in this thread within the block (where the platform can): a SIGINT that
    arrives meanwhile is delivered when it ends, and the processes and threads started within
    inherit the blocked mask, so workers never see the Ctrl-C that their parent handles."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _call(arguments: tuple) -> Any:
    if _worker_function is None:
        raise RuntimeError("a worker process was started without its function")
    return _worker_function(*arguments)


def starmap_in_order(function: Callable[..., Any], items: Iterable[tuple], num_proc: int) -> Generator[Any, None, None]:
    """Yield ``function(*item)`` for each item, in the order of ``items``.

    With ``num_proc > 1``, ``num_proc`` spawned worker processes do the calls; ``function`` is
    sent to each worker once, and at most ``2 * num_proc`` items are in flight, so a long
    iterable streams through in bounded memory. A ``function`` that cannot be pickled (a
    lambda tokenizer, say) runs in this process instead, with a ``UserWarning``: the results
    are the same, only slower. A worker that cannot start or dies raises ``RuntimeError``.
    ``num_proc`` is capped at ``available_cpus()``. If the caller stops early (an exception,
    including a signal's, or an abandoned generator), the workers are terminated at once.
    """
    num_proc = min(num_proc, available_cpus())
    if num_proc > 1:
        try:
            pickle.dumps(function)
        except Exception as error:
            warnings.warn(
                f"num_proc={num_proc} ignored, scoring in this process: {error}. Worker processes need "
                "a picklable function; define a custom tokenizer at the top level of a module, not as "
                "a lambda or a local function.",
                UserWarning,
                stacklevel=3,
            )
            num_proc = 1
    if num_proc == 1:
        for item in items:
            yield function(*item)
        return
    with _sigint_blocked():
        pool = ProcessPoolExecutor(
            num_proc, mp_context=multiprocessing.get_context("spawn"), initializer=_install, initargs=(function,)
        )
    finished = False
    try:
        pending: deque = deque()
        for item in items:
            with _sigint_blocked():  # submit starts the workers
                pending.append(pool.submit(_call, item))
            if len(pending) >= 2 * num_proc:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
        finished = True
    except BrokenProcessPool as error:
        raise RuntimeError(
            "a worker process could not start or died. With num_proc > 1, a script must guard its entry "
            'point with `if __name__ == "__main__":` and a custom tokenizer must be importable in a new '
            "Python process (defined in a module or script file, not in a notebook or `python -c`)."
        ) from error
    finally:
        if not finished:
            _stop_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the pool's workers now, so that an interrupted run leaves no process behind.

    ``ProcessPoolExecutor`` has no public way to do this before Python 3.14; its ``_processes``
    mapping (pid -> process) has been stable since Python 3.2.
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=10)
