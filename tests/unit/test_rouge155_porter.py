"""The Porter stemmer as ROUGE-1.5.5 applies it (rouge155_porter): Martin Porter's reference
implementation with ROUGE-1.5.5's change to step 4.

Expected values come from outside the code under test: NLTK's
``PorterStemmer(mode=MARTIN_EXTENSIONS)`` (Martin Porter's reference behaviour) on the words of
tests/data/rouge155_stems.tsv and on any word where ROUGE-1.5.5's step-4 change cannot apply, and
the stems of the words where it does, worked out by hand.
"""

import pytest
from conftest import read_exception_files, read_stems
from hypothesis import assume, given
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer

from update_rouge.rouge155_porter import porter_stem

MARTIN = PorterStemmer(mode=PorterStemmer.MARTIN_EXTENSIONS)


def outside_rouge155s_step4_change(word):
    # The change only touches words that reach step 4 ending in "ment" or "ent", or whose first
    # step-4 suffix uncovers "sion"/"tion"; every such word contains "ent" or "ion".
    return "ent" not in word and "ion" not in word


def test_porter_equals_martins_reference_on_the_data_where_step4_is_unchanged():
    exceptions = read_exception_files()
    words = [word for word, _ in read_stems() if outside_rouge155s_step4_change(word) and word not in exceptions]
    assert len(words) > 25000
    assert [porter_stem(word) for word in words] == [MARTIN.stem(word) for word in words]


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789aeiouy", min_size=1, max_size=14))
def test_porter_equals_martins_reference_on_any_word_where_step4_is_unchanged(word):
    assume(outside_rouge155s_step4_change(word))
    assert porter_stem(word) == MARTIN.stem(word)


@pytest.mark.parametrize(
    "word, rouge155_stem, martin_stem",
    [
        ("agreement", "agreem", "agreement"),  # "ement" fails (m=1), then "ent" is removed
        ("departmental", "depart", "department"),  # "al", then "ment"
        ("commissioner", "commiss", "commission"),  # "er", then "ion"
    ],
)
def test_step4_change_is_where_rouge155_and_martin_differ(word, rouge155_stem, martin_stem):
    assert porter_stem(word) == rouge155_stem
    assert MARTIN.stem(word) == martin_stem
