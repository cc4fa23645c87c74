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
from .rouge_types import SUMMARY_LCS, parse_rouge_type
from .scores import Score
from .tokens import DefaultTokenizer


class Fallback(Protocol):
    """What ``RustEngine`` asks of the engine it hands pairs to (``engines.PythonEngine``)."""

    def check(self, target: str, prediction: str) -> None:
        """``LcsTableTooLarge`` if the engine would refuse the pair."""

    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """The pair's score of each rouge type."""

    def same_text_score(self, text: str) -> dict[str, Score] | None:
        """The score of the pair (``text``, ``text``) where found without comparing its sides, else ``None``."""


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

    @staticmethod
    def supports(tokenizer) -> bool:
        return type(tokenizer) is DefaultTokenizer

    def _fallback_scores(self, pairs: Sequence[TextPair]) -> dict[int, dict[str, Score]]:
        """Index -> the fallback's scores of each pair this engine would refuse (``refused_pairs``)
        and of each pair of equal texts (``same_text_score``). Without a fallback the first refusal
        raises; with one, the fallback's own limits are checked on the refused pairs before it scores any."""
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
        scores = {index: fallback.score(*pairs[index]) for index in handed}
        # A pair of equal texts needs no LCS (found within this engine's limits, so none is checked).
        for index, (target, prediction) in enumerate(pairs):
            if target == prediction and index not in scores:
                same = fallback.same_text_score(target)
                if same is not None:
                    scores[index] = same
        return scores

    def score_pairs(self, pairs: Sequence[TextPair]) -> list[dict[str, Score]]:
        """Scores of each pair; before any scoring, ``LcsTableTooLarge`` for a pair beyond a limit unless
        the fallback scores it within its own limits."""
        fallback_scores = self._fallback_scores(pairs)
        rest = [pair for index, pair in enumerate(pairs) if index not in fallback_scores]
        results = iter(self._scorer.score_batch(*map(list, zip(*rest))) if rest else ())
        scores = []
        for index in range(len(pairs)):
            if index in fallback_scores:
                scores.append(fallback_scores[index])
            else:
                result = next(results)
                scores.append({t: Score(*result[t]) for t in self.rouge_types})
        return scores


def accelerator_threads() -> int:
    """The threads the accelerator's Rayon pool has in this process: ``RAYON_NUM_THREADS`` when it is a
    positive integer, else, as Rayon does, one per CPU (``available_cpus()``); no more than a worker's
    share while this process scores as one of a pool's processes (``parallel.POOL_SHARE``)."""
    value = os.environ.get(THREADS_VARIABLE, "").strip()
    threads = int(value) if value.isdigit() and int(value) > 0 else available_cpus()
    return min(threads, getattr(POOL_SHARE, "cpus", None) or threads)
