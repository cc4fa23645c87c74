"""Examples spread over processes: the one path of ``compute(..., num_proc=N)`` (``metric``)
and of ``chunk_scoring.score_chunks`` (the command line, the demo, Ray).

``ExampleWorkers`` starts the processes that score (``parallel.WorkerPool``: ``process_count``
of them, no more than the CPUs available or the pieces of work) or takes ``Workers`` elsewhere
(Ray tasks), hands them pieces of work and yields the results in input order (``in_order``);
a piece's ``LcsTableTooLarge`` is placed at its example in the whole input where the pieces'
first examples are known. ``compute``'s pieces are shards of its checked inputs (``in_shards``,
cut by ``shard_starts``), scored by ``score_checked`` or ``table_checked`` and joined again by
``merged_tables``; ``naming_examples`` re-raises a custom tokenizer's ``TokenizerError`` naming
the example and field it came from. ``score_chunks``'s pieces are chunks of rows, which place
their errors at their file lines themselves.
"""

import contextlib
import math
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Any, Protocol

from .engines import Counts
from .errors import Field
from .example_scoring import score_additions
from .example_tables import DELETIONS_PREFIX, DeletionScore, ExampleScore, per_example_table
from .extraction import SourceIndex, join_additions
from .lcs_limits import LcsTableTooLarge
from .micro import count_columns
from .no_tokens import tokenless_examples
from .parallel import WorkerPool, available_cpus, guided_share
from .settings import Settings
from .tokens import TokenizerError

SHARD_CHARACTERS = 1 << 22
"""A shard of ``compute(..., num_proc=N)`` ends once its texts hold this many characters: long
examples make more, smaller shards, so that the workers finish together (the last shard of one
worker is then a small part of the run), and the texts in flight stay bounded."""
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
    """The processes that score: ``num_proc`` capped at ``available_cpus()`` (or, with
    ``workers`` elsewhere, as many as they have), and at the ``pieces`` of work when known
    (at least 1)."""
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
        """Yield ``function(*piece)`` for each piece, in the order of ``pieces`` (at most two per
        process in flight). An ``LcsTableTooLarge`` at an example of a piece is re-raised at
        ``firsts[k]`` (the first example of piece ``k`` in the whole input) plus its index."""
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


Shard = tuple[dict[str, list], list[bool], dict[str, list[Counts]] | None]


def score_checked(
    settings: Settings, sources: list[str], predictions: list[str], references: list[list[str]]
) -> list[ExampleScore]:
    """Score checked inputs in this process (a worker's function): one ``ExampleScore`` each
    (with its ``DeletionScore`` under ``deletions=True``)."""
    prediction_additions, reference_additions = [], []
    prediction_deletions: list[list[str]] = []
    reference_deletions: list[list[list[str]]] = []
    additions_index, deletions = settings.additions_index(), settings.deletions
    for i, (source, prediction, example_references) in enumerate(zip(sources, predictions, references)):
        try:
            index = additions_index(source)
            if settings.protocol == "autometrics":  # it scores the first reference only
                example_references = example_references[:1]
            # Each text's deletions right after its additions: the index splits or diffs the text once for both.
            prediction_additions.append(index.additions(prediction))
            if deletions:
                prediction_deletions.append(index.deletions(prediction))
            diffs = [(index.additions(text), index.deletions(text) if deletions else []) for text in example_references]
            reference_additions.append([added for added, _ in diffs])
            if deletions:
                reference_deletions.append([removed for _, removed in diffs])
        except LcsTableTooLarge as error:  # additions="edits": a diff beyond the LCS limit
            raise error.at(i, "example") from None
    scored = score_additions(reference_additions, prediction_additions, settings)
    removed: list[DeletionScore | None] = [None] * len(scored)
    if deletions:
        try:
            deletion_scores = score_additions(reference_deletions, prediction_deletions, settings)
        except LcsTableTooLarge as error:  # said of the deletions: the example's additions may be short
            raise error.of_deletions() from None
        removed = [
            DeletionScore(scores, references, prediction, both, counts)
            for (scores, both, counts), references, prediction in zip(
                deletion_scores, reference_deletions, prediction_deletions
            )
        ]
    return [
        ExampleScore(
            scores=scores,
            reference_additions=references,
            prediction_additions=prediction,
            both_empty=both,
            counts=counts,
            deletions=deleted,
        )
        for (scores, both, counts), references, prediction, deleted in zip(
            scored, reference_additions, prediction_additions, removed
        )
    ]


def table_checked(settings: Settings, sources: list[str], predictions: list[str], references: list[list[str]]) -> Shard:
    """The per-example table of checked inputs, per example whether it is tokenless, and the
    micro average's counts (``None`` unless ``average="micro"``): a worker's function."""
    examples = score_checked(settings, sources, predictions, references)
    return (
        per_example_table(examples, settings.rouge_types, settings.deletions),
        tokenless_examples(examples, settings.additions_tokenizer()),
        examples_counts(examples, settings.rouge_types),
    )


def merged_tables(shards: list[Shard]) -> Shard:
    """The tables, tokenless flags and counts of consecutive shards, joined in order."""
    table = {key: [value for shard in shards for value in shard[0][key]] for key in shards[0][0]}
    flags = [flag for shard in shards for flag in shard[1]]
    first_counts = shards[0][2]
    counts = None
    if first_counts is not None:
        counts = {key: [count for shard in shards for count in shard[2][key]] for key in first_counts}  # type: ignore[index]
    return table, flags, counts


def examples_counts(examples: Sequence[ExampleScore], rouge_types: Sequence[str]) -> dict[str, list[Counts]] | None:
    """``micro.count_columns`` of examples scored under ``average="micro"`` (the deletions' too,
    where scored); ``None`` otherwise."""
    if not examples or examples[0].counts is None:
        return None
    counts = [example.counts for example in examples]
    assert None not in counts, "every example of a micro run carries its counts"
    columns = count_columns(counts, rouge_types)  # type: ignore[arg-type]
    if examples[0].deletions is not None:
        deleted = [example.deletions.counts for example in examples]  # type: ignore[union-attr]
        columns.update(count_columns(deleted, rouge_types, DELETIONS_PREFIX))  # type: ignore[arg-type]
    return columns


@contextlib.contextmanager
def naming_examples(
    settings: Settings, sources: list[str], systems: dict[str, list[str]], references: list[list[str]]
) -> Iterator[None]:
    """Re-raise a custom tokenizer's ``TokenizerError`` naming the example and field it came from.

    Only on that error path are the examples searched, in input order, for the first field
    whose newline-joined additions (or, under ``deletions=True``, deletions) contain the text the
    tokenizer failed on (the engines give a tokenizer those joined additions or their lines, the no-token check single additions;
    with ``additions="edits"``, whose whole text contains it, sources included), so the
    default path costs nothing; if none does (a text cut by ``max_words``), the error is
    raised as it is.
    """
    try:
        yield
    except TokenizerError as error:
        edits = settings.additions == "edits"
        pattern = settings.segment_pattern
        for i, source in enumerate(sources):
            index = None if edits else SourceIndex(source, pattern)
            fields = [(Field("sources", i), source)] if edits else []
            fields += [
                (Field("references", i, j if len(references[i]) > 1 else None), reference)
                for j, reference in enumerate(references[i])
            ]
            fields += [(Field(name, i), texts[i]) for name, texts in systems.items()]
            for where, text in fields:
                # "edits" tokenizes whole texts (then only its re-tokenized runs, never refused)
                found = [("text", text)] if index is None else [("additions", join_additions(index.additions(text)))]
                if index is not None and settings.deletions and where.field != "sources":
                    found.append(("deletions", join_additions(index.deletions(text))))
                for texts, joined in found:
                    if error.text in joined if error.text else not joined:
                        raise TokenizerError(error.problem, error.text, where, texts) from error
        raise
