"""`compare` (the API): the paired bootstrap equal to compute's bit for bit, each system independent
of the others, Holm over the systems, errors naming the system, the signature."""

import collections
import importlib.metadata

import numpy as np
import pytest
from conftest import three_systems
from rouge_score import rouge_scorer
from rouge_score.scoring import fmeasure

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
        {"average": "micro"},
        {"average": "micro", "multi_ref": "pooled", "rouge_types": ["rouge1", "rougeL"], "alpha": 0.25, "seed": 3},
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
    two = {"a": iterater["sources"], "b": iterater["sources"]}
    with pytest.raises(ValueError, match="baseline='nobody' is not one of the systems"):
        compare(iterater["sources"], iterater["references"], two, "nobody")
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


# average="micro": each system's F from its summed counts.

TOKENIZER = rouge_scorer.RougeScorer(["rouge1"])._tokenizer


def counted(reference_addition, prediction_addition, n):
    """(hits, reference n-grams, prediction n-grams) of one example, counted here: rouge-score's
    tokenizer and ``collections.Counter``."""
    grams = [
        collections.Counter(zip(*(tokens[i:] for i in range(n))))
        for tokens in (TOKENIZER.tokenize(reference_addition), TOKENIZER.tokenize(prediction_addition))
    ]
    hits = sum(min(count, grams[1][gram]) for gram, count in grams[0].items())
    return hits, sum(grams[0].values()), sum(grams[1].values())


def test_micro_values_are_those_of_counts_summed_by_hand():
    sources = ["Intro.", "Intro.", "Same."]
    references = ["Intro. Alpha beta gamma delta epsilon.", "Intro. Zeta eta.", "Same."]
    systems = {
        "base": ["Intro. Beta alpha gamma.", "Intro.", "Same. Extra words."],
        "model": ["Intro. Alpha beta.", "Intro. Zeta eta theta iota kappa.", "Same."],
    }
    # What each text adds to its source (its sentences not in the source), written out by hand;
    # the model's third example adds nothing, as its reference: no counts.
    reference_additions = ["Alpha beta gamma delta epsilon.", "Zeta eta.", ""]
    additions = {
        "base": ["Beta alpha gamma.", "", "Extra words."],
        "model": ["Alpha beta.", "Zeta eta theta iota kappa.", ""],
    }
    results = compare(sources, references, systems, "base", average="micro", confidence_level=None)
    expected = {}
    for name, predicted in additions.items():
        for n in (1, 2):
            rows = [
                counted(reference, prediction, n)
                for reference, prediction in zip(reference_additions, predicted)
                if reference or prediction
            ]
            hits, target, prediction = map(sum, zip(*rows))
            precision, recall = hits / prediction, hits / target
            expected[name, n] = fmeasure(precision, recall)
            assert results[name][f"update_rouge{n}"] == expected[name, n]
    # rouge1, base: H = 3, T = 5 + 2, P = 3 + 2 (its extra words); model: H = 2 + 2, T = 5 + 2, P = 2 + 5.
    assert (expected["base", 1], expected["model", 1]) == (fmeasure(3 / 5, 3 / 7), fmeasure(4 / 7, 4 / 7))
    for n in (1, 2):
        assert results["model"][f"update_rouge{n}_delta"] == expected["model", n] - expected["base", n]


def test_micro_randomization_compares_micro_f_and_the_signature_says_micro(iterater):
    systems = three_systems(iterater)
    tested = compare(
        iterater["sources"], iterater["references"], systems, "source", method="randomization", average="micro"
    )
    by_bootstrap = compare(iterater["sources"], iterater["references"], systems, "source", average="micro")
    for name in systems:
        for key in ("update_rouge1", "update_rouge2", "update_rougeLsum"):
            assert tested[name][key] == by_bootstrap[name][key]  # the micro F, whichever test
            if name != "source":
                assert tested[name][f"{key}_delta"] == by_bootstrap[name][key] - by_bootstrap["source"][key]
                assert 1 / 10001 <= tested[name][f"{key}_p_value"] <= 1
    signed = compare(
        iterater["sources"], iterater["references"], systems, "source", average="micro", return_signature=True
    )
    assert "|agg:micro|" in signed["signature"]
    assert signed["signature"].endswith("|test:paired-bs|correction:none|comparisons:2")
