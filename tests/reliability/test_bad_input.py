"""Bad input gets a ValueError that names the field and the example index, at both entry points."""

import pytest

import update_rouge

GOOD = dict(sources=["s.", "s."], predictions=["s. a.", "s. b."], references=["s. a.", "s. c."])

CASES = [
    (dict(GOOD, predictions=["s. a.", None]), r"predictions\[1\] must be a string, got None"),
    (dict(GOOD, sources=[b"s.", "s."]), r"sources\[0\] must be a string, got bytes"),
    (dict(GOOD, predictions=["s. a.", 3]), r"predictions\[1\] must be a string, got a int \(3\)"),
    (dict(GOOD, predictions=["s. a.", float("nan")]), r"predictions\[1\] must be a string, got a float NaN"),
    (dict(GOOD, references=["s. a.", None]), r"references\[1\] must be a string, got None"),
    (dict(GOOD, references=[["s. a."], []]), r"references\[1\] is an empty list"),
    (dict(GOOD, references=[["s. a."], ["s.", None]]), r"references\[1\]\[1\] must be a string, got None"),
    (dict(GOOD, references=["s. a.", ["s. c."]]), r"references\[1\] is a list but references\[0\] is a string"),
    (dict(GOOD, references=[["s. a."], "s. c."]), r"references\[1\] is a string but references\[0\] is a list"),
    (dict(GOOD, references=["s. a."]), r"same length, got 2 sources, 2 predictions, 1 references"),
    (dict(GOOD, sources=["s."]), r"same length, got 1 sources, 2 predictions, 2 references"),
    (dict(sources=[], predictions=[], references=[]), r"empty: there is nothing to score"),
    (dict(GOOD, predictions=[["s. a."], "s. b."]), r"predictions\[0\] must be a string, got a list"),
    (dict(GOOD, references=[[["s. a."]], [["s. c."]]]), r"references\[0\]\[0\] must be a string, got a list"),
    (dict(GOOD, sources=3), r"sources must be a list with one entry per example, got a int \(3\)"),
    (dict(GOOD, references=[1.5, 2.5]), r"references\[0\] must be a list of strings, got a float \(1.5\)"),
    (
        dict(GOOD, predictions=["s. a.", "s. b\ud800."]),
        r"predictions\[1\] contains a lone surrogate \(U\+D800\) at character 4, which is not Unicode text",
    ),
    (
        dict(GOOD, references=[["s. a."], ["s.", "\udfff"]]),
        r"references\[1\]\[1\] contains a lone surrogate \(U\+DFFF\)",
    ),
    (dict(GOOD, sources=["s.", "\udc80s."]), r"sources\[1\] contains a lone surrogate \(U\+DC80\) at character 0"),
]


@pytest.mark.parametrize("kwargs, message", CASES)
def test_bad_examples_are_named(compute, kwargs, message):
    with pytest.raises(ValueError, match=message):
        compute(**kwargs)


@pytest.mark.parametrize(
    "rouge_types, message",
    [
        (["rouge1", "rougeX"], r"unknown rouge type 'rougeX'; valid types are rouge1 to rouge9"),
        (["rouge0"], r"unknown rouge type 'rouge0'"),
        (["rougeLSum"], r"unknown rouge type 'rougeLSum'"),
        (["rougeS04"], r"unknown rouge type 'rougeS04'; valid types are .* rougeS<d> and rougeSU<d>"),
        (["rougeSU-1"], r"unknown rouge type 'rougeSU-1'"),
        (["rougeW1.2"], r"unknown rouge type 'rougeW1.2'; valid types are .* rougeW and rougeW-<weight>"),
        (["rougeW-0.5"], r"rouge type 'rougeW-0.5': the ROUGE-W weight must be greater than 1"),
        ([], r"rouge_types is empty"),
        ("rouge1", r"rouge_types must be a list"),
        (["rouge1", "rouge1"], r"rouge_types lists rouge1 more than once"),
    ],
)
def test_bad_rouge_types_list_the_valid_ones(compute, rouge_types, message):
    with pytest.raises(ValueError, match=message):
        compute(**GOOD, rouge_types=rouge_types)


@pytest.mark.parametrize(
    "options, message",
    [
        (dict(confidence_level=0), r"confidence_level must be a number strictly between 0 and 1 .* got 0$"),
        (dict(confidence_level=1.0), r"confidence_level must be .* got 1.0$"),
        (dict(confidence_level=95), r"confidence_level must be .* got 95$"),
        (dict(confidence_level=float("nan")), r"confidence_level must be .* got nan$"),
        (dict(confidence_level="0.95"), r"confidence_level must be .* got '0.95'$"),
        (dict(confidence_level=True), r"confidence_level must be .* got True$"),
        (dict(multi_ref="A"), r"unknown multi_ref 'A'; valid values are max_f1, pooled, best_recall, mean$"),
        (dict(multi_ref=None), r"unknown multi_ref None; valid values are max_f1, pooled, best_recall, mean$"),
        (dict(n_bootstrap=0), r"n_bootstrap must be a positive integer \(e.g. 1000\), got 0$"),
        (dict(n_bootstrap=100.0), r"n_bootstrap must be a positive integer .* got 100.0$"),
        (dict(n_bootstrap=True), r"n_bootstrap must be a positive integer .* got True$"),
        (dict(seed=-1), r"seed must be a non-negative integer, got -1$"),
        (dict(seed=1.5), r"seed must be a non-negative integer, got 1.5$"),
        (dict(seed="42"), r"seed must be a non-negative integer, got '42'$"),
        (dict(seed=None), r"seed must be a non-negative integer, got None$"),
        (dict(baseline_predictions=["s."]), r"baseline_predictions must have one text per example, got 1 for 2"),
        (dict(baseline_predictions=["s.", None]), r"baseline_predictions\[1\] must be a string, got None"),
        (dict(baseline_predictions="s. a."), r"baseline_predictions must be a list with one entry per example"),
        (
            dict(baseline_predictions=["s.", "s."], use_aggregator=False),
            r"baseline_predictions needs use_aggregator=True",
        ),
    ],
)
def test_bad_options_are_named(compute, options, message):
    with pytest.raises(ValueError, match=message):
        compute(**GOOD, **options)


def test_a_column_that_is_a_string_is_refused():
    with pytest.raises(ValueError, match=r"predictions must be a list with one entry per example, got a str"):
        update_rouge.compute(sources=["s."], predictions="s. a.", references=["s."])


def test_a_missing_column_is_refused():
    with pytest.raises(ValueError, match=r"sources is missing"):
        update_rouge.compute(sources=None, predictions=["s."], references=["s."])


def test_add_batch_checks_each_batch(evaluate_metric):
    with pytest.raises(ValueError, match=r"references\[0\] must be a string, got None"):
        evaluate_metric.add_batch(sources=["s."], predictions=["s."], references=[None])


def test_add_batch_refuses_lone_surrogates_before_evaluate_stores_them(evaluate_metric):
    # pyarrow would fail on them later, inside compute, with a UnicodeEncodeError.
    with pytest.raises(ValueError, match=r"predictions\[1\] contains a lone surrogate"):
        evaluate_metric.add_batch(sources=["s.", "s."], predictions=["s.", "s. \ud800."], references=["s.", "s."])
    result = evaluate_metric.compute(**GOOD, confidence_level=None)
    assert result["update_rouge1"] == 0.5


@pytest.mark.parametrize("empty", ["", " ", " \n\t ", "\u3000"])
def test_empty_and_white_space_texts_simply_have_no_additions(compute, empty):
    # Per example: a side with nothing but white space adds nothing; both sides so score 1.0.
    result = compute(
        sources=[empty, "s.", empty],
        predictions=[empty, empty, "New."],
        references=[empty, "s. a b.", empty],
        rouge_types=["rouge1"],
        use_aggregator=False,
    )
    assert result["update_rouge1"] == [1.0, 0.0, 0.0]
    assert result["_both_empty"] == [True, False, False]
    assert result["_prediction_diff_len"] == [0.0, 0.0, 4.0]
    assert result["_target_diff_len"] == [0.0, 4.0, 0.0]  # "a b."


def test_add_checks_its_example(evaluate_metric):
    with pytest.raises(ValueError, match=r"predictions\[0\] must be a string, got None"):
        evaluate_metric.add(sources="s.", prediction=None, reference="s.")
