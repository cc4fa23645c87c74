"""UpdateROUGE as a reward for reinforcement-learning fine-tuning with TRL (``GRPOTrainer`` and the
other online trainers that take ``reward_funcs``).

``update_rouge_reward(...)`` returns a callable in TRL's reward contract: called as
``reward(prompts=..., completions=..., **columns)`` (one row per completion), it returns one float per completion: the
per-example score ``compute(..., use_aggregator=False)`` gives the same source, completion and
references (the no-additions rule included), or a weighted mean of several such scores. A term
``del_<type>`` scores what the completion deletes from its source (``update_del_<type>``); entity
terms (``ent_recall``, ``ent_unsupported``; ``reward_terms``) score its entities under
``entities=``, the evidence read from a dataset column (``evidence_column=``). Where TRL passes
its hooks (``log_metric``, ``log_extra``), the reward logs its parts; ``abstain=True`` returns
``None`` where the no-additions (no-deletions) rules decide every term. It takes ``compute``'s
options that make or run a per-example score (``REWARD_OPTIONS``) and refuses every other option
of the table when it is built, naming it. Nothing here needs TRL, torch or transformers.
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
    advised,
    input_error,
    unknown_options,
)
from ..example_tables import ExampleScore
from ..inputs import _describe
from ..metric import UpdateRougeScorer
from ..settings import DEFAULTS, OPTIONS
from .refusals import CORPUS_OPTIONS, refuse_given
from .reward_terms import DEFAULT_REWARD, DELETIONS, ENTITIES, UNSUPPORTED, Term, parse_reward

# The table's options a reward refuses by name: the types (they come from reward=), those that
# act on a corpus result (refusals.CORPUS_OPTIONS), which a per-example score has none of, and
# evidence, which a reward reads from a dataset column (evidence_column=).
REFUSED_OPTIONS = ("rouge_types", *CORPUS_OPTIONS, "evidence")
# compute's options that a reward honours, the table's others: they make a per-example score, or run it.
REWARD_OPTIONS = tuple(option.name for option in OPTIONS if option.name not in REFUSED_OPTIONS)
# Why an option is refused, where the general reason (it makes no per-example score) is not it.
_REFUSAL_REASONS = {
    "rouge_types": "the types come from reward=",
    "protocol": "a protocol reproduces a published evaluation script's numbers, not a training signal; "
    "leave it out (our rules)",
    "evidence": "a reward reads each example's evidence from a dataset column: name it with evidence_column=",
}
# What TRL passes besides the dataset's columns.
TRL_ARGUMENTS = ("completion_ids", "trainer_state", "log_extra", "log_metric", "environments")
COLUMNS = {"source_column": "source", "reference_column": "reference", "evidence_column": None}
"""The column arguments of a reward and their defaults (``evidence_column``: none, no evidence)."""


class _Columns(Spelling):
    """A reward's spelling of the inputs: the dataset's columns (``names``: field -> column) and
    the completions."""

    def __init__(self, names: dict[str, str]):
        self.names = {**names, "predictions": "completions"}

    def field(self, field: Field) -> str:
        return f"{self.names.get(field.field, field.field)}{field.indices}"


def _scoring_options(terms: list[Term], options: dict[str, Any]) -> dict[str, Any]:
    """``compute``'s options of a reward of ``terms``: the terms' rouge types (``rouge1``, the
    cheapest, where every term is an entity term) and, where a term scores the deletions,
    ``deletions=True``; ``OptionError`` for ``deletions=False`` beside one."""
    types = list(dict.fromkeys(term.rouge_type for term in terms if term.part != ENTITIES)) or ["rouge1"]
    scored = dict(options, rouge_types=types)
    if not any(term.part == DELETIONS for term in terms):
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


def _check_entity_terms(reward: Any, terms: list[Term], entities: Any, evidence_column: Any) -> None:
    """``OptionError`` unless ``entities`` is given exactly where a term is an entity term and
    ``evidence_column`` exactly where one is ``ent_unsupported`` (the terms of ``reward``, in order)."""
    keys = [reward] if isinstance(reward, str) else list(reward)
    for what, given, needing in (
        ("entities", entities, [key for key, term in zip(keys, terms) if term.part == ENTITIES]),
        ("evidence_column", evidence_column, [key for key, term in zip(keys, terms) if term.measure == UNSUPPORTED]),
    ):
        if needing and given is None:
            kept = {} if isinstance(reward, str) else {key: reward[key] for key in keys if key not in needing}
            without = [[Setting("reward", kept or LEFT_OUT)]]
            raise OptionError("reward", reward, (Name("reward"), f" term {needing[0]!r} needs ", Name(what)), without)
        if given is not None and not needing:
            reader = "an ent term of the reward" if what == "entities" else "the reward term 'ent_unsupported'"
            raise OptionError(what, given, (Name(what), f" is read only by {reader}"), [[Setting(what, LEFT_OUT)]])


# What leaving each argument out gives (deletions: what the terms imply).
_REWARD_DEFAULTS = {
    **{name: value for name, value in DEFAULTS.items() if name != "deletions"},
    "reward": DEFAULT_REWARD,
    **COLUMNS,
}


def _checked_reward(call: dict[str, Any]) -> tuple[list[Term], dict[str, Any]]:
    """The terms and ``compute``'s options of a reward built with the arguments ``call``, every one
    checked (a tiny example scored too); ``OptionError`` naming the first refused."""
    unknown_options(call, [*_REWARD_DEFAULTS, "deletions"], "update_rouge_reward()")
    for option in REFUSED_OPTIONS:
        why = _REFUSAL_REASONS.get(option, "a reward is one score per example, which this option does not change")
        refuse_given(call, (option,), "a reward", why)
    columns = {argument: call.pop(argument, default) for argument, default in COLUMNS.items()}
    for argument, column in columns.items():
        optional = column is None and COLUMNS[argument] is None
        if not optional and (not isinstance(column, str) or not column):
            raise OptionError(
                argument,
                column,
                (Name(argument), f" must be the name of a dataset column, got {_describe(column)}"),
                [[Setting(argument, LEFT_OUT)]],
            )
    reward = call.pop("reward", DEFAULT_REWARD)
    terms = parse_reward(reward)
    _check_entity_terms(reward, terms, call.get("entities"), columns["evidence_column"])
    options = _scoring_options(terms, call)
    UpdateRougeScorer(**options).examples([""], [""], [""])
    return terms, options


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

    # A reward's own arguments, then compute's options: PLR0913 waived (as for compute).
    def __init__(  # noqa: PLR0913
        self,
        reward: str | Mapping[str, float] = DEFAULT_REWARD,
        source_column: str = "source",
        reference_column: str = "reference",
        name: str | None = None,
        abstain: bool = False,
        log_additions: bool = False,
        evidence_column: str | None = None,
        **compute_kwargs: Any,
    ):
        self.abstain = _switch("abstain", abstain)
        self.log_additions = _switch("log_additions", log_additions)
        columns = {
            "source_column": source_column,
            "reference_column": reference_column,
            "evidence_column": evidence_column,
        }
        self.terms, self.options = advised(
            _checked_reward, {**compute_kwargs, "reward": reward, **columns}, _REWARD_DEFAULTS
        )
        self.source_column, self.reference_column = source_column, reference_column
        self.evidence_column = evidence_column
        fields = ("sources", "references", "evidence")
        self._columns = _Columns({field: f"column {column!r}" for field, column in zip(fields, columns.values())})
        self.__name__ = name or "update_rouge_" + "_".join(term.name for term in self.terms)

    def _column(self, columns: dict[str, Any], name: str, count: int) -> list:
        if name not in columns:
            given = ", ".join(sorted(key for key in columns if key not in TRL_ARGUMENTS)) or "none"
            problem = (
                f"the dataset has no column {name!r} (columns given to the reward: {given}); "
                "name the column with source_column=, reference_column= or evidence_column="
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

        ``completions`` holds strings or conversations (lists of ``{"role", "content"}`` messages;
        the last assistant message's content is scored). ``columns`` must hold the source and
        reference columns, one value per completion. ``log_metric`` and ``log_extra``, where
        callable (TRL's hooks), receive the reward's parts (``_log``); other keyword arguments are
        ignored. Raises ``InputError`` naming the column and the row index.
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
        evidence = None if self.evidence_column is None else self._column(columns, self.evidence_column, count)
        examples = UpdateRougeScorer(**self.options).examples(sources, predictions, references, evidence)
        values = [[term.value(example) for example in examples] for term in self.terms]
        weights = [term.weight for term in self.terms]
        decided = [all(term.decided(example) for term in self.terms) for example in examples]
        scored = [not (self.abstain and rule) for rule in decided]
        self._log(examples, values, scored, columns)
        return [
            math.fsum(weight * value for weight, value in zip(weights, example_values)) if kept else None
            for example_values, kept in zip(zip(*values), scored)
        ]

    def _log(self, examples: list[ExampleScore], values: list[list[float]], scored: list[bool], hooks: dict) -> None:
        """Through TRL's hooks in ``hooks``, where callable: ``log_metric`` gets
        ``rewards/<name>/<term>``, each term's mean over the ``scored`` examples, and the shares
        of examples that the no-additions rules decided (``rewards/<name>/both_empty_share``,
        ``both_kept_share``, ``ent_both_empty_share``, where scored); with ``log_additions``,
        ``log_extra`` gets the column ``<name>/additions``: each completion's additions."""
        log_metric, log_extra = hooks.get("log_metric"), hooks.get("log_extra")
        if callable(log_metric):
            prefix = f"rewards/{self.__name__}/"
            kept = [index for index, keep in enumerate(scored) if keep]
            for term, term_values in zip(self.terms, values) if kept else ():
                log_metric(prefix + term.name, math.fsum(term_values[index] for index in kept) / len(kept))
            shares = {"both_empty_share": [example.both_empty for example in examples]}
            if self.options.get("deletions"):
                shares["both_kept_share"] = [example.deletions.both_kept for example in examples]  # type: ignore[union-attr]
            if self.options.get("entities") is not None:
                shares["ent_both_empty_share"] = [example.entities.both_empty for example in examples]  # type: ignore[union-attr]
            for share, flags in shares.items():
                log_metric(prefix + share, sum(flags) / len(flags))
        if self.log_additions and callable(log_extra):
            log_extra(f"{self.__name__}/additions", ["\n".join(example.prediction_additions) for example in examples])

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.__name__}>"


# A reward's own arguments, then compute's options: PLR0913 waived (as for compute).
def update_rouge_reward(  # noqa: PLR0913
    reward: str | Mapping[str, float] = DEFAULT_REWARD,
    source_column: str = "source",
    reference_column: str = "reference",
    name: str | None = None,
    abstain: bool = False,
    log_additions: bool = False,
    evidence_column: str | None = None,
    **compute_kwargs: Any,
) -> UpdateRougeReward:
    """Build an UpdateROUGE reward function for TRL's ``reward_funcs``.

    Args:
        reward: what the reward is: a term ``"<type>"`` (its F1) or ``"<type>_<measure>"`` with
            measure ``f1``, ``precision`` or ``recall`` (``"rouge2_recall"``), for any rouge type
            ``compute`` accepts; ``"del_<type>"`` or ``"del_<type>_<measure>"`` (``"del_rouge1"``)
            for that score of the completion's deletions (what it removes from its source) against
            the reference's, which a ``del_`` term has scored (``deletions=True`` is implied;
            ``deletions=False`` beside it is refused); ``"ent"`` or ``"ent_<measure>"`` for that
            score of the completion's entities (``update_ent``, given ``entities=``) and
            ``"ent_unsupported"``, 1 / (1 + the completion's unsupported entities), given
            ``entities=`` and ``evidence_column=`` (``reward_terms``); or a mapping of such terms
            to positive weights, whose weighted mean is the reward (weights are divided by their sum, so the reward stays in [0, 1];
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
        evidence_column: the dataset column holding each example's evidence (a string or a list
            of strings), read by the term ``ent_unsupported`` only; default none.
        **compute_kwargs: every per-example scoring option of ``compute`` (``settings.OPTIONS``),
            checked here (``entities`` only beside an entity term); not those of
            ``REFUSED_OPTIONS``: ``rouge_types`` (given by ``reward``), the options that act on a
            corpus result (``refusals.CORPUS_OPTIONS``) and ``evidence`` (``evidence_column=``).

    Returns:
        A picklable callable ``reward(prompts=..., completions=..., **columns) -> list[float | None]``,
        each value in [0, 1] (``None`` only with ``abstain``): with a single term, exactly the per-example value of
        ``compute(..., use_aggregator=False)`` under ``update_<type>`` (F1),
        ``update_<type>_precision`` or ``update_<type>_recall`` (a ``del_`` term: ``update_del_<type>``,
        ... of ``compute(..., deletions=True)``; an ``ent`` term: ``update_ent``, ... of
        ``compute(..., entities=...)``). A completion that adds nothing
        to its source scores 1.0 when some reference adds nothing too (every reference, with
        ``multi_ref="pooled"``), as in ``compute``. Called with TRL's ``log_metric`` and
        ``log_extra``, it logs its parts (``UpdateRougeReward._log``); called without, nothing.
    """
    return UpdateRougeReward(
        reward, source_column, reference_column, name, abstain, log_additions, evidence_column, **compute_kwargs
    )
