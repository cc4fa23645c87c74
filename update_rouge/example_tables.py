"""Per-example score tables and their corpus-level means.

Output keys: ``update_<type>`` (F1), ``update_<type>_precision``, ``update_<type>_recall``,
``_target_diff_len`` and ``_prediction_diff_len`` (characters of the joined additions) and
``_both_empty`` (whether the no-additions rule applied).
"""

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rouge_score.scoring import Score


@dataclass(frozen=True)
class ExampleScore:
    """Everything UpdateROUGE computed for one example.

    ``scores`` maps each rouge type to precision, recall and F1 in [0, 1];
    ``reference_additions`` holds one list of additions per reference;
    ``both_empty`` is True when the no-additions rule scored the example 1.0 (the prediction
    adds nothing, and neither does some reference, or every reference under ``pooled``);
    ``counts`` (under ``average="micro"``, else ``None``) maps each type to the counts the micro
    average sums (``micro``: ``engines.Counts``); under ``protocol="fruit"`` or ``"editeval"``
    to each reference's precision, recall and F, flattened (``example_scoring.score_published``).
    """

    scores: dict[str, Score]
    reference_additions: list[list[str]]
    prediction_additions: list[str]
    both_empty: bool
    counts: Mapping[str, tuple[float, ...]] | None = None

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


def per_example_table(examples: Sequence[ExampleScore], rouge_types: Sequence[str]) -> dict[str, list]:
    """One list per output key, one value per example, in input order (plain Python values)."""
    table: dict[str, list] = {}
    for rouge_type in rouge_types:
        key = f"update_{rouge_type}"
        table[key] = [float(e.scores[rouge_type].fmeasure) for e in examples]
        table[f"{key}_precision"] = [float(e.scores[rouge_type].precision) for e in examples]
        table[f"{key}_recall"] = [float(e.scores[rouge_type].recall) for e in examples]
    # The published key keeps rouge-score's word "target" (see docs/architecture.md).
    table["_target_diff_len"] = [e.reference_diff_len for e in examples]
    table["_prediction_diff_len"] = [e.prediction_diff_len for e in examples]
    table["_both_empty"] = [e.both_empty for e in examples]
    return table


def f1_columns(table: dict[str, list], rouge_types: Sequence[str]) -> dict[str, list]:
    """The per-example F1 column of each rouge type, keyed by its output key ``update_<type>``."""
    return {f"update_{rouge_type}": table[f"update_{rouge_type}"] for rouge_type in rouge_types}


def mean(values: Sequence[float]) -> float:
    """Plain mean, summed exactly (``math.fsum``) so that it does not depend on example order."""
    return math.fsum(values) / len(values)


def aggregate(table: dict[str, list]) -> dict[str, object]:
    """Means of a per-example table; ``_both_empty`` becomes the number of examples it applied to."""
    return {key: (sum(values) if key == "_both_empty" else mean(values)) for key, values in table.items()}


def exact_terms(values: Iterable[float]) -> list[float]:
    """A few floats whose exact sum is the exact sum of ``values`` (finite floats).

    The first term is the correctly rounded sum (``math.fsum``), each next one the correctly
    rounded remainder; the remainder shrinks by about 2**-53 a step and, the exact sum of
    floats being a multiple of 2**-1074, reaches zero after a handful of steps.
    """
    values = list(values)
    terms: list[float] = []
    while True:
        remainder = math.fsum(values + [-term for term in terms])
        if remainder == 0.0:
            return terms
        terms.append(remainder)


class RunningTotals:
    """Corpus means of a per-example table that arrives in chunks, in constant memory.

    Each key keeps the exact sum of its values so far as a few floats (``exact_terms``), so
    ``result()`` equals ``aggregate`` of the whole table bit for bit, however it was chunked.
    """

    def __init__(self) -> None:
        self.count = 0
        self._terms: dict[str, list[float]] = {}
        self._both_empty = 0

    def add(self, table: dict[str, list]) -> None:
        """Add the rows of a per-example table (``per_example_table`` or ``compute(use_aggregator=False)``)."""
        for key, values in table.items():
            if key == "_both_empty":
                self._both_empty += sum(values)
            else:
                self._terms[key] = exact_terms(self._terms.get(key, []) + list(values))
        self.count += len(table["_both_empty"])

    def result(self) -> dict[str, object]:
        """Means so far, under the keys of ``aggregate``; raises ``ValueError`` before any row."""
        if self.count == 0:
            raise ValueError("no examples were added: there is nothing to aggregate")
        means: dict[str, object] = {key: math.fsum(terms) / self.count for key, terms in self._terms.items()}
        means["_both_empty"] = self._both_empty
        return means
