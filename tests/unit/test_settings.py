"""The settings object: checked once, strict, the table of options and compute's parameters."""

import dataclasses
import inspect

import pytest

import update_rouge
from update_rouge import OPTIONS, Settings, UpdateRougeScorer, compute
from update_rouge.rust_engine import rust_available
from update_rouge.settings import OPTION_BY_NAME


def columns(rows):
    return dict(
        sources=[row["source"] for row in rows],
        predictions=[row["prediction"] for row in rows],
        references=[row["reference"] for row in rows],
    )


def test_defaults_are_the_table_defaults_after_resolution():
    settings = Settings()
    assert settings.rouge_types == update_rouge.DEFAULT_ROUGE_TYPES
    assert settings.stemmer == "none"
    for field in dataclasses.fields(Settings):
        if field.name not in ("rouge_types", "stemmer"):
            assert getattr(settings, field.name) == OPTION_BY_NAME[field.name].default


def test_use_stemmer_is_resolved_into_the_stemmer():
    assert Settings(use_stemmer=True).stemmer == "porter"
    assert Settings(use_stemmer=True) == Settings(stemmer="porter")
    assert dataclasses.replace(Settings(use_stemmer=True), seed=1).stemmer == "porter"


def test_a_languages_snowball_stemmer_survives_settings_rebuilt_from_their_fields():
    # Settings keep use_stemmer=True with a language as stemmer="snowball"; rebuilding them
    # (dataclasses.replace, as the command line's workers and the demo do) refused that name.
    settings = Settings(language="de", use_stemmer=True)
    assert settings.stemmer == "snowball"
    rebuilt = dataclasses.replace(settings, use_aggregator=False, num_proc=1)
    assert rebuilt.stemmer == "snowball" and rebuilt.language == "de"
    assert Settings(language="de", stemmer="snowball") == settings
    # German: "Kinder" and "Kind" share the Snowball stem "kind" (1 of 2 words each side).
    scores = compute(
        sources=["S."],
        references=["S. Die Kinder."],
        predictions=["S. Das Kind."],
        rouge_types=["rouge1"],
        language="de",
        use_stemmer=True,
        use_aggregator=False,
        confidence_level=None,
    )
    assert scores["update_rouge1"] == [0.5]


def test_settings_are_frozen_and_hashable_parts_are_tuples():
    settings = Settings(rouge_types=["rouge1", "rougeL"])
    assert settings.rouge_types == ("rouge1", "rougeL")
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.seed = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    "options, message",
    [
        (dict(use_aggregator=None), r"use_aggregator must be True or False, got None"),
        (dict(use_aggregator=1), r"use_aggregator must be True or False, got 1"),
        (dict(use_stemmer="yes"), r"use_stemmer must be True or False, got 'yes'"),
        (dict(engine=None), r"unknown engine None; valid engines are auto, python, rust, rouge-score"),
        (dict(engine="fast"), r"unknown engine 'fast'"),
        (dict(num_proc=None), r"num_proc must be a whole number of processes, 1 or more, got None"),
        (dict(multi_ref=None), r"unknown multi_ref None"),
        (dict(n_bootstrap=None), r"n_bootstrap must be a positive integer, got None; instead: n_bootstrap=1000"),
        (dict(seed=None), r"seed must be a non-negative integer, got None"),
        (dict(tokenizer="split"), r"tokenizer must be a callable"),
        (dict(rouge_types="rouge1"), r"rouge_types must be a list of rouge type names, got 'rouge1'"),
        (
            dict(stemmer="snowball"),
            r"stemmer='snowball' stems the words of a language with its Snowball stemmer: it needs language",
        ),
        (dict(stemmer="lancaster"), r"unknown stemmer 'lancaster'"),
    ],
)
def test_bad_settings_are_named_once_when_built(options, message):
    with pytest.raises(ValueError, match=message):
        Settings(**options)
    with pytest.raises(ValueError, match=message):
        UpdateRougeScorer(**options)


def test_return_signature_must_be_a_switch():
    with pytest.raises(ValueError, match="return_signature must be True or False, got 'yes'"):
        compute(sources=["s."], predictions=["s."], references=["s."], return_signature="yes")


def test_every_option_is_a_setting_an_alias_or_a_per_call_argument():
    settings = {field.name for field in dataclasses.fields(Settings)}
    per_call = {"baseline_predictions", "group_by", "return_signature", "evidence"}
    assert {option.name for option in OPTIONS} == settings | {"use_stemmer"} | per_call
    assert [option.name for option in OPTIONS] == list(inspect.signature(compute).parameters)[3:]


def test_compute_documents_every_option_of_the_table_as_the_table_describes_it():
    documented = " ".join((compute.__doc__ or "").split())
    for option in OPTIONS:
        described = " ".join(f"{option.name} ({option.type}, optional): {option.described()}".split())
        assert described in documented, f"compute's docstring lacks the table's text of {option.name}"
    assert documented.index("references:") < documented.index("rouge_types (") < documented.index("Returns:")


@pytest.mark.parametrize(
    "options, message",
    [
        ({"engine": "rust", "rouge_types": ["rougeSU4"]}, "engine='rust' cannot compute rougeSU4: skip-bigram types"),
        ({"engine": "rouge-score", "rouge_types": ["rougeW"]}, "engine='rouge-score' cannot compute rougeW: ROUGE-W"),
        ({"engine": "rust", "multi_ref": "pooled"}, "engine='rust' gives no raw counts"),
        ({"engine": "rust", "stemmer": "rouge155"}, "engine='rust' supports only rouge-score's tokenizer"),
        ({"engine": "rust", "language": "hi"}, "engine='rust' supports only rouge-score's tokenizer"),
        ({"engine": "rouge-score", "max_words": 10}, "engine='rouge-score' cannot remove stopwords or limit lengths"),
    ],
)
def test_an_engine_that_cannot_be_exact_is_refused_when_the_settings_are_built(options, message):
    with pytest.raises(ValueError) as caught:
        Settings(**options)
    assert str(caught.value).startswith(message), str(caught.value)


@pytest.mark.skipif(
    not rust_available(), reason="engine='rust' needs the accelerator: pip install 'update-rouge[fast]'"
)
def test_the_exact_engines_build_with_the_options_they_support():
    assert Settings(engine="rust", use_stemmer=True).engine == "rust"
    assert Settings(engine="rouge-score", language="hi").engine == "rouge-score"
    assert Settings(engine="auto", rouge_types=["rougeSU4"], multi_ref="pooled").engine == "auto"


def test_each_tokenizer_a_settings_makes_is_named_for_what_it_tokenizes():
    settings = Settings(stemmer="porter", additions="edits")
    # The texts' tokenizer stems; the additions of "edits" are its runs' tokens, taken as they are.
    assert settings.text_tokenizer().tokenize("Dogs running") == ["dog", "run"]
    assert settings.additions_tokenizer().tokenize("dog run") == ["dog", "run"]
    assert settings.additions_tokenizer().tokenize("running") == ["running"]
    assert Settings(stemmer="porter").additions_tokenizer().tokenize("running") == ["run"]
