"""A one-line signature of every setting that can change an UpdateROUGE number.

In the spirit of sacreBLEU's signatures: ``field:value`` pairs joined by ``|``, in this order:
``refs``, ``lang``, then ``seg`` (or ``additions``), ``join`` and ``del``, or ``protocol`` in
their place; ``tok``, ``segmenter``, ``stem``, ``types``, ``multiref``, ``stopwords``,
``words``, ``bytes``, ``alpha``, ``ent``, ``agg``, ``boot``, ``seed``, ``ci``, then the versions
``update-rouge``, ``rouge-score``, ``numpy`` and ``nltk``; a field that does not apply is left
out. docs/statistics.md ("Signature") says what each field holds, docs/dependencies.md what
each dependency can change.
"""

import json
from collections.abc import Sequence
from typing import Any

from .bootstrap import check_paired
from .entity_extractors import extractor_field
from .errors import unknown_options
from .extraction import SEGMENT_PATTERN, SEGMENT_SEPARATOR
from .protocols import rules_of
from .rouge155_options import DEFAULT_ALPHA
from .sentences import SPACED_SENTENCES
from .settings import OPTION_BY_NAME, Settings
from .stemming import LANGUAGE_STEMMER
from .unicode_assigned import UNICODE_VERSION as NORMALISATION_UNICODE_VERSION
from .unicode_tables import UNICODE_VERSION
from .version import __version__
from .word_segmenters import segmenter_versions

LANGUAGE_SEGMENTS = r"[^\p{Sentence_Terminal}]+\p{Sentence_Terminal}?"
LANGUAGE_TOKENS = f"nfkc-lower-unicode{NORMALISATION_UNICODE_VERSION}-lmn-unicode{UNICODE_VERSION}"


def version(package: str) -> str:
    """The installed version of ``package``, importlib.metadata imported at first use (workers never
    sign)."""
    from importlib.metadata import version as installed_version

    return installed_version(package)


def language_segments(language: str) -> str:
    """The ``seg`` field of ``language``: ``LANGUAGE_SEGMENTS``, then ``&space-between-<script>``
    where the language's segments are also cut at white space between letters of its script."""
    spaced = SPACED_SENTENCES.get(language)
    return LANGUAGE_SEGMENTS if spaced is None else f"{LANGUAGE_SEGMENTS}&space-between-{spaced.name}"


def references_per_example(references: Sequence[Any] | None) -> str:
    """``1``, ``<min>-<max>`` when examples have different numbers of references, or ``unknown``."""
    if references is None:
        return "unknown"
    counts = [1 if isinstance(reference, str) else len(reference) for reference in references]
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}-{high}"


def aggregate_field(settings: Settings) -> str:
    """The ``agg`` field: ``none`` per example, else ``mean``, ``micro`` or a protocol's corpus value."""
    if not settings.use_aggregator:
        return "none"
    rules = rules_of(settings.protocol)
    if rules.bootstrap_median:
        return "bootstrap-median" if rules.scale == 1 else f"bootstrap-median-x{rules.scale:g}"
    return "micro" if settings.average == "micro" else "mean"


def signature(settings: Settings, references: Sequence[Any] | None = None, paired: bool = False) -> str:
    """The signature of scoring with ``settings``: ``references`` gives the ``refs`` field (``None``:
    ``refs:unknown``); ``paired`` says whether a paired test uses the bootstrap."""
    import numpy as np

    if paired:
        check_paired(settings.use_aggregator)
    protocol, rules = settings.protocol, rules_of(settings.protocol)
    bootstrap = settings.intervals or paired or (settings.use_aggregator and rules.bootstrap_median)
    language = settings.language
    segmenters = segmenter_versions(language) if language is not None else None
    additions = [
        (
            ("seg", SEGMENT_PATTERN.pattern if language is None else language_segments(language))
            if settings.additions == "sentences"
            else ("additions", "edits")
        ),
        ("join", json.dumps(SEGMENT_SEPARATOR)[1:-1]),
        *([("del", settings.additions)] if settings.deletions else []),
    ]
    fields = [
        ("refs", references_per_example(references)),
        *([("lang", language)] if language is not None else []),
        *(additions if protocol is None else [("protocol", f"{protocol}@{rules.commit}")]),
        ("tok", ("rouge-score" if settings.tokenizer is None else "custom") if language is None else LANGUAGE_TOKENS),
        *([("segmenter", segmenters)] if segmenters is not None else []),
        ("stem", settings.stemmer),
        ("types", ",".join(settings.rouge_types)),
        ("multiref", rules.multi_ref or settings.multi_ref),
        *([("stopwords", "rouge155")] if settings.remove_stopwords else []),
        *([("words", str(settings.max_words))] if settings.max_words is not None else []),
        *([("bytes", str(settings.max_bytes))] if settings.max_bytes is not None else []),
        *([("alpha", repr(settings.alpha))] if settings.alpha != DEFAULT_ALPHA else []),
        *([("ent", extractor_field(settings.entities))] if settings.entities is not None else []),
        ("agg", aggregate_field(settings)),
        *([("boot", str(settings.n_bootstrap)), ("seed", str(settings.seed))] if bootstrap else [("boot", "none")]),
        (
            "ci",
            "none"
            if settings.confidence_level is None or not settings.use_aggregator
            else repr(float(settings.confidence_level)),
        ),
        ("update-rouge", __version__),
        ("rouge-score", version("rouge-score")),
        ("numpy", np.__version__),
        *([("nltk", version("nltk"))] if settings.stemmer in ("porter", LANGUAGE_STEMMER) else []),
    ]
    return "|".join(f"{name}:{value}" for name, value in fields)


def build_signature(
    sources: Sequence[str] | None = None,
    predictions: Sequence[str] | None = None,
    references: Sequence[Any] | None = None,
    **options: Any,
) -> str:
    """The signature of a ``compute`` call with these keyword arguments (``build_signature(**compute_kwargs)``):
    ``references`` gives the ``refs`` field and ``baseline_predictions`` only whether a paired test
    uses the bootstrap. ``OptionError`` for options ``compute`` would refuse, ``UnknownOptionError``
    for unknown ones."""
    unknown_options(options, OPTION_BY_NAME, "build_signature()")
    paired = options.get("baseline_predictions") is not None
    return signature(Settings.from_options(options), references, paired)
