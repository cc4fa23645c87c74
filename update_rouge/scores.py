"""A rouge type's score of one pair: ``Score`` (precision, recall, F) and the balanced F-measure
``fmeasure``, as rouge-score defines them in ``rouge_score.scoring``, without its NumPy import.

``Score`` is a named tuple with rouge-score's name and fields, so a score equals rouge-score's
(and compares, unpacks and prints alike); ``fmeasure`` is rouge-score's formula, so its floats
are rouge-score's bit for bit (``tests/unit/test_scores.py``).
"""

from typing import NamedTuple


class Score(NamedTuple):
    """The precision, recall and F of one rouge type for one (target, prediction) pair."""

    precision: float
    recall: float
    fmeasure: float


def fmeasure(precision: float, recall: float) -> float:
    """The harmonic mean of ``precision`` and ``recall``: 2pr / (p + r), 0.0 when both are 0."""
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
