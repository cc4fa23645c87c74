"""UpdateROUGE as a reward for reinforcement-learning fine-tuning with TRL (``GRPOTrainer`` and the
other online trainers that take ``reward_funcs``).

``update_rouge_reward(...)`` returns a callable in TRL's reward contract: called as
``reward(prompts=..., completions=..., **columns)`` with one completion per row and the
dataset's other columns repeated to match, it returns one float per completion. Each reward is
the per-example score ``compute(..., use_aggregator=False)`` gives the same source, completion
and references (the no-additions rule included), or a weighted mean of several such scores.
A term ``del_<type>`` (``del_rouge1_recall``) is the score of what the completion deletes from
its source (``update_del_<type>`` of ``compute(..., deletions=True)``): a ``del_`` term scores
the deletions by itself, so that a reward can pay for the right deletions and penalise wrong
ones beside the additions.
It takes ``compute``'s options that make or run a per-example score (``REWARD_OPTIONS``) and
refuses every other option of the table when it is built, naming it, rather than ignore one
(``average="micro"`` would have no effect on a per-example score): the rouge types come from
``reward=``, and a corpus option has nothing to act on. Nothing here needs TRL, torch or
transformers.
"""

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import LEFT_OUT, Field, OptionError, Setting, Spelling, UpdateRougeError
from ..example_tables import ExampleScore
from ..inputs import _describe
from ..metric import score_examples
from ..settings import OPTIONS
from .refusals import CORPUS_OPTIONS, ENTITIES_WHY, ENTITY_OPTIONS, refuse_given

DEFAULT_REWARD = "rougeLsum"
MEASURES = {"f1": "fmeasure", "precision": "precision", "recall": "recall"}
DELETIONS = "del_"
"""The prefix of a term that scores the deletions (``del_rouge1``), not the additions."""
# The table's options a reward refuses by name: the types (they come from reward=) and those
# that act on a corpus result (refusals.CORPUS_OPTIONS), which a per-example score has none of.
REFUSED_OPTIONS = ("rouge_types", *CORPUS_OPTIONS, *ENTITY_OPTIONS)
# compute's options that a reward honours, the table's others: they make a per-example score, or run it.
REWARD_OPTIONS = tuple(option.name for option in OPTIONS if option.name not in REFUSED_OPTIONS)
# Why an option is refused, where the general reason (it makes no per-example score) is not it.
_REFUSAL_REASONS = {
    "rouge_types": "the types come from reward=",
    "protocol": "a protocol reproduces a published evaluation script's numbers, not a training signal; "
    "leave it out (our rules)",
    **dict.fromkeys(ENTITY_OPTIONS, ENTITIES_WHY),
}
# What TRL passes besides the dataset's columns.
TRL_ARGUMENTS = ("completion_ids", "trainer_state", "log_extra", "log_metric", "environments")


class _Columns(Spelling):
    """A reward's spelling of the inputs: the dataset's columns (``names``: field -> column) and
    the completions."""

    def __init__(self, names: dict[str, str]):
        self.names = {**names, "predictions": "completions"}

    def field(self, field: Field) -> str:
        return f"{self.names.get(field.field, field.field)}{field.indices}"


Term = tuple[bool, str, str, float]
"""A reward term: whether it scores the deletions, its rouge type, its measure, its weight."""


def _parse_term(term: Any) -> tuple[bool, str, str]:
    """``"rouge2"`` -> (False, ``"rouge2"``, ``"f1"``); ``"del_rouge2_recall"`` -> (True,
    ``"rouge2"``, ``"recall"``): the deletions' recall."""
    if not isinstance(term, str) or not term:
        raise ValueError(f"reward terms are strings such as 'rougeLsum' or 'rouge2_recall', got {_describe(term)}")
    deletions = term.startswith(DELETIONS)
    rouge_type, _, measure = term.removeprefix(DELETIONS).rpartition("_")
    if not rouge_type:
        return deletions, term.removeprefix(DELETIONS), "f1"
    if measure not in MEASURES:
        raise ValueError(f"reward term {term!r} must end in one of _f1, _precision, _recall (or name a type alone: F1)")
    return deletions, rouge_type, measure


def _parse_reward(reward: str | Mapping[str, float]) -> list[Term]:
    """The reward as (deletions, rouge type, measure, weight) terms, weights divided by their sum."""
    if isinstance(reward, str):
        return [(*_parse_term(reward), 1.0)]
    if not isinstance(reward, Mapping) or not reward:
        raise ValueError(
            "reward must be a term such as 'rougeLsum' or a non-empty mapping of terms to weights, "
            f"got {_describe(reward)}"
        )
    terms = []
    for term, weight in reward.items():
        parsed = _parse_term(term)
        number = isinstance(weight, (int, float)) and not isinstance(weight, bool)
        if not (number and math.isfinite(weight) and weight > 0):
            raise ValueError(
                f"the weight of reward term {term!r} must be a positive finite number, got {_describe(weight)}"
            )
        terms.append((*parsed, float(weight)))
    keys = [term[:3] for term in terms]
    if len(set(keys)) < len(keys):
        raise ValueError(f"reward names a (type, measure) more than once: {list(reward)}")
    total = math.fsum(term[3] for term in terms)
    return [(*term[:3], term[3] / total) for term in terms]


def _term_name(deletions: bool, rouge_type: str, measure: str) -> str:
    """A term's part of the reward's default name: ``rouge1_f1``, ``del_rouge1_recall``."""
    return f"{DELETIONS if deletions else ''}{rouge_type}_{measure}"


def _scoring_options(terms: list[Term], options: dict[str, Any]) -> dict[str, Any]:
    """``compute``'s options of a reward of ``terms``: the terms' rouge types and, where a term
    scores the deletions, ``deletions=True``; ``OptionError`` for ``deletions=False`` beside one."""
    scored = dict(options, rouge_types=list(dict.fromkeys(rouge_type for _, rouge_type, _, _ in terms)))
    if not any(deletions for deletions, _, _, _ in terms):
        return scored
    if options.get("deletions") is False:
        raise OptionError(
            "deletions",
            False,
            (
                Setting("deletions", False),
                " cannot be set for a reward with a del_ term: a del_ term scores the deletions",
            ),
            [[Setting("deletions", LEFT_OUT)]],
        )
    scored.setdefault("deletions", True)  # implied; a given value that is no switch, Settings refuses by name
    return scored


def _value(example: ExampleScore, deletions: bool, rouge_type: str, measure: str) -> float:
    """One term's value for one example: a measure of its additions' or deletions' score."""
    scores = example.deletions.scores if deletions else example.scores  # type: ignore[union-attr]
    return float(getattr(scores[rouge_type], MEASURES[measure]))


def _assistant_text(completion: Any, index: int) -> str:
    """The text a completion contributes: itself (plain text) or its last assistant message's content."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence) and all(isinstance(message, Mapping) for message in completion):
        for message in reversed(completion):
            if message.get("role") == "assistant":
                return _message_text(message.get("content"), index)
        raise ValueError(f"completions[{index}] is a conversation without an assistant message: nothing to score")
    raise ValueError(
        f"completions[{index}] must be a string or a list of messages ({{'role': ..., 'content': ...}}), "
        f"got {_describe(completion)}"
    )


def _message_text(content: Any, index: int) -> str:
    """A message's content as text: a string, ``None`` (a tool call without text: ""), or text blocks joined."""
    if content is None or isinstance(content, str):
        return content or ""
    text_blocks = isinstance(content, Sequence) and all(
        isinstance(block, Mapping) and block.get("type") == "text" for block in content
    )
    if text_blocks:
        return "".join(block.get("text", "") for block in content)
    raise ValueError(
        f"completions[{index}]: the last assistant message's content must be a string or a list of "
        f"{{'type': 'text', 'text': ...}} blocks, got {_describe(content)}"
    )


def _reference_list(reference: Any, column: str, index: int) -> list[Any]:
    if isinstance(reference, str):
        return [reference]
    if isinstance(reference, (list, tuple)):
        if not reference:
            raise ValueError(f"column {column!r}[{index}] is an empty list: every example needs at least one reference")
        return list(reference)
    raise ValueError(f"column {column!r}[{index}] must be a string or a list of strings, got {_describe(reference)}")


class UpdateRougeReward:
    """A reward function in TRL's contract; build it with ``update_rouge_reward``."""

    def __init__(
        self,
        reward: str | Mapping[str, float] = DEFAULT_REWARD,
        source_column: str = "source",
        reference_column: str = "reference",
        name: str | None = None,
        **compute_kwargs: Any,
    ):
        for option in REFUSED_OPTIONS:
            why = _REFUSAL_REASONS.get(option, "a reward is one score per example, which this option does not change")
            refuse_given(compute_kwargs, (option,), "a reward", why)
        for argument, column in (("source_column", source_column), ("reference_column", reference_column)):
            if not isinstance(column, str) or not column:
                raise ValueError(f"{argument} must be the name of a dataset column, got {_describe(column)}")
        self.terms = _parse_reward(reward)
        self.source_column = source_column
        self.reference_column = reference_column
        self._columns = _Columns({"sources": f"column {source_column!r}", "references": f"column {reference_column!r}"})
        self.options = _scoring_options(self.terms, compute_kwargs)
        # score_examples checks every option now, so that a bad one fails here and not at a training step.
        score_examples([""], [""], [""], **self.options)
        self.__name__ = name or "update_rouge_" + "_".join(_term_name(*term[:3]) for term in self.terms)

    def _column(self, columns: dict[str, Any], name: str, count: int) -> list:
        if name not in columns:
            given = ", ".join(sorted(key for key in columns if key not in TRL_ARGUMENTS)) or "none"
            raise ValueError(
                f"the dataset has no column {name!r} (columns given to the reward: {given}); "
                "name the column with source_column= or reference_column="
            )
        values = columns[name]
        if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
            raise ValueError(f"column {name!r} must be a list, one value per completion, got {_describe(values)}")
        if len(values) != count:
            raise ValueError(f"column {name!r} has {len(values)} values for {count} completions")
        return list(values)

    def __call__(self, prompts: Any = None, completions: Any = None, **columns: Any) -> list[float]:
        """One reward in [0, 1] per completion, in order.

        ``completions`` holds strings or conversations (lists of ``{"role", "content"}``
        messages; the content of the last assistant message is scored, so earlier assistant
        turns such as tool calls are not). ``columns`` must hold the source and reference
        columns, one value per completion (a reference is a string or a non-empty list of
        strings); other keyword arguments (``completion_ids``, ``trainer_state``, other
        columns) are ignored. Raises ``ValueError`` naming the column and the row index.
        """
        try:
            return self._rewards(completions, columns)
        except ValueError as error:
            message = error.render(self._columns) if isinstance(error, UpdateRougeError) else str(error)
            raise ValueError(f"{self.__name__}: {message}") from error

    def _rewards(self, completions: Any, columns: dict[str, Any]) -> list[float]:
        if completions is None or isinstance(completions, str) or not hasattr(completions, "__len__"):
            raise ValueError(f"completions must be a list with one completion per row, got {_describe(completions)}")
        count = len(completions)
        if count == 0:
            return []
        predictions = [_assistant_text(completion, index) for index, completion in enumerate(completions)]
        sources = self._column(columns, self.source_column, count)
        references = [
            _reference_list(reference, self.reference_column, index)
            for index, reference in enumerate(self._column(columns, self.reference_column, count))
        ]
        examples = score_examples(sources, predictions, references, **self.options)
        if len(self.terms) == 1:
            return [_value(example, *self.terms[0][:3]) for example in examples]
        return [
            math.fsum(weight * _value(example, deletions, t, m) for deletions, t, m, weight in self.terms)
            for example in examples
        ]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.__name__}>"


def update_rouge_reward(
    reward: str | Mapping[str, float] = DEFAULT_REWARD,
    source_column: str = "source",
    reference_column: str = "reference",
    name: str | None = None,
    **compute_kwargs: Any,
) -> UpdateRougeReward:
    """Build an UpdateROUGE reward function for TRL's ``reward_funcs``.

    Args:
        reward: what the reward is: a term ``"<type>"`` (its F1) or ``"<type>_<measure>"`` with
            measure ``f1``, ``precision`` or ``recall`` (``"rouge2_recall"``), for any rouge type
            ``compute`` accepts; ``"del_<type>"`` or ``"del_<type>_<measure>"`` (``"del_rouge1"``)
            for that score of the completion's deletions (what it removes from its source) against
            the reference's, which a ``del_`` term has scored (``deletions=True`` is implied;
            ``deletions=False`` beside it is refused); or a mapping of such terms to positive weights, whose weighted
            mean is the reward (weights are divided by their sum, so the reward stays in [0, 1];
            scale it with TRL's ``reward_weights``). Default: the F1 of ``rougeLsum``.
        source_column, reference_column: the dataset columns holding each example's source text
            and its reference (a string, or a non-empty list of strings for several references,
            combined as ``multi_ref=`` says).
        name: the reward's ``__name__``, which TRL logs as ``rewards/<name>/mean``; default
            ``update_rouge_<type>_<measure>`` for each term (``update_rouge_rougeLsum_f1``,
            ``update_rouge_del_rouge1_recall``).
        **compute_kwargs: every per-example scoring option of ``compute`` (``settings.OPTIONS``),
            checked here; not those of ``REFUSED_OPTIONS``: ``rouge_types`` (given by ``reward``)
            and the options that act on a corpus result (``refusals.CORPUS_OPTIONS``).

    Returns:
        A picklable callable ``reward(prompts=..., completions=..., **columns) -> list[float]``,
        each value in [0, 1]: with a single term, exactly the per-example value of
        ``compute(..., use_aggregator=False)`` under ``update_<type>`` (F1),
        ``update_<type>_precision`` or ``update_<type>_recall`` (a ``del_`` term: ``update_del_<type>``,
        ... of ``compute(..., deletions=True)``). A completion that adds nothing
        to its source scores 1.0 when some reference adds nothing too (every reference, with
        ``multi_ref="pooled"``), as in ``compute``.
    """
    return UpdateRougeReward(reward, source_column, reference_column, name, **compute_kwargs)
