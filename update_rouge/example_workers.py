"""Examples spread over processes: the one path of ``compute(..., num_proc=N)`` (``metric``)
and of ``files.score_chunks`` (the command line, the demo, Ray).

``ExampleWorkers`` starts the processes that score (``parallel.WorkerPool``) or takes ``Workers``
elsewhere (Ray tasks) and yields their results in input order (``in_order``). ``compute``'s pieces
are shards of its checked inputs (``in_shards``, cut by ``shard_starts``); ``score_chunks``'s are
chunks of rows, which place their errors at their file lines themselves.
"""

import math
from collections.abc import Callable, Generator, Iterable, Sequence
from typing import Any, Protocol

from .lcs_limits import LcsTableTooLarge
from .parallel import WorkerPool, available_cpus, guided_share

SHARD_CHARACTERS = 1 << 22
"""A shard of ``compute(..., num_proc=N)`` ends once its texts hold this many characters, so that
the workers finish together and the texts in flight stay bounded."""
LEAST_SHARD_CHARACTERS = 1 << 16
"""Towards the end of the examples the shards get smaller (``parallel.guided_share`` of the
characters left), down to this many characters."""


class Workers(Protocol):
    """Workers other than this machine's processes (``integrations.ray_chunks.RayWorkers``):
    ``count`` of them, and ``parallel.starmap_in_order``'s contract on them."""

    count: int

    def starmap_in_order(
        self, function: Callable[..., Any], items: Iterable[tuple], count: int
    ) -> Generator[Any, None, None]: ...


def process_count(num_proc: int, pieces: int | None = None, workers: Workers | None = None) -> int:
    """The processes that score: ``num_proc`` capped at ``available_cpus()`` (``workers``
    elsewhere: as many as they have), and at the ``pieces`` of work when known (at least 1)."""
    count = min(num_proc, available_cpus()) if workers is None else workers.count
    return count if pieces is None else min(count, max(1, pieces))


class ExampleWorkers:
    """``function`` called on pieces of work in ``num_proc`` processes (a context manager): a
    ``parallel.WorkerPool`` of this machine, started when the block begins (with ``helps``, this
    process scores too), or ``workers`` elsewhere. The block's end stops the processes."""

    def __init__(
        self, function: Callable[..., Any], num_proc: int, helps: bool = False, workers: Workers | None = None
    ):
        self.function = function
        self.workers = workers
        self.pool = WorkerPool(function, num_proc, helps) if workers is None else None
        self.num_proc = num_proc if self.pool is None else self.pool.num_proc

    def __enter__(self) -> "ExampleWorkers":
        if self.pool is not None:
            self.pool.__enter__()
        return self

    def __exit__(self, *exception: Any) -> None:
        if self.pool is not None:
            self.pool.__exit__(*exception)

    def in_order(self, pieces: Iterable[tuple], firsts: Sequence[int] | None = None) -> Generator[Any, None, None]:
        """Yield ``function(*piece)`` for each piece, in order (at most two per process in flight).
        An ``LcsTableTooLarge`` at an example of piece ``k`` is re-raised at ``firsts[k]`` (its
        first example in the whole input) plus its index."""
        if self.pool is None:
            results = self.workers.starmap_in_order(self.function, pieces, self.num_proc)  # type: ignore[union-attr]
        else:
            results = self.pool.starmap(pieces)
        done = 0
        try:
            for result in results:
                yield result
                done += 1
        except LcsTableTooLarge as error:
            if firsts is None or error.index is None:
                raise
            raise error.at(firsts[done] + error.index, "example") from None
        finally:
            results.close()

    def in_shards(self, sources: list[str], predictions: list[str], references: list[list[str]]) -> list[Any]:
        """``function`` of consecutive shards of checked inputs, in input order: one shard with
        one process, or, with several, shards of at most ``len(sources) / (4 * num_proc)``
        examples (rounded up), each ended early once its texts reach its share of characters
        (``shard_starts``)."""
        if self.num_proc <= 1:
            return list(self.in_order([(sources, predictions, references)]))
        most = math.ceil(len(sources) / (4 * self.num_proc))
        starts = shard_starts(sources, predictions, references, most, self.num_proc)
        ends = starts[1:] + [len(sources)]
        shards = [
            (sources[start:end], predictions[start:end], references[start:end]) for start, end in zip(starts, ends)
        ]
        return list(self.in_order(shards, starts))


def shard_starts(
    sources: list[str], predictions: list[str], references: list[list[str]], most: int, num_proc: int = 1
) -> list[int]:
    """The first example of each shard: a shard ends after ``most`` examples or once its texts
    reach its share of characters, whichever comes first: ``SHARD_CHARACTERS``, or for
    ``num_proc`` workers less towards the end (``parallel.guided_share`` of the characters of the
    examples after the shard's start, at least ``LEAST_SHARD_CHARACTERS``)."""
    sizes = [
        len(source) + len(prediction) + sum(map(len, texts))
        for source, prediction, texts in zip(sources, predictions, references)
    ]
    remaining = sum(sizes)
    limit = guided_share(remaining, num_proc, SHARD_CHARACTERS, LEAST_SHARD_CHARACTERS)
    starts = [0]
    held = 0
    for index, size in enumerate(sizes):
        held += size
        if index + 1 - starts[-1] == most or held >= limit:
            starts.append(index + 1)
            remaining -= held
            limit = guided_share(remaining, num_proc, SHARD_CHARACTERS, LEAST_SHARD_CHARACTERS)
            held = 0
    if starts[-1] == len(sources):
        starts.pop()
    return starts
