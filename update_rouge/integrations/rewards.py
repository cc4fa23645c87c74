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
Where TRL passes its hooks (``log_metric``, ``log_extra``), the reward logs its parts: each term's
mean and the shares of examples that the no-additions (no-deletions) rule decided, and on request
each completion's additions; ``abstain=True`` returns ``None`` (TRL: not applicable) where those
rules decide every term.
It takes ``compute``'s options that make or run a per-example score (``REWARD_OPTIONS``) and
refuses every other option of the table when it is built, naming it, rather than ignore one
(``average="micro"`` would have no effect on a per-example score): the rouge types come from
``reward=``, and a corpus option has nothing to act on. Nothing here needs TRL, torch or
transformers.
"""

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import (
    LEFT_OUT,
    Field,
    InputError,
    Name,
    OptionError,
    Setting,
    Spelling,
    UpdateRougeError,
    advised,
    input_error,
    unknown_options,
)
from ..example_tables import ExampleScore
from ..inputs import _describe
from ..metric import score_examples
from ..rouge_types import check_rouge_types
from ..settings import DEFAULTS, OPTIONS
from .refusals import CORPUS_OPTIONS, refuse_given

DEFAULT_REWARD = "rougeLsum"
MEASURES = {"f1": "fmeasure", "precision": "precision", "recall": "recall"}
DELETIONS = "del_"
"""The prefix of a term that scores the deletions (``del_rouge1``), not the additions."""
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


Term = tuple[bool, str, str, float]
"""A reward term: whether it scores the deletions, its rouge type, its measure, its weight."""


def _parse_term(reward: Any, term: Any) -> tuple[bool, str, str]:
    """``"rouge2"`` -> (False, ``"rouge2"``, ``"f1"``); ``"del_rouge2_recall"`` -> (True,
    ``"rouge2"``, ``"recall"``): the deletions' recall. ``OptionError`` of ``reward`` (which
    holds ``term``) for a term that is not one, advising the reward with it mended."""
    if not isinstance(term, str) or not term:
        problem = f"must be a non-empty string such as {DEFAULT_REWARD!r}, got {_describe(term)}"
        raise _refused_term(reward, term, problem, [DEFAULT_REWARD])
    deletions = term.startswith(DELETIONS)
    prefix = DELETIONS if deletions else ""
    rouge_type, _, measure = term.removeprefix(DELETIONS).rpartition("_")
    if not rouge_type:
        rouge_type, measure = term.removeprefix(DELETIONS), "f1"
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
    return deletions, rouge_type, measure


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


def _parse_reward(reward: Any) -> list[Term]:
    """The reward as (deletions, rouge type, measure, weight) terms, weights divided by their sum."""
    if isinstance(reward, str):
        return [(*_parse_term(reward, reward), 1.0)]
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
        terms.append((*parsed, float(weight)))
    keys = [term[:3] for term in terms]
    if len(set(keys)) < len(keys):
        firsts = {key: name for key, name in reversed(list(zip(keys, reward)))}
        raise OptionError(
            "reward",
            reward,
            (Name("reward"), f" names a (type, measure) more than once: {list(reward)}"),
            [[Setting("reward", {name: reward[name] for name in firsts.values()})]],
        )
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


# What leaving each argument out gives (deletions: what the terms imply).
_REWARD_DEFAULTS = {
    **{name: value for name, value in DEFAULTS.items() if name != "deletions"},
    "reward": DEFAULT_REWARD,
    "source_column": "source",
    "reference_column": "reference",
}


def _checked_reward(call: dict[str, Any]) -> tuple[list[Term], dict[str, Any]]:
    """The terms and ``compute``'s options of a reward built with the arguments ``call``, every
    one checked (``score_examples`` too, so that a bad option fails when the reward is built and
    not at a training step); ``OptionError`` naming the first refused."""
    unknown_options(call, [*_REWARD_DEFAULTS, "deletions"], "update_rouge_reward()")
    for option in REFUSED_OPTIONS:
        why = _REFUSAL_REASONS.get(option, "a reward is one score per example, which this option does not change")
        refuse_given(call, (option,), "a reward", why)
    for argument in ("source_column", "reference_column"):
        column = call.pop(argument, _REWARD_DEFAULTS[argument])
        if not isinstance(column, str) or not column:
            raise OptionError(
                argument,
                column,
                (Name(argument), f" must be the name of a dataset column, got {_describe(column)}"),
                [[Setting(argument, LEFT_OUT)]],
            )
    terms = _parse_reward(call.pop("reward", DEFAULT_REWARD))
    options = _scoring_options(terms, call)
    score_examples([""], [""], [""], **options)
    return terms, options


def _value(example: ExampleScore, deletions: bool, rouge_type: str, measure: str) -> float:
    """One term's value for one example: a measure of its additions' or deletions' score."""
    scores = example.deletions.scores if deletions else example.scores  # type: ignore[union-attr]
    return float(getattr(scores[rouge_type], MEASURES[measure]))


def _decided(example: ExampleScore, terms: list[Term]) -> bool:
    """Whether a rule decides every term on ``example``: neither side adds anything (an additions
    term) and, for a ``del_`` term, neither side deletes anything."""
    return all(example.deletions.both_kept if deletions else example.both_empty for deletions, *_ in terms)  # type: ignore[union-attr]


def _switch(option: str, value: Any) -> bool:
    """``value`` of a reward's switch ``option``; ``OptionError`` unless it is True or False."""
    if not isinstance(value, bool):
        raise OptionError(
            option,
            value,
            (Name(option), f" must be True or False, got {_describe(value)}"),
            [[Setting(option, LEFT_OUT)]],
        )
    return value


def _assistant_text(completion: Any, index: int) -> str:
    """The text a completion contributes: itself (plain text) or its last assistant message's content."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence) and all(isinstance(message, Mapping) for message in completion):
        for message in reversed(completion):
            if message.get("role") == "assistant":
                return _message_text(message.get("content"), index)
        raise input_error("completions", index, "is a conversation without an assistant message: nothing to score")
    raise input_error(
        "completions",
        index,
        f"must be a string or a list of messages ({{'role': ..., 'content': ...}}), got {_describe(completion)}",
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
    where = Field("completions", index)
    problem = "the last assistant message's content must be a string or a list of {'type': 'text', 'text': ...} blocks"
    raise InputError(where, (where, f": {problem}, got {_describe(content)}"))


def _reference_list(reference: Any, index: int) -> list[Any]:
    if isinstance(reference, str):
        return [reference]
    if isinstance(reference, (list, tuple)):
        if not reference:
            raise input_error("references", index, "is an empty list: every example needs at least one reference")
        return list(reference)
    raise input_error("references", index, f"must be a string or a list of strings, got {_describe(reference)}")


class UpdateRougeReward:
    """A reward function in TRL's contract; build it with ``update_rouge_reward``."""

    def __init__(
        self,
        reward: str | Mapping[str, float] = DEFAULT_REWARD,
        source_column: str = "source",
        reference_column: str = "reference",
        name: str | None = None,
        abstain: bool = False,
        log_additions: bool = False,
        **compute_kwargs: Any,
    ):
        self.abstain = _switch("abstain", abstain)
        self.log_additions = _switch("log_additions", log_additions)
        call = dict(compute_kwargs, reward=reward, source_column=source_column, reference_column=reference_column)
        self.terms, self.options = advised(_checked_reward, call, _REWARD_DEFAULTS)
        self.source_column = source_column
        self.reference_column = reference_column
        self._columns = _Columns({"sources": f"column {source_column!r}", "references": f"column {reference_column!r}"})
        self.__name__ = name or "update_rouge_" + "_".join(_term_name(*term[:3]) for term in self.terms)

    def _column(self, columns: dict[str, Any], name: str, count: int) -> list:
        if name not in columns:
            given = ", ".join(sorted(key for key in columns if key not in TRL_ARGUMENTS)) or "none"
            problem = (
                f"the dataset has no column {name!r} (columns given to the reward: {given}); "
                "name the column with source_column= or reference_column="
            )
            raise InputError(None, (problem,))
        values = columns[name]
        if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
            raise InputError(
                None, (f"column {name!r} must be a list, one value per completion, got {_describe(values)}",)
            )
        if len(values) != count:
            raise InputError(None, (f"column {name!r} has {len(values)} values for {count} completions",))
        return list(values)

    def __call__(self, prompts: Any = None, completions: Any = None, **columns: Any) -> list[float | None]:
        """One reward in [0, 1] per completion, in order (``None`` where ``abstain`` leaves it out).

        ``completions`` holds strings or conversations (lists of ``{"role", "content"}``
        messages; the content of the last assistant message is scored, so earlier assistant
        turns such as tool calls are not). ``columns`` must hold the source and reference
        columns, one value per completion (a reference is a string or a non-empty list of
        strings). ``log_metric`` and ``log_extra``, where callable (TRL's hooks), receive the
        reward's parts (``_log``); other keyword arguments (``completion_ids``, ``trainer_state``,
        other columns) are ignored. Raises ``InputError`` (a ``ValueError``) naming the column
        and the row index.
        """
        try:
            return self._rewards(completions, columns)
        except InputError as error:  # in the dataset's words: its columns, the completions
            raise InputError(error.where, (f"{self.__name__}: {error.render(self._columns)}",)) from error

    def _rewards(self, completions: Any, columns: dict[str, Any]) -> list[float | None]:
        if completions is None or isinstance(completions, str) or not hasattr(completions, "__len__"):
            problem = f"must be a list with one completion per row, got {_describe(completions)}"
            raise input_error("completions", None, problem)
        count = len(completions)
        if count == 0:
            return []
        predictions = [_assistant_text(completion, index) for index, completion in enumerate(completions)]
        sources = self._column(columns, self.source_column, count)
        references = [
            _reference_list(reference, index)
            for index, reference in enumerate(self._column(columns, self.reference_column, count))
        ]
        examples = score_examples(sources, predictions, references, **self.options)
        values = [[_value(example, *term[:3]) for example in examples] for term in self.terms]
        weights = [term[3] for term in self.terms]
        scored = [not (self.abstain and _decided(example, self.terms)) for example in examples]
        self._log(examples, values, scored, columns)
        return [
            math.fsum(weight * value for weight, value in zip(weights, example_values)) if kept else None
            for example_values, kept in zip(zip(*values), scored)
        ]

    def _log(self, examples: list[ExampleScore], values: list[list[float]], scored: list[bool], hooks: dict) -> None:
        """Through TRL's hooks in ``hooks``, where callable: ``log_metric`` gets
        ``rewards/<name>/<term>``, each term's mean over the ``scored`` examples (so that the
        weighted sum of these means is the mean reward), and ``rewards/<name>/both_empty_share``,
        the share of examples in which neither side adds anything (and ``both_kept_share``,
        deletes anything, where the deletions are scored); with ``log_additions``, ``log_extra``
        gets the column ``<name>/additions``: each completion's additions, one per line."""
        log_metric, log_extra = hooks.get("log_metric"), hooks.get("log_extra")
        if callable(log_metric):
            prefix = f"rewards/{self.__name__}/"
            kept = [index for index, keep in enumerate(scored) if keep]
            for term, term_values in zip(self.terms, values) if kept else ():
                log_metric(prefix + _term_name(*term[:3]), math.fsum(term_values[index] for index in kept) / len(kept))
            shares = {"both_empty_share": [example.both_empty for example in examples]}
            if self.options.get("deletions"):
                shares["both_kept_share"] = [example.deletions.both_kept for example in examples]  # type: ignore[union-attr]
            for share, flags in shares.items():
                log_metric(prefix + share, sum(flags) / len(flags))
        if self.log_additions and callable(log_extra):
            log_extra(f"{self.__name__}/additions", ["\n".join(example.prediction_additions) for example in examples])

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.__name__}>"


def update_rouge_reward(
    reward: str | Mapping[str, float] = DEFAULT_REWARD,
    source_column: str = "source",
    reference_column: str = "reference",
    name: str | None = None,
    abstain: bool = False,
    log_additions: bool = False,
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
        abstain: ``True``: the reward is ``None`` (TRL: not applicable to that completion) where
            a rule decides every term: neither the completion nor the reference adds anything
            (``_both_empty``) and, for a ``del_`` term, neither deletes anything (``_both_kept``);
            default ``False``: the rule's 1.0.
        log_additions: ``True``: where TRL passes ``log_extra``, each completion's additions go
            to its completions table as the column ``<name>/additions``; default ``False``.
        **compute_kwargs: every per-example scoring option of ``compute`` (``settings.OPTIONS``),
            checked here; not those of ``REFUSED_OPTIONS``: ``rouge_types`` (given by ``reward``)
            and the options that act on a corpus result (``refusals.CORPUS_OPTIONS``).

    Returns:
        A picklable callable ``reward(prompts=..., completions=..., **columns) -> list[float | None]``,
        each value in [0, 1] (``None`` only with ``abstain``): with a single term, exactly the per-example value of
        ``compute(..., use_aggregator=False)`` under ``update_<type>`` (F1),
        ``update_<type>_precision`` or ``update_<type>_recall`` (a ``del_`` term: ``update_del_<type>``,
        ... of ``compute(..., deletions=True)``). A completion that adds nothing
        to its source scores 1.0 when some reference adds nothing too (every reference, with
        ``multi_ref="pooled"``), as in ``compute``. Called with TRL's ``log_metric`` and
        ``log_extra``, it logs its parts (``UpdateRougeReward._log``); called without, nothing.
    """
    return UpdateRougeReward(reward, source_column, reference_column, name, abstain, log_additions, **compute_kwargs)
