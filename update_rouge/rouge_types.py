"""Which rouge types and multi-reference modes can be asked for, and their checks: the one home of
what the package knows about a rouge type.

``parse_rouge_type(name)`` parses a name once into a ``RougeType``; every module asks it instead of
testing names. ``check_rouge_types`` and ``check_multi_ref`` raise ``OptionError``.
"""

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import LEFT_OUT, Name, OptionError, Setting
from .skipbigrams import SKIP_BIGRAM_TYPE_PATTERN, SkipBigramType, parse_skip_bigram_type
from .wlcs import WEIGHTED_LCS_TYPE_PATTERN, parse_weighted_lcs_type

NGRAM, LCS, SUMMARY_LCS, SKIP_BIGRAM, WEIGHTED_LCS = "n-gram", "lcs", "summary-lcs", "skip-bigram", "weighted-lcs"
"""The families of rouge types: rouge1-9, rougeL, rougeLsum, rougeS/SU(<d>), rougeW(-<weight>)."""

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeLsum")
UNIGRAMS = "rouge1"
"""rouge1, whose counts are rougeLsum's where every reference line is a prediction line."""
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


@dataclass(frozen=True)
class RougeType:
    """A parsed rouge type (``parse_rouge_type``): ``name``, ``family`` (one of ``NGRAM``, ``LCS``,
    ``SUMMARY_LCS``, ``SKIP_BIGRAM``, ``WEIGHTED_LCS``) and its parameter: ``n`` for n-grams,
    ``skip_bigram`` (distance, unigrams) for skip-bigrams, ``weight`` for ROUGE-W."""

    name: str
    family: str
    n: int = 0
    skip_bigram: SkipBigramType | None = None
    weight: float | None = None

    @property
    def reads_lines(self) -> bool:
        """Whether it compares the additions line by line (rougeLsum, ROUGE-W), not as one text."""
        return self.family in (SUMMARY_LCS, WEIGHTED_LCS)

    @property
    def in_rouge_score(self) -> bool:
        """Whether rouge-score computes it, and so its engine and the accelerator (else only the
        python engine: ROUGE-1.5.5's skip-bigrams and ROUGE-W)."""
        return self.family in (NGRAM, LCS, SUMMARY_LCS)

    @property
    def is_rouge_score_lcs(self) -> bool:
        """Whether it is one of rouge-score's LCS types (rougeL, rougeLsum), whose DP tables the
        size and time limits bound on every engine (``lcs_limits``)."""
        return self.family in (LCS, SUMMARY_LCS)

    @property
    def has_micro_counts(self) -> bool:
        """Whether its per-example counts add up to a micro average (not ROUGE-W's weighted ones)."""
        return self.family != WEIGHTED_LCS

    @property
    def shows_matches(self) -> bool:
        """Whether ``matches.token_matches`` explains its score token by token."""
        return self.in_rouge_score


@functools.cache
def parse_rouge_type(name: str) -> RougeType:
    """The ``RougeType`` of a valid name; ``ValueError`` naming the valid types otherwise."""
    if not isinstance(name, str) or not _ROUGE_TYPE_PATTERN.fullmatch(name):
        raise ValueError(f"unknown rouge type {name!r}; valid types are {VALID_ROUGE_TYPES_TEXT}")
    weight = parse_weighted_lcs_type(name)
    if weight is not None:
        return RougeType(name, WEIGHTED_LCS, weight=weight)
    skip_bigram = parse_skip_bigram_type(name)
    if skip_bigram is not None:
        return RougeType(name, SKIP_BIGRAM, skip_bigram=skip_bigram)
    if name == "rougeL":
        return RougeType(name, LCS)
    if name == "rougeLsum":
        return RougeType(name, SUMMARY_LCS)
    return RougeType(name, NGRAM, n=int(name[len("rouge") :]))


DEFAULT_MULTI_REF = "max_f1"


def check_rouge_types(rouge_types: Sequence[str] | None) -> tuple[str, ...]:
    """``rouge_types`` as a tuple (the defaults for ``None``); ``OptionError`` on bad ones."""
    if rouge_types is None:
        return DEFAULT_ROUGE_TYPES
    if isinstance(rouge_types, str) or not hasattr(rouge_types, "__iter__"):
        raise OptionError(
            "rouge_types",
            rouge_types,
            (Name("rouge_types"), f" must be a list of rouge type names, got {rouge_types!r}"),
            [[Setting("rouge_types", [rouge_types] if isinstance(rouge_types, str) else LEFT_OUT)]],
        )
    checked = tuple(rouge_types)
    if not checked:
        raise OptionError(
            "rouge_types",
            [],
            (Name("rouge_types"), " is empty: give at least one type"),
            [[Setting("rouge_types", LEFT_OUT)]],
        )
    for name in checked:
        try:
            parse_rouge_type(name)
        except ValueError as error:
            kept = [other for other in checked if other != name]
            raise OptionError(
                "rouge_types", list(checked), (str(error),), [[Setting("rouge_types", kept or LEFT_OUT)]]
            ) from None
    duplicates = sorted({t for t in checked if checked.count(t) > 1})
    if duplicates:
        raise OptionError(
            "rouge_types",
            list(checked),
            (Name("rouge_types"), f" lists {', '.join(duplicates)} more than once"),
            [[Setting("rouge_types", list(dict.fromkeys(checked)))]],
        )
    return checked


def check_multi_ref(multi_ref: str) -> str:
    """``multi_ref`` if it names a multi-reference mode; else ``OptionError``."""
    if not isinstance(multi_ref, str) or multi_ref not in MULTI_REF_MODES:
        raise OptionError(
            "multi_ref",
            multi_ref,
            ("unknown ", Name("multi_ref"), f" {multi_ref!r}; valid values are {', '.join(MULTI_REF_MODES)}"),
            [[Setting("multi_ref", LEFT_OUT)]],
        )
    return multi_ref
