"""Engines: score one (target, prediction) text pair exactly as rouge-score's ``RougeScorer.score``.

Every engine returns, for each rouge type, a ``Score`` (``scores``: rouge-score's fields; under
``RougeScoreEngine`` rouge-score's own) bit-identical to rouge-score's:

- ``PythonEngine`` (pure Python, the default): the only one that also computes the skip-bigram
  types (``skipbigrams``), ROUGE-W (``wlcs``), stopword removal and length limits
  (``rouge155_options``) and gives raw ``Counts``; ``inexact_reason`` says why another engine
  is not exact for given settings.
- ``RustEngine`` (``rust_engine``): the optional ``rouge-score-rs``, with rouge-score's own
  tokenizer only.
- ``RougeScoreEngine``: rouge-score itself, the reference.

Every engine refuses a pair beyond the limits of ``lcs_limits`` with ``LcsTableTooLarge``;
under ``engine="auto"`` the accelerator hands the pairs it would refuse to the Python engine, and
takes each pair's rougeLsum the cheapest exact way (``rust_engine.summary_way``).
"""

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from itertools import chain, repeat
from typing import Any, NamedTuple

from .errors import LEFT_OUT, OptionError, Part, Setting
from .lcs import lcs_length, summary_lcs_hits, summary_lines
from .lcs_limits import (
    LcsTableTooLarge,
    TextPair,
    check_lcs_time,
    check_wlcs_table,
    lcs_cost,
    refused_pairs,
    wlcs_tables_cost,
)
from .rouge155_options import DEFAULT_OPTIONS, TextOptions, limited_lines, limited_text
from .rouge_types import LCS, SKIP_BIGRAM, SUMMARY_LCS, WEIGHTED_LCS, parse_rouge_type
from .rust_engine import RustEngine, rust_available
from .scores import Score, fmeasure
from .skipbigrams import skip_bigram_counts
from .tokens import DefaultTokenizer
from .wlcs import WeightedCounts, weighted_lcs_counts, weighted_score

ENGINES = ("auto", "python", "rust", "rouge-score")

Tokens = list[Hashable]


class Counts(NamedTuple):
    """The raw counts of one rouge type for one (target, prediction) pair, all integers >= 0:
    ``hits`` (clipped matching grams, or LCS hits) and each side's number of grams or tokens."""

    hits: int
    target: int
    prediction: int


# The counts of one type: ROUGE-W's are weighted, every other type's are integers.
TypeCounts = Counts | WeightedCounts


def score_from_counts(counts: Counts) -> Score:
    """Precision hits / prediction, recall hits / target (0 where the count is 0), and their F1, as
    rouge-score divides."""
    precision = counts.hits / counts.prediction if counts.prediction else 0.0
    recall = counts.hits / counts.target if counts.target else 0.0
    return Score(precision=precision, recall=recall, fmeasure=fmeasure(precision, recall))


def score_of(counts: TypeCounts) -> Score:
    """The score of one type's counts: ``score_from_counts``, or ``weighted_score`` for ROUGE-W."""
    if isinstance(counts, WeightedCounts):
        return weighted_score([counts])
    return score_from_counts(counts)


def _ngram_counts(tokens: Sequence[Hashable], n: int) -> Counter:
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*(tokens[i:] for i in range(n))))


def _ngram_totals(target: Sequence[Hashable], prediction: Sequence[Hashable], n: int) -> Counts:
    fewer, more = sorted((_ngram_counts(target, n), _ngram_counts(prediction, n)), key=len)
    hits = sum(map(min, fewer.values(), map(more.get, fewer, repeat(0))))  # sum of min(counts) over shared grams
    return Counts(hits, max(len(target) - n + 1, 0), max(len(prediction) - n + 1, 0))


def _lcs_totals(target: Sequence[Hashable], prediction: Sequence[Hashable]) -> Counts:
    hits = lcs_length(target, prediction) if target and prediction else 0
    return Counts(hits, len(target), len(prediction))


def _summary_totals(
    target_lines: list[list[Hashable]],
    prediction_lines: list[list[Hashable]],
    clip_tokens: tuple[Tokens, Tokens] | None = None,
) -> Counts:
    """rougeLsum counts; ``clip_tokens`` (the limited texts' tokens, under a length limit) clip
    the hits and give the prediction total, as in ROUGE-1.5.5."""
    target_total = sum(map(len, target_lines))
    clip_counts = None if clip_tokens is None else (Counter(clip_tokens[0]), Counter(clip_tokens[1]))
    prediction_total = sum(map(len, prediction_lines)) if clip_tokens is None else len(clip_tokens[1])
    hits = summary_lcs_hits(target_lines, prediction_lines, clip_counts) if target_total and prediction_total else 0
    return Counts(hits, target_total, prediction_total)


class PythonEngine:
    """Pure-Python engine; ``tokenizer`` is a ``tokens`` object, ``options`` the ROUGE-1.5.5 text
    options (stopwords are the tokenizer's). Scores derive from raw counts (``count_pairs``)."""

    name = "python"

    def __init__(self, rouge_types: Sequence[str], tokenizer, options: TextOptions = DEFAULT_OPTIONS):
        self.rouge_types = tuple(rouge_types)
        self._tokenizer = tokenizer
        self._options = options
        self._parsed = [parse_rouge_type(t) for t in self.rouge_types]
        self._needs_lines = any(parsed.reads_lines for parsed in self._parsed)
        self._needs_tokens = options.limits_length or not all(parsed.reads_lines for parsed in self._parsed)
        self._skip_bigram_kinds = [parsed.skip_bigram for parsed in self._parsed if parsed.skip_bigram is not None]

    def tokens(self, text: str) -> tuple[Tokens, list[Tokens]]:
        """The tokens this engine scores of ``text`` (of ``limited_text`` and ``limited_lines`` under a
        length limit): those of the whole text and of each line, each only where a type needs it (else
        empty)."""
        options = self._options
        if options.limits_length:
            tokens, _ = self._tokenize_text(limited_text(text, options.max_words, options.max_bytes))
            lines: list[Tokens] = []
            if self._needs_lines:
                lcs_lines = limited_lines(text, options.max_words, options.max_bytes)
                lines = [self._tokenizer.tokenize(line) for line in lcs_lines if line]
            return tokens, lines
        return self._tokenize_text(text)

    def _tokenize_text(self, text: str) -> tuple[Tokens, list[Tokens]]:
        tokenize = self._tokenizer.tokenize
        if self._tokenizer.splits_on_newlines:
            tokenize_lines = getattr(self._tokenizer, "tokenize_lines", None)  # one pass, where it has one
            lines = tokenize_lines(text) if tokenize_lines else [tokenize(line) for line in summary_lines(text)]
            return list(chain.from_iterable(lines)), lines
        tokens = tokenize(text) if self._needs_tokens else []
        lines = [tokenize(line) for line in summary_lines(text)] if self._needs_lines else []
        return tokens, lines

    def counts(self, target: str, prediction: str) -> dict[str, TypeCounts]:
        """The raw counts of every rouge type for one (target, prediction) pair."""
        target_tokens, target_lines = self.tokens(target)
        same = target == prediction
        prediction_tokens, prediction_lines = (target_tokens, target_lines) if same else self.tokens(prediction)
        self._check_sizes(target_tokens, target_lines, prediction_tokens, prediction_lines)
        if same and (same_totals := self._same_text_counts(target_tokens, target_lines)) is not None:
            return same_totals
        kinds = self._skip_bigram_kinds
        skip_bigram_totals = dict(zip(kinds, skip_bigram_counts(target_tokens, prediction_tokens, kinds)))
        limited = self._options.limits_length
        unigrams: Counts | None = None
        totals: dict[str, TypeCounts] = {}
        for parsed in self._parsed:
            family = parsed.family
            if parsed.skip_bigram is not None:
                totals[parsed.name] = Counts(*skip_bigram_totals[parsed.skip_bigram])
            elif parsed.weight is not None:
                if limited:
                    clip = (target_tokens, prediction_tokens)
                else:
                    clip = (list(chain.from_iterable(target_lines)), list(chain.from_iterable(prediction_lines)))
                totals[parsed.name] = weighted_lcs_counts(target_lines, prediction_lines, *clip, parsed.weight)
            elif parsed.n == 1 or (family == SUMMARY_LCS and self._lines_repeated(target_lines, prediction_lines)):
                # rougeLsum's counts are rouge1's where every target line is a prediction line.
                totals[parsed.name] = unigrams = unigrams or _ngram_totals(target_tokens, prediction_tokens, 1)
            elif family == SUMMARY_LCS:
                summary_clip = (target_tokens, prediction_tokens) if limited else None
                totals[parsed.name] = _summary_totals(target_lines, prediction_lines, summary_clip)
            elif family == LCS:
                totals[parsed.name] = _lcs_totals(target_tokens, prediction_tokens)
            else:
                totals[parsed.name] = _ngram_totals(target_tokens, prediction_tokens, parsed.n)
        return totals

    def _lines_repeated(self, target_lines: list[Tokens], prediction_lines: list[Tokens]) -> bool:
        """Whether every target line is a prediction line, the tokens being the lines' tokens (no length
        limit): each target line's union LCS is then the whole line."""
        return (
            self._tokenizer.splits_on_newlines
            and not self._options.limits_length
            and set(map(tuple, target_lines)) <= set(map(tuple, prediction_lines))
        )

    def _same_text_counts(self, tokens: Tokens, lines: list[Tokens]) -> dict[str, TypeCounts] | None:
        """The counts of a text scored against itself, found without comparing its sides, or ``None``
        where a type or a length limit needs the comparison: every gram, the whole token list and
        each whole line match themselves, so rouge-n's, rougeL's and rougeLsum's hits are the totals."""
        if self._options.limits_length or not all(parsed.in_rouge_score for parsed in self._parsed):
            return None
        totals: dict[str, TypeCounts] = {}
        for parsed in self._parsed:
            if parsed.family == SUMMARY_LCS:
                total = sum(map(len, lines))
            else:
                total = len(tokens) if parsed.family == LCS else max(len(tokens) - parsed.n + 1, 0)
            totals[parsed.name] = Counts(total, total, total)
        return totals

    def summary_score(self, target: str, prediction: str) -> dict[str, Score]:
        """The pair's score of each rougeLsum type only (rouge-score's, no length limit), no limit
        checked: the accelerator hands over pairs within its own limits, which are lower."""
        lines = self.tokens(target)[1], self.tokens(prediction)[1]
        family = [parsed.name for parsed in self._parsed if parsed.family == SUMMARY_LCS]
        return {rouge_type: score_from_counts(_summary_totals(*lines)) for rouge_type in family}

    def check(self, target: str, prediction: str) -> None:
        """``LcsTableTooLarge`` if ``counts`` would refuse the pair (``_check_sizes``), before any LCS."""
        target_tokens, target_lines = self.tokens(target)
        prediction_tokens, prediction_lines = self.tokens(prediction)
        self._check_sizes(target_tokens, target_lines, prediction_tokens, prediction_lines)

    def _check_sizes(self, target_tokens, target_lines, prediction_tokens, prediction_lines) -> None:
        """``LcsTableTooLarge`` if an LCS type of the pair is beyond the time limit or a ROUGE-W table
        beyond the size limit."""
        for parsed in self._parsed:
            if parsed.family == LCS:
                rows, columns = len(target_tokens), len(prediction_tokens)
                check_lcs_time(parsed.name, rows, columns, lcs_cost(self.name, parsed.name, rows, columns))
            elif parsed.reads_lines:
                rows, columns = sum(map(len, target_lines)), sum(map(len, prediction_lines))
                line_pairs = len(target_lines) * len(prediction_lines)
                cost = lcs_cost(self.name, parsed.name, rows, columns, line_pairs)
                if parsed.weight is not None:
                    cost += wlcs_tables_cost(list(map(len, target_lines)), list(map(len, prediction_lines)))
                check_lcs_time(parsed.name, rows, columns, cost)
        weighted = any(parsed.weight is not None for parsed in self._parsed)
        if weighted and target_lines and prediction_lines:
            check_wlcs_table(max(map(len, target_lines)), max(map(len, prediction_lines)))

    def count_pairs(self, pairs: Sequence[TextPair]) -> list[dict[str, TypeCounts]]:
        """Counts of each pair; ``LcsTableTooLarge`` carries the ``index`` of the pair it refuses."""
        return _each_pair(self.counts, pairs)

    def score(self, target: str, prediction: str) -> dict[str, Score]:
        return {rouge_type: score_of(c) for rouge_type, c in self.counts(target, prediction).items()}

    def score_pairs(self, pairs: Sequence[TextPair]) -> list[dict[str, Score]]:
        """Scores of each pair; ``LcsTableTooLarge`` carries the ``index`` of the pair it refuses."""
        return _each_pair(self.score, pairs)


def _each_pair(function: Callable[[str, str], Any], pairs: Sequence[TextPair]) -> list[Any]:
    results = []
    for index, (target, prediction) in enumerate(pairs):
        try:
            results.append(function(target, prediction))
        except LcsTableTooLarge as error:
            raise error.at(index) from None
    return results


class RougeScoreEngine:
    """rouge-score's ``RougeScorer`` itself (the reference)."""

    name = "rouge-score"

    def __init__(self, rouge_types: Sequence[str], tokenizer):
        # Imported here, as it imports NLTK (see tokens._porter), which the other engines do not need.
        from rouge_score import rouge_scorer

        self.rouge_types = tuple(rouge_types)
        self._tokenizer = tokenizer
        if isinstance(tokenizer, DefaultTokenizer):
            self._scorer = rouge_scorer.RougeScorer(list(rouge_types), use_stemmer=tokenizer.use_stemmer)
        else:
            self._scorer = rouge_scorer.RougeScorer(list(rouge_types), tokenizer=tokenizer)

    def score_pairs(self, pairs: Sequence[TextPair]) -> list[dict[str, Score]]:
        """Scores of each pair; ``LcsTableTooLarge`` before any scoring if a pair is beyond a limit."""
        lcs_types = [t for t in self.rouge_types if parse_rouge_type(t).is_rouge_score_lcs]
        slow, oversized = refused_pairs(self.name, pairs, self._tokenizer, self.rouge_types, lcs_types)
        for refused in (slow, oversized):
            if refused:
                raise next(iter(refused.values()))
        return [self._scorer.score(target=target, prediction=prediction) for target, prediction in pairs]


def check_engine(name: str) -> str:
    """Return ``name`` if it is one of ``ENGINES``; raise ``OptionError`` otherwise."""
    if not isinstance(name, str) or name not in ENGINES:
        raise OptionError(
            "engine",
            name,
            (f"unknown engine {name!r}; valid engines are {', '.join(ENGINES)}",),
            [[Setting("engine", LEFT_OUT)]],
        )
    return name


def inexact_reason(
    name: str, rouge_types: Sequence[str], needs_counts: Sequence[Setting] = (), options: TextOptions = DEFAULT_OPTIONS
) -> tuple[Part, ...] | None:
    """Why engine ``name`` is not exact for the settings (the message's parts), or None: the
    accelerators lack the skip-bigram types, ROUGE-W, raw counts (``needs_counts``: the settings
    that need them), stopword removal and length limits."""
    if name == "python":
        return None
    engine = Setting("engine", name)
    skip_bigram_types = [name for name in rouge_types if parse_rouge_type(name).family == SKIP_BIGRAM]
    if skip_bigram_types:
        return (
            engine,
            f" cannot compute {', '.join(skip_bigram_types)}: skip-bigram types run on the python engine only",
        )
    weighted_types = [name for name in rouge_types if parse_rouge_type(name).family == WEIGHTED_LCS]
    if weighted_types:
        return (engine, f" cannot compute {', '.join(weighted_types)}: ROUGE-W runs on the python engine only")
    if needs_counts:
        named = [part for index, setting in enumerate(needs_counts) for part in (", " if index else "", setting)]
        return (engine, " gives no raw counts, which ", *named, " need" if len(needs_counts) > 1 else " needs")
    if options.changes_tokens:
        changed = [
            part
            for index, setting in enumerate(options.changed_settings())
            for part in (", " if index else "", setting)
        ]
        return (engine, " cannot remove stopwords or limit lengths (", *changed, ")")
    return None


def check_engine_exact(
    name: str, rouge_types: Sequence[str], needs_counts: Sequence[Setting], options: TextOptions, default_tokens: bool
) -> None:
    """``OptionError`` with the reason if engine ``name`` cannot score these settings exactly: an
    inexact engine (``inexact_reason``), the accelerator with other tokens than rouge-score's own
    (``default_tokens`` false) or not installed. "auto" and "python" always can."""
    if name in ("auto", "python"):
        return
    others = [[Setting("engine", LEFT_OUT)], [Setting("engine", "python")]]
    reason = inexact_reason(name, rouge_types, needs_counts, options)
    if reason is not None:
        raise OptionError("engine", name, reason, others)
    if name == "rust" and not default_tokens:
        raise OptionError(
            "engine",
            name,
            (
                Setting("engine", name),
                " supports only rouge-score's tokenizer (no custom tokenizer, stemmer other than porter, or language)",
            ),
            others,
        )
    if name == "rust" and not rust_available():
        raise OptionError(
            "engine",
            name,
            (Setting("engine", name), " needs the optional accelerator: pip install 'update-rouge[fast]'"),
            others,
        )


def make_engine(
    name: str,
    rouge_types: Sequence[str],
    tokenizer,
    needs_counts: Sequence[Setting] = (),
    options: TextOptions = DEFAULT_OPTIONS,
):
    """The engine called ``name`` (``OptionError`` where ``check_engine_exact`` refuses it). "auto"
    is the accelerator where it is installed and exact for the settings, else Python; ``options``
    reach the Python engine only. Under "auto" the accelerator hands the pairs it would refuse to
    the Python engine, so "auto" refuses only what the Python engine refuses, and a pair's rougeLsum
    where the Python engine's costs less on this process's share of the CPUs (``accelerator_threads``).
    """
    auto = check_engine(name) == "auto"
    if auto:
        exact = inexact_reason("rust", rouge_types, needs_counts, options) is None
        name = "rust" if exact and RustEngine.supports(tokenizer) and rust_available() else "python"
    check_engine_exact(name, rouge_types, needs_counts, options, RustEngine.supports(tokenizer))
    if name == "python":
        return PythonEngine(rouge_types, tokenizer, options)
    if name == "rust" and auto:
        return RustEngine(rouge_types, tokenizer, fallback=PythonEngine(rouge_types, tokenizer, options))
    engine_class = {"rust": RustEngine, "rouge-score": RougeScoreEngine}[name]
    return engine_class(rouge_types, tokenizer)
