"""The extractors of ``entities=`` (update_rouge/entity_extractors.py): the option's value read,
entity strings normalised, a missing spaCy or pipeline in one line naming what installs it."""

import sys

import pytest

from update_rouge.entity_extractors import (
    DEFAULT_LABELS,
    PIP_EXTRA,
    SpacyExtractor,
    check_extractor,
    extract,
    normalised,
    pipeline,
)
from update_rouge.extras import MissingExtra


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("spacy:en_core_web_sm", SpacyExtractor("en_core_web_sm", DEFAULT_LABELS)),
        ("spacy:en_core_web_sm:PERSON,WORK_OF_ART", SpacyExtractor("en_core_web_sm", ("PERSON", "WORK_OF_ART"))),
        ("spacy:en_core_web_sm:*", SpacyExtractor("en_core_web_sm", None)),
        ("spacy:C:\\pipelines\\news", SpacyExtractor("C:\\pipelines\\news", DEFAULT_LABELS)),
        ("spacy:C:\\pipelines\\news:ORG", SpacyExtractor("C:\\pipelines\\news", ("ORG",))),
        (None, None),
    ],
)
def test_the_value_names_a_pipeline_and_its_labels(value, expected):
    assert check_extractor(value) == expected
    assert check_extractor(expected) == expected


def test_a_callable_is_its_own_extractor():
    assert check_extractor(str.split) is str.split
    assert extract(str.split, ["b A", "A  b", "b A"]) == {"b A": {"a", "b"}, "A  b": {"a", "b"}}


def test_entity_strings_are_casefolded_collapsed_and_stripped():
    assert normalised(["  New \t York\n", "NEW YORK", "Straße", "", "   "]) == {"new york", "strasse"}


def test_a_missing_pipeline_is_one_line_naming_its_download():
    pytest.importorskip("spacy")
    with pytest.raises(MissingExtra) as missing:
        pipeline("no_such_pipeline_of_update_rouge")
    message = str(missing.value)
    assert "\n" not in message
    assert message.endswith("install with: python -m spacy download no_such_pipeline_of_update_rouge")


def test_a_missing_spacy_is_one_line_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "spacy", None)
    pipeline.cache_clear()
    with pytest.raises(MissingExtra) as missing:
        pipeline("en_core_web_sm")
    assert str(missing.value) == (
        f"entities='spacy:en_core_web_sm' needs spaCy, which is not installed; install with: {PIP_EXTRA}"
    )
