"""UpdateROUGE end to end: texts -> additions -> scores -> per-example table or corpus means,
with bootstrap intervals, a paired test against a baseline and the settings signature.

This is the whole metric without ``evaluate``; the evaluate module calls ``compute`` here.
"""

import functools
import math
from typing import Any, Callable, Dict, List, Optional, Sequence

from .corpus import ExampleScore, aggregate, f1_columns, per_example_table
from .extraction import SourceIndex
from .parallel import check_num_proc, starmap_in_order
from .rouge155_options import DEFAULT_ALPHA, DEFAULT_OPTIONS, TextOptions, check_text_options
from .scoring import DEFAULT_MULTI_REF, check_multi_ref, check_rouge_types, make_tokenizer, score_additions
from .signature import build_signature
from .stemming import resolve_stemmer
from .bootstrap import (
    DEFAULT_CONFIDENCE_LEVEL,
    DEFAULT_N_BOOTSTRAP,
    DEFAULT_SEED,
    bootstrap_statistics,
    check_bootstrap_options,
)
from .no_tokens import tokenless_examples, warn_tokenless
from .inputs import check_baseline_predictions, check_inputs
from .languages import check_language, segment_pattern


def score_examples(
    sources: Sequence[str],
    predictions: Sequence[str],
    references: Sequence[Any],
    rouge_types: Optional[Sequence[str]] = None,
    use_stemmer: bool = False,
    tokenizer: Optional[Callable[[str], List[str]]] = None,
    engine: str = "auto",
    num_proc: int = 1,
    stemmer: Optional[str] = None,
    multi_ref: str = DEFAULT_MULTI_REF,
    remove_stopwords: bool = False,
    max_words: Optional[int] = None,
    max_bytes: Optional[int] = None,
    alpha: float = DEFAULT_ALPHA,
    language: Optional[str] = None,
) -> List[ExampleScore]:
    """Score every example; see ``compute`` for the arguments. Returns one ``ExampleScore`` each."""
    language = check_language(language)
    sources, predictions, references = check_inputs(sources, predictions, references)
    return _score_checked(
        sources,
        predictions,
        references,
        rouge_types=check_rouge_types(rouge_types),
        stemmer=resolve_stemmer(use_stemmer, stemmer, tokenizer, language),
        tokenizer=tokenizer,
        engine=engine,
        num_proc=check_num_proc(num_proc),
        multi_ref=check_multi_ref(multi_ref),
        options=check_text_options(remove_stopwords, max_words, max_bytes, alpha),
        language=language,
    )


def _score_checked(
    sources: List[str],
    predictions: List[str],
    references: List[List[str]],
    rouge_types: Sequence[str],
    stemmer: str,
    tokenizer: Optional[Callable[[str], List[str]]],
    engine: str,
    num_proc: int,
    multi_ref: str,
    options: TextOptions = DEFAULT_OPTIONS,
    language: Optional[str] = None,
) -> List[ExampleScore]:
    """``score_examples`` on inputs and options that are already checked (and the stemmer resolved)."""
    if num_proc > 1:
        score_chunk = functools.partial(
            _score_checked,
            rouge_types=rouge_types,
            stemmer=stemmer,
            tokenizer=tokenizer,
            engine=engine,
            num_proc=1,
            multi_ref=multi_ref,
            options=options,
            language=language,
        )
        size = math.ceil(len(sources) / (4 * num_proc))
        chunks = [
            (sources[start : start + size], predictions[start : start + size], references[start : start + size])
            for start in range(0, len(sources), size)
        ]
        return [example for scored in starmap_in_order(score_chunk, chunks, num_proc) for example in scored]
    prediction_additions, reference_additions = [], []
    pattern = segment_pattern(language)
    for source, prediction, example_references in zip(sources, predictions, references):
        index = SourceIndex(source, pattern)
        prediction_additions.append(index.additions(prediction))
        reference_additions.append([index.additions(reference) for reference in example_references])
    scored = score_additions(
        rouge_types, reference_additions, prediction_additions, stemmer, tokenizer, engine, multi_ref, options,
        language,
    )
    return [
        ExampleScore(scores=scores, reference_additions=references, prediction_additions=prediction, both_empty=both)
        for (scores, both), references, prediction in zip(scored, reference_additions, prediction_additions)
    ]


def compute(
    sources: Sequence[str],
    predictions: Sequence[str],
    references: Sequence[Any],
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
) -> Dict[str, Any]:
    """Compute UpdateROUGE.

    Args:
        sources: the shared source text of each example.
        predictions: the system's updated text of each example.
        references: the reference updated text of each example, or a non-empty list of them.
        rouge_types: rouge types to compute (default rouge1, rouge2, rougeLsum): rouge-score's
            rouge1 to rouge9, rougeL, rougeLsum, and ROUGE-1.5.5's skip-bigram types rougeS,
            rougeSU, rougeS<d>, rougeSU<d> (d >= 0, the skip distance; see ``skipbigrams.py``)
            and ROUGE-W: rougeW (weight 1.2), rougeW-<weight> (weight > 1; see ``wlcs.py``).
        use_stemmer: True is an alias of ``stemmer="porter"`` (as in evaluate's rouge).
        tokenizer: a callable text -> list of tokens replacing rouge-score's tokenizer (and
            any stemmer: combining it with one raises ``ValueError``).
        use_aggregator: True for corpus means, False for one value per example (then no
            intervals and no paired test are computed; ``baseline_predictions`` is an error).
        confidence_level: in (0, 1); adds a percentile bootstrap interval of each type's mean
            F1. ``None`` for none.
        n_bootstrap: the number of bootstrap resamples of the examples (a positive integer).
        seed: a non-negative integer seeding the local NumPy generator that draws the resamples.
        baseline_predictions: another system's updated texts for the same examples; adds a
            paired bootstrap test of the system against it, on the same resamples.
        return_signature: add the settings signature (a string, see ``signature.py``).
        engine: "python" (pure Python), "rust" (the optional rouge-score-rs accelerator),
            "rouge-score" (rouge-score itself, the reference) or "auto" (rust where installed
            and exact for the settings, else python). All give bit-identical scores. Skip-bigram
            types and the ROUGE-1.5.5 multi-reference modes run on python only ("auto" picks it).
        num_proc: worker processes to score in (chunks of the examples, reassembled in input
            order); the results are identical to ``num_proc=1``. See ``parallel`` for what
            worker processes need.
        stemmer: ``"none"`` (default), ``"porter"`` (rouge-score's Porter stemmer) or
            ``"rouge155"`` (ROUGE-1.5.5's tokens and ``-m`` stemming, equal to the Perl original).
        multi_ref: how several references of an example combine: "max_f1" (rouge-score's
            ``score_multi``: per type the reference with the best F1), "pooled" (ROUGE-1.5.5
            ``-f A``: counts summed over the references) or "best_recall" (ROUGE-1.5.5 ``-f B``:
            per type the reference with the best recall). See ``scoring.score_additions``, also
            for what the no-additions rule means in each.
        remove_stopwords, max_words, max_bytes, alpha: ROUGE-1.5.5's ``-s``, ``-l``, ``-b``
            and ``-p``, applied to each side's newline-joined additions exactly as ROUGE-1.5.5
            applies them (``rouge155_options``; docs/rouge155-options.md). max_words and
            max_bytes are positive integers (at most one of them), alpha in [0, 1] weighs
            precision in F (0.5: F1). Stopwords and limits run on the python engine only.
        language: ``None`` (the published rules) or an ISO 639-1 code: segments end at every
            Unicode sentence terminal, and tokens are that language's words in any script,
            with ``use_stemmer=True`` stemmed by its Snowball stemmer (see ``languages.py``).

    Returns:
        ``update_<type>``, ``update_<type>_precision``, ``update_<type>_recall`` in [0, 1],
        ``_target_diff_len`` and ``_prediction_diff_len`` in characters, and ``_both_empty``:
        means (a count for ``_both_empty``) or per-example lists in input order. With
        ``use_aggregator`` also: ``update_<type>_low`` and ``update_<type>_high``, the interval
        of the mean F1 (unless ``confidence_level`` is ``None``); with ``baseline_predictions``,
        ``update_<type>_delta`` (mean F1 of the system minus the baseline's, in [-1, 1]) and
        ``update_<type>_p_value`` (one-sided, that the system is not better; in (0, 1]). The
        method is in ``bootstrap.py``. With ``return_signature``, ``signature`` as well.
    """
    rouge_types = check_rouge_types(rouge_types)
    multi_ref = check_multi_ref(multi_ref)
    language = check_language(language)
    paired = baseline_predictions is not None
    check_bootstrap_options(confidence_level, n_bootstrap, seed, use_aggregator, paired)
    sources, predictions, references = check_inputs(sources, predictions, references)
    if paired:
        baseline_predictions = check_baseline_predictions(baseline_predictions, len(predictions))
    stemmer_name = resolve_stemmer(use_stemmer, stemmer, tokenizer, language)
    scoring = dict(
        rouge_types=rouge_types,
        stemmer=stemmer_name,
        tokenizer=tokenizer,
        engine=engine,
        num_proc=check_num_proc(num_proc),
        multi_ref=multi_ref,
        options=check_text_options(remove_stopwords, max_words, max_bytes, alpha),
        language=language,
    )
    examples = _score_checked(sources, predictions, references, **scoring)
    active_tokenizer = make_tokenizer(stemmer_name, tokenizer, remove_stopwords, language)
    tokenless = tokenless_examples(examples, active_tokenizer)
    table = per_example_table(examples, rouge_types)
    if use_aggregator:
        result = aggregate(table)
        baseline_f1 = None
        if paired:
            baseline = _score_checked(sources, baseline_predictions, references, **scoring)
            tokenless = [a or b for a, b in zip(tokenless, tokenless_examples(baseline, active_tokenizer))]
            baseline_f1 = f1_columns(per_example_table(baseline, rouge_types), rouge_types)
        f1 = f1_columns(table, rouge_types)
        result.update(bootstrap_statistics(f1, baseline_f1, confidence_level, n_bootstrap, seed))
    else:
        result = table
    warn_tokenless(sum(tokenless), len(examples))
    if return_signature:
        result["signature"] = build_signature(
            references=references,
            rouge_types=rouge_types,
            use_stemmer=use_stemmer,
            stemmer=stemmer,
            tokenizer=tokenizer,
            use_aggregator=use_aggregator,
            confidence_level=confidence_level,
            n_bootstrap=n_bootstrap,
            seed=seed,
            baseline_predictions=baseline_predictions,
            multi_ref=multi_ref,
            remove_stopwords=remove_stopwords,
            max_words=max_words,
            max_bytes=max_bytes,
            alpha=alpha,
            language=language,
        )
    return result
