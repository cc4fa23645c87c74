"""Choosing a stemmer: stemmer=, its use_stemmer alias, contradictions, and what each one scores."""

import pytest
from conftest import read_jsonl

from update_rouge import compute
from update_rouge.stemming import resolve_stemmer


def word_split(text):
    return text.split()


@pytest.mark.parametrize(
    "use_stemmer, stemmer, tokenizer, expected",
    [
        (False, None, None, "none"),
        (False, "none", None, "none"),
        (True, None, None, "porter"),
        (True, "porter", None, "porter"),
        (False, "porter", None, "porter"),
        (False, "rouge155", None, "rouge155"),
        (False, None, word_split, "none"),
        (False, "none", word_split, "none"),
    ],
)
def test_resolution(use_stemmer, stemmer, tokenizer, expected):
    assert resolve_stemmer(use_stemmer, stemmer, tokenizer) == expected


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            dict(use_stemmer=True, stemmer="rouge155"),
            "use_stemmer=True is an alias of stemmer='porter' and contradicts stemmer='rouge155'",
        ),
        (dict(use_stemmer=True, stemmer="none"), "contradicts stemmer='none'"),
        (dict(stemmer="rouge155", tokenizer=word_split), "cannot be combined with the 'rouge155' stemmer"),
        (dict(stemmer="porter", tokenizer=word_split), "cannot be combined with the 'porter' stemmer"),
        (dict(use_stemmer=True, tokenizer=word_split), "cannot be combined with the 'porter' stemmer"),
        (
            dict(stemmer="snowball"),
            "stemmer='snowball' stems the words of a language with its Snowball stemmer: it needs language; instead: leave out stemmer, or stemmer='porter'",
        ),
        (
            dict(stemmer="lancaster"),
            "unknown stemmer 'lancaster'; valid stemmers are 'none', 'porter', 'rouge155', 'snowball'",
        ),
        (dict(stemmer="ROUGE155"), "unknown stemmer 'ROUGE155'; valid stemmers are 'none', 'porter', 'rouge155'"),
        (dict(use_stemmer="rouge155"), "use_stemmer must be True or False, got 'rouge155'"),
    ],
)
def test_contradictions_and_unknown_names_are_refused_before_scoring(kwargs, message):
    with pytest.raises(ValueError) as error:
        compute(sources=["s."], predictions=["s. p."], references=["s. r."], **kwargs)
    assert message in str(error.value)


CHILDREN = dict(
    sources=["s."], predictions=["s. The children wrote."], references=["s. The child writes."], rouge_types=["rouge1"]
)


@pytest.mark.parametrize(
    "stemmer, recall",
    [
        ("none", 1 / 3),  # only "the" matches
        ("porter", 1 / 3),  # children, wrote stay; writes -> write
        ("rouge155", 3 / 3),  # listed: children -> child, wrote -> write; Porter: writes -> write
    ],
)
def test_each_stemmer_scores_what_it_stems(stemmer, recall):
    assert compute(**CHILDREN, stemmer=stemmer)["update_rouge1_recall"] == pytest.approx(recall, abs=1e-12)


def test_use_stemmer_is_porter():
    rows = read_jsonl("fruit_triples.jsonl")
    kwargs = dict(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        use_aggregator=False,
    )
    porter = compute(**kwargs, stemmer="porter")
    assert compute(**kwargs, use_stemmer=True) == porter
    assert compute(**kwargs, use_stemmer=True, stemmer="porter") == porter
    assert compute(**kwargs) != porter
