"""Code the Ray tests ship to Ray workers, which import it by module name (tests/ is on their path),
and the Ray clusters those tests start as a user does (``ray start``: ``started_cluster``,
``local_cluster``)."""

import contextlib
import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import ray

from update_rouge.integrations.ray_batches import BatchScorer

TESTS = Path(__file__).resolve().parent
RAY = Path(sys.executable).with_name("ray")
"""Ray's command, installed with it."""


def free_port():
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def short_temp_folder():
    """A new folder in the temporary folder, named as shortly as can be (``r0``, ``r1``, ...):
    Ray's socket paths under it (``session_<date>_<time>_<pid>/sockets/plasma_store``) must
    stay within the 107 bytes of a Unix socket path, in a test session's temporary folder too."""
    for number in itertools.count():
        folder = Path(tempfile.gettempdir()) / f"r{number}"
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder


def cluster_environment(paths=(), **environment):
    """The environment of a test cluster's processes (its workers inherit it): this checkout's
    package, this module and what the folders ``paths`` hold importable, ``environment`` set."""
    pythonpath = [*map(str, paths), str(TESTS.parent), str(TESTS), os.environ.get("PYTHONPATH")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, pythonpath)), **environment)
    env.pop("RAY_ADDRESS", None)
    # Ray starts its workers at niceness 15 (its raylet's worker_niceness): beside CI's other test
    # processes they got a few percent of a core, and a module's tests ran 4 to 13 times slower
    # than alone (a 6 s test took 79 s). At 0 they share the cores as the other tests do.
    env.update(RAY_USAGE_STATS_ENABLED="0", RAY_worker_niceness="0", RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S="0")
    return env


@contextlib.contextmanager
def started_cluster(paths=(), cpus=2, **environment):
    """A Ray cluster started as docs/ray.md says (``ray start --head --block --node-ip-address
    127.0.0.1``, ``cpus`` CPUs, on a free port), its session folders in a temporary folder, its
    processes' environment ``cluster_environment(paths, **environment)``; yields its address.
    At the end the ``ray start`` process this started is stopped (SIGTERM: it stops every process
    of the cluster) and the folder removed, so nothing is left in HOME or TMPDIR."""
    folder = short_temp_folder()
    port = free_port()
    command = [RAY, "start", "--head", "--block", "--node-ip-address", "127.0.0.1", "--port", str(port)]
    command += ["--num-cpus", str(cpus), "--temp-dir", str(folder), "--include-dashboard", "false"]
    log = folder / "ray-start.log"
    with open(log, "wb") as output:
        process = subprocess.Popen(
            [*map(str, command), "--disable-usage-stats"],
            stdout=output,
            stderr=subprocess.STDOUT,
            env=cluster_environment(paths, **environment),
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 180
        while b"Ray runtime started" not in log.read_bytes():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.2)
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def local_cluster(paths=(), **environment):
    """A test module's cluster (``started_cluster``: 2 CPUs) with this process connected to it
    as Ray's driver and ``RAY_ADDRESS`` naming it, for a test module's tests (an idle cluster
    costs about 6% of a core: it stops with them)."""
    saved = {name: os.environ.get(name) for name in ("RAY_ADDRESS", *environment)}
    started = time.perf_counter()
    with started_cluster(paths, **environment) as address:
        os.environ.update(environment, RAY_ADDRESS=address)
        try:
            ray.init(address=address, log_to_driver=False)
            ray.data.DataContext.get_current().enable_progress_bars = False
            yield
        finally:
            ray.shutdown()
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
    print(f"\nRay session: {time.perf_counter() - started:.1f} s")


def whitespace_tokens(text):
    """A custom tokenizer unlike rouge-score's: lower-cased whitespace-separated words, punctuation kept."""
    return text.lower().split()


class KillOnceScorer(BatchScorer):
    """``BatchScorer`` whose worker process dies (``os._exit``) the first time it is given
    the batch holding ``row`` 0; ``marker`` is the file that remembers it happened, across processes."""

    def __init__(self, marker, **options):
        super().__init__(**options)
        self.marker = Path(marker)

    def __call__(self, batch):
        if 0 in batch.column("row").to_pylist() and not self.marker.exists():
            self.marker.write_text(str(os.getpid()))
            os._exit(1)
        return super().__call__(batch)


class ThreadsProbe(BatchScorer):
    """``BatchScorer`` that adds the column ``rayon_threads``: ``RAYON_NUM_THREADS`` as its actor sees it."""

    def __call__(self, batch):
        batch = super().__call__(batch)
        return batch.append_column("rayon_threads", pa.array([os.environ.get("RAYON_NUM_THREADS")] * batch.num_rows))


def pid_of(item):
    """``item`` with the process that saw it: which Ray actor ran a call."""
    return item, os.getpid()


def refuse_seven(item):
    """``item``, or for 7 the ``ValueError`` a bad chunk raises."""
    if item == 7:
        raise ValueError("item 7 is bad")
    return item


def exit_once_at_three(item, marker):
    """``item``; the first process to be given 3 dies (``os._exit``), noted in the file ``marker``."""
    if item == 3 and not Path(marker).exists():
        Path(marker).write_text(str(os.getpid()))
        os._exit(1)
    return item


def note_after_a_while(item, folder):
    """``item``, after a second (0 at once), noted as a file named ``item`` in ``folder``."""
    if item:
        time.sleep(1)
    (Path(folder) / str(item)).write_text("")
    return item


def tokens_needing_an_extra(text):
    """``whitespace_tokens``, but for a text holding ``needs-extra`` the ``MissingExtra`` a
    segmenter missing on a worker raises."""
    if "needs-extra" in text:
        from update_rouge.extras import MissingExtra

        raise MissingExtra("segmenting needs the optional extra: pip install 'update-rouge[thai]'")
    return whitespace_tokens(text)
