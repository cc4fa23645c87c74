"""Checks on what users pass in (``inputs``): bad examples get a ValueError that names the field
and the example index, at both entry points (``compute`` and the evaluate module's ``add`` and
``add_batch``); a leading byte order mark's rule is in test_byte_order_mark.py."""

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


def test_add_checks_its_example(evaluate_metric):
    with pytest.raises(ValueError, match=r"predictions\[0\] must be a string, got None"):
        evaluate_metric.add(sources="s.", prediction=None, reference="s.")
