"""UpdateROUGE as a reward for reinforcement-learning fine-tuning with TRL (``GRPOTrainer`` and the
other online trainers that take ``reward_funcs``).

``update_rouge_reward(...)`` returns a callable in TRL's reward contract: called as
``reward(prompts=..., completions=..., **columns)`` with one completion per row and the
dataset's other columns repeated to match, it returns one float per completion. Each reward is
the per-example score ``compute(..., use_aggregator=False)`` gives the same source, completion
and references (the no-additions rule included), or a weighted mean of several such scores.
It takes ``compute``'s options that make or run a per-example score (``REWARD_OPTIONS``) and
refuses every other option of the table when it is built, naming it, rather than ignore one
(``average="micro"`` would have no effect on a per-example score): the rouge types come from
``reward=``, and a corpus option has nothing to act on. Nothing here needs TRL, torch or
transformers.
"""

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import Field, Spelling, UpdateRougeError
from ..inputs import _describe
from ..metric import score_examples
from ..settings import OPTIONS
from .refusals import CORPUS_OPTIONS, refuse_given

DEFAULT_REWARD = "rougeLsum"
MEASURES = {"f1": "fmeasure", "precision": "precision", "recall": "recall"}
# The table's options a reward refuses by name: the types (they come from reward=) and those
# that act on a corpus result (refusals.CORPUS_OPTIONS), which a per-example score has none of.
REFUSED_OPTIONS = ("rouge_types", *CORPUS_OPTIONS)
# compute's options that a reward honours, the table's others: they make a per-example score, or run it.
REWARD_OPTIONS = tuple(option.name for option in OPTIONS if option.name not in REFUSED_OPTIONS)
# Why an option is refused, where the general reason (it makes no per-example score) is not it.
_REFUSAL_REASONS = {
    "rouge_types": "the types come from reward=",
    "protocol": "a protocol reproduces a published evaluation script's numbers, not a training signal; "
    "leave it out (our rules)",
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


def _parse_term(term: Any) -> tuple[str, str]:
    """``"rouge2"`` -> (``"rouge2"``, ``"f1"``); ``"rouge2_recall"`` -> (``"rouge2"``, ``"recall"``)."""
    if not isinstance(term, str) or not term:
        raise ValueError(f"reward terms are strings such as 'rougeLsum' or 'rouge2_recall', got {_describe(term)}")
    rouge_type, _, measure = term.rpartition("_")
    if not rouge_type:
        return term, "f1"
    if measure not in MEASURES:
        raise ValueError(f"reward term {term!r} must end in one of _f1, _precision, _recall (or name a type alone: F1)")
    return rouge_type, measure


def _parse_reward(reward: str | Mapping[str, float]) -> list[tuple[str, str, float]]:
    """The reward as (rouge type, measure, weight) terms, weights divided by their sum."""
    if isinstance(reward, str):
        return [(*_parse_term(reward), 1.0)]
    if not isinstance(reward, Mapping) or not reward:
        raise ValueError(
            "reward must be a term such as 'rougeLsum' or a non-empty mapping of terms to weights, "
            f"got {_describe(reward)}"
        )
    terms = []
    for term, weight in reward.items():
        rouge_type, measure = _parse_term(term)
        number = isinstance(weight, (int, float)) and not isinstance(weight, bool)
        if not (number and math.isfinite(weight) and weight > 0):
            raise ValueError(
                f"the weight of reward term {term!r} must be a positive finite number, got {_describe(weight)}"
            )
        terms.append((rouge_type, measure, float(weight)))
    keys = [(rouge_type, measure) for rouge_type, measure, _ in terms]
    if len(set(keys)) < len(keys):
        raise ValueError(f"reward names a (type, measure) more than once: {list(reward)}")
    total = math.fsum(weight for _, _, weight in terms)
    return [(rouge_type, measure, weight / total) for rouge_type, measure, weight in terms]


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
        self.options = dict(compute_kwargs, rouge_types=list(dict.fromkeys(t for t, _, _ in self.terms)))
        # score_examples checks every option now, so that a bad one fails here and not at a training step.
        score_examples([""], [""], [""], **self.options)
        self.__name__ = name or "update_rouge_" + "_".join(f"{t}_{m}" for t, m, _ in self.terms)

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
            rouge_type, measure, _ = self.terms[0]
            return [float(getattr(example.scores[rouge_type], MEASURES[measure])) for example in examples]
        return [
            math.fsum(weight * getattr(example.scores[t], MEASURES[m]) for t, m, weight in self.terms)
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
            ``compute`` accepts; or a mapping of such terms to positive weights, whose weighted
            mean is the reward (weights are divided by their sum, so the reward stays in [0, 1];
            scale it with TRL's ``reward_weights``). Default: the F1 of ``rougeLsum``.
        source_column, reference_column: the dataset columns holding each example's source text
            and its reference (a string, or a non-empty list of strings for several references,
            combined as ``multi_ref=`` says).
        name: the reward's ``__name__``, which TRL logs as ``rewards/<name>/mean``; default
            ``update_rouge_<type>_<measure>`` for each term (``update_rouge_rougeLsum_f1``).
        **compute_kwargs: every per-example scoring option of ``compute`` (``stemmer``,
            ``use_stemmer``, ``tokenizer``, ``multi_ref``, ``engine``, ``num_proc``, ...), checked
            here. Not ``rouge_types`` (given by ``reward``) nor the corpus-level options
            (``use_aggregator``, ``confidence_level``, ``n_bootstrap``, ``seed``,
            ``baseline_predictions``, ``return_signature``).

    Returns:
        A picklable callable ``reward(prompts=..., completions=..., **columns) -> list[float]``,
        each value in [0, 1]: with a single term, exactly the per-example value of
        ``compute(..., use_aggregator=False)`` under ``update_<type>`` (F1),
        ``update_<type>_precision`` or ``update_<type>_recall``. A completion that adds nothing
        to its source scores 1.0 when some reference adds nothing too (every reference, with
        ``multi_ref="pooled"``), as in ``compute``.
    """
    return UpdateRougeReward(reward, source_column, reference_column, name, **compute_kwargs)
