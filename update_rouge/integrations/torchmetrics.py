"""UpdateROUGE as a ``torchmetrics.Metric``, for training and evaluation loops that sync metrics
across processes (Lightning, DDP).

Needs the optional extra ``pip install 'update-rouge[torchmetrics]'``.

``UpdateRougeMetric(**options)`` takes ``compute``'s settings. ``update(sources, predictions,
references)`` scores a batch; ``compute()`` returns ``update_<type>``, ``_precision`` and
``_recall`` of every type (the deletions' ``update_del_<type>`` ... too with ``deletions=True``)
as 0-dimensional float64 tensors, equal to ``compute``'s means of all the examples on one
process, bit for bit, whatever the order in which the processes' examples are gathered:

- ``average="macro"`` (the default): each example's scores are kept (list states reduced by
  ``cat``); the result is their mean summed exactly (``corpus.mean``).
- ``average="micro"``: each type's hits, target and prediction counts are summed (int64 states
  reduced by ``sum``); the result is ``micro.micro_means`` of those sums.

Under ``entities=`` (docs/entities.md) ``update_ent`` and its ``_precision`` and ``_recall`` are
kept as a rouge type's are, ``update_ent_outdated_kept`` as each example's value (macro) or the
summed counts (micro), ``NaN`` where no example defines it; given ``update(..., evidence=...)``
for every batch, ``update_ent_unsupported`` too, as ``compute``'s.

No bootstrap interval is computed here (a resample depends on the order of the examples, which
gathering does not keep). ``signature(references)`` is the signature of what this metric
computes: ``compute(..., confidence_level=None, return_signature=True)``'s (``boot:none|ci:none``).
"""

import math
from collections.abc import Sequence
from typing import Any

from ..extras import MissingExtra

try:
    import torch
    from torchmetrics import Metric
    from torchmetrics.utilities import dim_zero_cat
except ImportError as error:
    raise MissingExtra(
        "UpdateRougeMetric needs the optional extra: pip install 'update-rouge[torchmetrics]'"
    ) from error

from .. import Settings, UpdateRougeScorer
from ..corpus import mean
from ..entities import (
    ENTITY_KEY,
    OUTDATED_KEY,
    UNSUPPORTED_KEY,
    EntityScore,
    check_evidence_given,
    entity_counts,
    entity_table,
    pooled_outdated,
)
from ..errors import LEFT_OUT, Field, InputError, Name, OptionError, Setting
from ..example_tables import DELETIONS_PREFIX, ExampleScore, score_keys
from ..micro import micro_means
from ..protocols import rules_of
from .refusals import CORPUS_OPTIONS, refuse_given

MEASURES = (("", "fmeasure"), ("_precision", "precision"), ("_recall", "recall"))
"""Output key suffix and ``rouge_score`` ``Score`` field of each measure."""
_REFUSED = tuple(name for name in CORPUS_OPTIONS if name not in ("confidence_level", "average", "protocol"))
"""``compute``'s options this metric does not take, the corpus options (``refusals.CORPUS_OPTIONS``)
but ``confidence_level``, ``average`` and ``protocol``: it gives corpus means, without a bootstrap,
one tensor per key."""
_DOOR = "UpdateRougeMetric"


class UpdateRougeMetric(Metric):
    """UpdateROUGE's corpus means as a ``torchmetrics.Metric`` (see the module docstring).

    ``options`` are ``compute``'s settings; ``metric_kwargs`` go to ``torchmetrics.Metric``. Raises
    ``OptionError`` naming the keyword for an option ``compute`` refuses and for the corpus options
    this metric does not honour (``_REFUSED``, a ``confidence_level`` other than ``None``, and a
    protocol whose corpus value is an order-dependent bootstrap median).
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    n_examples: "torch.Tensor"
    """How many examples ``update`` was given (a state reduced by ``sum``)."""

    def __init__(self, metric_kwargs: dict[str, Any] | None = None, **options: Any):
        super().__init__(**(metric_kwargs or {}))
        refuse_given(options, _REFUSED, _DOOR, "it computes corpus means only, no bootstrap")
        why = "each batch's evidence goes to update(sources, predictions, references, evidence=...)"
        refuse_given(options, ("evidence",), _DOOR, why)
        level = options.get("confidence_level")
        if level is not None:
            raise OptionError(
                "confidence_level",
                level,
                (
                    Name("confidence_level"),
                    f" cannot be set for {_DOOR}: it computes no interval (only ",
                    Setting("confidence_level", None),
                    " is taken)",
                ),
                [[Setting("confidence_level", None)]],
            )
        self.settings = Settings(**{**options, "confidence_level": None})
        if rules_of(self.settings.protocol).bootstrap_median:
            raise OptionError(
                "protocol",
                self.settings.protocol,
                (
                    Setting("protocol", self.settings.protocol),
                    f" cannot be set for {_DOOR}: its corpus value is a bootstrap median, which needs every "
                    "example's scores in order, and gathering across processes does not keep it; use compute "
                    "on the gathered texts",
                ),
                [[Setting("protocol", LEFT_OUT)]],
            )
        self._scorer = UpdateRougeScorer(self.settings)
        self._micro = self.settings.average == "micro"
        self.add_state("n_examples", torch.tensor(0, dtype=torch.int64), dist_reduce_fx="sum")
        for key in self._keys():
            if self._micro:
                self.add_state(f"{key}_counts", torch.zeros(3, dtype=torch.int64), dist_reduce_fx="sum")
            else:
                for suffix, _ in MEASURES:
                    self.add_state(key + suffix, [], dist_reduce_fx="cat")
        if self.settings.entities is not None:
            # micro: the kept and the dropped entities summed; macro: each example's share (NaN: undefined).
            outdated: Any = torch.zeros(2, dtype=torch.int64) if self._micro else []
            self.add_state(OUTDATED_KEY, outdated, dist_reduce_fx="sum" if self._micro else "cat")
            # The unsupported entities summed, and the examples whose evidence was given.
            self.add_state(UNSUPPORTED_KEY, torch.zeros(2, dtype=torch.int64), dist_reduce_fx="sum")

    def update(
        self,
        sources: Sequence[str],
        predictions: Sequence[str],
        references: Sequence[Any],
        evidence: Sequence[Any] | None = None,
    ) -> None:
        """Score a batch of examples (inputs as ``compute`` takes them, ``evidence`` with
        ``entities=``; errors name the batch's index)."""
        check_evidence_given(self.settings.entities, evidence)
        examples = self._scorer.examples(sources, predictions, references, evidence)
        if not examples:
            return
        self.n_examples = self.n_examples + len(examples)
        for key in self._keys():
            scored = [_scored(example, key) for example in examples]
            if self._micro:
                self._add_sums(f"{key}_counts", [sum(counts[field] for _, counts in scored) for field in range(3)])
            else:
                for suffix, field in MEASURES:
                    values = [float(getattr(score, field)) for score, _ in scored]
                    getattr(self, key + suffix).append(torch.tensor(values, dtype=torch.float64, device=self.device))
        if self.settings.entities is not None:
            self._add_entities([example.entities for example in examples], evidence is not None)  # type: ignore[misc]

    def _add_entities(self, entities: list[EntityScore], evidence: bool) -> None:
        """Add a batch's ``update_ent_outdated_kept`` and, with ``evidence``, ``update_ent_unsupported``
        to their states (``entities.entity_table``'s values, ``pooled_outdated``'s sums)."""
        table = entity_table(entities, evidence)
        if self._micro:
            self._add_sums(OUTDATED_KEY, list(pooled_outdated(entity_counts(entities))))
        else:
            shares = [math.nan if share is None else share for share in table[OUTDATED_KEY]]
            getattr(self, OUTDATED_KEY).append(torch.tensor(shares, dtype=torch.float64, device=self.device))
        if evidence:
            self._add_sums(UNSUPPORTED_KEY, [sum(table[UNSUPPORTED_KEY]), len(entities)])

    def _add_sums(self, name: str, sums: list[int]) -> None:
        state = getattr(self, name)
        setattr(self, name, state + torch.tensor(sums, dtype=torch.int64, device=state.device))

    def compute(self) -> dict[str, "torch.Tensor"]:
        """The corpus means of every example given to ``update`` (on every process once synced);
        ``InputError`` before any example, under ``macro`` and ``micro`` alike."""
        if int(self.n_examples) == 0:
            raise InputError(
                None,
                (
                    "no examples were given to update: there is nothing to compute; call "
                    "update(sources, predictions, references) with at least one example first",
                ),
            )
        if self._micro:
            sums = {key: getattr(self, f"{key}_counts").cpu().numpy().reshape(1, 3) for key in self._keys()}
            means = micro_means(sums, self.settings.alpha)
        else:
            means = {name: mean(self._values(name)) for name in self._macro_states()}
        if self.settings.entities is not None:
            means.update(self._entity_means())
        return {key: torch.tensor(value, dtype=torch.float64) for key, value in means.items()}

    def _entity_means(self) -> dict[str, float]:
        """``update_ent_outdated_kept`` (``NaN`` where no example defines it) and, where every
        example had evidence, ``update_ent_unsupported``: ``compute``'s values of them."""
        if self._micro:
            kept, dropped = getattr(self, OUTDATED_KEY).tolist()
            means = {OUTDATED_KEY: kept / dropped if dropped else math.nan}
        else:
            defined = [share for share in self._values(OUTDATED_KEY) if not math.isnan(share)]
            means = {OUTDATED_KEY: mean(defined) if defined else math.nan}
        unsupported, with_evidence = getattr(self, UNSUPPORTED_KEY).tolist()
        if with_evidence == int(self.n_examples):
            means[UNSUPPORTED_KEY] = float(unsupported) / with_evidence  # compute's exact sum over the examples
        elif with_evidence:
            raise InputError(
                Field("evidence"),
                (
                    f"evidence was given for {with_evidence} of the {int(self.n_examples)} examples: give "
                    "update(..., evidence=...) every batch or none",
                ),
            )
        return means

    def signature(self, references: Sequence[Any] | None = None) -> str:
        """The signature of these results: ``compute``'s with the same options and
        ``confidence_level=None`` (``references`` give its ``refs`` field, else ``refs:unknown``)."""
        return self._scorer.signature(references)

    def _keys(self) -> list[str]:
        """The F1 output keys: ``update_<type>`` of each type, then with deletions each
        ``update_del_<type>``, then with entities ``update_ent``."""
        keys = score_keys(self.settings.rouge_types, self.settings.deletions)
        return keys + ([ENTITY_KEY] if self.settings.entities is not None else [])

    def _macro_states(self) -> list[str]:
        return [key + suffix for key in self._keys() for suffix, _ in MEASURES]

    def _values(self, name: str) -> list[float]:
        return dim_zero_cat(getattr(self, name)).cpu().tolist()


def _scored(example: ExampleScore, key: str) -> tuple[Any, Any]:
    """What ``example`` scored under the F1 output ``key``, of its additions, its deletions or
    its entities: something with ``precision``, ``recall`` and ``fmeasure`` (a ``Score``, an
    ``EntityScore``) and its counts (under micro; else ``None``)."""
    if key == ENTITY_KEY:
        return example.entities, example.entities.counts  # type: ignore[union-attr]
    deletions = key.startswith(DELETIONS_PREFIX)
    part = example.deletions if deletions else example
    rouge_type = key.removeprefix(DELETIONS_PREFIX if deletions else "update_")
    return part.scores[rouge_type], None if part.counts is None else part.counts[rouge_type]  # type: ignore[union-attr]
