"""Engines: score one (target, prediction) text pair exactly as rouge-score's ``RougeScorer.score``.

Every engine returns, for each rouge type, a rouge-score ``Score`` whose floats are bit-identical
to rouge-score's (same counts, same divisions, same F-measure formula):

- ``PythonEngine`` (pure Python, the default): tokenizes each text once, memoizes stems,
  counts n-grams with ``Counter``, and computes rougeL and rougeLsum bit-parallel (``lcs``).
- ``RustEngine``: the optional compiled ``rouge-score-rs`` package, used only with rouge-score's
  own tokenizer (with or without its Porter stemmer), where it reproduces rouge-score exactly.
- ``RougeScoreEngine``: rouge-score itself, the reference.
"""

from collections import Counter
from itertools import chain
from typing import Dict, Hashable, List, Optional, Sequence, Tuple

from rouge_score import rouge_scorer
from rouge_score.scoring import Score, fmeasure

from .lcs import lcs_length, summary_lcs_hits
from .tokenizers import DefaultTokenizer

ENGINES = ("auto", "python", "rust", "rouge-score")
_ZERO = Score(precision=0, recall=0, fmeasure=0)

TextPair = Tuple[str, str]


def _lines(text: str) -> List[str]:
    """rouge-score's rougeLsum sentences: the non-empty lines of the text."""
    return [line for line in text.split("\n") if line]


def _ngram_counts(tokens: Sequence[Hashable], n: int) -> Counter:
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*(tokens[i:] for i in range(n))))


def _ngram_score(target: Sequence[Hashable], prediction: Sequence[Hashable], n: int) -> Score:
    target_counts = _ngram_counts(target, n)
    prediction_counts = _ngram_counts(prediction, n)
    hits = sum(min(count, prediction_counts[gram]) for gram, count in target_counts.items() if gram in prediction_counts)
    precision = hits / max(len(prediction) - n + 1, 1)
    recall = hits / max(len(target) - n + 1, 1)
    return Score(precision=precision, recall=recall, fmeasure=fmeasure(precision, recall))


def _lcs_score(target: Sequence[Hashable], prediction: Sequence[Hashable]) -> Score:
    if not target or not prediction:
        return _ZERO
    length = lcs_length(target, prediction)
    precision = length / len(prediction)
    recall = length / len(target)
    return Score(precision=precision, recall=recall, fmeasure=fmeasure(precision, recall))


def _summary_score(target_lines: List[List[Hashable]], prediction_lines: List[List[Hashable]]) -> Score:
    if not target_lines or not prediction_lines:
        return _ZERO
    target_total = sum(map(len, target_lines))
    prediction_total = sum(map(len, prediction_lines))
    if not target_total or not prediction_total:
        return _ZERO
    hits = summary_lcs_hits(target_lines, prediction_lines)
    precision = hits / prediction_total
    recall = hits / target_total
    return Score(precision=precision, recall=recall, fmeasure=fmeasure(precision, recall))


class PythonEngine:
    """Pure-Python engine; ``tokenizer`` is a ``tokenizers`` object."""

    name = "python"

    def __init__(self, rouge_types: Sequence[str], tokenizer):
        self.rouge_types = tuple(rouge_types)
        self._tokenizer = tokenizer
        self._needs_lines = "rougeLsum" in self.rouge_types
        self._needs_tokens = any(rouge_type != "rougeLsum" for rouge_type in self.rouge_types)

    def _tokenize(self, text: str) -> Tuple[Optional[list], Optional[List[list]]]:
        """The tokens of the whole text and of each line, each only where a type needs it."""
        tokenize = self._tokenizer.tokenize
        if self._tokenizer.splits_on_newlines:
            lines = [tokenize(line) for line in _lines(text)]
            return list(chain.from_iterable(lines)), lines
        tokens = tokenize(text) if self._needs_tokens else None
        lines = [tokenize(line) for line in _lines(text)] if self._needs_lines else None
        return tokens, lines

    def score(self, target: str, prediction: str) -> Dict[str, Score]:
        target_tokens, target_lines = self._tokenize(target)
        prediction_tokens, prediction_lines = self._tokenize(prediction)
        scores = {}
        for rouge_type in self.rouge_types:
            if rouge_type == "rougeLsum":
                scores[rouge_type] = _summary_score(target_lines, prediction_lines)
            elif rouge_type == "rougeL":
                scores[rouge_type] = _lcs_score(target_tokens, prediction_tokens)
            else:
                scores[rouge_type] = _ngram_score(target_tokens, prediction_tokens, int(rouge_type[5:]))
        return scores

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


def make_engine(name: str, rouge_types: Sequence[str], tokenizer):
    """The engine called ``name``; "auto" is the accelerator where installed and exact, else Python."""
    if name not in ENGINES:
        raise ValueError(f"unknown engine {name!r}; valid engines are {', '.join(ENGINES)}")
    if name == "auto":
        name = "rust" if RustEngine.supports(tokenizer) and rust_available() else "python"
    if name == "rust" and not rust_available():
        raise ValueError("engine='rust' needs the optional accelerator: pip install 'update-rouge[fast]'")
    engine_class = {"python": PythonEngine, "rust": RustEngine, "rouge-score": RougeScoreEngine}[name]
    return engine_class(rouge_types, tokenizer)
