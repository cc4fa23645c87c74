"""Which rouge types and multi-reference modes can be asked for, and their checks.

``check_rouge_types`` and ``check_multi_ref`` raise ``ValueError`` naming the bad value and the
valid ones; ``settings.Settings`` calls them when it is built, so nothing later needs to.
"""

import re
from typing import Optional, Sequence, Tuple

from .skipbigrams import SKIP_BIGRAM_TYPE_PATTERN, parse_skip_bigram_type
from .wlcs import WEIGHTED_LCS_TYPE_PATTERN, parse_weighted_lcs_type

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeLsum")
_ROUGE_TYPE_PATTERN = re.compile(
    rf"rouge[1-9]|rougeL|rougeLsum|{SKIP_BIGRAM_TYPE_PATTERN.pattern}|{WEIGHTED_LCS_TYPE_PATTERN.pattern}"
)
VALID_ROUGE_TYPES_TEXT = (
    "rouge1 to rouge9 (n-grams), rougeL (LCS), rougeLsum (summary-level LCS over lines), "
    "rougeS and rougeSU (skip-bigrams at any distance, SU adding unigrams), "
    "rougeS<d> and rougeSU<d> (skip distance d = 0, 1, 2, ... up to 2**63 - 2, e.g. rougeSU4), "
    "rougeW and rougeW-<weight> (ROUGE-1.5.5's weighted LCS over lines, weight 1.2 or the weight given, "
    "1 < weight <= 5, e.g. rougeW-1.5)"
)
MULTI_REF_MODES = ("max_f1", "pooled", "best_recall", "mean")
DEFAULT_MULTI_REF = "max_f1"


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
        parse_weighted_lcs_type(rouge_type)
        parse_skip_bigram_type(rouge_type)
    duplicates = sorted({t for t in checked if checked.count(t) > 1})
    if duplicates:
        raise ValueError(f"rouge_types lists {', '.join(duplicates)} more than once")
    return checked


def check_multi_ref(multi_ref: str) -> str:
    """Return ``multi_ref`` if it names a multi-reference mode; raise ``ValueError`` otherwise."""
    if not isinstance(multi_ref, str) or multi_ref not in MULTI_REF_MODES:
        raise ValueError(f"unknown multi_ref {multi_ref!r}; valid values are {', '.join(MULTI_REF_MODES)}")
    return multi_ref
