"""Bad options get a ValueError that names the option, at both entry points, and texts of white
space alone are scored; bad examples (``inputs``) are in test_inputs.py."""

import pytest
from test_inputs import GOOD


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
        (
            dict(confidence_level=0),
            r"confidence_level must be a number strictly between 0 and 1, got 0; instead: confidence_level=0.95, or confidence_level=None$",
        ),
        (
            dict(confidence_level=1.0),
            r"confidence_level must be .* got 1.0; instead: confidence_level=0.95, or confidence_level=None$",
        ),
        (
            dict(confidence_level=95),
            r"confidence_level must be .* got 95; instead: confidence_level=0.95, or confidence_level=None$",
        ),
        (
            dict(confidence_level=float("nan")),
            r"confidence_level must be .* got nan; instead: confidence_level=0.95, or confidence_level=None$",
        ),
        (
            dict(confidence_level="0.95"),
            r"confidence_level must be .* got '0.95'; instead: confidence_level=0.95, or confidence_level=None$",
        ),
        (
            dict(confidence_level=True),
            r"confidence_level must be .* got True; instead: confidence_level=0.95, or confidence_level=None$",
        ),
        (
            dict(multi_ref="A"),
            r"unknown multi_ref 'A'; valid values are max_f1, pooled, best_recall, mean; instead: leave out multi_ref$",
        ),
        (
            dict(multi_ref=None),
            r"unknown multi_ref None; valid values are max_f1, pooled, best_recall, mean; instead: leave out multi_ref$",
        ),
        (dict(n_bootstrap=0), r"n_bootstrap must be a positive integer, got 0; instead: n_bootstrap=1000$"),
        (dict(n_bootstrap=100.0), r"n_bootstrap must be a positive integer, got 100.0; instead: n_bootstrap=1000$"),
        (dict(n_bootstrap=True), r"n_bootstrap must be a positive integer, got True; instead: n_bootstrap=1000$"),
        (dict(seed=-1), r"seed must be a non-negative integer, got -1; instead: seed=12345$"),
        (dict(seed=1.5), r"seed must be a non-negative integer, got 1.5; instead: seed=12345$"),
        (dict(seed="42"), r"seed must be a non-negative integer, got '42'; instead: seed=12345$"),
        (dict(seed=None), r"seed must be a non-negative integer, got None; instead: seed=12345$"),
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
