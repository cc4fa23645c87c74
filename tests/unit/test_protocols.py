"""``protocol=``'s pieces: the replayed BootstrapAggregator, the refusals, the signature, the
command line, how ``"autometrics"`` relates to our default, and ``multi_ref="mean"``."""

import ast
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA_DIR, read_jsonl
from rouge_score import rouge_scorer, scoring

from update_rouge import InputError, compute
from update_rouge.cli import main
from update_rouge.protocols import FIXED_OPTIONS, PROTOCOLS, published_bootstrap, rules_of
from update_rouge.signature import build_signature

TYPES = ["rouge1", "rouge2", "rougeLsum"]


def columns(name):
    rows = read_jsonl(name)
    return [r["source"] for r in rows], [r["prediction"] for r in rows], [r["reference"] for r in rows]


def real_aggregator(matrices, n_samples, confidence, seed):
    """rouge-score's own BootstrapAggregator after np.random.seed(seed), the global state restored."""
    aggregator = scoring.BootstrapAggregator(confidence_interval=confidence, n_samples=n_samples)
    for row in range(matrices[0].shape[0]):
        aggregator.add_scores({f"t{i}": scoring.Score(*matrix[row]) for i, matrix in enumerate(matrices)})
    state = np.random.get_state()
    try:
        np.random.seed(seed)
        result = aggregator.aggregate()
    finally:
        np.random.set_state(state)
    return [result[f"t{i}"] for i in range(len(matrices))]


@pytest.mark.parametrize(
    ("rows", "n_samples", "confidence", "seed"),
    [(1, 10, 0.95, 0), (7, 1000, 0.95, 12345), (50, 333, 0.9, 2**32 - 1), (200, 100, 0.5, 7)],
)
def test_replayed_aggregator_equals_rouge_score_bit_for_bit_and_leaves_the_global_generator(
    rows, n_samples, confidence, seed
):
    values = np.random.RandomState(rows).random_sample((3, rows, 3))
    values[:, ::3, :] = 1.0  # ties, as the no-additions rule makes
    matrices = [values[i] for i in range(3)]
    np.random.seed(99)
    before = np.random.get_state()
    ours = published_bootstrap(matrices, n_samples, confidence, seed)
    after = np.random.get_state()
    assert before[0] == after[0] and np.array_equal(before[1], after[1]) and before[2:] == after[2:]
    for mine, theirs in zip(ours, real_aggregator(matrices, n_samples, confidence, seed)):
        for row, bound in enumerate((theirs.low, theirs.mid, theirs.high)):
            assert list(mine[row]) == list(bound)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"stemmer": "porter"}, "stemmer"),
        ({"use_stemmer": True}, "use_stemmer"),
        ({"tokenizer": str.split}, "tokenizer"),
        ({"language": "de"}, "language"),
        ({"additions": "edits"}, "additions"),
        ({"remove_stopwords": True}, "remove_stopwords"),
        ({"max_words": 5}, "max_words"),
        ({"max_bytes": 40}, "max_bytes"),
        ({"deletions": True}, "deletions"),
        ({"alpha": 0.3}, "alpha"),
        ({"average": "micro"}, "average"),
        ({"multi_ref": "pooled"}, "multi_ref"),
        ({"rouge_types": ["rouge1"]}, "rouge_types"),
        ({"rouge_types": ["rougeLsum", "rouge1", "rouge2"]}, "rouge_types"),
    ],
)
def test_options_a_published_script_never_had_are_refused_in_one_line(options, words):
    with pytest.raises(
        ValueError,
        match=f"^protocol='editeval' reproduces a published script, which has no {words} option; "
        f"instead: leave out {words}, or leave out protocol$",
    ) as error:
        compute(["A."], ["A. B."], ["A. C."], protocol="editeval", **options)
    assert "\n" not in str(error.value)


def test_the_fixed_options_given_at_their_fixed_values_are_taken():
    given = {**FIXED_OPTIONS, "rouge_types": list(FIXED_OPTIONS["rouge_types"])}
    assert given["stemmer"] == "none" and given["alpha"] == 0.5 and given["multi_ref"] == "max_f1"
    for protocol in PROTOCOLS:
        assert compute(["A."], ["A. B."], ["A. B."], protocol=protocol, **given)["update_rouge1"] == pytest.approx(
            100.0 if protocol == "fruit" else 1.0
        )


def test_no_module_but_protocols_tests_a_protocol_by_name():
    root = Path(__file__).resolve().parents[2]
    named = []
    for path in [*(root / "update_rouge").rglob("*.py"), *(root / "demo").glob("*.py")]:
        if path.name == "protocols.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in PROTOCOLS:
                named.append(f"{path.relative_to(root)}:{node.lineno} {node.value!r}")
    assert named == [], "ask protocols.rules_of instead"
    assert [rules_of(name).scale for name in PROTOCOLS] == [100.0, 1.0, 1.0], "FRUIT reports percent"
    assert rules_of(None).multi_ref is None and not rules_of(None).bootstrap_median


def test_refusals_of_data_and_tests_the_published_scripts_cannot_score():
    with pytest.raises(ValueError, match="unknown protocol 'FRUIT'"):
        compute(["A."], ["A."], ["A."], protocol="FRUIT")
    with pytest.raises(InputError, match=r"^references\[0\] holds 2 references, but protocol='fruit' takes one per"):
        compute(["A."], ["A. B."], [["A. B.", "A. C."]], protocol="fruit")
    with pytest.raises(ValueError, match="same number of references in every example"):
        compute(["A.", "A."], ["A. B.", "A."], [["A. B.", "A. C."], ["A. D."]], protocol="editeval")
    for protocol in ("fruit", "editeval"):
        with pytest.raises(ValueError, match="has no paired test"):
            compute(["A."], ["A. B."], ["A. B."], protocol=protocol, baseline_predictions=["A."])
        with pytest.raises(ValueError, match="seed must be at most 2\\*\\*32 - 1"):
            compute(["A."], ["A. B."], ["A. B."], protocol=protocol, seed=2**32)
    # autometrics' corpus value is our mean: the paired test and any seed are ours too.
    assert compute(["A."], ["A. B."], ["A. B."], protocol="autometrics", baseline_predictions=["A."], seed=2**40)


def test_compare_refuses_a_bootstrap_median_protocol():
    from update_rouge import compare

    sources, predictions, references = columns("iterater_triples.jsonl")
    with pytest.raises(ValueError, match="protocol='fruit' has no paired test"):
        compare(sources, references, {"system": predictions, "source": sources}, "system", protocol="fruit")


def test_the_signature_names_the_protocol_and_the_default_signature_is_unchanged():
    assert build_signature(references=["a"]) == build_signature(references=["a"], protocol=None)
    assert "protocol" not in build_signature(references=["a"])
    fruit = build_signature(references=["a"], protocol="fruit")
    assert "|protocol:fruit@865fae6|" in fruit and "|agg:bootstrap-median-x100|" in fruit and "join:" not in fruit
    editeval = build_signature(references=[["a", "b"]], protocol="editeval")
    assert "|multiref:slot-mean|" in editeval and "|agg:bootstrap-median|" in editeval
    autometrics = build_signature(references=["a"], protocol="autometrics", use_aggregator=False)
    assert "|protocol:autometrics@0e97645|" in autometrics and "|multiref:first|agg:none|" in autometrics


@pytest.mark.parametrize("protocol", ["fruit", "editeval", "autometrics"])
def test_the_command_line_equals_compute(protocol, capsys):
    status = main([str(DATA_DIR / "iterater_triples.jsonl"), "--protocol", protocol, "--seed", "3"])
    assert status == 0
    sources, predictions, references = columns("iterater_triples.jsonl")
    assert json.loads(capsys.readouterr().out) == compute(sources, predictions, references, protocol=protocol, seed=3)


def one_line(additions):
    return len(additions) <= 1 and not any("\n" in addition for addition in additions)


@pytest.mark.parametrize("name", ["fruit_triples.jsonl", "iterater_triples.jsonl", "wiki_triples.jsonl"])
def test_autometrics_per_example_is_our_default_where_rougelsum_cannot_see_the_join(name):
    sources, predictions, references = columns(name)
    ours = compute(sources, predictions, references, use_aggregator=False)
    theirs = compute(sources, predictions, references, use_aggregator=False, protocol="autometrics")
    # The same additions (stripped, non-empty, tested stripped); only the join differs.
    assert ours["update_rouge1"] == theirs["update_rouge1"] and ours["update_rouge2"] == theirs["update_rouge2"]
    pattern = re.compile(r"[^.]+\.?")
    same = 0
    for i, source in enumerate(sources):
        sides = [
            [s for s in (m.strip() for m in pattern.findall(text)) if s and s not in source]
            for text in (predictions[i], references[i])
        ]
        if all(one_line(side) for side in sides):
            assert ours["update_rougeLsum"][i] == theirs["update_rougeLsum"][i]
            same += 1
    assert same > 0 or name == "fruit_triples.jsonl"  # its three examples each add several sentences


def test_multi_ref_mean_is_the_mean_of_each_measure_over_the_references():
    rows = read_jsonl("iterater_triples.jsonl")
    by_source = {}
    for row in rows:
        by_source.setdefault(row["source"], []).append(row)
    groups = [group for group in by_source.values() if len(group) > 1]
    sources = [g[0]["source"] for g in groups]
    predictions = [g[0]["prediction"] for g in groups]
    references = [[r["reference"] for r in g] for g in groups]
    result = compute(sources, predictions, references, multi_ref="mean", use_aggregator=False)
    scorer = rouge_scorer.RougeScorer(TYPES)
    pattern = re.compile(r"[^.]+\.?")

    def added(text, source):
        return "\n".join(s for s in (m.strip() for m in pattern.findall(text)) if s and s not in source)

    for i, source in enumerate(sources):
        scores = [scorer.score(added(r, source), added(predictions[i], source)) for r in references[i]]
        for t in TYPES:
            for measure, key in (("fmeasure", ""), ("precision", "_precision"), ("recall", "_recall")):
                expected = math.fsum(getattr(s[t], measure) for s in scores) / len(scores)
                assert result[f"update_{t}{key}"][i] == pytest.approx(expected, abs=1e-15)


def test_multi_ref_mean_scores_a_reference_that_adds_nothing_as_one_where_the_prediction_adds_nothing():
    result = compute(["A."], ["A."], [["A.", "A. B."]], multi_ref="mean", use_aggregator=False)
    assert result["update_rouge1"] == [0.5] and result["_both_empty"] == [False]
    assert compute(["A."], ["A."], [["A.", "A."]], multi_ref="mean", use_aggregator=False)["_both_empty"] == [True]
    with pytest.raises(ValueError, match="multi_ref='mean' averages scores"):
        compute(["A."], ["A."], ["A."], multi_ref="mean", average="micro")
