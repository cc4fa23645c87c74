"""UpdateROUGE end to end: texts -> additions -> scores -> per-example table or corpus means.

This is the whole metric without ``evaluate``; the evaluate module calls ``compute`` here.
"""

from typing import Any, Callable, Dict, List, Optional, Sequence

from .aggregation import ExampleScore, aggregate, per_example_table
from .extraction import extract_additions
from .scoring import best_by_f1, check_rouge_types, make_scorer, score_against_reference
from .stemming import resolve_stemmer
from .validation import check_inputs


def score_examples(
    sources: Sequence[str],
    predictions: Sequence[str],
    references: Sequence[Any],
    rouge_types: Optional[Sequence[str]] = None,
    use_stemmer: bool = False,
    tokenizer: Optional[Callable[[str], List[str]]] = None,
    stemmer: Optional[str] = None,
) -> List[ExampleScore]:
    """Score every example; see ``compute`` for the arguments. Returns one ``ExampleScore`` each."""
    rouge_types = check_rouge_types(rouge_types)
    stemmer = resolve_stemmer(use_stemmer, stemmer, tokenizer)
    sources, predictions, references = check_inputs(sources, predictions, references)
    scorer = make_scorer(rouge_types, stemmer=stemmer, tokenizer=tokenizer)
    examples = []
    for source, prediction, example_references in zip(sources, predictions, references):
        prediction_additions = extract_additions(prediction, source)
        reference_additions = [extract_additions(reference, source) for reference in example_references]
        per_reference = [score_against_reference(scorer, adds, prediction_additions) for adds in reference_additions]
        both_empty = not prediction_additions and any(not adds for adds in reference_additions)
        examples.append(
            ExampleScore(
                scores=best_by_f1(per_reference, rouge_types),
                reference_additions=reference_additions,
                prediction_additions=prediction_additions,
                both_empty=both_empty,
            )
        )
    return examples


def compute(
    sources: Sequence[str],
    predictions: Sequence[str],
    references: Sequence[Any],
    rouge_types: Optional[Sequence[str]] = None,
    use_stemmer: bool = False,
    tokenizer: Optional[Callable[[str], List[str]]] = None,
    use_aggregator: bool = True,
    stemmer: Optional[str] = None,
) -> Dict[str, Any]:
    """Compute UpdateROUGE.

    Args:
        sources: the shared source text of each example.
        predictions: the system's updated text of each example.
        references: the reference updated text of each example, or a non-empty list of them.
        rouge_types: rouge-score types to compute (default rouge1, rouge2, rougeLsum).
        use_stemmer: True is an alias of ``stemmer="porter"`` (as in evaluate's rouge).
        tokenizer: a callable text -> list of tokens replacing rouge-score's tokenizer (and
            any stemmer: combining it with one raises ``ValueError``).
        use_aggregator: True for corpus means, False for one value per example.
        stemmer: ``"none"`` (default), ``"porter"`` (rouge-score's Porter stemmer) or
            ``"rouge155"`` (ROUGE-1.5.5's tokens and ``-m`` stemming, equal to the Perl original).

    Returns:
        ``update_<type>``, ``update_<type>_precision``, ``update_<type>_recall`` in [0, 1],
        ``_target_diff_len`` and ``_prediction_diff_len`` in characters, and ``_both_empty``:
        means (a count for ``_both_empty``) or per-example lists in input order.
    """
    rouge_types = check_rouge_types(rouge_types)
    examples = score_examples(sources, predictions, references, rouge_types, use_stemmer, tokenizer, stemmer)
    table = per_example_table(examples, rouge_types)
    return aggregate(table) if use_aggregator else table
