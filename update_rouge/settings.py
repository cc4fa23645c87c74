"""Every option of UpdateROUGE in one table, and the settings object built from it.

``OPTIONS`` is the one table of the options a user can give (name, type, default, help,
choices); each door renders its help in its own words (``rendered``). ``Settings`` holds the
options that change a score or a statistic, checked once when built; the signature is read off it.
Adding an option (docs/architecture.md): one ``Option`` in ``OPTIONS``; if it changes a number,
one field of ``Settings`` with its check and one signature field.
"""

import contextvars
import functools
import inspect
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import InitVar, dataclass, fields
from typing import Any

from .bootstrap import DEFAULT_CONFIDENCE_LEVEL, DEFAULT_N_BOOTSTRAP, DEFAULT_SEED, check_bootstrap_options
from .edits import EditIndex
from .engines import ENGINES, check_engine, check_engine_exact
from .entity_extractors import DEFAULT_LABELS, check_extractor
from .errors import LEFT_OUT, PYTHON, Name, OptionError, Part, Setting, Spelling
from .extraction import SourceIndex
from .languages import check_language
from .micro import AVERAGES, DEFAULT_AVERAGE, check_average
from .option_numbers import check_switch
from .parallel import check_num_proc
from .protocols import PROTOCOLS, ProtocolIndex, check_protocol
from .rouge155_options import DEFAULT_ALPHA, TextOptions, check_text_options
from .rouge_types import DEFAULT_MULTI_REF, DEFAULT_ROUGE_TYPES, MULTI_REF_MODES, check_multi_ref, check_rouge_types
from .sentences import segment_pattern
from .stemming import STEMMERS, resolve_stemmer
from .tokens import edit_run_tokenizer, tokenizer_for

Tokenizer = Callable[[str], list[str]]
# Set while ``_accepted`` tries an advice: the settings it builds do not try theirs.
_TRYING: contextvars.ContextVar[bool] = contextvars.ContextVar("update_rouge_trying_advice", default=False)


def parse_level(text: str) -> float | None:
    """A confidence level as the command line gives it: a number, or ``none`` for no interval."""
    return None if text.lower() == "none" else float(text)


Text = str | tuple[Part, ...]
"""A text of the table: plain, or parts whose mentions (``errors.Name``, ``errors.Setting``) each
door writes in its words (``errors.Spelling``), as it writes its errors."""


def rendered(text: Text, spelling: Spelling, code: str = "") -> str:
    """``text`` in ``spelling``'s words, each mention between ``code`` marks (the backtick of a docstring)."""
    if isinstance(text, str):
        return text
    return "".join(part if isinstance(part, str) else f"{code}{spelling.part(part)}{code}" for part in text)


@dataclass(frozen=True)
class Option:
    """One option of ``compute``: ``type`` as the evaluate description states it; ``help`` one
    paragraph without the default (a ``Text``); ``shown_default`` the default in words where its
    value does not say it; ``cli`` the command line's argument group (``None``: not offered there);
    ``parse`` turns the command line's text into the value (``bool``: a switch, ``list``, ``int``,
    ``parse_level``, or ``None`` for a string)."""

    name: str
    type: str
    default: Any
    help: Text
    choices: tuple[str, ...] | None = None
    cli: str | None = None
    parse: Any = None
    shown_default: Text | None = None
    flag: str | None = None

    @property
    def cli_flag(self) -> str:
        """The command line's name of the option, ``--rouge-types`` for ``rouge_types``."""
        return self.flag or "--" + self.name.replace("_", "-")

    def described(self, spelling: Spelling = PYTHON, code: str = "`", default: bool = True) -> str:
        """The help with its choices and (unless not ``default``) its default, as one paragraph
        in ``spelling``'s words (``rendered``); by default the evaluate description's."""
        choices = f" One of {', '.join(f'`{choice}`' for choice in self.choices)}." if self.choices else ""
        text = f"{rendered(self.help, spelling, code)}{choices}"
        if not default:
            return text
        if self.shown_default is None:
            return f"{text} Defaults to `{spelling.value(self.name, self.default)}`."
        return f"{text} Defaults to {rendered(self.shown_default, spelling, code)}."


SCORING, STATISTICS, RUNNING = "scoring", "statistics and reporting", "output and running"
ADDITIONS_MODES = ("sentences", "edits")

_MULTI_REF_HELP = (
    "How several references of an example combine. `max_f1`: per type the reference with the "
    "highest F1 (rouge-score's `score_multi`). `pooled` (ROUGE-1.5.5 `-f A`): hits and reference "
    "grams summed over the references, the prediction's grams counted once per reference. "
    "`best_recall` (ROUGE-1.5.5 `-f B`): per type the reference with the highest recall (rounded to "
    "5 decimals, except for rougeL and rougeLsum), the first one on ties. `mean` (torchmetrics' "
    "accumulation `avg`): per type precision, recall and F each averaged over the references. The "
    "no-additions rule (score 1.0) applies when the prediction and some reference add nothing; with "
    "`pooled` and `mean`, only when every reference adds nothing (under `mean` a reference that adds "
    "nothing, like the prediction, scores 1.0 in the average). Not with ",
    Setting("average", "micro"),
    " (`mean`).",
)
_PROTOCOL_HELP = (
    "Reproduce a published script's numbers bit for bit (docs/published-protocols.md). `fruit`: FRUIT's "
    "`edit_rouge` (segments tested against the source before stripping, additions joined with a space, "
    "corpus value the median F of rouge-score's BootstrapAggregator on a x 100 scale, on NumPy's legacy generator "
    "seeded with ",
    Name("seed"),
    "; where neither side adds, 100, a repair of the published code, which fails there). `editeval`: "
    "EditEval's `update_rouge` (the same rules, the median F in [0, 1]; several references: each reference "
    "slot's corpus value, averaged). `autometrics`: autometrics' `UpdateROUGE` (segments stripped before "
    "the test, the first reference only; per example; the corpus value is our exact mean). Under `fruit` "
    "and `editeval` the corpus `update_<type>` is the bootstrap median, `_low`/`_high` the aggregator's "
    "interval, and there is no paired test. Not with a stemmer, tokenizer, language, edits, ROUGE-1.5.5 "
    "options, micro average, another multi-reference mode, other rouge types, deletions or entities: a "
    "published script has none of them.",
)
OPTIONS: tuple[Option, ...] = (
    Option(
        "rouge_types",
        "`list` of `str`",
        None,
        "The rouge types: any type rouge-score accepts, `rouge1` to `rouge9`, `rougeL`, `rougeLsum`; "
        "and ROUGE-1.5.5's skip-bigram types: `rougeS` and `rougeSU` (any distance; SU adds unigrams), "
        "`rougeS<d>` and `rougeSU<d>` (skip distance d = 0, 1, 2, ... up to 2**63 - 2; `rougeSU4` is the "
        "common one); ROUGE-1.5.5's weighted LCS: `rougeW` (ROUGE-W-1.2) and `rougeW-<weight>` (1 < weight <= 5).",
        cli=SCORING,
        parse=list,
        shown_default=", ".join(f"`{rouge_type}`" for rouge_type in DEFAULT_ROUGE_TYPES),
    ),
    Option(
        "use_stemmer",
        "`bool`",
        False,
        (
            Setting("use_stemmer", True),
            " is an alias of ",
            Setting("stemmer", "porter"),
            " (with a ",
            Name("language"),
            ", of ",
            Setting("stemmer", "snowball"),
            "), as in evaluate's rouge.",
        ),
        cli=SCORING,
        parse=bool,
    ),
    Option(
        "tokenizer",
        "`callable`",
        None,
        "text -> list of tokens, replacing rouge-score's tokenizer (which keeps only [a-z0-9] and so "
        "sees no token in most non-Latin scripts); it cannot be combined with a stemmer.",
    ),
    Option(
        "use_aggregator",
        "`bool`",
        True,
        (
            Setting("use_aggregator", True),
            " returns means over examples, ",
            Setting("use_aggregator", False),
            " one value per example, in input order, and then no intervals and no paired test.",
        ),
    ),
    Option(
        "confidence_level",
        "`float` or `None`",
        DEFAULT_CONFIDENCE_LEVEL,
        (
            "In (0, 1), the level of the percentile bootstrap interval of each type's mean F1; ",
            Setting("confidence_level", None),
            " for none.",
        ),
        cli=STATISTICS,
        parse=parse_level,
    ),
    Option(
        "n_bootstrap",
        "`int`",
        DEFAULT_N_BOOTSTRAP,
        "Bootstrap resamples of the examples, a positive integer.",
        cli=STATISTICS,
        parse=int,
    ),
    Option(
        "seed",
        "`int`",
        DEFAULT_SEED,
        "A non-negative integer seeding the local NumPy generator of the resamples (the global random "
        "states are left alone): the same seed gives the same numbers.",
        cli=STATISTICS,
        parse=int,
    ),
    Option(
        "baseline_predictions",
        "`list` of `str`",
        None,
        "Another system's texts for the same examples, compared with a paired bootstrap test on the same resamples.",
    ),
    Option(
        "group_by",
        "`list`",
        None,
        (
            "One group label per example (any hashable value but `None`: an edit intent, a domain, a "
            "length bucket): the result also holds `groups`, each label -> the corpus values of its "
            "examples (the same keys, with intervals and paired test of their own), in the order the "
            "labels first appear; the corpus values are those of all the examples, as without it. It "
            "changes no score and not the signature. Not with ",
            Setting("use_aggregator", False),
            ".",
        ),
    ),
    Option(
        "return_signature",
        "`bool`",
        False,
        "Add the settings signature string to the result, under `signature` (without it, every value is a number).",
        cli=STATISTICS,
        parse=bool,
        flag="--signature",
    ),
    Option(
        "engine",
        "`str`",
        "auto",
        "The pure-Python engine, the optional rouge-score-rs accelerator, rouge-score itself (the "
        "reference), or `auto` (the accelerator where installed and exact, else Python). Scores are "
        "bit-identical whichever runs. Skip-bigram types and the ROUGE-1.5.5 multi-reference modes run "
        "on the pure-Python engine only.",
        choices=ENGINES,
        cli=SCORING,
    ),
    Option(
        "num_proc",
        "`int`",
        1,
        "Processes to score in (`compute` scores in its own and N - 1 workers; the command line in N "
        "workers); results are identical to 1. A Python script giving it to `compute` needs an "
        '`if __name__ == "__main__":` guard.',
        cli=RUNNING,
        parse=int,
    ),
    Option(
        "stemmer",
        "`str`",
        None,
        (
            "`none` does not stem; `porter` is rouge-score's Porter stemmer (NLTK), which differs from the "
            "original ROUGE-1.5.5's; `rouge155` tokenizes and stems as ROUGE-1.5.5 `-m` (WordNet 2.0 "
            "exception lists, then its Porter variant), so stemmed scores equal the Perl original's; "
            "`snowball`, with a ",
            Name("language"),
            ", is NLTK's Snowball stemmer of that language.",
        ),
        choices=STEMMERS,
        cli=SCORING,
        shown_default=(
            "`none` (with ",
            Setting("use_stemmer", True),
            ": `porter`, or `snowball` with a ",
            Name("language"),
            ")",
        ),
    ),
    Option("multi_ref", "`str`", DEFAULT_MULTI_REF, _MULTI_REF_HELP, choices=MULTI_REF_MODES, cli=SCORING),
    Option(
        "remove_stopwords",
        "`bool`",
        False,
        "ROUGE-1.5.5 `-s`: remove ROUGE-1.5.5's own stopword list (SMART with its additions) from both "
        "sides before counting, for every type.",
        cli=SCORING,
        parse=bool,
    ),
    Option(
        "max_words",
        "`int` or `None`",
        None,
        (
            "ROUGE-1.5.5 `-l N`: keep only the first N words of each side's joined additions, cut as "
            "ROUGE-1.5.5 cuts them; not with ",
            Name("max_bytes"),
            ".",
        ),
        cli=SCORING,
        parse=int,
        shown_default="no limit",
    ),
    Option(
        "max_bytes",
        "`int` or `None`",
        None,
        (
            "ROUGE-1.5.5 `-b N`: keep only the first N bytes of each side's joined additions, cut as "
            "ROUGE-1.5.5 cuts them; not with ",
            Name("max_words"),
            ".",
        ),
        cli=SCORING,
        parse=int,
        shown_default="no limit",
    ),
    Option(
        "alpha",
        "`float`",
        DEFAULT_ALPHA,
        "ROUGE-1.5.5 `-p`: the weight of precision in F = 1 / (alpha / P + (1 - alpha) / R), in [0, 1]; 0.5 is F1.",
        cli=SCORING,
        parse=float,
    ),
    Option(
        "language",
        "`str` or `None`",
        None,
        (
            "An ISO 639-1 code (`zh`, `ja`, `hi`, `ru`, ...): segments end at every Unicode sentence "
            "terminal (and, for `th`, at white space between Thai characters), tokens are the language's "
            "words in any script (Chinese, Japanese and Thai need `update-rouge[multilingual]`), and ",
            Setting("stemmer", "snowball"),
            " is its Snowball stemmer.",
        ),
        cli=SCORING,
        shown_default="no language (the published rules)",
    ),
    Option(
        "additions",
        "`str`",
        ADDITIONS_MODES[0],
        "What a text adds to its source. `sentences` (the published rule): each segment (sentence) "
        "that is not a substring of the source. `edits`: each run of the text's tokens that a "
        "word-level diff against the source's tokens marks as inserted or replaced (a changed number "
        "adds that number; deleted words add nothing); the diff is stated in `edits.py`.",
        choices=ADDITIONS_MODES,
        cli=SCORING,
    ),
    Option(
        "average",
        "`str`",
        DEFAULT_AVERAGE,
        "How corpus values combine the examples. `macro`: the mean over examples of each one's "
        "precision, recall and F. `micro`: precision and recall from the counts summed over the "
        "examples (hits, prediction and reference grams, or LCS hits and tokens), F from those; "
        "an example where neither side adds anything contributes no counts. Per-example values are "
        "the same either way. Micro needs the counts: the pure-Python engine, and no ROUGE-W type.",
        choices=AVERAGES,
        cli=STATISTICS,
    ),
    Option(
        "protocol",
        "`str` or `None`",
        None,
        _PROTOCOL_HELP,
        choices=PROTOCOLS,
        cli=STATISTICS,
        shown_default="no protocol (our rules)",
    ),
    Option(
        "deletions",
        "`bool`",
        False,
        (
            "Also score what each text removes from its source (docs/deletions.md): its deletions are the "
            "source's segments that are not substrings of the text (with ",
            Setting("additions", "edits"),
            ", the runs of source tokens the diff deletes or replaces), scored prediction against reference "
            "exactly as additions are, under `update_del_<type>` (and `_precision`, `_recall`); where neither "
            "side deletes anything, 1.0, counted in `_both_kept`. Not with ",
            Name("protocol"),
            ".",
        ),
        cli=SCORING,
        parse=bool,
    ),
    Option(
        "entities",
        "`str` or `callable`",
        None,
        (
            "Also score the named entities each text adds to its source (docs/entities.md): `spacy:NAME` "
            f"(a spaCy pipeline, `update-rouge[entities]`; the labels {', '.join(DEFAULT_LABELS)} count, or "
            "those of `spacy:NAME:LABEL,...`, `spacy:NAME:*` for every label) or a callable text -> iterable "
            "of entity strings. Adds "
            "`update_ent` (and `_precision`, `_recall`: the prediction's new entities against the "
            "reference's; 1.0 where neither adds one, counted in `_ent_both_empty`) and "
            "`update_ent_outdated_kept` (the share of the entities the reference drops that the "
            "prediction keeps, over the `_ent_outdated_defined` examples where the reference drops one). "
            "Not with ",
            Name("protocol"),
            ".",
        ),
        cli=SCORING,
        shown_default="no entity scores",
    ),
    Option(
        "evidence",
        "`list`",
        None,
        (
            "With ",
            Name("entities"),
            ", the new evidence of each example (a string or a list of strings): adds "
            "`update_ent_unsupported`, the number of distinct entities the prediction adds that neither "
            "the source nor the evidence holds.",
        ),
    ),
)
OPTION_BY_NAME = {option.name: option for option in OPTIONS}
DEFAULTS: dict[str, Any] = {option.name: option.default for option in OPTIONS}


def describe_options(options: Sequence[Option], indent: str = "    ") -> str:
    """The documentation of ``options`` (the evaluate description's and ``compute``'s), one
    paragraph each (name, type, help, choices and default) at ``indent``, continued 4 spaces deeper."""
    lines = []
    for option in options:
        text = f"{option.name} ({option.type}, optional): {option.described()}"
        lines += textwrap.wrap(
            text, width=96, initial_indent=indent, subsequent_indent=indent + "    ", break_on_hyphens=False
        )
    return "\n".join(lines) + "\n"


def compute_parameters(leading: Sequence[str]) -> inspect.Signature:
    """A signature of ``leading`` parameters (no defaults) and then every option with its default."""
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [inspect.Parameter(name, kind) for name in leading]
    parameters += [inspect.Parameter(option.name, kind, default=option.default) for option in OPTIONS]
    return inspect.Signature(parameters)


@dataclass(frozen=True)
class Settings:
    """The options that change a score or a statistic, checked and normalised once.

    Built from ``compute``'s keyword arguments; ``use_stemmer`` is resolved into ``stemmer`` and
    ``rouge_types=None`` becomes ``DEFAULT_ROUGE_TYPES``. Raises ``OptionError`` for any value
    ``compute`` would refuse, with advice that works. A number is kept as the Python ``int`` or
    ``float`` it equals. ``engine`` and ``num_proc`` never change a number.
    """

    # Typed as they are once checked: None (the defaults) is resolved in __post_init__.
    rouge_types: tuple[str, ...] = DEFAULTS["rouge_types"]
    stemmer: str = DEFAULTS["stemmer"]
    tokenizer: Tokenizer | None = DEFAULTS["tokenizer"]
    multi_ref: str = DEFAULTS["multi_ref"]
    remove_stopwords: bool = DEFAULTS["remove_stopwords"]
    max_words: int | None = DEFAULTS["max_words"]
    max_bytes: int | None = DEFAULTS["max_bytes"]
    alpha: float = DEFAULTS["alpha"]
    language: str | None = DEFAULTS["language"]
    additions: str = DEFAULTS["additions"]
    engine: str = DEFAULTS["engine"]
    num_proc: int = DEFAULTS["num_proc"]
    use_aggregator: bool = DEFAULTS["use_aggregator"]
    confidence_level: float | None = DEFAULTS["confidence_level"]
    n_bootstrap: int = DEFAULTS["n_bootstrap"]
    seed: int = DEFAULTS["seed"]
    average: str = DEFAULTS["average"]
    protocol: str | None = DEFAULTS["protocol"]
    deletions: bool = DEFAULTS["deletions"]
    entities: Any = DEFAULTS["entities"]
    use_stemmer: InitVar[bool] = DEFAULTS["use_stemmer"]

    def __post_init__(self, use_stemmer: bool) -> None:
        if _TRYING.get():
            self._check(use_stemmer)
            return
        given = {**{field.name: getattr(self, field.name) for field in fields(self)}, "use_stemmer": use_stemmer}
        try:
            self._check(use_stemmer)
        except OptionError as error:
            raise error.revised(functools.partial(_working_advice, given)) from None

    def _check(self, use_stemmer: bool) -> None:
        stemmer = "none" if self.stemmer is None else self.stemmer  # as given, before resolve_stemmer
        switches = (("use_stemmer", use_stemmer), ("remove_stopwords", self.remove_stopwords))
        for name, value in (*switches, ("deletions", self.deletions)):
            check_switch(name, value)
        if self.tokenizer is not None and not callable(self.tokenizer):
            raise OptionError(
                "tokenizer",
                self.tokenizer,
                (Name("tokenizer"), f" must be a callable text -> list of tokens, or None, got {self.tokenizer!r}"),
                [[Setting("tokenizer", LEFT_OUT)]],
            )
        language = check_language(self.language)
        if self.additions not in ADDITIONS_MODES:
            raise OptionError(
                "additions",
                self.additions,
                (Name("additions"), f" must be one of {', '.join(ADDITIONS_MODES)}, got {self.additions!r}"),
                [[Setting("additions", mode)] for mode in ADDITIONS_MODES],
            )
        text_options = check_text_options(self.remove_stopwords, self.max_words, self.max_bytes, self.alpha)
        if language is not None and text_options.remove_stopwords:
            raise OptionError(
                "remove_stopwords",
                True,
                (
                    Setting("remove_stopwords", True),
                    " removes ROUGE-1.5.5's English stopwords: it cannot be combined with ",
                    Setting("language", language),
                ),
                [[Setting("remove_stopwords", LEFT_OUT)], [Setting("language", LEFT_OUT)]],
            )
        resolved = {
            "rouge_types": check_rouge_types(self.rouge_types),
            "stemmer": resolve_stemmer(use_stemmer, self.stemmer, self.tokenizer, language),
            "multi_ref": check_multi_ref(self.multi_ref),
            **text_options._asdict(),
            "engine": check_engine(self.engine),
            "num_proc": check_num_proc(self.num_proc),
            "use_aggregator": check_switch("use_aggregator", self.use_aggregator),
            "entities": check_extractor(self.entities),
        }
        for name, value in resolved.items():
            object.__setattr__(self, name, value)
        check_average(self.average, self.rouge_types)
        if self.average == "micro" and self.multi_ref == "mean":
            raise OptionError(
                "multi_ref",
                "mean",
                (
                    Setting("multi_ref", "mean"),
                    " averages scores, not counts: it cannot be combined with ",
                    Setting("average", "micro"),
                ),
                [[Setting("multi_ref", LEFT_OUT)], [Setting("average", LEFT_OUT)]],
            )
        default_tokens = self.tokenizer is None and language is None and self.stemmer in ("none", "porter")
        check_engine_exact(self.engine, self.rouge_types, self.needs_counts, self.text_options, default_tokens)
        check_bootstrap_options(self.confidence_level, self.n_bootstrap, self.seed, self.use_aggregator, False)
        numbers: dict[str, Any] = {
            "confidence_level": None if self.confidence_level is None else float(self.confidence_level),
            "n_bootstrap": int(self.n_bootstrap),
            "seed": int(self.seed),
        }
        for option, number in numbers.items():
            object.__setattr__(self, option, number)
        given = {field.name: getattr(self, field.name) for field in fields(self)}
        check_protocol(self.protocol, {**given, "use_stemmer": use_stemmer, "stemmer": stemmer}, self.seed)

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> "Settings":
        """The settings among ``compute``-style ``options``; the others (data, output) are ignored."""
        names = {field.name for field in fields(cls)} | {"use_stemmer"}
        return cls(**{name: value for name, value in options.items() if name in names})

    def text_tokenizer(self):
        """A new tokenizer of these settings (``tokens.tokenizer_for``)."""
        return tokenizer_for(self.stemmer, self.tokenizer, self.remove_stopwords, self.language)

    def additions_tokenizer(self):
        """A new tokenizer of the additions: ``text_tokenizer``'s, or with ``additions="edits"`` the one
        that gives back the runs' tokens (``tokens.edit_run_tokenizer``)."""
        tokenizer = self.text_tokenizer()
        return tokenizer if self.additions == "sentences" else edit_run_tokenizer(tokenizer)

    def change_index(self) -> Callable[[str], Any]:
        """source -> an object whose ``additions(text)`` and ``deletions(text)`` are the changes of
        ``text`` to that source: ``extraction.SourceIndex``, ``edits.EditIndex`` or, under a
        ``protocol``, ``protocols.ProtocolIndex``."""
        if self.protocol is not None:
            return functools.partial(ProtocolIndex, protocol=self.protocol)
        if self.additions == "edits":
            return functools.partial(EditIndex, tokenizer=self.text_tokenizer())
        return functools.partial(SourceIndex, pattern=self.segment_pattern)

    @property
    def segment_pattern(self):
        """The pattern whose matches are a text's segments (``[^.]+\\.?``, or the language's)."""
        return segment_pattern(self.language)

    @property
    def text_options(self) -> TextOptions:
        """ROUGE-1.5.5's stopword removal, length limits and F weight, as the engine takes them."""
        return TextOptions(self.remove_stopwords, self.max_words, self.max_bytes, self.alpha)

    @property
    def needs_counts(self) -> tuple[Setting, ...]:
        """The settings that need the engine's raw counts (empty: none): ``multi_ref`` ``pooled``
        or ``best_recall``, ``average="micro"``."""
        counted = (Setting("multi_ref", self.multi_ref), Setting("average", self.average))
        return tuple(setting for setting in counted if setting.value in ("pooled", "best_recall", "micro"))

    @property
    def intervals(self) -> bool:
        """Whether corpus results carry bootstrap intervals."""
        return self.use_aggregator and self.confidence_level is not None


def _working_advice(given: dict[str, Any], changes: tuple[Setting, ...]) -> tuple[Setting, ...] | None:
    """``changes`` to ``given`` (the arguments of ``Settings``) without those that change nothing, if
    ``Settings`` accept the result; else ``None``."""
    changes = tuple(
        change
        for change in changes
        if not (
            change.value is LEFT_OUT and change.option in given and _same(given[change.option], DEFAULTS[change.option])
        )
    )
    return changes if changes and _accepted(given, changes) else None


def _same(value: Any, default: Any) -> bool:
    return value is default or (type(value) is type(default) and value == default)


def _accepted(given: dict[str, Any], changes: Sequence[Setting]) -> bool:
    """Whether ``Settings`` accept ``given`` with ``changes`` made."""
    options = dict(given)
    for change in changes:
        if change.option in options:
            options[change.option] = DEFAULTS[change.option] if change.value is LEFT_OUT else change.value
    trying = _TRYING.set(True)
    try:
        Settings(**options)
    except ValueError:
        return False
    finally:
        _TRYING.reset(trying)
    return True
