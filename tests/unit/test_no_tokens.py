"""Texts rouge-score's tokenizer cannot see: one warning per call, and custom tokenizers that see them.

Expected scores are counted by hand in the comments (tokens of each side's addition, matches).
"""

import re
import warnings

import pytest
from conftest import read_jsonl

from update_rouge import NoTokensWarning, compute
from update_rouge.files import Row, corpus_of_rows
from update_rouge.settings import Settings

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

# Each adds one sentence to its source; ASCII periods end the sentences (only "." splits segments).
CHINESE = dict(source="我住在北京.", prediction="我住在北京. 今天下雨了.", reference="我住在北京. 今天下雪了.")
HINDI = dict(source="मैं घर गया.", prediction="मैं घर गया. वह बाजार गया.", reference="मैं घर गया. वह स्कूल गया.")
ARABIC = dict(
    source="ذهبت إلى البيت.",
    prediction="ذهبت إلى البيت. القطة نائمة على السرير.",
    reference="ذهبت إلى البيت. القطة نائمة على الأريكة.",
)


def characters(text):
    """One token per character, white space and punctuation left out (for Chinese)."""
    return [c for c in text if not c.isspace() and c not in ".。，"]


def words(text):
    """Tokens separated by white space, periods left out (for Hindi and Arabic)."""
    return re.sub(r"[.।]", " ", text).split()


def score_one(example, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("error", NoTokensWarning)
        return compute(
            sources=[example["source"]],
            predictions=[example["prediction"]],
            references=[example["reference"]],
            rouge_types=TYPES,
            confidence_level=None,
            **options,
        )


def f1(precision_and_recall):
    precision, recall = precision_and_recall
    return 2 * precision * recall / (precision + recall)


@pytest.mark.parametrize(
    "example, tokenizer, rouge1, rouge2, rougeL",
    [
        # 今天下雨了 / 今天下雪了: 4 of 5 characters match; bigrams 今天, 天下 of 4; LCS 今天下了.
        (CHINESE, characters, 4 / 5, 2 / 4, 4 / 5),
        # वह बाजार गया / वह स्कूल गया: 2 of 3 words; no shared bigram; LCS वह गया.
        (HINDI, words, 2 / 3, 0.0, 2 / 3),
        # القطة نائمة على السرير / ... الأريكة: 3 of 4 words; 2 of 3 bigrams; LCS of 3.
        (ARABIC, words, 3 / 4, 2 / 3, 3 / 4),
    ],
    ids=["chinese", "hindi", "arabic"],
)
def test_a_simple_custom_tokenizer_scores_other_scripts(example, tokenizer, rouge1, rouge2, rougeL):
    result = score_one(example, tokenizer=tokenizer)
    for rouge_type, expected in [("rouge1", rouge1), ("rouge2", rouge2), ("rougeL", rougeL), ("rougeLsum", rougeL)]:
        assert result[f"update_{rouge_type}_precision"] == pytest.approx(expected, abs=1e-12)
        assert result[f"update_{rouge_type}_recall"] == pytest.approx(expected, abs=1e-12)
    identical = score_one(dict(example, prediction=example["reference"]), tokenizer=tokenizer)
    assert all(identical[f"update_{t}"] == 1.0 for t in TYPES)


@pytest.mark.parametrize("stemmer", ["none", "porter", "rouge155"])
def test_unseen_scripts_warn_once_with_the_number_of_examples(stemmer):
    examples = [CHINESE, HINDI, ARABIC, dict(source="A cat.", prediction="A cat. It sat.", reference="A cat. It sat.")]
    with pytest.warns(NoTokensWarning) as caught:
        result = compute(
            sources=[e["source"] for e in examples],
            # The same texts on both sides: still 0, which is what the warning is about.
            predictions=[e["reference"] for e in examples],
            references=[e["reference"] for e in examples],
            use_aggregator=False,
            stemmer=stemmer,
        )
    assert result["update_rouge1"] == [0.0, 0.0, 0.0, 1.0]
    assert len(caught) == 1
    assert caught[0].message.count == 3 and caught[0].message.total == 4
    assert str(caught[0].message).startswith("3 of 4 examples have additions in which the tokenizer finds no token")
    assert "tokenizer=" in str(caught[0].message)
    assert caught[0].filename == __file__


def test_one_side_without_tokens_is_enough_and_the_baseline_counts_too():
    sources = ["s.", "s.", "s."]
    references = ["s. 雨.", "s. It rained.", "s. It rained."]
    with pytest.warns(NoTokensWarning) as caught:
        compute(
            sources=sources,
            predictions=["s. It rained.", "s. It rained.", "s. It rained."],
            references=references,
            baseline_predictions=["s. It rained.", "s. 雨.", "s. It rained."],
            n_bootstrap=10,
        )
    assert [w.message.count for w in caught] == [2]


@pytest.mark.parametrize(
    "texts, options",
    [
        # Upper-case ASCII is lower-cased into tokens; a digit is a token.
        (["s. IT RAINED.", "s. 2024."], {}),
        (["s. 今天下雨了.", "s. वह गया."], dict(tokenizer=characters)),
        # A text without additions is not tokenless, even when nothing of it is a token.
        (["s.", "。"], {}),
    ],
)
def test_no_warning_where_every_addition_has_a_token(texts, options):
    with warnings.catch_warnings():
        warnings.simplefilter("error", NoTokensWarning)
        result = compute(sources=["s.", "。"], predictions=texts, references=texts, confidence_level=None, **options)
    assert result["update_rouge1"] == 1.0


def test_no_warning_on_the_bundled_english_data():
    rows = read_jsonl("fruit_triples.jsonl")
    with warnings.catch_warnings():
        warnings.simplefilter("error", NoTokensWarning)
        result = compute(
            sources=[r["source"] for r in rows],
            predictions=[r["prediction"] for r in rows],
            references=[r["reference"] for r in rows],
            confidence_level=None,
        )
    assert 0.0 < result["update_rouge1"] < 1.0


def test_the_cli_warns_once_for_all_its_chunks():
    rows = [Row(i + 1, "s.", ["s. 雨."] if i % 2 else ["s. It rained."], "s. It rained.") for i in range(7)]
    with pytest.warns(NoTokensWarning) as caught:
        corpus = corpus_of_rows(rows, Settings(), chunk_size=2)
    assert [(w.message.count, w.message.total) for w in caught] == [(3, 7)]
    assert corpus.totals.count == 7


def test_deletions_without_a_token_are_warned_when_scored():
    # The source's Chinese sentence is deleted by the prediction (the additions are empty and in
    # English): only the deletions leave rouge-score's tokenizer nothing to count.
    sources, predictions, references = ["Ok. 天气很好。"], ["Ok."], ["Ok."]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compute(sources, predictions, references)
    with pytest.warns(NoTokensWarning, match=r"^1 of 1 example has additions or deletions in which"):
        compute(sources, predictions, references, deletions=True)
