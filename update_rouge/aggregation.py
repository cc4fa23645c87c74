"""Per-example score tables and their corpus-level means.

Output keys: ``update_<type>`` (F1), ``update_<type>_precision``, ``update_<type>_recall``,
``_target_diff_len`` and ``_prediction_diff_len`` (characters of the joined additions) and
``_both_empty`` (whether the no-additions rule applied).
"""

import math
from dataclasses import dataclass
from typing import Dict, List, Sequence

from rouge_score.scoring import Score


@dataclass(frozen=True)
class ExampleScore:
    """Everything UpdateROUGE computed for one example.

    ``scores`` maps each rouge type to precision, recall and F1 in [0, 1];
    ``reference_additions`` holds one list of additions per reference;
    ``both_empty`` is True when the no-additions rule scored the example 1.0 (the prediction
    adds nothing, and neither does some reference, or every reference under ``pooled``).
    """

    scores: Dict[str, Score]
    reference_additions: List[List[str]]
    prediction_additions: List[str]
    both_empty: bool

    @property
    def target_diff_len(self) -> float:
        """Characters of the joined reference additions (mean over the example's references)."""
        lengths = [_joined_length(additions) for additions in self.reference_additions]
        return math.fsum(lengths) / len(lengths)

    @property
    def prediction_diff_len(self) -> float:
        """Characters of the joined prediction additions."""
        return float(_joined_length(self.prediction_additions))


def _joined_length(additions: List[str]) -> int:
    """Length of the additions joined by a one-character separator, without building the string."""
    return sum(map(len, additions)) + max(len(additions) - 1, 0)


def per_example_table(examples: Sequence[ExampleScore], rouge_types: Sequence[str]) -> Dict[str, list]:
    """One list per output key, one value per example, in input order (plain Python values)."""
    table: Dict[str, list] = {}
    for rouge_type in rouge_types:
        key = f"update_{rouge_type}"
        table[key] = [float(e.scores[rouge_type].fmeasure) for e in examples]
        table[f"{key}_precision"] = [float(e.scores[rouge_type].precision) for e in examples]
        table[f"{key}_recall"] = [float(e.scores[rouge_type].recall) for e in examples]
    table["_target_diff_len"] = [e.target_diff_len for e in examples]
    table["_prediction_diff_len"] = [e.prediction_diff_len for e in examples]
    table["_both_empty"] = [e.both_empty for e in examples]
    return table


def f1_columns(table: Dict[str, list], rouge_types: Sequence[str]) -> Dict[str, list]:
    """The per-example F1 column of each rouge type, keyed by its output key ``update_<type>``."""
    return {f"update_{rouge_type}": table[f"update_{rouge_type}"] for rouge_type in rouge_types}


def mean(values: Sequence[float]) -> float:
    """Plain mean, summed exactly (``math.fsum``) so that it does not depend on example order."""
    return math.fsum(values) / len(values)


def aggregate(table: Dict[str, list]) -> Dict[str, object]:
    """Means of a per-example table; ``_both_empty`` becomes the number of examples it applied to."""
    return {key: (sum(values) if key == "_both_empty" else mean(values)) for key, values in table.items()}
