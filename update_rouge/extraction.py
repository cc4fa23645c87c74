"""Extraction of additions: the segments of a text that its source does not contain; and of
deletions, their mirror: the segments of the source that a text does not contain.

A segment is a match of ``[^.]+\\.?`` (a run of characters up to and including the next
period; with a ``language=``, ``[^T]+T?`` for every sentence terminal T, see ``sentences.py``),
stripped of surrounding white space; empty segments are dropped. A segment is an addition
when it is not a substring of the source (exact and case-sensitive). Additions keep their
order and their duplicates. A deletion is a segment of the source (split by the same rule)
that is not a substring of the text; deletions keep the source's order and its duplicates.
"""

import re

SEGMENT_PATTERN = re.compile(r"[^.]+\.?")
SEGMENT_SEPARATOR = "\n"


def split_segments(text: str, pattern: "re.Pattern[str]" = SEGMENT_PATTERN) -> list[str]:
    """Return the stripped, non-empty segments of ``text`` in order (matches of ``pattern``)."""
    return [segment for segment in map(str.strip, pattern.findall(text)) if segment]


def extract_additions(text: str, source: str, pattern: "re.Pattern[str]" = SEGMENT_PATTERN) -> list[str]:
    """Return the segments of ``text`` that are not substrings of ``source``, in order."""
    return SourceIndex(source, pattern).additions(text)


class SourceIndex:
    """A source prepared for extracting the additions of several texts against it.

    Most segments of an updated text are segments of its source; those are found in a set of
    the source's own segments before the (slower) substring search is tried. The answer of
    every substring search is remembered, so a segment repeated any number of times costs one
    search of the source: the work is linear in the texts' length for each distinct segment.
    ``pattern`` is the segment pattern (``sentences.segment_pattern`` gives the one of a language).
    """

    def __init__(self, source: str, pattern: "re.Pattern[str]" = SEGMENT_PATTERN):
        self.source = source
        self._pattern = pattern
        self._segments = split_segments(source, pattern)
        self._present = set(self._segments)
        self._absent: set[str] = set()

    def additions(self, text: str) -> list[str]:
        """The segments of ``text`` that are not substrings of the source, in order."""
        present, absent, source = self._present, self._absent, self.source
        found = []
        for segment in split_segments(text, self._pattern):
            if segment in present:
                continue
            if segment not in absent:
                if segment in source:
                    present.add(segment)
                    continue
                absent.add(segment)
            found.append(segment)
        return found

    def deletions(self, text: str) -> list[str]:
        """The segments of the source that are not substrings of ``text``, in source order."""
        kept = set(split_segments(text, self._pattern))
        return [segment for segment in self._segments if segment not in kept and segment not in text]


def join_segments(segments: list[str]) -> str:
    """Join segments (additions or deletions) one per line, the form rouge-score's rougeLsum reads as sentences."""
    return SEGMENT_SEPARATOR.join(segments)
