"""UpdateROUGE's scoring rules on top of an engine that reproduces rouge-score.

Each side's additions are joined one per line and scored as ``RougeScorer.score(target=reference
additions, prediction=prediction additions)`` would score them. The rule for examples without
additions and the choice among several references live here. Scores are rouge-score ``Score``
tuples of precision, recall and F1, each in [0, 1].
"""

from typing import Dict, List, Sequence, Tuple

from rouge_score.scoring import Score

from .engines import Counts, TypeCounts, make_engine, score_from_counts, score_of
from .extraction import join_additions
from .lcs_limits import LcsTableTooLarge
from .rouge155_options import alpha_score
from .settings import Settings
from .wlcs import WeightedCounts, selection_recall, weighted_score

PERFECT = Score(precision=1.0, recall=1.0, fmeasure=1.0)
_LCS_TYPES = ("rougeL", "rougeLsum")


def score_additions(
    reference_additions: List[List[List[str]]],
    prediction_additions: List[List[str]],
    settings: Settings,
) -> List[Tuple[Dict[str, Score], bool]]:
    """Score every example's additions: per example, one list of additions per reference.

    ``settings`` (a ``settings.Settings``) gives the rouge types, the tokenizer (``stemmer``,
    ``tokenizer``, ``language``, ``remove_stopwords``: ``Settings.make_tokenizer``), the engine,
    ``multi_ref`` and ROUGE-1.5.5's length limits and F weight ``alpha``
    (``settings.text_options``): the F of every score is formed with ``alpha``
    (``alpha_score``) before references are compared by it.

    Returns per example the score of each type and whether the no-additions rule applied. A
    pair beyond an LCS size limit raises ``LcsTableTooLarge`` naming the example's index.
    ``multi_ref`` combines an example's references (for one reference all three agree):

    - ``max_f1`` (rouge-score's ``score_multi``): per type, the reference with the highest F1,
      the first one on ties.
    - ``pooled`` (ROUGE-1.5.5 ``-f A``): hits and reference grams summed over the references,
      the prediction's grams counted once per reference: ``pooled_scores``.
    - ``best_recall`` (ROUGE-1.5.5 ``-f B``): per type, the reference with the highest recall
      as ROUGE-1.5.5 compares them: ``best_recall_index``.

    The no-additions rule: when the prediction has no additions and neither has some reference
    (every reference, for ``pooled``) the example scores ``PERFECT`` (1.0) in every type. Under
    ``max_f1`` and ``best_recall`` that is the reference the rule would pick anyway (a
    reference that left the source as it was, like the prediction); under ``pooled`` a
    reference without additions is one more reference the prediction recovers nothing of.
    """
    rouge_types, multi_ref = settings.rouge_types, settings.multi_ref
    counted = multi_ref != "max_f1"
    options = settings.text_options
    tokenizer = settings.make_tokenizer()
    scorer = make_engine(settings.engine, rouge_types, tokenizer, needs_counts=counted, options=options)
    rule_applies = [
        not prediction and (all if multi_ref == "pooled" else any)(not reference for reference in references)
        for references, prediction in zip(reference_additions, prediction_additions)
    ]
    pairs = [
        (join_additions(reference), join_additions(prediction))
        for references, prediction, rule in zip(reference_additions, prediction_additions, rule_applies)
        if not rule
        for reference in references
    ]
    alpha = options.alpha
    try:
        if counted:
            scored = iter(scorer.count_pairs(pairs))
        else:
            scored = iter(
                [{t: alpha_score(s, alpha) for t, s in scores.items()} for scores in scorer.score_pairs(pairs)]
            )
    except LcsTableTooLarge as error:
        if error.index is None:
            raise
        examples = [
            i
            for i, (references, rule) in enumerate(zip(reference_additions, rule_applies))
            if not rule
            for _ in references
        ]
        raise error.at(examples[error.index], "example") from None
    combine = {"max_f1": best_by_f1, "pooled": pooled_scores, "best_recall": best_by_recall}[multi_ref]
    perfect = {rouge_type: PERFECT for rouge_type in rouge_types}
    results = []
    for references, rule in zip(reference_additions, rule_applies):
        if rule:
            results.append((perfect, True))
        else:
            combined = combine([next(scored) for _ in references], rouge_types)
            if counted:
                combined = {t: alpha_score(s, alpha) for t, s in combined.items()}
            results.append((combined, False))
    return results


def best_by_f1(per_reference: List[Dict[str, Score]], rouge_types: Sequence[str]) -> Dict[str, Score]:
    """For each type, the score of the reference with the highest F1 (the first one on ties)."""
    return {
        rouge_type: max((scores[rouge_type] for scores in per_reference), key=lambda s: s.fmeasure)
        for rouge_type in rouge_types
    }


def pooled_scores(per_reference: List[Dict[str, TypeCounts]], rouge_types: Sequence[str]) -> Dict[str, Score]:
    """ROUGE-1.5.5's ``-f A``: per type, the score of the counts summed over the references.

    Recall is total hits / total reference grams; precision is total hits / (number of
    references x prediction grams), as the prediction's count is added once per reference, so
    a reference without tokens still lowers the precision.
    """
    scores = {}
    for rouge_type in rouge_types:
        per_type = [counts[rouge_type] for counts in per_reference]
        weighted = [counts for counts in per_type if isinstance(counts, WeightedCounts)]
        if weighted:
            scores[rouge_type] = weighted_score(weighted)
        else:
            scores[rouge_type] = score_from_counts(Counts(*map(sum, zip(*per_type))))
    return scores


def best_recall_index(per_reference: List[TypeCounts], rouge_type: str) -> int:
    """The reference ROUGE-1.5.5's ``-f B`` picks for one type: the highest recall, the first on ties.

    Recall hits / reference grams (0 without grams), compared rounded to 5 decimals (as
    ROUGE-1.5.5 formats it, ``%7.5f``) except for rougeL and rougeLsum, compared exactly, and
    ROUGE-W, compared exactly by ``wlcs.selection_recall``.
    """
    weighted = [counts for counts in per_reference if isinstance(counts, WeightedCounts)]
    if weighted:
        weighted_recalls = [selection_recall(counts) for counts in weighted]
        return weighted_recalls.index(max(weighted_recalls))
    recalls = [counts.hits / counts.target if counts.target else 0.0 for counts in per_reference]
    if rouge_type not in _LCS_TYPES:
        recalls = [float(f"{recall:.5f}") for recall in recalls]
    return recalls.index(max(recalls))


def best_by_recall(per_reference: List[Dict[str, TypeCounts]], rouge_types: Sequence[str]) -> Dict[str, Score]:
    """ROUGE-1.5.5's ``-f B``: per type, the score of the reference ``best_recall_index`` picks."""
    scores = {}
    for rouge_type in rouge_types:
        counts = [reference_counts[rouge_type] for reference_counts in per_reference]
        scores[rouge_type] = score_of(counts[best_recall_index(counts, rouge_type)])
    return scores
