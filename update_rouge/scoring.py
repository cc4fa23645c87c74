"""Scoring of one example's additions with Google's rouge-score.

Each side's additions are joined one per line and passed to ``RougeScorer.score`` with the
reference additions as target. The UpdateROUGE rule for examples without additions, and the
choice among several references, live here too. Scores are rouge-score ``Score`` tuples of
precision, recall and F1, each in [0, 1].
"""

import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from rouge_score import rouge_scorer
from rouge_score.scoring import Score

from .extraction import join_additions
from .rouge155 import Rouge155Tokenizer

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeLsum")
_ROUGE_TYPE_PATTERN = re.compile(r"rouge[1-9]|rougeL|rougeLsum")
VALID_ROUGE_TYPES_TEXT = "rouge1 to rouge9 (n-grams), rougeL (LCS), rougeLsum (summary-level LCS over lines)"
PERFECT = Score(precision=1.0, recall=1.0, fmeasure=1.0)
ROUGE155_TOKENIZER = Rouge155Tokenizer()


def check_rouge_types(rouge_types: Optional[Sequence[str]]) -> Tuple[str, ...]:
    """Return ``rouge_types`` as a tuple (the defaults for ``None``); raise ``ValueError`` on bad ones."""
    if rouge_types is None:
        return DEFAULT_ROUGE_TYPES
    if isinstance(rouge_types, str) or not hasattr(rouge_types, "__iter__"):
        raise ValueError(f"rouge_types must be a list of rouge type names, got {rouge_types!r}")
    checked = tuple(rouge_types)
    if not checked:
        raise ValueError(f"rouge_types is empty; valid types are {VALID_ROUGE_TYPES_TEXT}")
    for rouge_type in checked:
        if not isinstance(rouge_type, str) or not _ROUGE_TYPE_PATTERN.fullmatch(rouge_type):
            raise ValueError(f"unknown rouge type {rouge_type!r}; valid types are {VALID_ROUGE_TYPES_TEXT}")
    duplicates = sorted({t for t in checked if checked.count(t) > 1})
    if duplicates:
        raise ValueError(f"rouge_types lists {', '.join(duplicates)} more than once")
    return checked


class _CallableTokenizer:
    """Adapts a callable ``text -> list of tokens`` to rouge-score's tokenizer interface."""

    def __init__(self, tokenize: Callable[[str], List[str]]):
        self.tokenize = tokenize


def make_scorer(
    rouge_types: Sequence[str], stemmer: str = "none", tokenizer: Optional[Callable[[str], List[str]]] = None
) -> rouge_scorer.RougeScorer:
    """Build the rouge-score scorer for a stemmer name resolved by ``stemming.resolve_stemmer``.

    ``"rouge155"`` scores ROUGE-1.5.5 ``-m`` tokens; a custom ``tokenizer`` (only with ``"none"``)
    replaces rouge-score's tokenizer.
    """
    if stemmer == "rouge155":
        tokenizer_object = ROUGE155_TOKENIZER
    elif tokenizer is not None:
        tokenizer_object = _CallableTokenizer(tokenizer)
    else:
        tokenizer_object = None
    return rouge_scorer.RougeScorer(list(rouge_types), use_stemmer=stemmer == "porter", tokenizer=tokenizer_object)


def score_against_reference(
    scorer: rouge_scorer.RougeScorer, reference_additions: List[str], prediction_additions: List[str]
) -> Dict[str, Score]:
    """Score one prediction's additions against one reference's additions.

    When neither side has additions every type scores ``PERFECT`` (1.0): both texts left the
    source as it was, which is a perfect match for an update metric.
    """
    if not reference_additions and not prediction_additions:
        return {rouge_type: PERFECT for rouge_type in scorer.rouge_types}
    return scorer.score(target=join_additions(reference_additions), prediction=join_additions(prediction_additions))


def best_by_f1(per_reference: List[Dict[str, Score]], rouge_types: Sequence[str]) -> Dict[str, Score]:
    """For each type, the score of the reference with the highest F1 (the first one on ties).

    This is rouge-score's ``score_multi`` rule, applied after the no-additions rule.
    """
    best = {}
    for rouge_type in rouge_types:
        best[rouge_type] = max((scores[rouge_type] for scores in per_reference), key=lambda s: s.fmeasure)
    return best
