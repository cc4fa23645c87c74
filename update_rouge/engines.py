"""Engines: score one (target, prediction) text pair exactly as rouge-score's ``RougeScorer.score``.

Every engine returns, for each rouge type, a rouge-score ``Score`` whose floats are bit-identical
to rouge-score's (same counts, same divisions, same F-measure formula):

- ``PythonEngine`` (pure Python, the default): tokenizes each text once, memoizes stems,
  counts n-grams with ``Counter``, and computes rougeL and rougeLsum bit-parallel (``lcs``).
  It alone also computes the skip-bigram types of ROUGE-1.5.5 (``skipbigrams``) and gives the
  raw ``Counts`` behind each score, which ROUGE-1.5.5's ways of combining several references
  need.
- ``RustEngine``: the optional compiled ``rouge-score-rs`` package, used only with rouge-score's
  own tokenizer (with or without its Porter stemmer), where it reproduces rouge-score exactly.
- ``RougeScoreEngine``: rouge-score itself, the reference.
"""

from collections import Counter
from itertools import chain
from typing import Dict, Hashable, List, NamedTuple, Sequence, Tuple

from rouge_score import rouge_scorer
from rouge_score.scoring import Score, fmeasure

from .lcs import lcs_length, summary_lcs_hits
from .skipbigrams import parse_skip_bigram_type, skip_bigram_counts
from .tokens import DefaultTokenizer

ENGINES = ("auto", "python", "rust", "rouge-score")

TextPair = Tuple[str, str]


class Counts(NamedTuple):
    """The raw counts of one rouge type for one (target, prediction) pair, all integers >= 0.

    ``hits``: clipped matching grams (ROUGE-N, S, SU) or LCS hits (rougeL, rougeLsum);
    ``target`` and ``prediction``: each side's number of grams (n-grams, skip-bigrams plus
    unigrams for SU) or of tokens (rougeL, rougeLsum).
    """

    hits: int
    target: int
    prediction: int


def score_from_counts(counts: Counts) -> Score:
    """Precision hits / prediction, recall hits / target (0 where the count is 0), and their F1.

    These are rouge-score's divisions and F-measure, so the floats equal rouge-score's bit for bit.
    """
    precision = counts.hits / counts.prediction if counts.prediction else 0.0
    recall = counts.hits / counts.target if counts.target else 0.0
    return Score(precision=precision, recall=recall, fmeasure=fmeasure(precision, recall))


def _lines(text: str) -> List[str]:
    """rouge-score's rougeLsum sentences: the non-empty lines of the text."""
    return [line for line in text.split("\n") if line]


def _ngram_counts(tokens: Sequence[Hashable], n: int) -> Counter:
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*(tokens[i:] for i in range(n))))


def _ngram_totals(target: Sequence[Hashable], prediction: Sequence[Hashable], n: int) -> Counts:
    target_counts = _ngram_counts(target, n)
    prediction_counts = _ngram_counts(prediction, n)
    hits = sum(min(count, prediction_counts[gram]) for gram, count in target_counts.items() if gram in prediction_counts)
    return Counts(hits, max(len(target) - n + 1, 0), max(len(prediction) - n + 1, 0))


def _lcs_totals(target: Sequence[Hashable], prediction: Sequence[Hashable]) -> Counts:
    hits = lcs_length(target, prediction) if target and prediction else 0
    return Counts(hits, len(target), len(prediction))


def _summary_totals(target_lines: List[List[Hashable]], prediction_lines: List[List[Hashable]]) -> Counts:
    target_total = sum(map(len, target_lines))
    prediction_total = sum(map(len, prediction_lines))
    hits = summary_lcs_hits(target_lines, prediction_lines) if target_total and prediction_total else 0
    return Counts(hits, target_total, prediction_total)


class PythonEngine:
    """Pure-Python engine; ``tokenizer`` is a ``tokens`` object.

    Besides rouge-score's types it computes the skip-bigram types (``skipbigrams``), and it gives
    raw counts (``count_pairs``) from which its scores are derived.
    """

    name = "python"

    def __init__(self, rouge_types: Sequence[str], tokenizer):
        self.rouge_types = tuple(rouge_types)
        self._tokenizer = tokenizer
        self._needs_lines = "rougeLsum" in self.rouge_types
        self._needs_tokens = any(rouge_type != "rougeLsum" for rouge_type in self.rouge_types)
        self._skip_bigram_types = {t: kind for t in self.rouge_types if (kind := parse_skip_bigram_type(t))}

    def _tokenize(self, text: str) -> Tuple[list, List[list]]:
        """The tokens of the whole text and of each line, each only where a type needs it (else empty)."""
        tokenize = self._tokenizer.tokenize
        if self._tokenizer.splits_on_newlines:
            lines = [tokenize(line) for line in _lines(text)]
            return list(chain.from_iterable(lines)), lines
        tokens = tokenize(text) if self._needs_tokens else []
        lines = [tokenize(line) for line in _lines(text)] if self._needs_lines else []
        return tokens, lines

    def counts(self, target: str, prediction: str) -> Dict[str, Counts]:
        """The raw counts of every rouge type for one (target, prediction) pair."""
        target_tokens, target_lines = self._tokenize(target)
        prediction_tokens, prediction_lines = self._tokenize(prediction)
        kinds = list(self._skip_bigram_types.values())
        skip_bigram_totals = dict(zip(kinds, skip_bigram_counts(target_tokens, prediction_tokens, kinds)))
        totals = {}
        for rouge_type in self.rouge_types:
            if rouge_type in self._skip_bigram_types:
                totals[rouge_type] = Counts(*skip_bigram_totals[self._skip_bigram_types[rouge_type]])
            elif rouge_type == "rougeLsum":
                totals[rouge_type] = _summary_totals(target_lines, prediction_lines)
            elif rouge_type == "rougeL":
                totals[rouge_type] = _lcs_totals(target_tokens, prediction_tokens)
            else:
                totals[rouge_type] = _ngram_totals(target_tokens, prediction_tokens, int(rouge_type[5:]))
        return totals

    def count_pairs(self, pairs: Sequence[TextPair]) -> List[Dict[str, Counts]]:
        return [self.counts(target, prediction) for target, prediction in pairs]

    def score(self, target: str, prediction: str) -> Dict[str, Score]:
        return {rouge_type: score_from_counts(c) for rouge_type, c in self.counts(target, prediction).items()}

    def score_pairs(self, pairs: Sequence[TextPair]) -> List[Dict[str, Score]]:
        return [self.score(target, prediction) for target, prediction in pairs]


class RougeScoreEngine:
    """rouge-score's ``RougeScorer`` itself (the reference)."""

    name = "rouge-score"

    def __init__(self, rouge_types: Sequence[str], tokenizer):
        self.rouge_types = tuple(rouge_types)
        if isinstance(tokenizer, DefaultTokenizer):
            self._scorer = rouge_scorer.RougeScorer(list(rouge_types), use_stemmer=tokenizer.use_stemmer)
        else:
            self._scorer = rouge_scorer.RougeScorer(list(rouge_types), tokenizer=tokenizer)

    def score_pairs(self, pairs: Sequence[TextPair]) -> List[Dict[str, Score]]:
        return [self._scorer.score(target=target, prediction=prediction) for target, prediction in pairs]


def rust_available() -> bool:
    """Whether the optional ``rouge-score-rs`` accelerator is installed."""
    try:
        import rouge_score_rs  # noqa: F401
    except ImportError:
        return False
    return True


class RustEngine:
    """The ``rouge-score-rs`` accelerator, for rouge-score's own tokenizer only."""

    name = "rust"

    def __init__(self, rouge_types: Sequence[str], tokenizer):
        if not self.supports(tokenizer):
            raise ValueError("engine='rust' supports only rouge-score's tokenizer (no custom tokenizer or stemmer)")
        import rouge_score_rs

        self.rouge_types = tuple(rouge_types)
        self._scorer = rouge_score_rs.RougeScorer(list(rouge_types), use_stemmer=tokenizer.use_stemmer)

    @staticmethod
    def supports(tokenizer) -> bool:
        return type(tokenizer) is DefaultTokenizer

    def score_pairs(self, pairs: Sequence[TextPair]) -> List[Dict[str, Score]]:
        if not pairs:
            return []
        targets, predictions = zip(*pairs)
        results = self._scorer.score_batch(list(targets), list(predictions))
        return [{t: Score(*result[t]) for t in self.rouge_types} for result in results]


def check_engine(name: str) -> str:
    """Return ``name`` if it is one of ``ENGINES``; raise ``ValueError`` otherwise."""
    if not isinstance(name, str) or name not in ENGINES:
        raise ValueError(f"unknown engine {name!r}; valid engines are {', '.join(ENGINES)}")
    return name


def make_engine(name: str, rouge_types: Sequence[str], tokenizer, needs_counts: bool = False):
    """The engine called ``name``; "auto" is the accelerator where installed and exact, else Python.

    Skip-bigram types, and raw counts (``needs_counts``, for ``count_pairs``), exist on the
    Python engine only: "auto" then picks it, and "rust" or "rouge-score" raise ``ValueError``.
    """
    name = check_engine(name)
    skip_bigram_types = [rouge_type for rouge_type in rouge_types if parse_skip_bigram_type(rouge_type)]
    if name == "auto":
        python_only = skip_bigram_types or needs_counts or not RustEngine.supports(tokenizer)
        name = "python" if python_only or not rust_available() else "rust"
    if name != "python" and skip_bigram_types:
        raise ValueError(
            f"engine={name!r} cannot compute {', '.join(skip_bigram_types)}: skip-bigram types run on the "
            "python engine only (engine='python' or 'auto')"
        )
    if name != "python" and needs_counts:
        raise ValueError(
            f"engine={name!r} gives no raw counts, which multi_ref='pooled' and 'best_recall' need: "
            "use engine='python' or 'auto'"
        )
    if name == "rust" and not rust_available():
        raise ValueError("engine='rust' needs the optional accelerator: pip install 'update-rouge[fast]'")
    engine_class = {"python": PythonEngine, "rust": RustEngine, "rouge-score": RougeScoreEngine}[name]
    return engine_class(rouge_types, tokenizer)
