"""Extraction of additions (the segments of a text that its source does not contain) and of
deletions (the segments of the source that a text does not contain).

A segment is a match of ``[^.]+\\.?`` (with a ``language=``, ``sentences.py``'s pattern),
stripped of surrounding white space; empty ones are dropped. An addition is a segment not a
substring of the source (exact, case-sensitive); a deletion one of the source not a substring of
the text. Both keep their order and their duplicates.
"""

import re
from itertools import compress

SEGMENT_PATTERN = re.compile(r"[^.]+\.?")
SEGMENT_SEPARATOR = "\n"
_TAIL = 8  # the characters of a segment's end that ``SourceIndex.deletions`` looks up first


def split_segments(text: str, pattern: "re.Pattern[str]" = SEGMENT_PATTERN) -> list[str]:
    """Return the stripped, non-empty segments of ``text`` in order (matches of ``pattern``)."""
    return [segment for segment in map(str.strip, pattern.findall(text)) if segment]


def extract_additions(text: str, source: str, pattern: "re.Pattern[str]" = SEGMENT_PATTERN) -> list[str]:
    """Return the segments of ``text`` that are not substrings of ``source``, in order."""
    return SourceIndex(source, pattern).additions(text)


class SourceIndex:
    """A source prepared for extracting the changes of several texts against it (``pattern``: the
    segment pattern); the answer of every substring search is remembered, so a segment costs one
    search of the source however often it repeats."""

    def __init__(self, source: str, pattern: "re.Pattern[str]" = SEGMENT_PATTERN):
        self.source = source
        self._pattern = pattern
        self._segments = split_segments(source, pattern)
        self._present = set(self._segments)
        self._absent: set[str] = set()
        self._last: tuple[str, list[str]] | None = None

    def additions(self, text: str) -> list[str]:
        """The segments of ``text`` that are not substrings of the source, in order."""
        present, absent, source = self._present, self._absent, self.source
        found = []
        for segment in self._split(text):
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
        """The segments of the source that are not substrings of ``text``, in source order; each
        distinct segment is searched once."""
        segments = self._split(text)
        missing = set(self._segments).difference(segments)
        if not missing:
            return []
        # Under [^.]+\.? a segment ending with "." is in a text only as the end of one of the text's
        # segments (its other characters are no "."; one of them precedes that "." in the text).
        by_end = self._pattern is SEGMENT_PATTERN
        ends: dict[str, list[str]] = {}
        for segment in segments if by_end else ():
            ends.setdefault(segment[-_TAIL:], []).append(segment)
        deleted = {
            segment
            for segment in missing
            if not (
                any(other.endswith(segment) for other in ends.get(segment[-_TAIL:], ()))
                if by_end and len(segment) >= _TAIL and segment[-1] == "."
                else segment in text
            )
        }
        return list(compress(self._segments, map(deleted.__contains__, self._segments)))

    def _split(self, text: str) -> list[str]:
        """``text``'s segments; the last text's are kept, so its additions and deletions split it once."""
        if self._last is None or self._last[0] != text:
            self._last = (text, split_segments(text, self._pattern))
        return self._last[1]


def join_segments(segments: list[str]) -> str:
    """Join segments (additions or deletions) one per line, the form rouge-score's rougeLsum reads as sentences."""
    return SEGMENT_SEPARATOR.join(segments)
