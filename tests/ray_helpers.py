"""Code the Ray tests ship to Ray workers, which import it by module name (tests/ is on their path)."""

import os
import time
from pathlib import Path

import pyarrow as pa

from update_rouge.integrations.ray_scoring import BatchScorer


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
