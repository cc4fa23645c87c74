"""Extraction of additions: the segments of a text that its source does not contain.

A segment is a match of ``[^.]+\\.?`` (a run of characters up to and including the next
period; with a ``language=``, ``[^T]+T?`` for every sentence terminal T, see ``languages.py``),
stripped of surrounding white space; empty segments are dropped. A segment is an addition
when it is not a substring of the source (exact and case-sensitive). Additions keep their
order and their duplicates.
"""

import re
from typing import List, Set

SEGMENT_PATTERN = re.compile(r"[^.]+\.?")
ADDITION_SEPARATOR = "\n"


def split_segments(text: str, pattern: "re.Pattern[str]" = SEGMENT_PATTERN) -> List[str]:
    """Return the stripped, non-empty segments of ``text`` in order (matches of ``pattern``)."""
    segments = []
    for match in pattern.finditer(text):
        segment = match.group(0).strip()
        if segment:
            segments.append(segment)
    return segments


def extract_additions(text: str, source: str, pattern: "re.Pattern[str]" = SEGMENT_PATTERN) -> List[str]:
    """Return the segments of ``text`` that are not substrings of ``source``, in order."""
    return SourceIndex(source, pattern).additions(text)


class SourceIndex:
    """A source prepared for extracting the additions of several texts against it.

    Most segments of an updated text are segments of its source; those are found in a set of
    the source's own segments before the (slower) substring search is tried. The answer of
    every substring search is remembered, so a segment repeated any number of times costs one
    search of the source: the work is linear in the texts' length for each distinct segment.
    ``pattern`` is the segment pattern (``languages.segment_pattern`` gives the one of a language).
    """

    def __init__(self, source: str, pattern: "re.Pattern[str]" = SEGMENT_PATTERN):
        self.source = source
        self._pattern = pattern
        self._present = set(split_segments(source, pattern))
        self._absent: Set[str] = set()

    def _is_addition(self, segment: str) -> bool:
        if segment in self._present:
            return False
        if segment in self._absent:
            return True
        if segment in self.source:
            self._present.add(segment)
            return False
        self._absent.add(segment)
        return True

    def additions(self, text: str) -> List[str]:
        """The segments of ``text`` that are not substrings of the source, in order."""
        return [segment for segment in split_segments(text, self._pattern) if self._is_addition(segment)]


def join_additions(additions: List[str]) -> str:
    """Join additions one per line, the form rouge-score's rougeLsum reads as sentences."""
    return ADDITION_SEPARATOR.join(additions)
