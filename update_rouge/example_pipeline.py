"""An example's way through the metric, from checked inputs to what the corpus adds up: each
text's additions (and deletions) against its source, their scores, the per-example table, the
tokenless flags and the micro counts.

A worker runs ``score_checked`` (one ``ExampleScore`` per example) or ``table_checked`` (a
``Shard``) on a shard of checked inputs; ``merged_tables`` joins the shards in order.
``naming_examples`` re-raises a custom tokenizer's ``TokenizerError`` naming the example and field.
"""

import contextlib
from collections.abc import Iterator, Sequence

from .engines import Counts
from .errors import Field
from .example_scoring import score_changes
from .example_tables import DELETIONS_PREFIX, DeletionScore, ExampleScore, per_example_table
from .extraction import SourceIndex, join_segments
from .lcs_limits import LcsTableTooLarge
from .micro import count_columns
from .no_tokens import tokenless_examples
from .protocols import rules_of
from .settings import Settings
from .tokens import TokenizerError

Shard = tuple[dict[str, list], list[bool], dict[str, list[Counts]] | None]


def score_checked(
    settings: Settings, sources: list[str], predictions: list[str], references: list[list[str]]
) -> list[ExampleScore]:
    """Score checked inputs in this process (a worker's function): one ``ExampleScore`` each
    (with its ``DeletionScore`` under ``deletions=True``)."""
    prediction_additions, reference_additions = [], []
    prediction_deletions: list[list[str]] = []
    reference_deletions: list[list[list[str]]] = []
    change_index, deletions = settings.change_index(), settings.deletions
    scored_references = rules_of(settings.protocol).scored_references
    for i, (source, prediction, example_references) in enumerate(zip(sources, predictions, references)):
        example_references = scored_references(example_references)
        try:
            index = change_index(source)
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
    scored = score_changes(reference_additions, prediction_additions, settings)
    removed: list[DeletionScore | None] = [None] * len(scored)
    if deletions:
        try:
            deletion_scores = score_changes(reference_deletions, prediction_deletions, settings)
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

    Only on that error path are the examples searched, in input order, for the first field whose
    newline-joined additions (or deletions; with ``additions="edits"``, whose whole text) contain
    the text the tokenizer failed on; if none does (a text cut by ``max_words``), the error is
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
                found = [("text", text)] if index is None else [("additions", join_segments(index.additions(text)))]
                if index is not None and settings.deletions and where.field != "sources":
                    found.append(("deletions", join_segments(index.deletions(text))))
                for texts, joined in found:
                    if error.text in joined if error.text else not joined:
                        raise TokenizerError(error.problem, error.text, where, texts) from error
        raise
