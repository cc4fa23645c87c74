"""UpdateROUGE's scoring rules on top of an engine that reproduces rouge-score: each side's changes
joined one per line and scored as ``RougeScorer.score(target=reference changes,
prediction=prediction changes)``, the rule for examples without changes and the choice among
several references. Scores are ``scores.Score`` tuples (rouge-score's fields), each measure in [0, 1].
"""

import math
from collections.abc import Callable, Mapping, Sequence
from typing import cast

from .engines import Counts, TypeCounts, make_engine, score_from_counts, score_of
from .extraction import join_segments
from .lcs_limits import LcsTableTooLarge
from .micro import NO_COUNTS
from .protocols import adds_nothing, joined, rules_of
from .rouge155_options import alpha_score
from .rouge_types import parse_rouge_type
from .scores import Score
from .settings import Settings
from .wlcs import WeightedCounts, selection_recall, weighted_score

ExampleExtra = Mapping[str, tuple[float, ...]] | None
"""What an example carries for the corpus beyond its scores: the micro counts or the published slots."""
PERFECT = Score(precision=1.0, recall=1.0, fmeasure=1.0)


def score_changes(
    reference_changes: list[list[list[str]]],
    prediction_changes: list[list[str]],
    settings: Settings,
) -> list[tuple[dict[str, Score], bool, ExampleExtra]]:
    """Score every example's changes (additions or deletions alike): per example, one list of
    segments per reference and one of the prediction, under ``settings`` (rouge types, tokenizer,
    engine, ``multi_ref``, ROUGE-1.5.5's length limits and ``alpha``, which forms every F before
    references are compared by it).

    Returns per example the score of each type, whether the no-additions rule applied and, under
    ``average="micro"``, the counts the micro average sums (those of the reference ``multi_ref``
    picks, or their pooled sums; none under the rule), else ``None``. A pair beyond an LCS limit
    raises ``LcsTableTooLarge`` naming the example's index. ``multi_ref``:

    - ``max_f1`` (rouge-score's ``score_multi``): per type, the reference with the highest F1,
      the first one on ties.
    - ``pooled`` (ROUGE-1.5.5 ``-f A``): ``pooled_scores``.
    - ``best_recall`` (ROUGE-1.5.5 ``-f B``): ``best_recall_index``.
    - ``mean`` (torchmetrics' ``accumulate="avg"``): ``mean_scores``; a reference that adds
      nothing, where the prediction adds nothing either, counts as ``PERFECT``.

    The no-additions rule: when the prediction has no additions and neither has some reference
    (every reference, for ``pooled`` and ``mean``) the example scores ``PERFECT`` in every type.
    """
    if settings.protocol is not None:
        return score_published(reference_changes, prediction_changes, settings)
    rouge_types, multi_ref = settings.rouge_types, settings.multi_ref
    counted, micro = settings.needs_counts, settings.average == "micro"
    options = settings.text_options
    tokenizer = settings.additions_tokenizer()
    scorer = make_engine(settings.engine, rouge_types, tokenizer, needs_counts=counted, options=options)
    rule_applies = [
        not prediction and (all if multi_ref in ("pooled", "mean") else any)(not reference for reference in references)
        for references, prediction in zip(reference_changes, prediction_changes)
    ]
    pairs = [
        (join_segments(reference), join_segments(prediction))
        for references, prediction, rule in zip(reference_changes, prediction_changes, rule_applies)
        if not rule
        for reference in references
    ]
    alpha = options.alpha
    try:
        if counted:
            scored = iter(scorer.count_pairs(pairs))
        else:
            scored = iter([{t: alpha_score(s, alpha) for t, s in r.items()} for r in scorer.score_pairs(pairs)])
    except LcsTableTooLarge as error:
        if error.index is None:
            raise
        examples = [
            i
            for i, (references, rule) in enumerate(zip(reference_changes, rule_applies))
            if not rule
            for _ in references
        ]
        raise error.at(examples[error.index], "example") from None
    combines: dict[str, Callable[..., dict[str, Score]]] = {
        "max_f1": best_by_f1,
        "pooled": pooled_scores,
        "best_recall": best_by_recall,
        "mean": mean_scores,
    }
    combine = combines[multi_ref]
    perfect = {rouge_type: PERFECT for rouge_type in rouge_types}
    no_counts = {rouge_type: NO_COUNTS for rouge_type in rouge_types} if micro else None
    results: list[tuple[dict[str, Score], bool, ExampleExtra]] = []
    for references, prediction, rule in zip(reference_changes, prediction_changes, rule_applies):
        if rule:
            results.append((perfect, True, no_counts))
            continue
        per_reference = [next(scored) for _ in references]
        if multi_ref == "mean":  # the rule, reference by reference: one that adds nothing, like the prediction
            per_reference = [perfect if not (prediction or r) else s for r, s in zip(references, per_reference)]
        if counted and multi_ref == "max_f1":
            combined = best_by_f1(
                [{t: alpha_score(score_of(c), alpha) for t, c in r.items()} for r in per_reference], rouge_types
            )
        elif counted:
            combined = {t: alpha_score(s, alpha) for t, s in combine(per_reference, rouge_types).items()}
        else:
            combined = combine(per_reference, rouge_types)
        picked = picked_counts(per_reference, combined, multi_ref, alpha) if micro else None
        results.append((combined, False, picked))
    return results


def score_published(
    reference_changes: list[list[list[str]]], prediction_changes: list[list[str]], settings: Settings
) -> list[tuple[dict[str, Score], bool, ExampleExtra]]:
    """``score_changes`` under ``settings.protocol``: each side's additions joined with a space and
    scored as ``RougeScorer.score`` does; ``PERFECT`` for a reference where neither joined side has
    a non-space character. Per example: each measure's mean over the references scored, whether the
    rule applied to every reference and, where the corpus value is a bootstrap median, per type the
    flattened precision, recall and F of each reference (``protocols.published_statistics``' input),
    else ``None``."""
    rouge_types, slotted = settings.rouge_types, rules_of(settings.protocol).bootstrap_median
    scorer = make_engine(settings.engine, rouge_types, settings.additions_tokenizer())
    rules = [
        [adds_nothing(reference) and adds_nothing(prediction) for reference in references]
        for references, prediction in zip(reference_changes, prediction_changes)
    ]
    pairs = [
        (joined(reference), joined(prediction))
        for references, prediction, example_rules in zip(reference_changes, prediction_changes, rules)
        for reference, rule in zip(references, example_rules)
        if not rule
    ]
    scored = iter(scorer.score_pairs(pairs))
    results: list[tuple[dict[str, Score], bool, ExampleExtra]] = []
    for example_rules in rules:
        per_reference = [{t: PERFECT for t in rouge_types} if rule else next(scored) for rule in example_rules]
        slots = None
        if slotted:
            slots = {t: tuple(float(x) for scores in per_reference for x in scores[t]) for t in rouge_types}
        results.append((mean_scores(per_reference, rouge_types), all(example_rules), slots))
    return results


def mean_scores(per_reference: list[dict[str, Score]], rouge_types: Sequence[str]) -> dict[str, Score]:
    """For each type, the mean over the references of precision, recall and F, each summed
    exactly (``math.fsum``); one reference gives its score itself."""
    if len(per_reference) == 1:
        return per_reference[0]
    return {
        t: Score(*(math.fsum(measure) / len(per_reference) for measure in zip(*(s[t] for s in per_reference))))
        for t in rouge_types
    }


def picked_counts(
    per_reference: list[dict[str, TypeCounts]], scores: dict[str, Score], multi_ref: str, alpha: float
) -> dict[str, Counts]:
    """The counts behind each type's combined score, which the micro average sums: the pooled sums
    (``pooled``), ``best_recall_index``'s reference's (``best_recall``) or those of the first
    reference whose score ``best_by_f1`` picked (``max_f1``)."""
    picked = {}
    for rouge_type, score in scores.items():
        # Integer counts only: Settings refuses ROUGE-W (WeightedCounts) under micro.
        counts = cast(list[Counts], [reference_counts[rouge_type] for reference_counts in per_reference])
        if multi_ref == "pooled":
            picked[rouge_type] = pooled_counts(counts)
        elif multi_ref == "best_recall":
            picked[rouge_type] = counts[best_recall_index(list(counts), rouge_type)]
        else:
            scored = [alpha_score(score_of(c), alpha) for c in counts]
            picked[rouge_type] = counts[scored.index(score)]
    return picked


def pooled_counts(per_reference: Sequence[Counts]) -> Counts:
    """Hits, reference grams and prediction grams summed over the references (``-f A``)."""
    return Counts(*map(sum, zip(*per_reference)))


def best_by_f1(per_reference: list[dict[str, Score]], rouge_types: Sequence[str]) -> dict[str, Score]:
    """For each type, the score of the reference with the highest F1 (the first one on ties)."""
    return {
        rouge_type: max((scores[rouge_type] for scores in per_reference), key=lambda s: s.fmeasure)
        for rouge_type in rouge_types
    }


def pooled_scores(per_reference: list[dict[str, TypeCounts]], rouge_types: Sequence[str]) -> dict[str, Score]:
    """ROUGE-1.5.5's ``-f A``: per type, the score of the counts summed over the references, the
    prediction's grams counted once per reference."""
    scores = {}
    for rouge_type in rouge_types:
        per_type = [counts[rouge_type] for counts in per_reference]
        weighted = [counts for counts in per_type if isinstance(counts, WeightedCounts)]
        if weighted:
            scores[rouge_type] = weighted_score(weighted)
        else:
            scores[rouge_type] = score_from_counts(pooled_counts(per_type))  # type: ignore[arg-type]
    return scores


def best_recall_index(per_reference: list[TypeCounts], rouge_type: str) -> int:
    """The reference ROUGE-1.5.5's ``-f B`` picks for one type: the highest recall, the first on ties,
    compared rounded to 5 decimals (``%7.5f``) except rougeL and rougeLsum (exactly) and ROUGE-W
    (``wlcs.selection_recall``)."""
    weighted = [counts for counts in per_reference if isinstance(counts, WeightedCounts)]
    if weighted:
        weighted_recalls = [selection_recall(counts) for counts in weighted]
        return weighted_recalls.index(max(weighted_recalls))
    recalls = [counts.hits / counts.target if counts.target else 0.0 for counts in per_reference]
    if not parse_rouge_type(rouge_type).is_rouge_score_lcs:
        recalls = [float(f"{recall:.5f}") for recall in recalls]
    return recalls.index(max(recalls))


def best_by_recall(per_reference: list[dict[str, TypeCounts]], rouge_types: Sequence[str]) -> dict[str, Score]:
    """ROUGE-1.5.5's ``-f B``: per type, the score of the reference ``best_recall_index`` picks."""
    scores = {}
    for rouge_type in rouge_types:
        counts = [reference_counts[rouge_type] for reference_counts in per_reference]
        scores[rouge_type] = score_of(counts[best_recall_index(counts, rouge_type)])
    return scores
