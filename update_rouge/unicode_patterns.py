"""Regular expressions from tables of code point ranges (``unicode_tables.py``).

A table is a sorted tuple of ``(first, last)`` code point ranges. ``one_of`` writes a pattern
matching one character of a table, fast on the Basic Multilingual Plane; ``subtract`` and
``ascii_only`` derive tables from tables.
"""

Ranges = tuple[tuple[int, int], ...]
ASTRAL = "\\U00010000-\\U0010FFFF"


def character_class(ranges: Ranges) -> str:
    """The inside of a ``[...]`` class matching the characters of ``ranges``."""
    return "".join(f"\\U{first:08X}-\\U{last:08X}" for first, last in ranges)


def one_of(ranges: Ranges, negate: bool = False) -> str:
    """A pattern matching one character in ``ranges`` (outside them with ``negate``).

    ``re`` tests characters of the Basic Multilingual Plane against a bitmap but walks the list
    of ranges above it one by one, so those are tried only for characters above it.
    """
    bmp = tuple((first, min(last, 0xFFFF)) for first, last in ranges if first <= 0xFFFF)
    astral = tuple((max(first, 0x10000), last) for first, last in ranges if last > 0xFFFF)
    if negate:
        if not astral:
            return f"[^{character_class(bmp)}]"
        return f"(?:[^{character_class(bmp)}{ASTRAL}]|(?![{character_class(astral)}])[{ASTRAL}])"
    if not astral:
        return f"[{character_class(bmp)}]"
    return f"(?:[{character_class(bmp)}]|(?=[{ASTRAL}])[{character_class(astral)}])"


def subtract(ranges: Ranges, *removed: Ranges) -> Ranges:
    """The code points of ``ranges`` outside every one of ``removed``, as sorted ranges."""
    cut = sorted(pair for table in removed for pair in table)
    result = []
    for first, last in ranges:
        for cut_first, cut_last in cut:
            if cut_last < first or cut_first > last:
                continue
            if cut_first > first:
                result.append((first, cut_first - 1))
            first = cut_last + 1
            if first > last:
                break
        if first <= last:
            result.append((first, last))
    return tuple(result)


def ascii_only(ranges: Ranges) -> Ranges:
    """The part of ``ranges`` inside ASCII (U+0000 to U+007F)."""
    return tuple((first, min(last, 0x7F)) for first, last in ranges if first <= 0x7F)
