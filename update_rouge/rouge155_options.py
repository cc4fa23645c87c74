"""ROUGE-1.5.5's settings that change what is counted: stopwords (``-s``), length limits (``-l``,
``-b``) and the F weight (``-p``), as ROUGE-1.5.5 applies them to one-sentence-per-line input.

``TextOptions`` holds them; ``TextOptions()`` is the default and changes nothing.

Stopwords (``remove_stopwords``): ROUGE-1.5.5's list (``rouge155_stopwords.py``, 598 words)
is removed from both sides' tokens after tokenization and before stemming, for every type
(ROUGE-1.5.5 checks each lower-cased token against the list before it stems it). A custom
tokenizer's tokens are filtered after the tokenizer returns them.

Length limits act on a side's text (its additions, one per line) before tokenization, as
ROUGE-1.5.5's ``readText`` and ``readText_LCS`` do. Its lines are the non-empty lines of the
text. Words are the fields of a line split on runs of ASCII white space (space, tab, newline,
carriage return, form feed, vertical tab; a line starting with white space has an empty first
field), counted before punctuation is removed and before stopwords are: "U.S.-led" is one
word, "(see" is one word. Bytes are the bytes of the line's UTF-8 encoding; the line ends
between lines are not counted.

- ``max_words=N`` (``-l N``): lines are kept whole while the words so far plus the line's stay
  below N; the line that reaches N is cut to its first N - (words so far) fields (joined with
  single spaces) and nothing after it is read.
- ``max_bytes=N`` (``-b N``): for the text that n-grams, skip-bigrams and the clipping counts
  of the LCS types come from (``limited_text``), lines are kept whole while the bytes so far
  plus the line's stay below N, and the line that reaches N is cut to its first N - (bytes so
  far) bytes (a cut UTF-8 character is dropped; every non-ASCII byte separates tokens in
  ROUGE-1.5.5 anyway), nothing after it read. For the lines of rougeLsum and ROUGE-W
  (``limited_lines``) ROUGE-1.5.5 never adds up the bytes so far: every line shorter than N
  bytes is kept whole, up to the first line of N or more bytes, which is cut to its first N
  bytes and ends the text. The LCS lines can then hold more tokens than the limited text; their
  hits are still clipped by the limited text's counts, recall divides by the LCS lines' tokens
  and precision by the limited text's tokens.

F weight (``alpha`` in [0, 1]): F = P * R / ((1 - alpha) * P + alpha * R), 0 when that
denominator is 0; equal to 1 / (alpha / P + (1 - alpha) / R). alpha = 0.5 keeps rouge-score's
F1 formula, so the default results are bit-identical; alpha near 1 favours precision.
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
    """ROUGE-1.5.5 ``-s``, ``-l``, ``-b`` and ``-p``; see the module docstring for each."""

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
    """The checked ``TextOptions``; ``ValueError`` naming the argument on a bad value."""
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

    One of ``max_words`` and ``max_bytes`` must be given (``OptionError`` otherwise)."""
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

    One of ``max_words`` and ``max_bytes`` must be given (``OptionError`` otherwise)."""
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
