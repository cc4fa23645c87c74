"""Examples scored in chunks (the CLI's stream, the demo's file, the Trainer's batches).

``score_chunks`` hands out chunks of examples (``file_chunks``: raw lines of a file, or rows)
to worker processes with ``num_proc`` > 1, which parse and score them, and feeds a
``corpus.Corpus`` with their per-example tables in input order; ``score_rows`` does so for rows
read already. The ``Corpus`` result equals ``compute`` on all the examples at once, bit for bit.
Rows with a group label (``files.Row.group``, given by ``--group-by``) also feed the corpus of
their group (``Corpus.add_tables``).
"""

import dataclasses
import functools
import itertools
from collections.abc import Callable, Generator, Iterable
from typing import Any, NamedTuple, Protocol

from .corpus import Corpus
from .engines import Counts
from .lcs_limits import LcsTableTooLarge
from .metric import UpdateRougeScorer
from .no_tokens import warn_tokenless
from .parallel import available_cpus, starmap_in_order
from .settings import Settings

CHUNK_SIZE = 1000
"""Examples scored at a time by ``score_rows``."""

Table = dict[str, list]
Counted = dict[str, list[Counts]]


class Workers(Protocol):
    """Workers other than this machine's processes (``integrations.ray_chunks.RayWorkers``):
    ``count`` of them, and ``parallel.starmap_in_order``'s contract on them."""

    count: int

    def starmap_in_order(
        self, function: Callable[..., Any], items: Iterable[tuple], count: int
    ) -> Generator[Any, None, None]: ...


def _silent(_: str) -> None:
    pass


def score_rows(
    rows: Iterable[Any],
    settings: Settings,
    on_chunk: Callable[[list[int], Table], None] | None = None,
    chunk_size: int = CHUNK_SIZE,
    tell: Callable[[str], None] = _silent,
    paired: bool = False,
) -> Corpus:
    """``score_chunks`` of ``rows``, read here, in chunks of ``chunk_size`` examples.

    ``rows`` are ``files.Row``s (``line``, ``source``, ``references``, ``prediction``); with
    ``paired``, each also has a ``baseline`` prediction, scored for the paired test.
    """

    def chunks():
        remaining = iter(rows)
        while chunk := list(itertools.islice(remaining, chunk_size)):
            yield chunk

    return score_chunks(chunks(), settings, None if on_chunk is None else Output(on_chunk), tell, paired)


class Output(NamedTuple):
    """What ``score_chunks`` does with each chunk's per-example table: ``render(lines, table, ids)``
    where the chunk was scored (a worker: a module-level function, so that it pickles; ``None``:
    the table itself; ``ids``: each example's ``id``, ``None`` for one without), then
    ``write(lines, rendered)`` here, chunk by chunk in input order."""

    write: Callable[[list[int], Any], None]
    render: Callable[[list[int], Table, list[str | None]], Any] | None = None


def score_chunks(
    chunks: Iterable[Any],
    settings: Settings,
    output: Output | None = None,
    tell: Callable[[str], None] = _silent,
    paired: bool = False,
    workers: Workers | None = None,
) -> Corpus:
    """Score ``chunks`` of examples with ``settings``; return what the corpus result needs.

    A chunk is a list of ``files.Row``s or an object whose ``rows()`` are its examples (a
    ``file_chunks.Chunk``: raw lines, parsed there), scored in a worker process:
    ``settings.num_proc`` of them, capped at the CPUs available and at the number of chunks
    (the first ones are read ahead to know), which ``tell`` is told in one sentence; or by
    ``workers`` elsewhere (Ray tasks, ``integrations.ray_chunks``), as many as they have but no
    more than the chunks. This process only hands out the chunks and adds up their per-example
    tables in input order (at most ``2 * num_proc`` chunks in flight). With an ``output``, each
    chunk's examples' file lines and per-example table (the keys of
    ``compute(use_aggregator=False)``) and ids go to its ``render`` where the chunk was scored, and what
    that gives to its ``write`` here (the per-example file's text, say, so that this process only
    writes it). Examples in which the tokenizer finds no token get one ``NoTokensWarning`` for
    the whole run. A pair beyond an LCS size limit raises
    ``LcsTableTooLarge`` naming the example's line; unusable input, the ``InputFileError`` of
    ``rows()``.
    """
    num_proc = min(settings.num_proc, available_cpus()) if workers is None else workers.count
    pending = iter(chunks)
    first = list(itertools.islice(pending, num_proc))
    num_proc = min(num_proc, max(1, len(first)))
    if workers is None and num_proc < settings.num_proc:
        tell(
            f"--num-proc {settings.num_proc}: using {num_proc} worker process(es) "
            f"({available_cpus()} CPU(s) available, {len(first)} chunk(s) read ahead)"
        )
    scorer = UpdateRougeScorer(dataclasses.replace(settings, use_aggregator=False, num_proc=1))
    corpus = Corpus(settings, paired)
    tokenless = 0
    render = None if output is None else output.render
    score = functools.partial(_score_chunk, scorer, paired, render)
    starmap = starmap_in_order if workers is None else workers.starmap_in_order
    results = starmap(score, ((chunk,) for chunk in itertools.chain(first, pending)), num_proc)
    try:
        for lines, references, tables, rendered, labels in results:
            if not lines:
                continue
            corpus.add_tables(tables, references, labels)
            tokenless += tables.tokenless
            if output is not None:
                output.write(lines, tables.table if render is None else rendered)
    finally:
        results.close()
    warn_tokenless(tokenless, corpus.totals.count, stacklevel=2)
    return corpus


def _score_chunk(scorer: UpdateRougeScorer, paired: bool, render: Callable[..., Any] | None, chunk: Any) -> tuple:
    """A chunk's examples' lines (none for a chunk of blank lines), stand-in references (a list
    of the fewest and one of the most references an example has: all ``Corpus.add`` reads of
    them), ``UpdateRougeScorer.tables`` of its examples (``None`` for blank lines: the per-example
    tables, the baseline's with ``paired``, the tokenless count, the micro counts),
    ``render(lines, table, ids)`` (``None`` without ``render``) and the examples' group labels
    (``None`` when the rows have none)."""
    rows = chunk if isinstance(chunk, list) else chunk.rows()
    if not rows:  # blank lines only
        return [], [], None, None, None
    lines = [row.line for row in rows]
    references = [row.references for row in rows]
    baselines = [row.baseline for row in rows] if paired else None
    try:
        tables = scorer.tables([row.source for row in rows], [row.prediction for row in rows], references, baselines)
    except LcsTableTooLarge as error:
        if error.index is None:
            raise
        raise error.at(lines[error.index], "line") from None
    counts = [len(example) for example in references]
    rendered = None if render is None else render(lines, tables.table, [getattr(row, "id", None) for row in rows])
    labels = [getattr(row, "group", None) for row in rows]
    return lines, [[""] * min(counts), [""] * max(counts)], tables, rendered, None if None in labels else labels
