"""Hand-computed cases: every expected value below is counted by hand from the texts."""

import pytest

from update_rouge import NoTokensWarning, compute


def f1(precision, recall):
    return 2 * precision * recall / (precision + recall)


SOURCE = "Dan is a baker."


def test_dan_example_rouge1_precision_and_recall():
    result = compute(
        sources=[SOURCE],
        predictions=[SOURCE + " Dan loves chocolate chip cookies."],
        references=[SOURCE + " Dan loves chocolate cakes."],
    )
    # prediction adds 5 tokens, reference 4; "dan", "loves", "chocolate" match.
    assert result["update_rouge1_precision"] == pytest.approx(3 / 5, abs=1e-12)
    assert result["update_rouge1_recall"] == pytest.approx(3 / 4, abs=1e-12)
    assert result["update_rouge1"] == pytest.approx(f1(3 / 5, 3 / 4), abs=1e-12)
    # bigrams: 4 in the prediction, 3 in the reference, "dan loves" and "loves chocolate" match.
    assert result["update_rouge2_precision"] == pytest.approx(2 / 4, abs=1e-12)
    assert result["update_rouge2_recall"] == pytest.approx(2 / 3, abs=1e-12)
    assert result["update_rougeLsum"] == pytest.approx(f1(3 / 5, 3 / 4), abs=1e-12)
    assert result["_target_diff_len"] == len("Dan loves chocolate cakes.")
    assert result["_prediction_diff_len"] == len("Dan loves chocolate chip cookies.")
    assert result["_both_empty"] == 0


def test_copying_the_source_is_not_rewarded():
    result = compute(sources=[SOURCE], predictions=[SOURCE], references=[SOURCE + " Dan bakes bread."])
    assert result["update_rouge1"] == 0.0
    assert result["update_rougeLsum"] == 0.0


def test_both_empty_rule_scores_one_and_is_counted():
    result = compute(
        sources=[SOURCE, SOURCE],
        predictions=[SOURCE, SOURCE + " Dan bakes bread."],
        references=[SOURCE, SOURCE + " Dan bakes bread."],
        use_aggregator=False,
    )
    assert result["update_rouge1"] == [1.0, 1.0]
    assert result["update_rouge2_precision"] == [1.0, 1.0]
    assert result["_both_empty"] == [True, False]
    assert result["_target_diff_len"] == [0.0, len("Dan bakes bread.")]


def test_a_prediction_with_additions_against_a_reference_without_scores_zero():
    result = compute(sources=[SOURCE], predictions=[SOURCE + " Dan bakes bread."], references=[SOURCE])
    assert result["update_rouge1"] == 0.0
    assert result["_both_empty"] == 0


def test_corpus_score_is_the_plain_mean_over_examples():
    per_example = compute(
        sources=[SOURCE, SOURCE, SOURCE],
        predictions=[SOURCE, SOURCE + " Dan loves chocolate chip cookies.", SOURCE + " Nothing alike."],
        references=[SOURCE, SOURCE + " Dan loves chocolate cakes.", SOURCE + " Dan sells bread."],
        use_aggregator=False,
    )
    assert per_example["update_rouge1"] == pytest.approx([1.0, f1(3 / 5, 3 / 4), 0.0], abs=1e-12)
    aggregate = compute(
        sources=[SOURCE, SOURCE, SOURCE],
        predictions=[SOURCE, SOURCE + " Dan loves chocolate chip cookies.", SOURCE + " Nothing alike."],
        references=[SOURCE, SOURCE + " Dan loves chocolate cakes.", SOURCE + " Dan sells bread."],
    )
    assert aggregate["update_rouge1"] == pytest.approx((1.0 + f1(3 / 5, 3 / 4)) / 3, abs=1e-12)
    assert aggregate["_both_empty"] == 1


def test_rougelsum_sees_one_addition_per_line():
    # Reference adds "a b." and "c d."; prediction adds "c d a b." as one line.
    # Per reference line, the union LCS with the prediction line: "a b" (2) and "c d" (2) -> 4 hits,
    # while rougeL over the concatenations "a b c d" / "c d a b" finds an LCS of only 2.
    result = compute(
        sources=["x."], predictions=["x. c d a b."], references=["x. a b. c d."], rouge_types=["rougeL", "rougeLsum"]
    )
    assert result["update_rougeLsum_recall"] == pytest.approx(4 / 4)
    assert result["update_rougeL_recall"] == pytest.approx(2 / 4)


def test_several_references_take_the_best_f1_per_type():
    result = compute(
        sources=["Paris is in France."],
        predictions=["Paris is in France. It is the capital."],
        references=[["Paris is in France. It is big.", "Paris is in France. It is the capital city."]],
        rouge_types=["rouge1"],
    )
    # best reference: 4 hits, 4 prediction tokens, 5 reference tokens.
    assert result["update_rouge1_precision"] == 1.0
    assert result["update_rouge1_recall"] == pytest.approx(4 / 5)
    assert result["_target_diff_len"] == pytest.approx((len("It is big.") + len("It is the capital city.")) / 2)


def test_a_reference_without_additions_wins_when_the_prediction_has_none():
    result = compute(
        sources=["A b c."], predictions=["A b c."], references=[["A b c. D e.", "A b c."]], use_aggregator=False
    )
    assert result["update_rouge1"] == [1.0]
    assert result["_both_empty"] == [True]


def test_output_values_are_plain_python_floats():
    result = compute(sources=[SOURCE], predictions=[SOURCE + " A b."], references=[SOURCE + " A c."])
    assert {type(v) for k, v in result.items() if k != "_both_empty"} == {float}
    per_example = compute(
        sources=[SOURCE], predictions=[SOURCE + " A b."], references=[SOURCE + " A c."], use_aggregator=False
    )
    assert {type(v[0]) for k, v in per_example.items() if k != "_both_empty"} == {float}


def test_any_rouge_score_type_gives_its_keys():
    result = compute(
        sources=["s."], predictions=["s. a b c d."], references=["s. a b c e."], rouge_types=["rouge3", "rougeL"]
    )
    assert set(result) == {
        "update_rouge3",
        "update_rouge3_precision",
        "update_rouge3_recall",
        "update_rougeL",
        "update_rougeL_precision",
        "update_rougeL_recall",
        "_target_diff_len",
        "_prediction_diff_len",
        "_both_empty",
        "update_rouge3_low",
        "update_rouge3_high",
        "update_rougeL_low",
        "update_rougeL_high",
    }
    assert result["update_rouge3"] == pytest.approx(0.5)  # "a b c" of two trigrams each side
    assert result["update_rougeL"] == pytest.approx(0.75)


def test_stemmer_merges_inflections():
    kwargs = dict(sources=["s."], predictions=["s. The dogs were running."], references=["s. The dog was running."])
    assert compute(**kwargs, rouge_types=["rouge1"])["update_rouge1_recall"] == pytest.approx(2 / 4)
    # porter: dogs -> dog, running -> run (both sides), were/was differ.
    assert compute(**kwargs, rouge_types=["rouge1"], use_stemmer=True)["update_rouge1_recall"] == pytest.approx(3 / 4)


def test_custom_tokenizer_scores_text_the_default_tokenizer_cannot_see():
    kwargs = dict(sources=["旧文"], predictions=["我 爱 你"], references=["我 爱 她"], rouge_types=["rouge1"])
    with pytest.warns(NoTokensWarning):
        assert compute(**kwargs)["update_rouge1"] == 0.0
    assert compute(**kwargs, tokenizer=str.split)["update_rouge1"] == pytest.approx(f1(2 / 3, 2 / 3))
