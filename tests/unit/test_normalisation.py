"""language= tokens are NFKC-normalised and lower-cased as Unicode 13.0.0 does it, on every Python.

The expected values were recorded with Python 3.10 (Unicode 13.0.0) by
scripts/generate_unicode_assigned.py, as plain ``unicodedata.normalize("NFKC", text).lower()``;
``languages.normalise`` must give them on the Python running the tests, whatever its Unicode.
The table of assigned code points and its regeneration are tested in test_unicode_assigned.py.
"""

import bisect
import json
import re
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from update_rouge.languages import LanguageTokenizer
from update_rouge.normalisation import _lower, normalise
from update_rouge.unicode_assigned import ASSIGNED

ROOT = Path(__file__).resolve().parents[2]
RECORDED = json.loads((ROOT / "tests" / "data" / "unicode13_normalisation.json").read_text(encoding="ascii"))
SIGMA, FINAL = "\u03a3", "\u03c2"
# Characters assigned after Unicode 13.0.0: Cyrillic modifier letters that NFKC maps to а and б
# from 15.0.0 on, a letter with a lower-case mapping from 14.0.0 on, combining marks of class 230.
NEW = ["\U0001e030", "\U0001e031", "\u2c2f", "\ua7c0", "\U000107a5", "\u1ac1", "\u0898"]
MARKS = ["\u0301", "\u0327", "\u0323", "\u0308", "\u0345", "\u1734", SIGMA, "A", "\u1100", "\u1161", "\u11a8"]
_FIRSTS = [first for first, _ in ASSIGNED]


def assigned(character: str) -> bool:
    index = bisect.bisect_right(_FIRSTS, ord(character)) - 1
    return index >= 0 and ASSIGNED[index][1] >= ord(character)


def code_points(ranges):
    return {code for first, last in ranges for code in range(first, last + 1)}


def differences(pairs):
    """'N code points differ, first: U+XXXX got 'a' expected 'b', ...' for (code, got, expected)."""
    wrong = [(code, got, expected) for code, got, expected in pairs if got != expected]
    listed = ", ".join(f"U+{code:04X} got {got!r} expected {expected!r}" for code, got, expected in wrong[:8])
    return f"{len(wrong)} code points differ from Python 3.10's, first: {listed}" if wrong else ""


def test_every_assigned_code_point_normalises_as_on_python_3_10():
    mappings = RECORDED["nfkc_lower"]
    pairs = (
        (code, normalise(chr(code)), mappings.get(f"{code:X}", chr(code)))
        for first, last in ASSIGNED
        for code in range(first, last + 1)
    )
    message = differences(pairs)
    assert not message, message


def test_the_final_sigma_sees_the_case_properties_of_python_3_10():
    # A capital sigma lowers to the final form after a cased character c ("cΣ"), and after
    # "A" followed by a case-ignorable c ("AcΣ"); U+1734 is case-ignorable only up to 13.0.0.
    cased = code_points(RECORDED["cased"])
    cased_or_ignorable = cased | code_points(RECORDED["case_ignorable"])
    after_cased = (
        (code, _lower(chr(code) + SIGMA)[-1], FINAL if code in cased else "\u03c3")
        for first, last in ASSIGNED
        for code in range(first, last + 1)
    )
    message = differences(after_cased)
    assert not message, message
    after_a = (
        (code, _lower("A" + chr(code) + SIGMA)[-1], FINAL if code in cased_or_ignorable else "\u03c3")
        for first, last in ASSIGNED
        for code in range(first, last + 1)
    )
    message = differences(after_a)
    assert not message, message
    assert _lower("A\u1734\u03a3 \u1734\u03a3") == "a\u1734\u03c2 \u1734\u03c3"


def test_recorded_random_texts_normalise_as_on_python_3_10():
    wrong = [(text, normalise(text), expected) for text, expected in RECORDED["texts"] if normalise(text) != expected]
    assert not wrong, f"{len(wrong)} of {len(RECORDED['texts'])} texts differ, first (text, got, expected): {wrong[:3]}"


old_characters = st.characters().filter(lambda c: assigned(c) and c != "\u1734")
old_texts = st.text(st.one_of(old_characters, st.sampled_from(MARKS[:5])), max_size=12)


@given(before=old_texts, new=st.sampled_from(NEW), after=old_texts)
def test_a_character_newer_than_unicode_13_stays_and_cuts_the_text(before, new, after):
    assert normalise(before + new + after) == normalise(before) + new + normalise(after)


@given(text=old_texts)
def test_text_of_assigned_characters_normalises_as_this_python_does(text):
    # Unicode's normalization stability: NFKC of assigned characters never changes; lower-casing
    # is 13.0.0's for them on Python 3.10-3.13 (U+1734 aside, left out here).
    assert normalise(text) == unicodedata.normalize("NFKC", text).lower()


@pytest.mark.skipif(unicodedata.unidata_version != "13.0.0", reason="this Python's unicodedata is not 13.0.0")
@given(text=st.text(st.one_of(st.characters(), st.sampled_from(NEW + MARKS)), max_size=12))
def test_on_python_3_10_it_is_plain_nfkc_then_lower(text):
    assert normalise(text) == unicodedata.normalize("NFKC", text).lower()


def test_cyrillic_modifier_letters_are_one_token_as_they_are_on_every_python():
    # Unicode 15.0.0 maps U+1E030 U+1E031 to а б by NFKC; 13.0.0 does not know them.
    assert LanguageTokenizer("ru").tokenize("\U0001e030\U0001e031 Б") == ["\U0001e030\U0001e031", "б"]


def test_the_default_tokens_see_the_same_lower_case_on_every_python():
    # rouge-score keeps [a-z0-9] of str.lower(text); among non-ASCII characters only U+0130 (to
    # i and a combining dot) and U+212A (Kelvin sign, to k) lower-case into it, on Python 3.10 to
    # 3.13 alike, so language=None's tokens do not depend on the Python's Unicode version.
    ascii_word = re.compile("[a-z0-9]")
    found = [code for code in range(0x80, sys.maxunicode + 1) if ascii_word.search(chr(code).lower())]
    assert found == [0x130, 0x212A], [f"U+{code:04X}" for code in found]


def test_this_python_assigns_nothing_in_planes_4_to_13():
    # normalisation._newer_characters does not scan them; a Python whose Unicode assigns there
    # would have its characters normalised by its own data.
    assigned_there = [code for code in range(0x40000, 0xE0000) if unicodedata.category(chr(code)) != "Cn"]
    assert not assigned_there, [f"U+{code:05X}" for code in assigned_there[:8]]
