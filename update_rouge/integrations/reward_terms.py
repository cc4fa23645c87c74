"""The terms of a TRL reward (``rewards.update_rouge_reward(reward=...)``): each term parsed and
checked, and its value on one scored example.

A term is ``"<type>[_<measure>]"`` (measure ``f1``, ``precision`` or ``recall``): that score of
the completion's additions; ``"del_<type>[_<measure>]"``: of its deletions; ``"ent[_<measure>]"``:
of its entities (``update_ent``); or ``"ent_unsupported"``: 1 / (1 + n), n the example's
``update_ent_unsupported``. The reward is the weighted mean of its terms (``parse_reward``: the
weights divided by their sum), so it stays in [0, 1].
"""

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

from ..entities import ENTITY_KEY
from ..errors import LEFT_OUT, Name, OptionError, Setting, UpdateRougeError
from ..example_tables import ExampleScore
from ..inputs import _describe
from ..rouge_types import check_rouge_types

DEFAULT_REWARD = "rougeLsum"
MEASURES = {"f1": "fmeasure", "precision": "precision", "recall": "recall"}
DELETIONS = "del_"
"""The prefix of a term that scores the deletions (``del_rouge1``), not the additions."""
ENTITIES = ENTITY_KEY.removeprefix("update_")
"""The term of the entity scores (``ent``, ``ent_recall``), given ``entities=``."""
UNSUPPORTED = "unsupported"
"""The measure of the term ``ent_unsupported``, 1 / (1 + the unsupported entities), which needs evidence."""


class Term(NamedTuple):
    """A reward term: what it scores (``part``: ``""`` the additions, ``DELETIONS`` the
    deletions, ``ENTITIES`` the entities), its rouge type (``""`` for an entity term), its
    measure (a key of ``MEASURES``, or ``UNSUPPORTED``) and its weight (divided by the sum)."""

    part: str
    rouge_type: str
    measure: str
    weight: float = 1.0

    @property
    def name(self) -> str:
        """Its part of the reward's default name and its logged key: ``rouge1_f1``,
        ``del_rouge1_recall``, ``ent_recall``, ``ent_unsupported``."""
        return f"{self.part}{self.rouge_type}_{self.measure}"

    def value(self, example: ExampleScore) -> float:
        """The term's value for ``example`` (scored with what the term needs)."""
        if self.part == ENTITIES:
            entities = example.entities
            if self.measure == UNSUPPORTED:
                return 1 / (1 + len(entities.unsupported))  # type: ignore[union-attr,arg-type]
            return float(getattr(entities, MEASURES[self.measure]))
        scores = example.deletions.scores if self.part == DELETIONS else example.scores  # type: ignore[union-attr]
        return float(getattr(scores[self.rouge_type], MEASURES[self.measure]))

    def decided(self, example: ExampleScore) -> bool:
        """Whether a rule decides the term on ``example``: neither side adds anything (an additions
        term), deletes anything (a ``del_`` term), adds an entity (an ``ent`` term); no rule
        decides ``ent_unsupported``."""
        if self.part == ENTITIES:
            return self.measure != UNSUPPORTED and example.entities.both_empty  # type: ignore[union-attr]
        return example.deletions.both_kept if self.part == DELETIONS else example.both_empty  # type: ignore[union-attr]


def _parse_term(reward: Any, term: Any) -> Term:
    """``"rouge2"`` -> ``Term("", "rouge2", "f1")``; ``"del_rouge2_recall"`` -> the deletions'
    recall; ``"ent_recall"`` -> the entities' recall. ``OptionError`` of ``reward`` (which holds
    ``term``) for a term that is not one, advising the reward with it mended."""
    if not isinstance(term, str) or not term:
        problem = f"must be a non-empty string such as {DEFAULT_REWARD!r}, got {_describe(term)}"
        raise _refused_term(reward, term, problem, [DEFAULT_REWARD])
    if term == ENTITIES or term.startswith(f"{ENTITIES}_"):
        measure = term.removeprefix(ENTITIES).removeprefix("_") or "f1"
        if measure not in (*MEASURES, UNSUPPORTED):
            mended = [f"{ENTITIES}_{measure}" for measure in (*MEASURES, UNSUPPORTED)]
            raise _refused_term(reward, term, "must end in one of _f1, _precision, _recall, _unsupported", mended)
        return Term(ENTITIES, "", measure)
    prefix = DELETIONS if term.startswith(DELETIONS) else ""
    rouge_type, _, measure = term.removeprefix(prefix).rpartition("_")
    if not rouge_type:
        rouge_type, measure = term.removeprefix(prefix), "f1"
    try:
        check_rouge_types([rouge_type])
    except OptionError as error:
        problem = f"names no rouge type ({UpdateRougeError.render(error)})"
        raise _refused_term(reward, term, problem, [prefix + DEFAULT_REWARD]) from None
    if measure not in MEASURES:
        measures = [f"{prefix}{rouge_type}_{measure}" for measure in MEASURES]
        raise _refused_term(
            reward, term, "must end in one of _f1, _precision, _recall (or name a type alone: F1)", measures
        )
    return Term(prefix, rouge_type, measure)


def _refused_term(reward: Any, term: Any, problem: str, mended: list[str]) -> OptionError:
    """The refusal of ``reward`` for its ``term``: "reward term 'rouge1_f2' ``problem``"; the
    advice is ``reward`` with ``term`` replaced by each of ``mended``."""

    def replaced(new: str) -> Any:
        if not isinstance(reward, Mapping):
            return new
        return {(new if key == term else key): weight for key, weight in reward.items()}

    return OptionError(
        "reward",
        reward,
        (Name("reward"), f" term {term!r} {problem}"),
        [[Setting("reward", replaced(new))] for new in mended],
    )


def parse_reward(reward: Any) -> list[Term]:
    """The reward's terms, weights divided by their sum; ``OptionError`` naming what is wrong."""
    if isinstance(reward, str):
        return [_parse_term(reward, reward)]
    if not isinstance(reward, Mapping) or not reward:
        raise OptionError(
            "reward",
            reward,
            (
                Name("reward"),
                f" must be a term such as 'rougeLsum' or a non-empty mapping of terms to weights, got {_describe(reward)}",
            ),
            [[Setting("reward", LEFT_OUT)]],
        )
    terms = []
    for term, weight in reward.items():
        parsed = _parse_term(reward, term)
        number = isinstance(weight, (int, float)) and not isinstance(weight, bool)
        if not (number and math.isfinite(weight) and weight > 0):
            raise OptionError(
                "reward",
                reward,
                (
                    "the weight of ",
                    Name("reward"),
                    f" term {term!r} must be a positive finite number, got {_describe(weight)}",
                ),
                [[Setting("reward", {**reward, term: 1.0})]],
            )
        terms.append(parsed._replace(weight=float(weight)))
    keys = [term.name for term in terms]
    if len(set(keys)) < len(keys):
        firsts = {key: name for key, name in reversed(list(zip(keys, reward)))}
        raise OptionError(
            "reward",
            reward,
            (Name("reward"), f" names a (type, measure) more than once: {list(reward)}"),
            [[Setting("reward", {name: reward[name] for name in firsts.values()})]],
        )
    total = math.fsum(term.weight for term in terms)
    return [term._replace(weight=term.weight / total) for term in terms]
