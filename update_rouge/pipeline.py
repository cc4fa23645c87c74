"""UpdateROUGE end to end: texts -> additions -> scores -> per-example table or corpus means.

This is the whole metric without ``evaluate``; the evaluate module calls ``compute`` here.
"""

import functools
import math
from typing import Any, Callable, Dict, List, Optional, Sequence

from .aggregation import ExampleScore, aggregate, per_example_table
from .extraction import extract_additions
from .parallel import check_num_proc, starmap_in_order
from .scoring import best_by_f1, check_rouge_types, make_scorer, score_against_reference
from .validation import check_inputs


def score_examples(
    sources: Sequence[str],
    predictions: Sequence[str],
    references: Sequence[Any],
    rouge_types: Optional[Sequence[str]] = None,
    use_stemmer: bool = False,
    tokenizer: Optional[Callable[[str], List[str]]] = None,
    num_proc: int = 1,
) -> List[ExampleScore]:
    """Score every example; see ``compute`` for the arguments. Returns one ``ExampleScore`` each."""
    rouge_types = check_rouge_types(rouge_types)
    num_proc = check_num_proc(num_proc)
    sources, predictions, references = check_inputs(sources, predictions, references)
    if num_proc > 1:
        score_chunk = functools.partial(
            score_examples, rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer
        )
        size = math.ceil(len(sources) / (4 * num_proc))
        chunks = [
            (sources[start : start + size], predictions[start : start + size], references[start : start + size])
            for start in range(0, len(sources), size)
        ]
        return [example for scored in starmap_in_order(score_chunk, chunks, num_proc) for example in scored]
    scorer = make_scorer(rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer)
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
    num_proc: int = 1,
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
        num_proc: worker processes to score in (chunks of the examples, reassembled in input
            order); the results are identical to ``num_proc=1``. See ``parallel`` for what
            worker processes need.

    Returns:
        ``update_<type>``, ``update_<type>_precision``, ``update_<type>_recall`` in [0, 1],
        ``_target_diff_len`` and ``_prediction_diff_len`` in characters, and ``_both_empty``:
        means (a count for ``_both_empty``) or per-example lists in input order.
    """
    rouge_types = check_rouge_types(rouge_types)
    examples = score_examples(sources, predictions, references, rouge_types, use_stemmer, tokenizer, num_proc)
    table = per_example_table(examples, rouge_types)
    return aggregate(table) if use_aggregator else table
