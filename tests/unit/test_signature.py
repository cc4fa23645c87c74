"""The settings signature: its exact form, and that it changes whenever a setting does."""

import importlib.metadata
import re

import numpy
import pytest

import update_rouge
from update_rouge import build_signature, compute
from update_rouge import signature as signature_module

DEFAULT = (
    "refs:1|seg:[^.]+\\.?|join:\\n|tok:rouge-score|stem:none|types:rouge1,rouge2,rougeLsum|multiref:max_f1"
    "|agg:mean|boot:1000|seed:12345|ci:0.95"
    f"|update-rouge:{update_rouge.__version__}|rouge-score:{importlib.metadata.version('rouge-score')}|numpy:{numpy.__version__}"
)
DATA = dict(sources=["s.", "s."], predictions=["s. a b.", "s. c."], references=["s. a c.", "s. c."])


def test_default_signature_states_every_setting():
    assert build_signature(**DATA) == DEFAULT


def test_compute_adds_the_signature_only_when_asked():
    result = compute(**DATA, return_signature=True)
    assert result["signature"] == DEFAULT
    assert "signature" not in compute(**DATA)


def test_signature_without_references_says_their_number_is_unknown():
    assert build_signature() == DEFAULT.replace("refs:1|", "refs:unknown|")


def test_number_of_references_per_example():
    assert build_signature(references=[["a."], ["b.", "c."], ["d.", "e.", "f."]]).startswith("refs:1-3|")
    assert build_signature(references=[["a.", "b."], ["c.", "d."]]).startswith("refs:2|")
    several = compute(
        sources=["s.", "s."],
        predictions=["s. a.", "s. b."],
        references=[["s. a."], ["s. b.", "s. c."]],
        return_signature=True,
    )
    assert several["signature"].startswith("refs:1-2|")


def custom_tokenizer(text):
    return text.split()


# Each setting changed alone, and the field that must show it.
CHANGES = [
    (dict(references=[["s. a c.", "s. d."], ["s. c."]]), "refs:1-2"),
    (dict(tokenizer=custom_tokenizer), "tok:custom"),
    (dict(use_stemmer=True), "stem:porter"),
    (dict(use_stemmer=True), f"numpy:{numpy.__version__}|nltk:{importlib.metadata.version('nltk')}"),
    (dict(stemmer="rouge155"), "stem:rouge155"),
    (dict(rouge_types=["rouge1", "rougeL"]), "types:rouge1,rougeL"),
    (dict(rouge_types=["rougeLsum", "rouge1", "rouge2"]), "types:rougeLsum,rouge1,rouge2"),
    (dict(rouge_types=["rougeS4", "rougeSU"]), "types:rougeS4,rougeSU"),
    (dict(rouge_types=["rougeS9"]), "types:rougeS9"),
    (dict(multi_ref="pooled"), "multiref:pooled"),
    (dict(multi_ref="best_recall"), "multiref:best_recall"),
    (dict(rouge_types=["rougeW", "rougeW-1.5"]), "types:rougeW,rougeW-1.5"),
    (dict(remove_stopwords=True), "multiref:max_f1|stopwords:rouge155|agg:mean"),
    (dict(max_words=100), "multiref:max_f1|words:100|agg:mean"),
    (dict(max_bytes=75), "multiref:max_f1|bytes:75|agg:mean"),
    (dict(alpha=0.25), "multiref:max_f1|alpha:0.25|agg:mean"),
    (dict(use_aggregator=False), "agg:none|boot:none|ci:none"),
    (dict(n_bootstrap=2000), "boot:2000"),
    (dict(seed=1), "seed:1"),
    (dict(confidence_level=0.9), "ci:0.9"),
    (dict(confidence_level=None), "agg:mean|boot:none|ci:none"),
    (dict(confidence_level=None, baseline_predictions=["s.", "s."]), "boot:1000|seed:12345|ci:none"),
]


@pytest.mark.parametrize("change, field", CHANGES)
def test_signature_changes_with_each_setting(change, field):
    changed = build_signature(**{**DATA, **change})
    assert changed != DEFAULT
    assert f"|{field}|" in f"|{changed}|"
    assert compute(**{**DATA, **change}, return_signature=True)["signature"] == changed


def test_every_change_gives_a_distinct_signature():
    changes = {repr(sorted(change.items())): change for change, _ in CHANGES}
    signatures = {build_signature(**{**DATA, **change}) for change in changes.values()}
    assert len(signatures) == len(changes)


def test_nltk_is_named_only_with_its_stemmers(monkeypatch):
    monkeypatch.setattr(signature_module, "version", lambda name: {"rouge-score": "0.1.2", "nltk": "3.0.0"}[name])
    assert build_signature(**DATA, use_stemmer=True).endswith(
        "|rouge-score:0.1.2|numpy:" + numpy.__version__ + "|nltk:3.0.0"
    )
    assert build_signature(**DATA, language="ru", use_stemmer=True).endswith("|nltk:3.0.0")
    for options in (dict(), dict(stemmer="rouge155"), dict(language="ru")):
        assert "nltk:" not in build_signature(**DATA, **options), options


def test_a_custom_tokenizer_with_a_stemmer_is_refused_by_the_signature_too():
    # A custom tokenizer replaces the stemmer; compute refuses both together, and so does the signature.
    kwargs = dict(DATA, tokenizer=custom_tokenizer, rouge_types=["rouge1"])
    with pytest.raises(ValueError, match="cannot be combined"):
        build_signature(**kwargs, use_stemmer=True)


@pytest.mark.parametrize(
    "name, value, field",
    [
        ("SEGMENT_PATTERN", re.compile(r"[^.!?]+[.!?]?"), "seg:[^.!?]+[.!?]?"),
        ("SEGMENT_SEPARATOR", " ", "join: "),
        ("__version__", "9.9.9", "update-rouge:9.9.9"),
    ],
)
def test_signature_follows_the_fixed_settings_and_versions(monkeypatch, name, value, field):
    monkeypatch.setattr(signature_module, name, value)
    assert f"|{field}|" in build_signature(**DATA)


def test_library_versions_come_from_the_installed_libraries(monkeypatch):
    monkeypatch.setattr(signature_module, "version", lambda name: {"rouge-score": "0.0.9"}[name])
    monkeypatch.setattr(numpy, "__version__", "1.0.0")
    assert build_signature(**DATA).endswith("|rouge-score:0.0.9|numpy:1.0.0")


def test_signature_rejects_what_compute_rejects():
    with pytest.raises(ValueError, match="confidence_level"):
        build_signature(confidence_level=1.0)
    with pytest.raises(ValueError, match="unknown rouge type"):
        build_signature(rouge_types=["rouge0"])
    with pytest.raises(ValueError, match="unknown multi_ref 'A'"):
        build_signature(multi_ref="A")


def test_the_deletions_field_says_how_deletions_were_found_only_when_scored():
    from update_rouge.signature import build_signature

    assert "|del:" not in build_signature()
    assert "|join:\\n|del:sentences|tok:" in build_signature(deletions=True)
    assert "|additions:edits|join:\\n|del:edits|" in build_signature(deletions=True, additions="edits")
