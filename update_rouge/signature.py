"""A one-line signature of every setting that can change an UpdateROUGE number.

In the spirit of sacreBLEU's signatures: ``field:value`` pairs joined by ``|``, in this order:

- ``refs``: references per example, ``1``, a range such as ``1-3`` when it varies, or
  ``unknown`` when no references were given (the count is known only from the data);
- ``lang``: the ``language=`` code, present only when one is given;
- ``seg``: the segmentation regular expression (``LANGUAGE_SEGMENTS`` with a language);
  ``join``: the separator between additions;
- ``tok``: ``rouge-score`` (its default tokenizer), ``custom`` (a ``tokenizer=`` callable) or,
  with a language, ``LANGUAGE_TOKENS`` (the rules and Unicode version of ``languages.py``);
- ``stem``: ``none``, ``porter`` (rouge-score's Porter stemmer), ``rouge155`` (ROUGE-1.5.5's
  ``-m``) or ``snowball`` (with a language), as ``stemming.resolve_stemmer`` names it;
- ``types``: the rouge types, comma-separated (a skip-bigram type's name carries its skip
  distance, e.g. ``rougeSU4``); ``multiref``: how several references combine (``max_f1``,
  ``pooled`` or ``best_recall``); only when not at their defaults, ROUGE-1.5.5's
  ``stopwords:rouge155`` (``-s``), ``words:N`` (``-l N``) or ``bytes:N`` (``-b N``) and
  ``alpha:A`` (``-p A``); ``agg``: ``mean`` over examples, or ``none`` (per-example values);
- ``boot`` and ``seed``: bootstrap resamples and seed when an interval or a paired test is
  computed, else ``boot:none`` alone; ``ci``: the confidence level, or ``none``;
- ``update-rouge``, ``rouge-score`` and ``numpy``: the versions of this package and of the
  libraries that compute the scores and draw the resamples.
"""

import json
from importlib.metadata import version
from typing import Any, Callable, List, Optional, Sequence

import numpy as np

from .extraction import ADDITION_SEPARATOR, SEGMENT_PATTERN
from .rouge155_options import DEFAULT_ALPHA, check_text_options
from .scoring import DEFAULT_MULTI_REF, check_multi_ref, check_rouge_types
from .stemming import resolve_stemmer
from .bootstrap import DEFAULT_CONFIDENCE_LEVEL, DEFAULT_N_BOOTSTRAP, DEFAULT_SEED, check_bootstrap_options
from .version import __version__
from .languages import check_language
from .unicode_tables import UNICODE_VERSION

LANGUAGE_SEGMENTS = r"[^\p{Sentence_Terminal}]+\p{Sentence_Terminal}?"
LANGUAGE_TOKENS = f"nfkc-lower-lmn-unicode{UNICODE_VERSION}"


def references_per_example(references: Optional[Sequence[Any]]) -> str:
    """``1``, ``<min>-<max>`` when examples have different numbers of references, or ``unknown``."""
    if references is None:
        return "unknown"
    counts = [1 if isinstance(reference, str) else len(reference) for reference in references]
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}-{high}"


def build_signature(
    sources: Optional[Sequence[str]] = None,
    predictions: Optional[Sequence[str]] = None,
    references: Optional[Sequence[Any]] = None,
    rouge_types: Optional[Sequence[str]] = None,
    use_stemmer: bool = False,
    tokenizer: Optional[Callable[[str], List[str]]] = None,
    use_aggregator: bool = True,
    confidence_level: Optional[float] = DEFAULT_CONFIDENCE_LEVEL,
    n_bootstrap: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    baseline_predictions: Optional[Sequence[str]] = None,
    return_signature: bool = False,
    engine: str = "auto",
    num_proc: int = 1,
    stemmer: Optional[str] = None,
    multi_ref: str = DEFAULT_MULTI_REF,
    remove_stopwords: bool = False,
    max_words: Optional[int] = None,
    max_bytes: Optional[int] = None,
    alpha: float = DEFAULT_ALPHA,
    language: Optional[str] = None,
) -> str:
    """The signature of a ``compute`` call with these keyword arguments (see the module docstring).

    Takes every argument ``compute`` takes, so ``build_signature(**compute_kwargs)`` works;
    ``sources``, ``predictions``, ``return_signature``, ``engine`` (every engine gives
    bit-identical scores) and ``num_proc`` do not change it, ``references`` gives
    the ``refs`` field and ``baseline_predictions`` only whether a paired test uses the bootstrap.
    Raises ``ValueError`` for options ``compute`` would reject.
    """
    rouge_types = check_rouge_types(rouge_types)
    multi_ref = check_multi_ref(multi_ref)
    language = check_language(language)
    paired = baseline_predictions is not None
    check_bootstrap_options(confidence_level, n_bootstrap, seed, use_aggregator, paired)
    options = check_text_options(remove_stopwords, max_words, max_bytes, alpha)
    intervals = use_aggregator and confidence_level is not None
    bootstrap = intervals or paired
    fields = [
        ("refs", references_per_example(references)),
        *([("lang", language)] if language is not None else []),
        ("seg", SEGMENT_PATTERN.pattern if language is None else LANGUAGE_SEGMENTS),
        ("join", json.dumps(ADDITION_SEPARATOR)[1:-1]),
        ("tok", ("rouge-score" if tokenizer is None else "custom") if language is None else LANGUAGE_TOKENS),
        ("stem", resolve_stemmer(use_stemmer, stemmer, tokenizer, language)),
        ("types", ",".join(rouge_types)),
        ("multiref", multi_ref),
        *([("stopwords", "rouge155")] if options.remove_stopwords else []),
        *([("words", str(options.max_words))] if options.max_words is not None else []),
        *([("bytes", str(options.max_bytes))] if options.max_bytes is not None else []),
        *([("alpha", repr(options.alpha))] if options.alpha != DEFAULT_ALPHA else []),
        ("agg", "mean" if use_aggregator else "none"),
        *([("boot", str(n_bootstrap)), ("seed", str(seed))] if bootstrap else [("boot", "none")]),
        ("ci", repr(float(confidence_level)) if intervals else "none"),
        ("update-rouge", __version__),
        ("rouge-score", version("rouge-score")),
        ("numpy", np.__version__),
    ]
    return "|".join(f"{name}:{value}" for name, value in fields)
