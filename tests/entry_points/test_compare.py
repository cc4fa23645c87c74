"""`compare` (the API): the paired bootstrap equal to compute's bit for bit, each system independent
of the others, Holm over the systems, errors naming the system, the signature."""

import importlib.metadata

import numpy as np
import pytest
from conftest import three_systems

import update_rouge
from update_rouge import compare, compute
from update_rouge.comparison.systems import SignificanceTest


@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_references_as_predictions_are_significantly_better(iterater, method):
    systems = {"model": iterater["predictions"], "oracle": iterater["references"]}
    results = compare(iterater["sources"], iterater["references"], systems, "model", method=method)
    for rouge_type in ("rouge1", "rouge2", "rougeLsum"):
        assert results["oracle"][f"update_{rouge_type}"] == 1.0
        assert results["oracle"][f"update_{rouge_type}_p_value"] < 0.01


# The paired bootstrap is compute's.


@pytest.mark.parametrize(
    "options",
    [
        {},
        {
            "rouge_types": ["rouge1", "rougeSU4"],
            "stemmer": "porter",
            "confidence_level": 0.9,
            "n_bootstrap": 200,
            "seed": 7,
        },
        {"confidence_level": None, "multi_ref": "pooled"},
    ],
)
def test_one_system_against_the_baseline_equals_compute_bit_for_bit(iterater, options):
    sources, references = iterater["sources"], iterater["references"]
    # Perfect on every other example, nothing on the rest: about as good as the model.
    baseline = [r if i % 2 else s for i, (s, r) in enumerate(zip(sources, references))]
    results = compare(sources, references, {"base": baseline, "model": iterater["predictions"]}, "base", **options)
    paired = compute(sources, iterater["predictions"], references, baseline_predictions=baseline, **options)
    alone = compute(sources, baseline, references, **options)
    types = options.get("rouge_types", ["rouge1", "rouge2", "rougeLsum"])
    suffixes = ["", "_delta", "_p_value"]
    if options.get("confidence_level", 0.95):
        suffixes += ["_low", "_high", "_delta_low", "_delta_high"]
    assert set(results["model"]) == {f"update_{t}{s}" for t in types for s in suffixes}
    assert results["model"] == {key: paired[key] for key in results["model"]}
    assert results["base"] == {key: alone[key] for key in results["base"]}
    assert 0.01 < results["model"][f"update_{types[0]}_p_value"] < 0.99  # a real test, not the extreme


@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_a_system_does_not_depend_on_the_others_compared(iterater, method):
    systems = three_systems(iterater)
    every = compare(iterater["sources"], iterater["references"], systems, "source", method=method, n_trials=2000)
    pair = {name: systems[name] for name in ("source", "model")}
    two = compare(iterater["sources"], iterater["references"], pair, "source", method=method, n_trials=2000)
    assert two["model"] == every["model"]


def test_holm_adjusts_each_type_over_the_systems(iterater):
    systems = {
        "base": iterater["sources"],
        "half": [p if i % 2 else s for i, (s, p) in enumerate(zip(iterater["sources"], iterater["predictions"]))],
        "model": iterater["predictions"],
    }
    options = {"method": "randomization", "n_trials": 3000}
    raw = compare(iterater["sources"], iterater["references"], systems, "base", **options)
    adjusted = compare(iterater["sources"], iterater["references"], systems, "base", correction="holm", **options)
    key = "update_rouge2_p_value"
    low, high = sorted([raw["half"][key], raw["model"][key]])
    assert sorted([adjusted["half"][key], adjusted["model"][key]]) == [min(1, 2 * low), max(min(1, 2 * low), high)]


def test_compare_names_the_system_with_bad_input(iterater):
    systems = {"base": iterater["sources"], "bad": iterater["predictions"][:-1] + [None]}
    with pytest.raises(ValueError, match=r"systems\['bad'\]\[39\] must be a string"):
        compare(iterater["sources"], iterater["references"], systems, "base")
    with pytest.raises(ValueError, match="baseline 'nobody' is not one of the systems"):
        compare(iterater["sources"], iterater["references"], {"a": iterater["sources"]}, "nobody")
    with pytest.raises(ValueError, match="n_trials must be a positive integer"):
        SignificanceTest("randomization", None, 0)


def test_signature_states_the_test(iterater):
    systems = three_systems(iterater)
    bootstrap = compare(iterater["sources"], iterater["references"], systems, "source", return_signature=True)
    assert bootstrap["signature"].endswith(
        f"|boot:1000|seed:12345|ci:0.95|update-rouge:{update_rouge.__version__}|rouge-score:{importlib.metadata.version('rouge-score')}|numpy:"
        f"{np.__version__}|test:paired-bs|correction:none|comparisons:2"
    )
    randomization = compare(
        iterater["sources"],
        iterater["references"],
        systems,
        "source",
        method="randomization",
        n_trials=100,
        correction="holm",
        confidence_level=None,
        seed=3,
        return_signature=True,
    )
    assert "|boot:none|ci:none|" in randomization["signature"]
    assert randomization["signature"].endswith("|test:paired-ar|trials:100|seed:3|correction:holm|comparisons:2")
