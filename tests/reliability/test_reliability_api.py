"""Issue 18 for the Python API and the evaluate module: nothing is answered wrongly in silence,
and a mistake gives one ValueError naming the argument (and the example). The Trainer helper's
part, which needs torch, is tests/reliability/test_reliability_trainer.py."""

import numpy as np
import pandas as pd
import pytest
from datasets import Dataset

import update_rouge
from update_rouge.settings import OPTIONS

SOURCES = ["Dan is a baker.", "Ann is a nurse.", "Bo is a cat."]
PREDICTIONS = ["Dan is a baker. He bakes bread.", "Ann is a nurse. She works nights.", "Bo is a cat."]
REFERENCES = ["Dan is a baker. He bakes cakes.", "Ann is a nurse. She works at night.", "Bo is a cat. Bo is old."]
DATA = dict(sources=SOURCES, predictions=PREDICTIONS, references=REFERENCES, rouge_types=["rouge1"])
# Example 0 adds 3 words against 3 (2 shared: F1 2/3), example 1 adds 3 against 4 (2 shared:
# P 2/3, R 2/4, F1 4/7), example 2 adds nothing against 3 words (0), counted by hand.
EXPECTED_ROUGE1 = (2 / 3 + 4 / 7 + 0.0) / 3


# 1. Columns: one entry per example, in order; anything else is refused by name.


@pytest.mark.parametrize("field", ["sources", "predictions", "references"])
def test_a_dataframe_is_refused_not_scored_as_its_column_names(compute, field):
    # Three rows and three columns: iterating it gives the three column names, a valid-looking column.
    frame = pd.DataFrame({"a": DATA[field], "b": DATA[field], "c": DATA[field]})
    with pytest.raises(
        ValueError, match=rf"^{field} must be a list .*a DataFrame of shape \(3, 3\) \(pass one of its columns\)"
    ):
        compute(**dict(DATA, **{field: frame}))


@pytest.mark.parametrize(
    "column, described",
    [
        (dict.fromkeys(SOURCES), "a dict"),
        (set(SOURCES), "a set"),
        ("Dan is a baker.", "a str"),
        ((source for source in SOURCES), "a generator"),
        (dict.fromkeys(SOURCES).keys(), "a dict_keys"),
        (np.array([SOURCES, SOURCES, SOURCES]), r"a ndarray of shape \(3, 3\) \(expected one dimension\)"),
    ],
    ids=["dict", "set", "str", "generator", "dict_keys", "2-D array"],
)
def test_other_containers_are_refused_by_name(compute, column, described):
    with pytest.raises(ValueError, match=f"^sources must be a list with one entry per example, got {described}"):
        compute(**dict(DATA, sources=column))


@pytest.mark.parametrize(
    "convert",
    [tuple, pd.Series, np.array, lambda column: Dataset.from_dict({"text": column})["text"]],
    ids=["tuple", "pandas Series", "numpy array of str", "datasets Column"],
)
def test_sequences_series_arrays_and_dataset_columns_are_accepted(compute, convert):
    result = compute(
        sources=convert(SOURCES),
        predictions=convert(PREDICTIONS),
        references=convert(REFERENCES),
        rouge_types=["rouge1"],
    )
    assert result["update_rouge1"] == pytest.approx(EXPECTED_ROUGE1, abs=1e-12)


def test_a_series_of_reference_lists_is_accepted():
    references = pd.Series([np.array([reference, reference]) for reference in REFERENCES])
    result = update_rouge.compute(**dict(DATA, references=references))
    assert result["update_rouge1"] == pytest.approx(EXPECTED_ROUGE1, abs=1e-12)


# 2. Switches are bools; None is either a documented value or an error naming the option.


@pytest.mark.parametrize("name", ["use_aggregator", "return_signature", "use_stemmer", "remove_stopwords"])
@pytest.mark.parametrize("value", ["no", 1, 0.0])
def test_switches_must_be_bools(compute, name, value):
    with pytest.raises(ValueError, match=rf"^{name} must be True or False, got {value!r}"):
        compute(**DATA, **{name: value})


NONE_ALLOWED = [option.name for option in OPTIONS if option.default is None or "None" in option.type]


@pytest.mark.parametrize("option", OPTIONS, ids=[option.name for option in OPTIONS])
def test_none_for_every_option(compute, option):
    if option.name in NONE_ALLOWED:
        # None is the default or a documented value ("no interval", "no limit"): it scores.
        assert compute(**dict(DATA, **{option.name: None}))["update_rouge1"] == pytest.approx(
            EXPECTED_ROUGE1, abs=1e-12
        )
    else:
        with pytest.raises(ValueError, match=rf"\b{option.name}\b.*None"):
            compute(**dict(DATA, **{option.name: None}))


def test_the_options_that_take_none_are_the_documented_ones():
    assert NONE_ALLOWED == [
        "rouge_types",
        "tokenizer",
        "confidence_level",
        "baseline_predictions",
        "group_by",
        "stemmer",
        "max_words",
        "max_bytes",
        "language",
        "protocol",
        "entities",
        "evidence",
    ]


# 3. A custom tokenizer: what it returns is checked, its errors are named with the example.


def split_unless_bakes(text):
    """Words, but the bare text for any text mentioning 'bakes' (example 0 only), as a buggy tokenizer might."""
    return text if "bakes" in text else text.split()


def fail_on_nights(text):
    if "nights" in text:
        raise KeyError("nights")
    return text.split()


def test_a_tokenizer_returning_a_str_is_refused(compute):
    with pytest.raises(ValueError) as caught:
        compute(**DATA, tokenizer=split_unless_bakes)
    assert str(caught.value) == (
        "tokenizer must return a list of strings, but returned a str ('He bakes cakes.'), "
        "on the additions of references[0]: 'He bakes cakes.'"
    )


def test_a_tokenizer_returning_non_strings_is_refused():
    with pytest.raises(ValueError, match=r"^tokenizer must return a list of strings, but its list holds a int \(3\), "):
        update_rouge.compute(**DATA, tokenizer=lambda text: [3])
    with pytest.raises(ValueError, match=r"^tokenizer must return a list of strings, but returned None, "):
        update_rouge.compute(**DATA, tokenizer=lambda text: None)


def test_a_tokenizer_error_is_wrapped_with_the_example(compute):
    with pytest.raises(ValueError) as caught:
        compute(**DATA, tokenizer=fail_on_nights)
    assert str(caught.value) == (
        "tokenizer raised KeyError: 'nights', on the additions of predictions[1]: 'She works nights.'"
    )
    causes = []
    error = caught.value
    while error is not None:
        causes.append(type(error).__name__)
        error = error.__cause__
    assert causes[-1] == "KeyError"


def test_a_tokenizer_error_names_the_baseline():
    baseline = ["Dan is a baker.", "Ann is a nurse. Ann works nights.", "Bo is a cat."]
    with pytest.raises(ValueError, match=r"on the additions of baseline_predictions\[1\]: 'Ann works nights.'$"):
        update_rouge.compute(**dict(DATA, predictions=SOURCES), tokenizer=fail_on_nights, baseline_predictions=baseline)


def test_a_tuple_of_tokens_scores_as_the_list():
    as_list = update_rouge.compute(**DATA, tokenizer=str.split)
    as_tuple = update_rouge.compute(**DATA, tokenizer=lambda text: tuple(text.split()))
    assert as_tuple == as_list


@pytest.mark.slow
def test_a_tokenizer_error_in_a_worker_names_the_example_in_the_whole_input():
    # Eight examples in two workers: chunks of one example, so a worker's own index would be 0.
    data = dict(sources=SOURCES * 3, predictions=PREDICTIONS * 3, references=REFERENCES * 3, rouge_types=["rouge1"])
    with pytest.raises(ValueError, match=r"^tokenizer raised KeyError: 'nights', on the additions of predictions\[1\]"):
        update_rouge.compute(**data, tokenizer=fail_on_nights, num_proc=2)


# 4. A failing compute of the evaluate module leaves no lock behind.


@pytest.mark.parametrize(
    "bad",
    [dict(tokenizer=fail_on_nights), dict(n_bootstrap=0), dict(use_aggregator="no"), dict(use_stemer=True)],
    ids=["tokenizer raises while scoring", "bad option", "bad switch", "misspelt option"],
)
def test_the_next_compute_after_a_failing_one_does_not_wait(evaluate_metric, bad):
    evaluate_metric.compute(**DATA)  # warm
    with pytest.raises((ValueError, TypeError)):
        evaluate_metric.compute(**DATA, **bad)
    # Nothing left holding evaluate's cache lock, which the next compute would wait for (proven by
    # the lock's state, not by a clock).
    assert evaluate_metric.filelock is None or not evaluate_metric.filelock.is_locked
    assert not any(lock.is_locked for lock in evaluate_metric.filelocks or [])
    result = evaluate_metric.compute(**DATA)
    assert result["update_rouge1"] == pytest.approx(EXPECTED_ROUGE1, abs=1e-12)


def test_a_bad_option_keeps_the_added_batches(evaluate_metric):
    evaluate_metric.add_batch(sources=SOURCES[:2], predictions=PREDICTIONS[:2], references=REFERENCES[:2])
    evaluate_metric.add_batch(sources=SOURCES[2:], predictions=PREDICTIONS[2:], references=REFERENCES[2:])
    with pytest.raises(ValueError, match="^seed must be"):
        evaluate_metric.compute(rouge_types=["rouge1"], seed=-1)
    result = evaluate_metric.compute(rouge_types=["rouge1"])
    assert result["update_rouge1"] == pytest.approx(EXPECTED_ROUGE1, abs=1e-12)


def test_a_tokenizer_error_on_what_a_text_deletes_names_that_text():
    # "The boom was." is in the source and the reference but not the prediction: only its
    # deletions hold it (both sides' additions are empty, which the tokenizer never sees).
    def fail_on_boom(text):
        if "boom" in text:
            raise ValueError("no")
        return text.split()

    sources, predictions, references = ["A b. The boom was.", "X."], ["A b.", "X."], ["A b. The boom was.", "X."]
    with pytest.raises(ValueError) as caught:
        update_rouge.compute(sources, predictions, references, tokenizer=fail_on_boom, deletions=True)
    assert str(caught.value) == "tokenizer raised ValueError: no, on the deletions of predictions[0]: 'The boom was.'"
