"""language= segments of Thai, Lao, Khmer and Burmese text (update_rouge/sentences.py).

Thai ends sentences with a space, so ``th`` also cuts at white space between Thai characters;
Lao, Khmer and Burmese texts end theirs with ``.``, ``។`` and ``။``, which are sentence
terminals. The real texts are UDHR translations (tests/data/udhr_spaceless_triples.jsonl, see
tests/data/NOTICE.md): each source is one or two real sentences, the reference adds one more
article and the prediction keeps one source sentence unchanged and adds another.
"""

import re
import warnings

import pytest
from conftest import read_jsonl
from hypothesis import given
from hypothesis import strategies as st

from update_rouge import NoTokensWarning, compute
from update_rouge.extraction import SourceIndex
from update_rouge.sentences import SENTENCE_PATTERN, SENTENCE_TERMINAL, SPACED_SENTENCES, segment_pattern
from update_rouge.signature import LANGUAGE_SEGMENTS

TRIPLES = read_jsonl("udhr_spaceless_triples.jsonl")
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
THAI = segment_pattern("th")


def per_example(source, reference, prediction, language):
    with warnings.catch_warnings():
        warnings.simplefilter("error", NoTokensWarning)
        result = compute(
            sources=[source],
            predictions=[prediction],
            references=[reference],
            rouge_types=TYPES,
            use_aggregator=False,
            language=language,
        )
    return {key: values[0] for key, values in result.items()}


def test_the_data_has_one_triple_per_language():
    assert sorted(row["language"] for row in TRIPLES) == ["km", "lo", "my", "th"]


@pytest.mark.parametrize("row", TRIPLES, ids=[row["id"] for row in TRIPLES])
def test_an_unchanged_source_sentence_is_not_an_addition(row):
    index = SourceIndex(row["source"], segment_pattern(row["language"]))
    assert index.additions(row["reference"]) == [row["reference_added"]]
    assert index.additions(row["prediction"]) == [row["prediction_added"]]


@pytest.mark.parametrize("row", TRIPLES, ids=[row["id"] for row in TRIPLES])
def test_the_triple_scores_as_its_added_sentences_alone(row):
    # With an empty source every segment is added: the added sentences scored on their own are
    # what scoring the triple must give when the extraction keeps exactly those.
    alone = per_example("", row["reference_added"], row["prediction_added"], row["language"])
    assert per_example(row["source"], row["reference"], row["prediction"], row["language"]) == alone
    assert 0 < alone["update_rouge1"] < 1


def test_thai_without_the_space_rule_would_add_the_whole_update():
    # What issue 30 reports: no terminal in the Thai text, so the update is one segment.
    [row] = [row for row in TRIPLES if row["language"] == "th"]
    assert SourceIndex(row["source"], SENTENCE_PATTERN).additions(row["reference"]) == [row["reference"]]
    assert not SENTENCE_TERMINAL.search(row["reference"])


@pytest.mark.parametrize(
    "text, segments",
    [
        ("ฝนตก ฟ้าร้อง", ["ฝนตก", "ฟ้าร้อง"]),
        ("ฝนตก\n\tฟ้าร้อง", ["ฝนตก", "ฟ้าร้อง"]),
        # a terminal still ends a segment; "." is not Thai, so the space after it is no cut
        ("ฝนตก. ฟ้าร้อง", ["ฝนตก.", "ฟ้าร้อง"]),
        # known errors: a space beside a digit or a Latin letter is no cut, a space inside a
        # sentence (around the repetition mark ๆ) is one
        ("ปี 2020 ฝนตก", ["ปี 2020 ฝนตก"]),
        ("ฝนตก OK ฟ้าร้อง", ["ฝนตก OK ฟ้าร้อง"]),
        ("บุคคลใด ๆ จะ", ["บุคคลใด", "ๆ", "จะ"]),
        # Thai digits are Thai characters
        ("ข้อ ๑", ["ข้อ", "๑"]),
        ("", []),
        (" \n ", []),
    ],
)
def test_thai_segments(text, segments):
    # as the extraction reads them: stripped, empty ones dropped
    assert [segment.strip() for segment in THAI.findall(text) if segment.strip()] == segments


def test_thai_matches_are_positioned_in_the_whole_text():
    text = "ฝนตก ฟ้าร้อง. แดดออก ฝนหยุด"
    matches = list(THAI.finditer(text))
    assert [text[match.start() : match.end()] for match in matches] == [match.group(0) for match in matches]
    assert [match.group(0).strip() for match in matches] == ["ฝนตก", "ฟ้าร้อง.", "แดดออก", "ฝนหยุด"]


ALPHABET = st.sampled_from(["ก", "ข", "ๆ", "๑", " ", "\n", ".", "。", "a", "1", "ດ", "\u00a0"])


@given(st.lists(ALPHABET, max_size=40).map("".join))
def test_the_thai_cut_keeps_every_character_but_the_cut_white_space(text):
    # The segments cover the text: each non-space, non-terminal character is in exactly one.
    def kept(value):
        return sum(1 for character in value if not character.isspace() and not SENTENCE_TERMINAL.match(character))

    segments = THAI.findall(text)
    assert sum(kept(segment) for segment in segments) == kept(text)
    # and no segment holds white space between two Thai characters
    assert not any(re.search(r"[ก-๙]\s+[ก-๙]", segment) for segment in segments)


@given(st.lists(st.sampled_from(["a", "b", " ", "\n", ".", "!", "。", "ດ", "é"]), max_size=40).map("".join))
def test_without_thai_the_thai_rule_is_the_terminal_rule(text):
    assert THAI.findall(text) == SENTENCE_PATTERN.findall(text)


def test_only_thai_has_the_space_rule():
    assert sorted(SPACED_SENTENCES) == ["th"]
    for language in ("lo", "km", "my", "zh", "en"):
        assert segment_pattern(language) is SENTENCE_PATTERN


def test_the_signature_names_the_thai_cut():
    def seg(language):
        signature = compute(
            sources=["ก"], predictions=["ก ข"], references=["ก ค"], language=language, return_signature=True
        )["signature"]
        return next(field for field in signature.split("|") if field.startswith("seg:"))

    assert seg("th") == f"seg:{LANGUAGE_SEGMENTS}&space-between-thai"
    assert seg("lo") == seg("km") == seg("my") == f"seg:{LANGUAGE_SEGMENTS}"
