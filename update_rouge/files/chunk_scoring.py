"""Examples scored in chunks: a file's (the command line, in one process or many, or on Ray)
or rows read already (the demo's file, ``corpus_of_rows``).

``score_chunks`` hands out chunks of examples to worker processes
(``example_workers.ExampleWorkers``), which parse and score them, and feeds a ``corpus.Corpus``
with their per-example tables in input order: its result equals ``compute`` on all the examples
at once, bit for bit, groups (``rows.Row.group``) included.
"""

import dataclasses
import functools
import itertools
from collections.abc import Callable, Generator, Iterable
from typing import Any, NamedTuple

from ..corpus import Corpus
from ..errors import InputError
from ..example_workers import ExampleWorkers, Workers, process_count
from ..lcs_limits import LcsTableTooLarge
from ..metric import UpdateRougeScorer
from ..no_tokens import warn_tokenless
from ..parallel import available_cpus
from ..settings import Settings
from .chunks import CHUNK_LINES

Table = dict[str, list]


def _silent(_: str) -> None:
    pass


def corpus_of_rows(
    rows: Iterable[Any],
    settings: Settings,
    on_chunk: Callable[[list[int], Table], None] | None = None,
    chunk_size: int = CHUNK_LINES,
    tell: Callable[[str], None] = _silent,
    paired: bool = False,
) -> Corpus:
    """``score_chunks`` of ``rows``, read here, in chunks of ``chunk_size`` examples.

    ``rows`` are ``rows.Row``s (``line``, ``source``, ``references``, ``prediction``); with
    ``paired``, each also has a ``baseline`` prediction, scored for the paired test.
    """

    def chunks():
        remaining = iter(rows)
        while chunk := list(itertools.islice(remaining, chunk_size)):
            yield chunk

    return score_chunks(chunks(), settings, None if on_chunk is None else Output(on_chunk), tell, paired)


class Output(NamedTuple):
    """What ``score_chunks`` does with each chunk's per-example table: ``render(table, ids)`` where
    the chunk was scored (a module-level function, so that it pickles; ``None``: the table itself),
    then ``write(lines, rendered)`` here, in input order, ``lines`` being the examples' file lines."""

    write: Callable[[list[int], Any], None]
    render: Callable[[Table, list[str | None]], Any] | None = None


class Scored(NamedTuple):
    """A chunk scored (``_score_chunk``): its examples' lines (none for blank lines only), the
    stand-in references, the tables, what ``render`` made and the group labels."""

    lines: list[int]
    references: list[list[str]]
    tables: Any = None
    rendered: Any = None
    labels: list | None = None


def score_chunks(
    chunks: Iterable[Any],
    settings: Settings,
    output: Output | None = None,
    tell: Callable[[str], None] = _silent,
    paired: bool = False,
    workers: Workers | None = None,
) -> Corpus:
    """Score ``chunks`` of examples with ``settings``; return what the corpus result needs.

    A chunk is a list of ``rows.Row``s or a ``chunks.Chunk`` (its ``rows()``, parsed where it is
    scored), scored in one of ``settings.num_proc`` worker processes, capped at the CPUs available
    and at the number of chunks (the first ones read ahead to know; ``tell`` is told in one
    sentence), or by ``workers`` elsewhere (Ray tasks), no more than the chunks. This process adds
    up their per-example tables in input order (at most ``2 * num_proc`` chunks in flight). With an
    ``output``, each chunk's per-example table and ids go to its ``render`` where it was scored,
    and what that gives, with the examples' file lines, to its ``write`` here. Examples without a
    token get one ``NoTokensWarning`` for the whole run. A pair beyond an LCS size limit raises
    ``LcsTableTooLarge`` naming the example's line; unusable input, ``rows()``'s ``InputFileError``.
    """
    pending = iter(chunks)
    first = list(itertools.islice(pending, process_count(settings.num_proc, workers=workers)))
    num_proc = process_count(settings.num_proc, len(first), workers)
    if workers is None and num_proc < settings.num_proc:
        tell(
            f"--num-proc {settings.num_proc}: using {num_proc} worker process(es) "
            f"({available_cpus()} CPU(s) available, {len(first)} chunk(s) read ahead)"
        )
    scorer = UpdateRougeScorer(dataclasses.replace(settings, use_aggregator=False, num_proc=1))
    corpus = Corpus(settings, paired)
    render = None if output is None else output.render
    score = functools.partial(_score_chunk, scorer, paired, render)
    with ExampleWorkers(score, num_proc, workers=workers) as spread:
        results = spread.in_order((chunk,) for chunk in itertools.chain(first, pending))
        tokenless = _add_up(results, corpus, output)
    warn_tokenless(tokenless, corpus.totals.count, stacklevel=2, deletions=settings.deletions)
    return corpus


def _add_up(results: Generator[Scored, None, None], corpus: Corpus, output: Output | None) -> int:
    """Add the chunks ``results`` to ``corpus`` in input order (and give each to ``output``);
    return the number of examples without tokens."""
    tokenless = 0
    try:
        for scored in results:
            if not scored.lines:
                continue
            corpus.add_tables(scored.tables, scored.references, scored.labels)
            tokenless += scored.tables.tokenless
            if output is not None:
                output.write(scored.lines, scored.tables.table if output.render is None else scored.rendered)
    finally:
        results.close()
    return tokenless


def _score_chunk(scorer: UpdateRougeScorer, paired: bool, render: Callable[..., Any] | None, chunk: Any) -> Scored:
    """A chunk of ``rows.Row``s, or one whose ``rows()`` are its examples, scored: their lines
    (none for blank lines only), stand-in references (lists of the fewest and the most references
    an example has: all ``Corpus.add`` reads), ``UpdateRougeScorer.tables`` of the examples (the
    baseline's with ``paired``; the entity keys with the rows' ``evidence``), ``render(table, ids)``
    (``None`` without ``render``) and the group labels (``None`` when the rows have none)."""
    rows = chunk if isinstance(chunk, list) else chunk.rows()
    if not rows:  # blank lines only
        return Scored([], [])
    lines = [row.line for row in rows]
    references = [row.references for row in rows]
    baselines = [row.baseline for row in rows] if paired else None
    evidence = None if getattr(rows[0], "evidence", None) is None else [row.evidence for row in rows]
    sources, predictions = [row.source for row in rows], [row.prediction for row in rows]
    try:
        tables = scorer.tables(sources, predictions, references, baselines, evidence)
    except LcsTableTooLarge as error:
        if error.index is None:
            raise
        raise error.at(lines[error.index], "line") from None
    except InputError as error:  # of an example (several references under protocol='fruit'): at its line
        raise error if error.index is None else error.said_of(f"line {lines[error.index]}") from None
    counts = [len(example) for example in references]
    rendered = None if render is None else render(tables.table, [getattr(row, "id", None) for row in rows])
    labels = [getattr(row, "group", None) for row in rows]
    return Scored(lines, [[""] * min(counts), [""] * max(counts)], tables, rendered, None if None in labels else labels)
