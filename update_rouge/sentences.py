"""The segments of ``language=``: where a text is cut for the extraction of additions.

With a language, a segment is a match of ``[^T]+T?`` where T is every character with the
Unicode property Sentence_Terminal (``SENTENCE_PATTERN``, Unicode 17.0.0 from
``unicode_tables.py``); without one, the published ``[^.]+\\.?`` of ``extraction.py``.
"""

import re
from typing import List, Optional

from .extraction import SEGMENT_PATTERN
from .unicode_patterns import Ranges, ascii_only, character_class, one_of
from .unicode_tables import SENTENCE_TERMINALS


class SentencePattern:
    """``[^T]+T?`` for the sentence terminals T, with the ``finditer`` and ``findall`` of a pattern.

    On ASCII text (``str.isascii``) it runs the same pattern over the ASCII terminals only,
    which finds the same matches faster.
    """

    def __init__(self, terminals: Ranges):
        self.full = re.compile(f"{one_of(terminals, negate=True)}+{one_of(terminals)}?")
        ascii_terminals = ascii_only(terminals)
        self.ascii = re.compile(f"[^{character_class(ascii_terminals)}]+[{character_class(ascii_terminals)}]?")
        self.pattern = self.full.pattern

    def _for(self, text: str) -> "re.Pattern[str]":
        return self.ascii if text.isascii() else self.full

    def finditer(self, text: str):
        return self._for(text).finditer(text)

    def findall(self, text: str) -> List[str]:
        return self._for(text).findall(text)


SENTENCE_TERMINAL = re.compile(one_of(SENTENCE_TERMINALS))
SENTENCE_PATTERN = SentencePattern(SENTENCE_TERMINALS)


def segment_pattern(language: Optional[str]):
    """The segment pattern of the extraction (anything with a pattern's ``finditer``): the
    published ``[^.]+\\.?`` for ``None``, else ``SENTENCE_PATTERN``."""
    return SEGMENT_PATTERN if language is None else SENTENCE_PATTERN
