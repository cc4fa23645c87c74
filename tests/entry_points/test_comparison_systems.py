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


# entities=: update_ent compared as a rouge type is, the evidence shared by every system.

NAMES = ("Dan", "Eve", "Bob", "Paris", "Rome")


def names(text):
    """An entity extractor whose entities can be counted by hand: the names of ``NAMES`` in the text."""
    return [name for name in NAMES if name in text]


ENTITY_SOURCES = ["Dan lives in Paris.", "Eve is here.", "Bob works."]
ENTITY_REFERENCES = ["Dan lives in Rome. Eve visits.", "Eve is here. Bob came.", "Bob works."]
# R_new {rome, eve}, {bob}, {}; P_new {eve}, {rome}, {}: F 2/3 (P 1, R 1/2), 0, 1 (both empty);
# the reference drops paris in the first example only, and "half" keeps it.
HALF = ["Dan lives in Paris. Eve visits.", "Eve is here. Rome.", "Bob works."]
ENTITY_EVIDENCE = ["Eve visits Rome.", ["Bob"], []]


@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
@pytest.mark.parametrize("average", ["macro", "micro"])
def test_entities_are_compared_as_a_rouge_type_equal_to_compute(method, average):
    systems = {"source": ENTITY_SOURCES, "half": HALF}
    options = {"rouge_types": ["rouge1"], "n_bootstrap": 50, "average": average}
    compared = compare(
        ENTITY_SOURCES,
        ENTITY_REFERENCES,
        systems,
        "source",
        method=method,
        n_trials=50,
        entities=names,
        evidence=ENTITY_EVIDENCE,
        **options,
    )
    if average == "macro":
        assert compared["half"]["update_ent"] == (2 / 3 + 0 + 1) / 3 and compared["source"]["update_ent"] == 1 / 3
    else:  # matched 1 of 2 + 1 + 0 new reference entities, 1 of 1 + 1 + 0 new predicted ones
        assert compared["half"]["update_ent"] == 2 * 0.5 * (1 / 3) / (0.5 + 1 / 3)
        assert compared["source"]["update_ent"] == 0.0
    paired = compute(
        ENTITY_SOURCES, HALF, ENTITY_REFERENCES, baseline_predictions=ENTITY_SOURCES, **options, entities=names
    )
    keys = [key for key in compared["half"] if key.startswith("update_ent")]
    assert (method == "bootstrap") == ("update_ent_delta_low" in keys) and "update_ent_p_value" in keys
    if method == "bootstrap":
        assert {key: compared["half"][key] for key in keys} == {key: paired[key] for key in keys}
    # The rouge types' numbers do not move.
    plain = compare(ENTITY_SOURCES, ENTITY_REFERENCES, systems, "source", method=method, n_trials=50, **options)
    assert {key: compared["half"][key] for key in plain["half"]} == plain["half"]


def test_each_system_s_table_holds_its_outdated_and_unsupported_entities():
    from update_rouge.comparison.systems import score_systems
    from update_rouge.settings import Settings

    systems = {"source": ENTITY_SOURCES, "half": HALF}
    settings = Settings(rouge_types=["rouge1"], entities=names)
    tables = score_systems(ENTITY_SOURCES, ENTITY_REFERENCES, systems, settings, ENTITY_EVIDENCE).tables
    # half adds eve (in the evidence) and rome (not in the second example's evidence).
    assert tables["half"]["update_ent_unsupported"] == [0, 1, 0]
    assert (
        tables["half"]["update_ent_outdated_kept"] == tables["source"]["update_ent_outdated_kept"] == [1.0, None, None]
    )
    assert tables["source"]["update_ent_unsupported"] == [0, 0, 0]


def test_compare_refuses_evidence_without_entities_by_name():
    systems = {"source": ENTITY_SOURCES, "half": HALF}
    with pytest.raises(ValueError, match="^evidence is read only by the entity scores: it needs entities"):
        compare(ENTITY_SOURCES, ENTITY_REFERENCES, systems, "source", evidence=ENTITY_EVIDENCE)
    with pytest.raises(ValueError, match=r"^evidence must have one entry per example, got 2 for 3 examples"):
        compare(ENTITY_SOURCES, ENTITY_REFERENCES, systems, "source", entities=names, evidence=["a", "b"])
