"""The segments of ``language=``: where a text is cut for the extraction of additions.

With a language, a segment is a match of ``[^T]+T?`` where T is every character with the
Unicode property Sentence_Terminal (``SENTENCE_PATTERN``, Unicode 17.0.0); without one, the
published ``[^.]+\\.?`` of ``extraction.py``. With ``language="th"`` a text is also cut at every
run of white space with a Thai letter, mark or digit on each side (``SpacedSentencePattern``),
a stated rule whose errors docs/languages.md describes.
"""

import re
import sys
from collections.abc import Iterator
from typing import Union

from .extraction import SEGMENT_PATTERN
from .unicode_patterns import Ranges, ascii_only, character_class, one_of
from .unicode_tables import SENTENCE_TERMINALS, THAI


class SentencePattern:
    """``[^T]+T?`` for the sentence terminals T, with a pattern's ``finditer`` and ``findall`` (on
    ASCII text, the same pattern over the ASCII terminals only, faster)."""

    def __init__(self, terminals: Ranges):
        self.full = re.compile(f"{one_of(terminals, negate=True)}+{one_of(terminals)}?")
        ascii_terminals = ascii_only(terminals)
        self.ascii = re.compile(f"[^{character_class(ascii_terminals)}]+[{character_class(ascii_terminals)}]?")
        self.pattern = self.full.pattern

    def _for(self, text: str) -> "re.Pattern[str]":
        return self.ascii if text.isascii() else self.full

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator["re.Match[str]"]:
        """The matches in ``text[pos:endpos]``, as ``re.Pattern.finditer`` gives them."""
        return self._for(text).finditer(text, pos, endpos)

    def findall(self, text: str) -> list[str]:
        return self._for(text).findall(text)


SENTENCE_TERMINAL = re.compile(one_of(SENTENCE_TERMINALS))
SENTENCE_PATTERN = SentencePattern(SENTENCE_TERMINALS)


class SpacedSentencePattern:
    """``SENTENCE_PATTERN``'s segments, each cut again at every run of white space with a character of
    ``script`` on both sides; ``name`` names the cut in the signature."""

    def __init__(self, name: str, script: Ranges):
        letter = f"[{character_class(script)}]"
        self.name = name
        self.gap = re.compile(f"(?<={letter})\\s+(?={letter})")

    def finditer(self, text: str) -> Iterator["re.Match[str]"]:
        """The segments of ``text`` as matches, positioned in the whole text."""
        start = 0
        for gap in self.gap.finditer(text):
            yield from SENTENCE_PATTERN.finditer(text, start, gap.start())
            start = gap.end()
        yield from SENTENCE_PATTERN.finditer(text, start)

    def findall(self, text: str) -> list[str]:
        return [match.group(0) for match in self.finditer(text)]


# The languages whose sentences end at white space, with the script on both sides of it.
SPACED_SENTENCES: dict[str, SpacedSentencePattern] = {"th": SpacedSentencePattern("thai", THAI)}
SegmentPattern = Union["re.Pattern[str]", SentencePattern, SpacedSentencePattern]


def segment_pattern(language: str | None) -> SegmentPattern:
    """The segment pattern of the extraction (anything with a pattern's ``finditer`` and
    ``findall``): the published ``[^.]+\\.?`` for ``None``, the cut at white space for a
    language of ``SPACED_SENTENCES``, else ``SENTENCE_PATTERN``."""
    if language is None:
        return SEGMENT_PATTERN
    return SPACED_SENTENCES.get(language, SENTENCE_PATTERN)
