"""UpdateROUGE's scoring rules on top of an engine that reproduces rouge-score.

Each side's additions are joined one per line and scored as ``RougeScorer.score(target=reference
additions, prediction=prediction additions)`` would score them. The rule for examples without
additions and the choice among several references live here. Scores are rouge-score ``Score``
tuples of precision, recall and F1, each in [0, 1].
"""

import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from rouge_score.scoring import Score

from .engines import make_engine
from .extraction import join_additions
from .rouge155 import Rouge155Tokenizer
from .tokenizers import CallableTokenizer, DefaultTokenizer

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


def make_tokenizer(stemmer: str = "none", tokenizer: Optional[Callable[[str], List[str]]] = None):
    """The tokenizer for a stemmer name resolved by ``stemming.resolve_stemmer``.

    ``"none"`` and ``"porter"``: rouge-score's tokenizer, without or with its Porter stemmer;
    ``"rouge155"``: ROUGE-1.5.5's tokens and ``-m`` stemming; a custom ``tokenizer`` (only with
    ``"none"``) replaces them.
    """
    if stemmer == "rouge155":
        return ROUGE155_TOKENIZER
    if tokenizer is not None:
        return CallableTokenizer(tokenizer)
    return DefaultTokenizer(use_stemmer=stemmer == "porter")


def score_additions(
    rouge_types: Sequence[str],
    reference_additions: List[List[List[str]]],
    prediction_additions: List[List[str]],
    stemmer: str = "none",
    tokenizer: Optional[Callable[[str], List[str]]] = None,
    engine: str = "auto",
) -> List[Tuple[Dict[str, Score], bool]]:
    """Score every example's additions: per example, one list of additions per reference.

    Returns per example the score of each type and whether the no-additions rule applied.
    A (reference, prediction) pair where neither side has additions scores ``PERFECT`` (1.0):
    both texts left the source as it was. With several references each type takes the
    reference with the highest F1, the first one on ties (rouge-score's ``score_multi``).
    """
    scorer = make_engine(engine, rouge_types, make_tokenizer(stemmer, tokenizer))
    pairs = [
        (join_additions(reference), join_additions(prediction))
        for references, prediction in zip(reference_additions, prediction_additions)
        for reference in references
        if reference or prediction
    ]
    scored = iter(scorer.score_pairs(pairs))
    perfect = {rouge_type: PERFECT for rouge_type in rouge_types}
    results = []
    for references, prediction in zip(reference_additions, prediction_additions):
        per_reference = [next(scored) if reference or prediction else perfect for reference in references]
        both_empty = not prediction and any(not reference for reference in references)
        results.append((best_by_f1(per_reference, rouge_types), both_empty))
    return results


def best_by_f1(per_reference: List[Dict[str, Score]], rouge_types: Sequence[str]) -> Dict[str, Score]:
    """For each type, the score of the reference with the highest F1 (the first one on ties)."""
    return {
        rouge_type: max((scores[rouge_type] for scores in per_reference), key=lambda s: s.fmeasure)
        for rouge_type in rouge_types
    }
