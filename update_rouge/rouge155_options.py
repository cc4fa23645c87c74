"""ROUGE-1.5.5's settings that change what is counted: stopwords (``-s``), length limits (``-l``,
``-b``) and the F weight (``-p``), as ROUGE-1.5.5 applies them to one-sentence-per-line input
(docs/rouge155-options.md states each exactly). ``TextOptions()`` changes nothing.

- Stopwords: ROUGE-1.5.5's list (``rouge155_stopwords.py``) removed from both sides' tokens
  before stemming, for every type (from a custom tokenizer's output after it returns).
- Length limits cut a side's text (its additions, one per line) before tokenization: words are
  Perl's ``split(/\\s+/)`` fields of a line, bytes its UTF-8 bytes. ``limited_text``
  (``readText``: n-grams, skip-bigrams and the LCS types' clipping counts) keeps lines while the
  total stays below N and cuts the line that reaches it; ``limited_lines`` (``readText_LCS``:
  rougeLsum and ROUGE-W lines) does the same for words, but for bytes keeps every line shorter
  than N up to the first that is not, cut to N bytes.
- F weight: F = P * R / ((1 - alpha) * P + alpha * R), 0 when that denominator is 0; alpha =
  0.5 keeps rouge-score's F1 bit for bit.
"""

import re
from typing import NamedTuple

from .errors import LEFT_OUT, Name, OptionError, Setting
from .option_numbers import check_switch, is_integer, is_real
from .rouge155_stopwords import STOPWORDS_TEXT
from .scores import Score

STOPWORDS = frozenset(STOPWORDS_TEXT.split("\n")) - {""}
DEFAULT_ALPHA = 0.5
_PERL_SPACE = re.compile(rb"[ \t\n\r\f\x0b]+")


class TextOptions(NamedTuple):
    """ROUGE-1.5.5 ``-s``, ``-l``, ``-b`` and ``-p``."""

    remove_stopwords: bool = False
    max_words: int | None = None
    max_bytes: int | None = None
    alpha: float = DEFAULT_ALPHA

    @property
    def limits_length(self) -> bool:
        return self.max_words is not None or self.max_bytes is not None

    @property
    def changes_tokens(self) -> bool:
        """Whether the options change what is counted (not only how F is formed)."""
        return self.remove_stopwords or self.limits_length

    def changed_settings(self) -> list[Setting]:
        """The options set that change what is counted, as ``Setting``s."""
        return [
            Setting(name, value)
            for name, value in (
                ("remove_stopwords", self.remove_stopwords or None),
                ("max_words", self.max_words),
                ("max_bytes", self.max_bytes),
            )
            if value is not None
        ]


DEFAULT_OPTIONS = TextOptions()


def check_text_options(
    remove_stopwords: bool = False,
    max_words: int | None = None,
    max_bytes: int | None = None,
    alpha: float = DEFAULT_ALPHA,
) -> TextOptions:
    """The checked ``TextOptions``; ``OptionError`` naming the argument on a bad value."""
    check_switch("remove_stopwords", remove_stopwords)
    for name, value in (("max_words", max_words), ("max_bytes", max_bytes)):
        if value is not None and (not is_integer(value) or value < 1):
            raise OptionError(
                name, value, (Name(name), f" must be a positive integer, got {value!r}"), [[Setting(name, LEFT_OUT)]]
            )
    if max_words is not None and max_bytes is not None:
        raise OptionError(
            "max_bytes",
            max_bytes,
            (
                Name("max_words"),
                " and ",
                Name("max_bytes"),
                " limit the length in words or in bytes, not both (as in ROUGE-1.5.5)",
            ),
            [[Setting("max_bytes", LEFT_OUT)], [Setting("max_words", LEFT_OUT)]],
        )
    if not is_real(alpha) or not 0 <= alpha <= 1:
        raise OptionError(
            "alpha",
            alpha,
            (Name("alpha"), f" must be a number in [0, 1], got {alpha!r}"),
            [[Setting("alpha", LEFT_OUT)]],
        )
    words, size = (None if value is None else int(value) for value in (max_words, max_bytes))
    return TextOptions(bool(remove_stopwords), words, size, float(alpha))


def _words(line: bytes) -> list[bytes]:
    """Perl's ``split(/\\s+/, line)``: a leading empty field kept, trailing empty ones dropped."""
    fields = _PERL_SPACE.split(line)
    while fields and not fields[-1]:
        fields.pop()
    return fields


def _lines(text: str) -> list[bytes]:
    return [line.encode("utf-8") for line in text.split("\n") if line]


def _decode(lines: list[bytes]) -> list[str]:
    return [line.decode("utf-8", errors="ignore") for line in lines]


def _cut(line: bytes, keep: int, max_words: int | None) -> bytes:
    """The first ``keep`` words (``max_words``) or bytes (``max_bytes``) of a line."""
    return b" ".join(_words(line)[:keep]) if max_words is not None else line[:keep]


def _limit(function: str, max_words: int | None, max_bytes: int | None) -> int:
    """``max_words`` if given, else ``max_bytes``; ``OptionError`` of ``max_words`` when
    ``function`` is given neither."""
    limit = max_words if max_words is not None else max_bytes
    if limit is None:
        raise OptionError(
            "max_words",
            None,
            (f"{function} needs ", Name("max_words"), " or ", Name("max_bytes"), ", a positive integer"),
        )
    return limit


def limited_text(text: str, max_words: int | None, max_bytes: int | None) -> str:
    """ROUGE-1.5.5's ``readText`` limit: the kept lines of ``text``, joined with newlines.
    ``OptionError`` unless one of ``max_words`` and ``max_bytes`` is given."""
    limit = _limit("limited_text", max_words, max_bytes)
    size = len if max_words is None else lambda line: len(_words(line))
    kept, so_far = [], 0
    for line in _lines(text):
        length = size(line)
        if so_far + length < limit:
            kept.append(line)
            so_far += length
        else:
            kept.append(_cut(line, limit - so_far, max_words))
            break
    return "\n".join(_decode(kept))


def limited_lines(text: str, max_words: int | None, max_bytes: int | None) -> list[str]:
    """ROUGE-1.5.5's ``readText_LCS`` limit: the kept lines of ``text`` (for rougeLsum, ROUGE-W).
    ``OptionError`` unless one of ``max_words`` and ``max_bytes`` is given."""
    limit = _limit("limited_lines", max_words, max_bytes)
    if max_words is not None:
        return limited_text(text, max_words, None).split("\n")
    kept = []
    for line in _lines(text):
        if len(line) < limit:
            kept.append(line)
        else:
            kept.append(line[:limit])
            break
    return _decode(kept)


def alpha_score(score: Score, alpha: float) -> Score:
    """``score`` with its F formed with weight ``alpha`` (unchanged at 0.5) from its P and R."""
    if alpha == DEFAULT_ALPHA:
        return score
    precision, recall = score.precision, score.recall
    denominator = (1 - alpha) * precision + alpha * recall
    return Score(precision, recall, precision * recall / denominator if denominator > 0 else 0.0)
