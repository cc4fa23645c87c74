"""The Ray cluster of a command-line run (``update-rouge FILE --ray [ADDRESS]``): started or
joined, and left as it was found.

- ``cluster(None)`` starts a new local cluster whose processes listen on 127.0.0.1 only and
  stops it, with every process it started, when the block ends, however it ends (a stop
  signal included).
- ``cluster(ADDRESS)`` joins a running cluster once its address answers (given up after
  ``UPDATE_ROUGE_RAY_CONNECT_TIMEOUT`` seconds, default 30) and disconnects at the end.
- ``ray_reports_to_stderr()``: what Ray's driver prints of the cluster's reports (a worker that
  died, a task retried) goes to standard error, not into the results on standard output.

Needs the optional extra ``pip install 'update-rouge[ray]'``.
"""

import contextlib
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, TextIO, cast

from ..environment import positive_number
from ..extras import extra_imports
from ..parallel import stop_signals_deferred

with extra_imports(
    "scoring on Ray needs the optional extra: pip install 'update-rouge[ray]'", {"ray": "is_initialized"}
):
    import ray

CONNECT_TIMEOUT_VARIABLE = "UPDATE_ROUGE_RAY_CONNECT_TIMEOUT"
DEFAULT_CONNECT_TIMEOUT = 30.0
# Ray's switch for a cluster on the loopback address only (its default on macOS and Windows).
_LOOPBACK_VARIABLE = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
STRAGGLER_SECONDS = 2.0
"""How long the processes a stopped raylet started may take to exit before they are killed."""


# The thread of Ray's driver that prints the reports the cluster sends it (a worker that died, a
# task retried) to the driver's standard output (ray._private.worker.listen_error_messages).
RAY_REPORT_THREADS = frozenset({"ray_listen_error_messages"})


class _ReportsToStderr:
    """``stdout`` for every thread but ``RAY_REPORT_THREADS``, whose writes go to ``sys.stderr``."""

    def __init__(self, stdout: Any) -> None:
        self._stdout = stdout

    def write(self, text: str) -> int:
        if threading.current_thread().name in RAY_REPORT_THREADS:
            return sys.stderr.write(text)
        return self._stdout.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stdout, name)


@contextlib.contextmanager
def ray_reports_to_stderr() -> Iterator[None]:
    """Within the block, what Ray's driver prints of the cluster's reports goes to standard error;
    everything else written to ``sys.stdout`` goes where it went. Ray prints such a report (a
    worker that died while a task ran, the task then retried and its result unchanged) to standard
    output, in the middle of the results a ``--ray`` run writes there."""
    stdout = sys.stdout
    routed = cast(TextIO, _ReportsToStderr(stdout))
    sys.stdout = routed
    try:
        yield
    finally:
        if sys.stdout is routed:
            sys.stdout = stdout


@contextlib.contextmanager
def cluster(address: str | None) -> Iterator[None]:
    """Ray initialized in this process for the block (``connect(address)``); at the end, a
    cluster started here is stopped with every process it started (``stop_started_cluster``),
    one joined is disconnected from."""
    try:
        connect(address)
        yield
    finally:
        if address is None:
            stop_started_cluster()
        else:
            ray.shutdown()


def stop_started_cluster() -> None:
    """``ray.shutdown()`` for the local cluster this process started, then kill what its raylet
    started and left behind.

    Ray gives the raylet one second to stop its workers and agents before killing it; a raylet
    killed while busy (a run stopped by a signal, a loaded machine) leaves its dashboard and
    runtime-env agents running for about a minute more. They hold nothing of the run's, so those
    still there ``STRAGGLER_SECONDS`` after the shutdown are killed.
    """
    import psutil  # shipped inside Ray (ray/thirdparty_files)
    from ray._private import ray_constants, worker

    started = []
    node = getattr(worker, "_global_node", None)
    for info in (getattr(node, "all_processes", None) or {}).get(ray_constants.PROCESS_TYPE_RAYLET, []):
        with contextlib.suppress(psutil.Error):
            started.extend(psutil.Process(info.process.pid).children(recursive=True))
    ray.shutdown()
    _, left = psutil.wait_procs(started, timeout=STRAGGLER_SECONDS)
    for process in left:
        with contextlib.suppress(psutil.Error):
            process.kill()
    psutil.wait_procs(left, timeout=STRAGGLER_SECONDS)


def connect(address: str | None) -> None:
    """Initialize Ray in this process for the command line.

    ``None``: start a new local cluster (never one named by ``RAY_ADDRESS`` or Ray's
    ``ray_current_cluster`` file) whose processes listen on 127.0.0.1 only, without dashboard:
    Ray has no other protection, and nothing outside this machine needs to reach it. A stop
    signal while it starts (a few seconds) is held back until it has started
    (``parallel.stop_signals_deferred``), so that ``cluster`` knows every process to stop.
    ``[ray://]HOST:PORT``: join that cluster once something accepts a connection there, waiting at
    most ``connect_timeout()`` seconds (then ``ValueError`` naming the address); other values
    (``auto``) go to ``ray.init`` as they are. The SIGTERM handler stays as it was (the command
    line's): ``ray.init`` would replace it with one that exits silently.
    """
    with _sigterm_handler_unchanged():
        if address is None:
            with stop_signals_deferred(), _loopback_only():
                ray.init(address="local", include_dashboard=False, log_to_driver=False)
            return
        host_port = _host_port(address)
        if host_port is not None:
            _wait_until_listening(address, *host_port, connect_timeout())
        ray.init(address=address, log_to_driver=False)


def connect_timeout() -> float:
    """Seconds to wait for a Ray address to answer: ``UPDATE_ROUGE_RAY_CONNECT_TIMEOUT``, default 30."""
    return positive_number(CONNECT_TIMEOUT_VARIABLE, DEFAULT_CONNECT_TIMEOUT, "seconds")


def _host_port(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of ``HOST:PORT`` or ``ray://HOST:PORT`` (``[::1]:PORT`` for IPv6), else ``None``."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit():
        return None
    return host.strip("[]"), int(port)


def _wait_until_listening(address: str, host: str, port: int, timeout: float) -> None:
    """Return once ``host:port`` accepts a TCP connection; ``ValueError`` after ``timeout`` seconds.

    ``ray.init`` itself retries a silent address for many minutes, in calls no signal interrupts.
    """
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


@contextlib.contextmanager
def _loopback_only() -> Iterator[None]:
    """Within the block, a Ray cluster started here takes 127.0.0.1 as its node address, and its
    processes (started within, inheriting the environment) listen there only."""
    from ray._private import ray_constants

    saved = os.environ.get(_LOOPBACK_VARIABLE), ray_constants.ENABLE_RAY_CLUSTER
    os.environ[_LOOPBACK_VARIABLE] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        ray_constants.ENABLE_RAY_CLUSTER = saved[1]
        if saved[0] is None:
            os.environ.pop(_LOOPBACK_VARIABLE, None)
        else:
            os.environ[_LOOPBACK_VARIABLE] = saved[0]


@contextlib.contextmanager
def _sigterm_handler_unchanged() -> Iterator[None]:
    """Within the block, Ray sets no SIGTERM handler of its own (``ray.init`` sets one that
    exits silently, in the middle of whatever it was doing)."""
    from ray._private import utils

    set_handler = utils.set_sigterm_handler
    utils.set_sigterm_handler = lambda _handler: None
    try:
        yield
    finally:
        utils.set_sigterm_handler = set_handler
