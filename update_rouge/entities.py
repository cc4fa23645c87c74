"""The entity companions of ``entities=``: which entities an update adds, which outdated ones it
keeps, which it invents (docs/entities.md).

For one example, with S, R, P and V the entity sets (``entity_extractors.extract``) of the
source, a reference, the prediction and the evidence (the union over its texts):

- new entities R_new = R - S and P_new = P - S; ``update_ent_precision`` = |P_new & R_new| /
  |P_new|, ``update_ent_recall`` = |P_new & R_new| / |R_new|, ``update_ent`` their F1; 1.0 all
  three where R_new and P_new are both empty (``_ent_both_empty``), 0.0 where only one is;
- ``update_ent_outdated_kept`` = |R_gone & P| / |R_gone| with R_gone = S - R, the share of the
  entities the reference drops that the prediction keeps; undefined (``None``) where R_gone is
  empty (``_ent_outdated_defined`` says where it is defined);
- ``update_ent_unsupported`` (only with evidence) = |P_new - V|, the distinct entities the
  prediction introduces that neither the source nor the evidence holds.

Several references: the reference with the highest ``update_ent`` (the first on ties) gives
every value of the example. The corpus means of ``_ent_both_empty`` and ``_ent_outdated_defined``
are counts of examples; that of ``update_ent_outdated_kept`` is over the examples where it is
defined. Under ``average="micro"`` the corpus precision, recall and F come from the counts
(|P_new & R_new|, |R_new|, |P_new|) summed over the examples (``micro.py``), and
``update_ent_outdated_kept`` is the sum of |R_gone & P| over the sum of |R_gone|.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .engines import Counts
from .entity_extractors import Extractor, SpacyExtractor, extract
from .errors import LEFT_OUT, Name, OptionError, Setting
from .rouge155_options import DEFAULT_ALPHA, alpha_score
from .scores import Score

ENTITY_KEY = "update_ent"
OUTDATED_KEY = "update_ent_outdated_kept"
UNSUPPORTED_KEY = "update_ent_unsupported"
ENTITY_COUNT_KEYS = ("_ent_both_empty", "_ent_outdated_defined")
NO_ENTITIES: frozenset[str] = frozenset()


@dataclass(frozen=True)
class EntityScore:
    """One example's entities against one reference's (the definitions of the module docstring):
    the prediction's and the reference's new entities, the entities the reference drops, those of
    them the prediction keeps and, with evidence, the prediction's unsupported ones (else ``None``)."""

    prediction_new: frozenset[str]
    reference_new: frozenset[str]
    dropped: frozenset[str]
    kept: frozenset[str]
    unsupported: frozenset[str] | None = None
    alpha: float = DEFAULT_ALPHA

    @property
    def both_empty(self) -> bool:
        return not self.prediction_new and not self.reference_new

    @property
    def matched(self) -> int:
        return len(self.prediction_new & self.reference_new)

    @property
    def precision(self) -> float:
        if self.both_empty:
            return 1.0
        return self.matched / len(self.prediction_new) if self.prediction_new else 0.0

    @property
    def recall(self) -> float:
        if self.both_empty:
            return 1.0
        return self.matched / len(self.reference_new) if self.reference_new else 0.0

    @property
    def fmeasure(self) -> float:
        """F1 of precision and recall (rouge-score's formula), or with another ``alpha`` the F of
        ROUGE-1.5.5's ``-p`` (``rouge155_options.alpha_score``), as for the rouge types."""
        precision, recall = self.precision, self.recall
        f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
        return alpha_score(Score(precision, recall, f1), self.alpha).fmeasure

    @property
    def outdated_kept(self) -> float | None:
        return len(self.kept) / len(self.dropped) if self.dropped else None

    @property
    def counts(self) -> Counts:
        """What the micro average sums: matched, the reference's and the prediction's new entities."""
        return Counts(self.matched, len(self.reference_new), len(self.prediction_new))


def example_entities(
    source: frozenset[str],
    prediction: frozenset[str],
    references: Sequence[frozenset[str]],
    evidence: frozenset[str] | None = None,
    alpha: float = DEFAULT_ALPHA,
) -> EntityScore:
    """The ``EntityScore`` of one example from its entity sets (``evidence``: the union of its
    evidence's, ``None`` without): that of the reference with the highest ``fmeasure``, the
    first on ties."""
    prediction_new = prediction - source
    unsupported = None if evidence is None else prediction_new - evidence
    scores = [
        EntityScore(
            prediction_new,
            reference - source,
            source - reference,
            (source - reference) & prediction,
            unsupported,
            alpha,
        )
        for reference in references
    ]
    return max(scores, key=lambda score: score.fmeasure)


def score_entities(
    extractor: "SpacyExtractor | Extractor",
    sources: Sequence[str],
    systems: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    evidence: Sequence[Sequence[str]] | None = None,
    alpha: float = DEFAULT_ALPHA,
) -> list[list[EntityScore]]:
    """Per system of ``systems`` (each one text per example), the ``EntityScore`` of each example
    (F with ``alpha``), every distinct text of the inputs extracted once
    (``entity_extractors.extract``)."""
    texts = [*sources, *(text for system in systems for text in system)]
    texts += [text for example in references for text in example]
    texts += [text for example in evidence or () for text in example]
    found = extract(extractor, texts)
    held = None if evidence is None else [frozenset().union(*(found[text] for text in texts)) for texts in evidence]
    return [
        [
            example_entities(
                found[source],
                found[prediction],
                [found[text] for text in example_references],
                None if held is None else held[index],
                alpha,
            )
            for index, (source, prediction, example_references) in enumerate(zip(sources, system, references))
        ]
        for system in systems
    ]


def entity_table(scores: Sequence[EntityScore], evidence: bool) -> dict[str, list]:
    """The per-example columns of the entity keys (``compute(use_aggregator=False)``'s), in input
    order; ``update_ent_unsupported`` with ``evidence``."""
    table: dict[str, list] = {
        ENTITY_KEY: [score.fmeasure for score in scores],
        f"{ENTITY_KEY}_precision": [score.precision for score in scores],
        f"{ENTITY_KEY}_recall": [score.recall for score in scores],
        OUTDATED_KEY: [score.outdated_kept for score in scores],
    }
    if evidence:
        table[UNSUPPORTED_KEY] = [len(score.unsupported or NO_ENTITIES) for score in scores]
    table["_ent_both_empty"] = [score.both_empty for score in scores]
    table["_ent_outdated_defined"] = [bool(score.dropped) for score in scores]
    return table


def entity_counts(scores: Sequence[EntityScore]) -> dict[str, list[Counts]]:
    """What the micro average sums per example: ``update_ent``'s ``Counts`` and, under
    ``update_ent_outdated_kept``, |R_gone & P| and |R_gone| (as hits and target; prediction 0)."""
    return {
        ENTITY_KEY: [score.counts for score in scores],
        OUTDATED_KEY: [Counts(len(score.kept), len(score.dropped), 0) for score in scores],
    }


def pooled_outdated(counts: Mapping[str, Sequence[Counts]]) -> tuple[int, int]:
    """The sums of |R_gone & P| and of |R_gone| over the examples of ``entity_counts``."""
    rows = counts[OUTDATED_KEY]
    return sum(row.hits for row in rows), sum(row.target for row in rows)


def entity_columns(
    settings: Any,
    sources: Sequence[str],
    systems: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    evidence: Sequence[Sequence[str]] | None,
) -> list[tuple[dict[str, list], dict[str, list[Counts]] | None]]:
    """Per system, the entity keys' per-example columns (``entity_table``) and, under
    ``average="micro"`` (else ``None``), what the micro average sums (``entity_counts``), under
    a ``settings.Settings``' ``entities`` and ``alpha`` (checked inputs:
    ``metric.UpdateRougeScorer.tables``)."""
    per_system = score_entities(settings.entities, sources, systems, references, evidence, settings.alpha)
    micro = settings.average == "micro"
    return [
        (entity_table(scores, evidence is not None), entity_counts(scores) if micro else None) for scores in per_system
    ]


def check_evidence_given(extractor: object, evidence: object) -> None:
    """``OptionError`` where ``evidence`` is given without an extractor: it is read only by the
    entity scores."""
    if evidence is not None and extractor is None:
        raise OptionError(
            "evidence",
            "...",
            (Name("evidence"), " is read only by the entity scores: it needs ", Name("entities")),
            [[Setting("evidence", LEFT_OUT)]],
        )
