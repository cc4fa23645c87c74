"""Code the Ray tests ship to Ray workers, which import it by module name (tests/ is on their path),
and the local cluster those tests start (``local_cluster``)."""

import contextlib
import os
import secrets
import time
from pathlib import Path

import pyarrow as pa
import ray

from update_rouge.integrations.ray_batches import BatchScorer
from update_rouge.integrations.ray_cluster import _loopback_only

TESTS = Path(__file__).resolve().parent
PROCESS_TOKEN = secrets.token_hex(16)


@contextlib.contextmanager
def local_cluster(paths=(), **environment):
    """A local Ray cluster (2 CPUs, 127.0.0.1 only) whose workers import this checkout's package
    and this module (and first what the folders ``paths`` hold), with ``environment`` set for its
    processes, for a test module's tests (an idle cluster costs about 6% of a core: it stops with them)."""
    names = ("PYTHONPATH", "RAY_USAGE_STATS_ENABLED", "RAY_AUTH_TOKEN", "RAY_worker_niceness", *environment)
    saved = {name: os.environ.get(name) for name in names}
    os.environ.update(environment)
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    # Ray starts its workers at niceness 15 (its raylet's worker_niceness): beside CI's other test
    # processes they got a few percent of a core, and this module's tests ran 4 to 13 times slower
    # than alone (a 6 s test took 79 s). At 0 they share the cores as the other tests do.
    os.environ["RAY_worker_niceness"] = "0"
    # A token of its own: else Ray writes one to ~/.ray/auth_token (its session folders go to the
    # session's temporary folder, conftest.session_temp_folder). The same one for every cluster of
    # this process: Ray's driver keeps the first token it read, so a second module's cluster with
    # another token failed to start ("Failed to start GCS ... InvalidAuthToken").
    os.environ["RAY_AUTH_TOKEN"] = PROCESS_TOKEN
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [*map(str, paths), str(TESTS.parent), str(TESTS), saved["PYTHONPATH"]])
    )
    started = time.perf_counter()
    try:
        # Listening on 127.0.0.1 only, as a cluster started by --ray does (ray_cluster._loopback_only).
        with _loopback_only():
            # address="local": a cluster of its own, never one that another test process started.
            ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
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
