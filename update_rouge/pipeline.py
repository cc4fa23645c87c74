"""UpdateROUGE end to end: texts -> additions -> scores -> per-example table or corpus means.

This is the whole metric without ``evaluate``; the evaluate module calls ``compute`` here.
"""

from typing import Any, Callable, Dict, List, Optional, Sequence

from .aggregation import ExampleScore, aggregate, per_example_table
from .extraction import SourceIndex
from .scoring import check_rouge_types, score_additions
from .validation import check_inputs


def score_examples(
    sources: Sequence[str],
    predictions: Sequence[str],
    references: Sequence[Any],
    rouge_types: Optional[Sequence[str]] = None,
    use_stemmer: bool = False,
    tokenizer: Optional[Callable[[str], List[str]]] = None,
    engine: str = "auto",
) -> List[ExampleScore]:
    """Score every example; see ``compute`` for the arguments. Returns one ``ExampleScore`` each."""
    rouge_types = check_rouge_types(rouge_types)
    sources, predictions, references = check_inputs(sources, predictions, references)
    prediction_additions, reference_additions = [], []
    for source, prediction, example_references in zip(sources, predictions, references):
        index = SourceIndex(source)
        prediction_additions.append(index.additions(prediction))
        reference_additions.append([index.additions(reference) for reference in example_references])
    scored = score_additions(rouge_types, reference_additions, prediction_additions, use_stemmer, tokenizer, engine)
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
    engine: str = "auto",
) -> Dict[str, Any]:
    """Compute UpdateROUGE.

    Args:
        sources: the shared source text of each example.
        predictions: the system's updated text of each example.
        references: the reference updated text of each example, or a non-empty list of them.
        rouge_types: rouge-score types to compute (default rouge1, rouge2, rougeLsum).
        use_stemmer: apply rouge-score's Porter stemmer (ignored with a custom tokenizer).
        tokenizer: a callable text -> list of tokens replacing rouge-score's tokenizer.
        use_aggregator: True for corpus means, False for one value per example.
        engine: "python" (pure Python), "rust" (the optional rouge-score-rs accelerator),
            "rouge-score" (rouge-score itself, the reference) or "auto" (rust where installed
            and exact for the settings, else python). All give bit-identical scores.

    Returns:
        ``update_<type>``, ``update_<type>_precision``, ``update_<type>_recall`` in [0, 1],
        ``_target_diff_len`` and ``_prediction_diff_len`` in characters, and ``_both_empty``:
        means (a count for ``_both_empty``) or per-example lists in input order.
    """
    rouge_types = check_rouge_types(rouge_types)
    examples = score_examples(sources, predictions, references, rouge_types, use_stemmer, tokenizer, engine)
    table = per_example_table(examples, rouge_types)
    return aggregate(table) if use_aggregator else table
