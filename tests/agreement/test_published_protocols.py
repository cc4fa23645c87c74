"""``protocol=`` equals the published scripts bit for bit, per example and for the corpus.

tests/data/published_protocols_golden.json is written by scripts/published_protocols.py, which
restates FRUIT's ``edit_rouge``, EditEval's ``update_rouge`` (and its several-reference
average) and autometrics' ``UpdateROUGE`` from their sources with rouge-score and NumPy only
(the commits are in the file). Cases on the wiki file's 745 triples are slow; the FRUIT and
IteraTeR cases and one wiki subset run in the quick run.
"""

import importlib.util
import json
import math
from pathlib import Path

import numpy as np
import pytest

from update_rouge import compute

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("published_protocols", ROOT / "scripts" / "published_protocols.py")
assert _spec is not None and _spec.loader is not None
published = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(published)
GOLDEN = json.loads(published.OUTPUT.read_text(encoding="utf-8"))
TYPES = ["rouge1", "rouge2", "rougeLsum"]


def case_id(case):
    start, stop, step = case["rows"]
    return f"{case['file'].split('_')[0]}[{start}:{stop or ''}:{step}]-{case['references']}"


def is_slow(case):
    return case["file"] == "wiki_triples.jsonl" and case["rows"] != [0, 60, 1]


def cases():
    for entry in GOLDEN["cases"]:
        marks = [pytest.mark.slow] if is_slow(entry["case"]) else []
        yield pytest.param(entry, id=case_id(entry["case"]), marks=marks)


def corpus_cases():
    for entry in GOLDEN["cases"]:
        for corpus in entry["corpus"]:
            marks = [pytest.mark.slow] if is_slow(entry["case"]) or corpus["seed"] == 4294967295 else []
            name = f"{case_id(entry['case'])}-{corpus['protocol']}-seed{corpus['seed']}-{corpus['n_bootstrap']}"
            yield pytest.param(entry["case"], corpus, id=name, marks=marks)


@pytest.mark.parametrize("entry", list(cases()))
def test_autometrics_per_example_equals_the_published_calculate(entry):
    sources, predictions, references = published.load_case(entry["case"])
    result = compute(sources, predictions, references, protocol="autometrics", use_aggregator=False)
    for key, values in entry["per_example"]["autometrics"].items():
        assert result[key] == values, key


@pytest.mark.parametrize("entry", list(cases()))
def test_fruit_and_editeval_per_example_equal_what_the_published_aggregator_is_given(entry):
    sources, predictions, references = published.load_case(entry["case"])
    slots = entry["per_example"]["fruit-editeval-slots"]
    protocols = ["editeval"] if len(slots) > 1 else ["fruit", "editeval"]
    for protocol in protocols:
        result = compute(sources, predictions, references, protocol=protocol, use_aggregator=False)
        for key in slots[0]:
            if len(slots) == 1:
                assert result[key] == slots[0][key], (protocol, key)
            else:  # each measure's mean over the reference slots
                columns = zip(*(slot[key] for slot in slots))
                assert result[key] == [math.fsum(values) / len(slots) for values in columns], key


@pytest.mark.parametrize(("case", "corpus"), list(corpus_cases()))
def test_corpus_equals_the_published_function_after_np_random_seed(case, corpus):
    sources, predictions, references = published.load_case(case)
    before = np.random.get_state()
    result = compute(
        sources,
        predictions,
        references,
        protocol=corpus["protocol"],
        seed=corpus["seed"],
        confidence_level=corpus["confidence_level"],
        n_bootstrap=corpus["n_bootstrap"],
    )
    after = np.random.get_state()
    assert before[0] == after[0] and np.array_equal(before[1], after[1]) and before[2:] == after[2:]
    for key, value in corpus["values"].items():
        assert result[key] == value, key


def test_the_golden_cases_cover_the_no_additions_rule_and_several_references():
    rule = [e for e in GOLDEN["cases"] if e["case"]["references"] == "neither-adds-first"]
    assert rule and all(
        rule[0]["per_example"]["fruit-editeval-slots"][0][f"update_{t}"][:5] == [1.0] * 5 for t in TYPES
    )
    assert any(len(e["per_example"]["fruit-editeval-slots"]) == 2 for e in GOLDEN["cases"])
    assert {c["seed"] for e in GOLDEN["cases"] for c in e["corpus"]} >= {0, 1, 12345, 2**32 - 1}


def test_fruit_where_neither_side_adds_is_100_a_repair_of_the_published_failure():
    sources = ["A cat sat.", "A cat sat."]
    result = compute(sources, sources, [sources[0], "A cat sat. A dog ran."], protocol="fruit")
    per_example = compute(
        sources, sources, [sources[0], "A cat sat. A dog ran."], protocol="fruit", use_aggregator=False
    )
    assert per_example["update_rouge1"] == [1.0, 0.0] and per_example["_both_empty"] == [True, False]
    assert result["_both_empty"] == 1
    # Every resample's mean F is 1.0, 0.5 or 0.0: the median is one of them, times 100.
    assert result["update_rouge1"] in (0.0, 50.0, 100.0)
    only_rule = compute(sources[:1], sources[:1], sources[:1], protocol="fruit")
    assert only_rule["update_rouge1"] == only_rule["update_rouge1_low"] == only_rule["update_rouge1_high"] == 100.0


def marked_iterater():
    """Twelve IteraTeR triples, a leading U+FEFF on the prediction, the reference, the source or
    all three of every other one (references one per example, as ``load_case`` gives them)."""
    sources, predictions, references = published.load_case(
        {"file": "iterater_triples.jsonl", "rows": [0, 12, 1], "references": "one"}
    )
    for i in range(1, 12, 2):
        fields = {1: "p", 3: "r", 5: "s"}.get(i % 8, "prs")
        predictions[i] = "\ufeff" + predictions[i] if "p" in fields else predictions[i]
        references[i] = ["\ufeff" + references[i][0]] if "r" in fields else references[i]
        sources[i] = "\ufeff" + sources[i] if "s" in fields else sources[i]
    return sources, predictions, references


def test_a_leading_u_feff_in_a_text_is_scored_as_the_published_scripts_score_it():
    # By hand: under every protocol the prediction's first sentence, "\ufeffAlpha beta.", is not
    # in the source, so it is added: "\ufeffAlpha beta. New words here." against "New words
    # here." (rouge-score's tokenizer makes U+FEFF a separator): P 3/5, R 1, F 0.75.
    source, reference = "Alpha beta. Gamma delta.", "Alpha beta. Gamma delta. New words here."
    prediction = "\ufeff" + reference
    for protocol in ("fruit", "editeval", "autometrics"):
        result = compute([source], [prediction], [reference], protocol=protocol, use_aggregator=False)
        assert result["update_rouge1"] == [pytest.approx(0.75, abs=1e-15)], protocol
    assert compute([source], [prediction], [reference], protocol="fruit")["update_rouge1"] == pytest.approx(75)
    assert compute([source], [prediction], [reference], use_aggregator=False)["update_rouge1"] == [1.0]  # ours drops it

    sources, predictions, references = marked_iterater()
    state = np.random.get_state()
    try:
        slots = published.scored_slots(sources, predictions, references)
        expected = {
            protocol: published.published_corpus(protocol, slots, 3, (0.95, 200)) for protocol in ("fruit", "editeval")
        }
    finally:
        np.random.set_state(state)
    for protocol, values in expected.items():
        result = compute(sources, predictions, references, protocol=protocol, seed=3, n_bootstrap=200)
        assert {key: result[key] for key in values} == values, protocol
    autometrics = compute(sources, predictions, references, protocol="autometrics", use_aggregator=False)
    for key, values in published.autometrics_per_example(sources, predictions, references).items():
        assert autometrics[key] == values, key
    plain = published.autometrics_per_example(
        *published.load_case({"file": "iterater_triples.jsonl", "rows": [0, 12, 1], "references": "one"})
    )
    assert plain["_prediction_diff_len"] != autometrics["_prediction_diff_len"]  # the marks change the additions
