"""Per-example score tables and their corpus-level means.

Output keys: ``update_<type>`` (F1), ``update_<type>_precision``, ``update_<type>_recall``,
``_target_diff_len`` and ``_prediction_diff_len`` (characters of the joined additions) and
``_both_empty`` (the no-additions rule applied); with ``deletions=True`` also
``update_del_<type>`` (and ``_precision``, ``_recall``) and ``_both_kept``; with ``entities=``
the keys of ``entities.py``. The corpus values of ``COUNT_KEYS`` are counts of examples; a
``None`` (an undefined ``update_ent_outdated_kept``) is left out of its key's mean.
"""

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .entities import ENTITY_COUNT_KEYS, ENTITY_KEY, EntityScore
from .scores import Score

ADDITIONS_PREFIX, DELETIONS_PREFIX = "update_", "update_del_"
COUNT_KEYS = ("_both_empty", "_both_kept", *ENTITY_COUNT_KEYS)


def score_keys(rouge_types: Sequence[str], deletions: bool = False) -> list[str]:
    """The output key of each type's F1, ``update_<type>``, then with ``deletions`` each
    ``update_del_<type>``: the keys whose corpus values get intervals and paired tests."""
    prefixes = (ADDITIONS_PREFIX, DELETIONS_PREFIX) if deletions else (ADDITIONS_PREFIX,)
    return [f"{prefix}{rouge_type}" for prefix in prefixes for rouge_type in rouge_types]


@dataclass(frozen=True)
class DeletionScore:
    """What a prediction deletes from its source, scored against what its references delete:
    ``scores`` per rouge type, one list of deletions per reference, ``both_kept`` where the
    no-deletions rule scored 1.0, ``counts`` as ``ExampleScore.counts``."""

    scores: dict[str, Score]
    reference_deletions: list[list[str]]
    prediction_deletions: list[str]
    both_kept: bool
    counts: Mapping[str, tuple[float, ...]] | None = None


@dataclass(frozen=True)
class ExampleScore:
    """Everything UpdateROUGE computed for one example: ``scores`` per rouge type (precision, recall
    and F1 in [0, 1]), one list of additions per reference, ``both_empty`` where the no-additions
    rule scored 1.0, ``counts`` (else ``None``) the counts the micro average sums or, under
    ``protocol="fruit"`` or ``"editeval"``, each reference's flattened scores; ``deletions`` and
    ``entities`` with those options."""

    scores: dict[str, Score]
    reference_additions: list[list[str]]
    prediction_additions: list[str]
    both_empty: bool
    counts: Mapping[str, tuple[float, ...]] | None = None
    deletions: DeletionScore | None = None
    entities: EntityScore | None = None

    @property
    def reference_diff_len(self) -> float:
        """Characters of the joined reference additions (mean over the example's references)."""
        lengths = [_joined_length(additions) for additions in self.reference_additions]
        return math.fsum(lengths) / len(lengths)

    @property
    def prediction_diff_len(self) -> float:
        """Characters of the joined prediction additions."""
        return float(_joined_length(self.prediction_additions))


def _joined_length(additions: list[str]) -> int:
    """Length of the additions joined by a one-character separator, without building the string."""
    return sum(map(len, additions)) + max(len(additions) - 1, 0)


def per_example_table(
    examples: Sequence[ExampleScore], rouge_types: Sequence[str], deletions: bool = False
) -> dict[str, list]:
    """One list per output key, one value per example, in input order (plain Python values);
    the deletions' keys with ``deletions`` (every example then carries its ``DeletionScore``)."""
    table = _score_columns([e.scores for e in examples], rouge_types, ADDITIONS_PREFIX)
    if deletions:
        table.update(_score_columns([e.deletions.scores for e in examples], rouge_types, DELETIONS_PREFIX))  # type: ignore[union-attr]
    # The published key keeps rouge-score's word "target" (see docs/architecture.md).
    table["_target_diff_len"] = [e.reference_diff_len for e in examples]
    table["_prediction_diff_len"] = [e.prediction_diff_len for e in examples]
    table["_both_empty"] = [e.both_empty for e in examples]
    if deletions:
        table["_both_kept"] = [e.deletions.both_kept for e in examples]  # type: ignore[union-attr]
    return table


def _score_columns(scores: Sequence[Mapping[str, Score]], rouge_types: Sequence[str], prefix: str) -> dict[str, list]:
    """Per type, ``<prefix><type>`` (F1), ``_precision`` and ``_recall`` of each example's ``scores``."""
    table: dict[str, list] = {}
    for rouge_type in rouge_types:
        key = f"{prefix}{rouge_type}"
        table[key] = [float(s[rouge_type].fmeasure) for s in scores]
        table[f"{key}_precision"] = [float(s[rouge_type].precision) for s in scores]
        table[f"{key}_recall"] = [float(s[rouge_type].recall) for s in scores]
    return table


def f1_columns(table: dict[str, list], rouge_types: Sequence[str]) -> dict[str, list]:
    """The per-example F1 column of each rouge type, keyed by its output key ``update_<type>``
    (and ``update_del_<type>`` where ``table`` holds the deletions' scores), then ``update_ent``'s
    where ``table`` holds the entity scores: the columns that get intervals and paired tests."""
    deletions = f"{DELETIONS_PREFIX}{rouge_types[0]}" in table if rouge_types else False
    keys = score_keys(rouge_types, deletions) + ([ENTITY_KEY] if ENTITY_KEY in table else [])
    return {key: table[key] for key in keys}


def mean(values: Sequence[float]) -> float:
    """Plain mean, summed exactly (``math.fsum``) so that it does not depend on example order."""
    return math.fsum(values) / len(values)


def aggregate(table: dict[str, list]) -> dict[str, object]:
    """Means of a per-example table; ``_both_empty`` and ``_both_kept`` become the number of
    examples they applied to."""
    return {key: (sum(values) if key in COUNT_KEYS else mean(values)) for key, values in table.items()}


def exact_terms(values: Iterable[float]) -> list[float]:
    """A few floats whose exact sum is the exact sum of ``values`` (finite floats): the correctly
    rounded sum (``math.fsum``), then each correctly rounded remainder until it is zero."""
    values = list(values)
    terms: list[float] = []
    while True:
        remainder = math.fsum(values + [-term for term in terms])
        if remainder == 0.0:
            return terms
        terms.append(remainder)


class RunningTotals:
    """Corpus means of a per-example table that arrives in chunks, in constant memory: ``result()``
    equals ``aggregate`` of the whole table bit for bit, however it was chunked (a key's mean is
    ``None`` while no value is defined)."""

    def __init__(self) -> None:
        self.count = 0
        self._terms: dict[str, list[float]] = {}
        self._counts: dict[str, int] = {}
        self._defined: dict[str, int] = {}

    def add(self, table: dict[str, list]) -> None:
        """Add the rows of a per-example table (``per_example_table`` or ``compute(use_aggregator=False)``)."""
        for key, values in table.items():
            if key in COUNT_KEYS:
                self._counts[key] = self._counts.get(key, 0) + sum(values)
            else:
                defined = [value for value in values if value is not None]
                self._terms[key] = exact_terms(self._terms.get(key, []) + defined)
                self._defined[key] = self._defined.get(key, 0) + len(defined)
        self.count += len(table["_both_empty"])

    def result(self) -> dict[str, object]:
        """Means so far, under the keys of ``aggregate``; raises ``ValueError`` before any row."""
        if self.count == 0:
            raise ValueError("no examples were added: there is nothing to aggregate")
        means: dict[str, object] = {
            key: math.fsum(terms) / self._defined[key] if self._defined[key] else None
            for key, terms in self._terms.items()
        }
        means.update(self._counts)
        return means
