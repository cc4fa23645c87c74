"""Text as ``language=`` normalises it before cutting words: NFKC, then lower case, as
Unicode 13.0.0 (Python 3.10's ``unicodedata``) does both, on every Python (``normalise``).

The code points assigned in 13.0.0 come from ``unicode_assigned.py``; tests/unit/test_normalisation.py
checks the result against values recorded with Python 3.10.
"""

import re
import unicodedata
from functools import cache
from itertools import groupby

from .unicode_assigned import ASSIGNED
from .unicode_assigned import UNICODE_VERSION as ASSIGNED_UNICODE_VERSION
from .unicode_patterns import ASTRAL, subtract

# Planes 4 to 13: no Unicode version up to 17.0.0 assigns a character there.
_EMPTY_PLANES = ((0x40000, 0xDFFFF),)
_ASTRAL_CHARACTER = re.compile(f"[{ASTRAL}]")


def _lower(text: str) -> str:
    """``text.lower()`` with the final sigma of Unicode 13.0.0, where U+1734 is case-ignorable (not
    from 14.0.0 on): lowering with U+0300 in its place gives 13.0.0's sigmas."""
    if "\u1734" not in text or "\u03a3" not in text:
        return text.lower()
    substituted = text.replace("\u1734", "\u0300").lower()
    return "".join(own if own == "\u1734" else other for own, other in zip(text.lower(), substituted))


@cache
def _newer_characters() -> tuple[frozenset[str], "re.Pattern[str]", frozenset[str]]:
    """The characters this Python's ``unicodedata`` assigns and Unicode 13.0.0 does not (none on
    Python 3.10): all of them, a pattern of those of the Basic Multilingual Plane, and those above
    it (``re`` is slow with a long class of astral characters). Computed once per process."""
    newer: list[str] = []
    if unicodedata.unidata_version != ASSIGNED_UNICODE_VERSION:
        unassigned = subtract(((0, 0x10FFFF),), ASSIGNED, _EMPTY_PLANES)
        newer = [
            chr(code)
            for first, last in unassigned
            for code in range(first, last + 1)
            if unicodedata.category(chr(code)) != "Cn"
        ]
    bmp = "".join(character for character in newer if character <= "\uffff")
    astral = frozenset(character for character in newer if character > "\uffff")
    return frozenset(newer), re.compile(f"[{re.escape(bmp)}]" if bmp else "(?!)"), astral


def _has_newer_characters(text: str) -> bool:
    _, bmp, astral = _newer_characters()
    if bmp.search(text):
        return True
    return bool(astral) and any(character in astral for character in _ASTRAL_CHARACTER.findall(text))


def normalise(text: str) -> str:
    """``unicodedata.normalize("NFKC", text).lower()`` as Python 3.10 (Unicode 13.0.0) computes it, on any Python.

    Characters unassigned in Unicode 13.0.0 are kept as they are, and the runs between them are
    normalised and lower-cased on their own, as 13.0.0 does (such a character has no mappings,
    combining class 0 and no case). Assigned characters keep their NFKC (Unicode's stability
    policy) and their 13.0.0 case mappings on Python 3.10 to 3.13 but for U+1734 (``_lower``).
    """
    if not _has_newer_characters(text):
        return _lower(unicodedata.normalize("NFKC", text))
    newer = _newer_characters()[0]
    runs = ("".join(run) for _, run in groupby(text, key=newer.__contains__))
    return "".join(run if run[0] in newer else _lower(unicodedata.normalize("NFKC", run)) for run in runs)
