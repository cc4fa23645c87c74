"""The ``rouge-score-rs`` accelerator's adapter: the ``rust`` engine (``RustEngine``), whether the
accelerator is installed (``rust_available``) and how many threads it has (``accelerator_threads``).
``engines.make_engine`` decides when it runs.
"""

import os
from collections.abc import Sequence
from typing import Protocol

from .errors import LEFT_OUT, OptionError, Setting
from .extras import is_package
from .lcs_limits import LcsTableTooLarge, TextPair, refused_pairs
from .parallel import POOL_SHARE, THREADS_VARIABLE, available_cpus
from .rouge_types import SUMMARY_LCS, UNIGRAMS, parse_rouge_type
from .scores import Score
from .tokens import DefaultTokenizer


class Fallback(Protocol):
    """What ``RustEngine`` asks of the engine it hands pairs to (``engines.PythonEngine``)."""

    def check(self, target: str, prediction: str) -> None:
        """``LcsTableTooLarge`` if the engine would refuse the pair."""

    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """The pair's score of each rouge type."""

    def summary_score(self, target: str, prediction: str) -> dict[str, Score]:
        """The pair's score of each rougeLsum type only, no limit checked."""


def rust_available() -> bool:
    """Whether the optional ``rouge-score-rs`` accelerator is installed (the package itself, not a
    folder of that name on the path)."""
    try:
        import rouge_score_rs
    except ImportError:
        return False
    return is_package(rouge_score_rs, "RougeScorer")


class RustEngine:
    """The ``rouge-score-rs`` accelerator, exact with rouge-score's own tokenizer only."""

    name = "rust"

    def __init__(self, rouge_types: Sequence[str], tokenizer, fallback: Fallback | None = None):
        """``fallback`` scores the pairs this engine would refuse (above the time limit, or a
        rougeLsum table above the size limit); without it they raise."""
        if not self.supports(tokenizer):
            raise OptionError(
                "engine",
                "rust",
                (Setting("engine", "rust"), " supports only rouge-score's tokenizer (no custom tokenizer or stemmer)"),
                [[Setting("engine", LEFT_OUT)], [Setting("engine", "python")]],
            )
        import rouge_score_rs

        self.rouge_types = tuple(rouge_types)
        self._tokenizer = tokenizer
        self._fallback = fallback
        self._scorer = rouge_score_rs.RougeScorer(list(rouge_types), use_stemmer=tokenizer.use_stemmer)
        # With a fallback, a pair's rougeLsum may come a cheaper way (summary_way): the pair is then
        # scored here without it, and with rouge1.
        self._summary_types = [t for t in rouge_types if parse_rouge_type(t).family == SUMMARY_LCS]
        self._other_types = list(dict.fromkeys([*(t for t in rouge_types if t not in self._summary_types), UNIGRAMS]))
        self._others = None
        if fallback is not None and self._summary_types:
            self._others = rouge_score_rs.RougeScorer(self._other_types, use_stemmer=tokenizer.use_stemmer)

    @staticmethod
    def supports(tokenizer) -> bool:
        return type(tokenizer) is DefaultTokenizer

    def _fallback_scores(self, pairs: Sequence[TextPair]) -> dict[int, dict[str, Score]]:
        """Index -> the fallback's scores of each pair this engine would refuse (``refused_pairs``).
        Without a fallback the first refusal raises; with one, the fallback's own limits are checked on
        all those pairs before it scores any."""
        # The accelerator's own tables are those of rougeLsum's line pairs (rougeL it runs in linear memory).
        lcs_types = [t for t in self.rouge_types if parse_rouge_type(t).family == SUMMARY_LCS]
        slow, oversized = refused_pairs(self.name, pairs, self._tokenizer, self.rouge_types, lcs_types)
        fallback = self._fallback
        if fallback is None:
            if slow:
                raise next(iter(slow.values()))
            if oversized:
                raise next(iter(oversized.values()))
            return {}
        handed = sorted(slow.keys() | oversized.keys())
        for index in handed:
            try:
                fallback.check(*pairs[index])
            except LcsTableTooLarge as error:
                raise error.at(index) from None
        return {index: fallback.score(*pairs[index]) for index in handed}

    def score_pairs(self, pairs: Sequence[TextPair]) -> list[dict[str, Score]]:
        """Scores of each pair; before any scoring, ``LcsTableTooLarge`` for a pair beyond a limit unless
        the fallback scores it within its own limits. With a fallback, each other pair's rougeLsum
        comes the way ``summary_way`` finds cheapest."""
        scores: dict[int, dict[str, Score]] = self._fallback_scores(pairs)
        threads = accelerator_threads()
        ways = {}
        if self._others is not None:
            ways = {i: way for i, pair in enumerate(pairs) if i not in scores and (way := summary_way(*pair, threads))}
        whole = [i for i in range(len(pairs)) if i not in scores and i not in ways]
        for indices, scorer, types in (
            (whole, self._scorer, self.rouge_types),
            (list(ways), self._others, self._other_types),
        ):
            results = scorer.score_batch(*map(list, zip(*(pairs[i] for i in indices)))) if indices and scorer else ()
            for i, result in zip(indices, results):
                scores[i] = {t: Score(*result[t]) for t in types}
        for i, way in ways.items():
            unigrams = scores[i][UNIGRAMS]
            summary = self._fallback.summary_score(*pairs[i]) if way == "python" and self._fallback else {}
            scores[i].update({t: summary.get(t, unigrams) for t in self._summary_types})
        return [{t: scores[i][t] for t in self.rouge_types} for i in range(len(pairs))]


# The prices of rougeLsum on one pair, in units of one cell (a character by a character) of the python
# engine's pass over the target lines that no prediction line repeats: benchmarks/summary_prices.py,
# docs/speed.md ("auto's rougeLsum").
PYTHON_LINES_PER_CHARACTER = 3_500  # its tokens and lines, per character of either side
ACCELERATOR_PER_CELL = 3.3  # the accelerator's table on one thread, per character by character
ACCELERATOR_PER_CHARACTER = 1_000


def compared_characters(target: str, prediction: str) -> int:
    """The characters (a line end each) of the target lines that no prediction line repeats."""
    repeated = set(prediction.split("\n"))
    return sum(len(line) + 1 for line in target.split("\n") if line and line not in repeated)


def summary_way(target: str, prediction: str, threads: int) -> str | None:
    """The way to the pair's rougeLsum that costs less time than the accelerator's table on
    ``threads`` threads, or ``None``: ``"unigrams"`` where every line of the target is a line of the
    prediction (each target line's union LCS is then the whole line, so rougeLsum's counts are
    rouge1's); ``"python"`` where the python engine's costs less by the prices above (it compares
    only the target lines that no prediction line repeats)."""
    compared = compared_characters(target, prediction)
    if not compared:
        return "unigrams"
    characters = len(target) + len(prediction)
    accelerator = ACCELERATOR_PER_CELL * len(target) * len(prediction) + ACCELERATOR_PER_CHARACTER * characters
    python = PYTHON_LINES_PER_CHARACTER * characters + compared * len(prediction)
    return "python" if python * threads < accelerator else None


def accelerator_threads() -> int:
    """The threads the accelerator's Rayon pool has in this process: ``RAYON_NUM_THREADS`` when it is a
    positive integer, else, as Rayon does, one per CPU (``available_cpus()``); no more than a worker's
    share while this process scores as one of a pool's processes (``parallel.POOL_SHARE``)."""
    value = os.environ.get(THREADS_VARIABLE, "").strip()
    threads = int(value) if value.isdigit() and int(value) > 0 else available_cpus()
    return min(threads, getattr(POOL_SHARE, "cpus", None) or threads)
