import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import read_jsonl
from hypothesis import given, settings
from hypothesis import strategies as st

from update_rouge import extract_additions, split_segments
from update_rouge.extraction import SourceIndex

REPO = Path(__file__).resolve().parents[2]


def test_segments_are_stripped_and_keep_their_period():
    assert split_segments("A cat sat.  It purred. \n And then") == ["A cat sat.", "It purred.", "And then"]


def test_periods_without_text_before_them_are_not_segments():
    # [^.]+ needs one character that is not a period: the leading ".." match nothing.
    assert split_segments("..  . \n.") == [".", "."]


def test_empty_and_whitespace_segments_are_dropped():
    assert split_segments("   ") == []
    assert split_segments("") == []


def test_regex_splits_inside_decimals_and_abbreviations():
    assert split_segments("It costs 3.5 dollars in the U.S. today.") == [
        "It costs 3.",
        "5 dollars in the U.",
        "S.",
        "today.",
    ]


def test_additions_are_segments_not_in_source_case_sensitive_with_duplicates():
    source = "The cat sat. It purred."
    text = "The cat sat. the cat sat. New fact. New fact. It purred."
    assert extract_additions(text, source) == ["the cat sat.", "New fact.", "New fact."]


def test_stripped_segment_is_tested_against_the_source():
    # The second segment is " It purred." with a leading space; stripped, it occurs in the source
    # where it starts the text, so it is not an addition.
    assert extract_additions("Intro. It purred.", "It purred. Intro.") == []


def test_segment_that_is_part_of_a_source_sentence_is_not_an_addition():
    assert extract_additions("big dog.", "The big dog. Then more.") == []


def test_additions_match_the_rouge155_golden_additions(triples):
    golden = read_jsonl("rouge155_golden.jsonl")
    assert len(golden) == len(triples) == 788
    for row in golden:
        triple = triples[(row["file"], row["id"])]
        assert extract_additions(triple["reference"], triple["source"]) == row["reference_additions"], row["id"]
        assert extract_additions(triple["prediction"], triple["source"]) == row["prediction_additions"], row["id"]


ADVERSARIAL = r"""
import json, sys
from update_rouge.extraction import SourceIndex
source = "The cat sat on the mat. " * 42_000
texts = {
    "no period": "word " * 200_000,
    "a. repeated": "a." * 500_000,
    "zq. repeated": "zq." * 333_333,
    "only periods": "." * 1_000_000,
    "white-space run": "a" + " " * 1_000_000 + "b.",
    "the source again": source * 2,
}
index = SourceIndex(source)
repeated = SourceIndex("zq. " * 333_333)
json.dump({name: [[a[:3], len(a)] for a in index.additions(text)][:3] + [len(index.additions(text))]
           + [len(index.deletions(text)), len(repeated.deletions(text))]
           for name, text in texts.items()}, sys.stdout)
"""


@pytest.mark.slow
def test_adversarial_texts_against_a_1_mb_source_finish_with_the_right_additions_and_deletions():
    # Each text is about 1 MB. Searching the source once per "zq." segment (333,333 searches of
    # 1 MB) took minutes; remembering each distinct segment's answer makes it one search. The same
    # for the deletions: 42,000 searches of a text for "The cat sat on the mat." (answered by the
    # text's segments' ends), 333,333 for "zq." (one search).
    completed = subprocess.run(
        [sys.executable, "-c", ADVERSARIAL], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == {
        "no period": [["wor", 999_999], 1, 42_000, 333_333],
        "a. repeated": [["a.", 2]] * 3 + [500_000, 42_000, 333_333],
        "zq. repeated": [["zq.", 3]] * 3 + [333_333, 42_000, 0],
        "only periods": [0, 42_000, 333_333],
        "white-space run": [["a  ", 1_000_003], 1, 42_000, 333_333],
        "the source again": [0, 0, 333_333],
    }


def test_deletions_are_source_segments_not_in_the_text_in_source_order_with_duplicates():
    index = SourceIndex("A. B. A. C d.")
    assert index.deletions("C d. x") == ["A.", "B.", "A."]
    # A source segment that is a substring of the text is kept, even inside a longer sentence.
    assert index.deletions("Xa A. B. C d.") == []
    assert index.deletions("") == ["A.", "B.", "A.", "C d."]


def test_a_long_segment_is_found_inside_a_longer_sentence_or_at_its_end_only():
    index = SourceIndex("The cat sat down. The dog ran off. It rained all day")
    # "The cat sat down." ends a longer sentence of the text: kept; "The dog ran off." appears only
    # without its period: deleted; the last segment, without a period, is found mid-sentence.
    text = "Then the cat said The cat sat down. The dog ran off and It rained all day long."
    assert index.deletions(text) == ["The dog ran off."]


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab .\n\t", max_size=80), st.text(alphabet="ab .\n\t", max_size=80))
def test_deletions_are_the_source_segments_not_found_by_a_plain_substring_search(source, text):
    # The definition restated: each source segment, in order, that is not a substring of the text.
    expected = [segment for segment in split_segments(source) if segment not in text]
    assert SourceIndex(source).deletions(text) == expected
