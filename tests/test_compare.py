"""Comparing systems: the exact permutation test, Monte-Carlo agreement, calibration, the paired
bootstrap equal to compute's, the command line and its output formats, determinism."""

import csv
import importlib.metadata
import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import read_jsonl, run_main
from hypothesis import given, settings
from hypothesis import strategies as st

import update_rouge
from update_rouge import compare, compute
from update_rouge.bootstrap import p_values_not_better, resample_means
from update_rouge.comparison import significance
from update_rouge.comparison.significance import exact_permutation_p_value, holm, randomization_p_values
from update_rouge.comparison.systems import SignificanceTest

REPO = Path(__file__).parent.parent
TRIALS = 10000


@pytest.fixture(scope="module")
def iterater():
    rows = read_jsonl("iterater_triples.jsonl")
    return {
        "sources": [r["source"] for r in rows],
        "references": [r["reference"] for r in rows],
        "predictions": [r["prediction"] for r in rows],
    }


def three_systems(data):
    """The do-nothing baseline, the bundled predictions, and the references themselves."""
    return {"source": data["sources"], "model": data["predictions"], "oracle": data["references"]}


# The exact test and Holm, against values worked out by hand.


@pytest.mark.parametrize(
    "differences, expected",
    [
        ([1.0, -1.0], 3 / 4),  # sums 0, 2, -2, 0 against 0
        ([0.5, 0.25, 0.125], 1 / 8),  # only the observed signs reach 0.875
        ([1.0, 1.0, -1.0], 4 / 8),  # sums 1, 3, -1, 1, -1, 1, -3, -1 against 1
        ([0.0, 0.0, 0.0], 1.0),  # identical systems
        ([-0.5], 1.0),  # sums -0.5 and 0.5, both >= -0.5
        # 0 in real numbers; as floats the observed sum is 5.6e-17 and its negation -5.6e-17, a tie:
        # 0, 0.6, -0.4, 0.2, -0.2, 0.4, -0.6, 0 against 0.
        ([0.1, 0.2, -0.3], 5 / 8),
    ],
)
def test_exact_permutation_test_hand_values(differences, expected):
    assert exact_permutation_p_value(differences) == expected


def test_holm_hand_values():
    # Sorted 0.01, 0.03, 0.04, 0.2 times 4, 3, 2, 1: 0.04, 0.09, 0.08 -> 0.09 (monotone), 0.2.
    assert holm([0.01, 0.04, 0.03, 0.2]).tolist() == pytest.approx([0.04, 0.09, 0.09, 0.2], abs=1e-15)
    assert holm([0.5, 0.6]).tolist() == [1.0, 1.0]
    assert holm([0.02]).tolist() == [0.02]


# Approximate randomization against the exact test.


def difference_sets():
    rng = np.random.default_rng(2024)
    sets = [
        [0.25, -0.25, 0.5, 0.0],  # exact ties between sign patterns, and a zero
        [0.1, 0.2, -0.3],  # ties in real numbers that floating-point sums split (see the hand values)
        rng.choice([-0.2, -0.1, 0.0, 0.1, 0.3], size=8).tolist(),
        rng.choice([-0.5, 0.0, 0.5], size=12).tolist(),
    ]
    sets += [rng.normal(0.03, 0.2, size=n).tolist() for n in (1, 5, 9, 12, 12, 12)]
    return sets


@pytest.mark.parametrize("differences", difference_sets())
def test_randomization_is_within_monte_carlo_error_of_the_exact_test(differences):
    exact = exact_permutation_p_value(differences)
    approximate = randomization_p_values(np.array([differences]), TRIALS, seed=11)[0]
    # k ~ Binomial(R, exact); (1 + k) / (R + 1) adds at most 1 / (R + 1). Four standard errors.
    error = 4 * math.sqrt(exact * (1 - exact) / TRIALS) + 1 / (TRIALS + 1)
    assert abs(approximate - exact) <= error


F1_LIKE = st.builds(
    lambda a, b, c, d: a / b - c / d,
    st.integers(0, 12),
    st.integers(12, 30),
    st.integers(0, 12),
    st.integers(12, 30),
)


@settings(max_examples=40)
@given(st.lists(F1_LIKE, min_size=1, max_size=10))
def test_randomization_agrees_with_the_exact_test_on_f1_like_differences(differences):
    exact = exact_permutation_p_value(differences)
    approximate = randomization_p_values(np.array([differences]), 2000, seed=8)[0]
    assert abs(approximate - exact) <= 5 * math.sqrt(exact * (1 - exact) / 2000) + 1 / 2001


def test_the_exact_values_above_are_not_all_extreme():
    values = [exact_permutation_p_value(d) for d in difference_sets()]
    assert sum(0.05 < v < 0.95 for v in values) >= 4


def test_trials_do_not_depend_on_the_block_size(monkeypatch):
    differences = np.random.default_rng(3).normal(0, 0.1, size=(3, 50))
    whole = randomization_p_values(differences, 999, seed=5)
    monkeypatch.setattr(significance, "_SIGNS_PER_BLOCK", 120)  # two rows of 50 per block
    assert randomization_p_values(differences, 999, seed=5).tolist() == whole.tolist()


def test_identical_systems_get_one_and_a_dominant_system_the_smallest_value():
    assert randomization_p_values(np.zeros((1, 30)), 500, seed=1).tolist() == [1.0]
    assert randomization_p_values(np.full((1, 30), 0.1), 500, seed=1).tolist() == [1 / 501]


# Calibration: under the null about 5% of p-values are below 0.05; a better system is found.


def null_differences(n_comparisons=400, n_examples=100):
    """Two systems whose scores on each example are drawn from one distribution (the example's)."""
    rng = np.random.default_rng(99)
    difficulty = rng.beta(2, 3, size=(n_comparisons, n_examples))
    first = np.clip(difficulty + rng.normal(0, 0.15, size=difficulty.shape), 0, 1)
    second = np.clip(difficulty + rng.normal(0, 0.15, size=difficulty.shape), 0, 1)
    return first - second


def test_randomization_is_calibrated_under_the_null():
    p_values = randomization_p_values(null_differences(), TRIALS, seed=4)
    # Binomial(400, 0.05): mean 20, standard deviation 4.4; 8 to 32 is 2.75 deviations.
    assert 8 <= np.count_nonzero(p_values < 0.05) <= 32
    assert 0.4 < np.mean(p_values) < 0.6


def test_bootstrap_is_calibrated_under_the_null():
    p_values = p_values_not_better(resample_means(null_differences(), 1000, seed=4))
    assert 8 <= np.count_nonzero(p_values < 0.05) <= 32
    assert 0.4 < np.mean(p_values) < 0.6


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


# The command line.


def write_lines(path, texts):
    path.write_text("".join(text.replace("\n", " ") + "\n" for text in texts), encoding="utf-8")
    return path


def flat(data):
    """The texts with line breaks made spaces, as the text-file form of the command line reads them."""
    return {key: [text.replace("\n", " ") for text in texts] for key, texts in data.items()}


@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_cli_json_equals_compare(tmp_path, iterater, capsys, method):
    data = flat(iterater)
    systems = three_systems(data)
    files = {name: write_lines(tmp_path / f"{name}.txt", texts) for name, texts in systems.items()}
    sources = write_lines(tmp_path / "src.txt", data["sources"])
    references = write_lines(tmp_path / "ref.txt", data["references"])
    argv = [
        "compare",
        "--sources",
        sources,
        "--references",
        references,
        "--baseline",
        "source",
        "--method",
        method,
        "--correction",
        "holm",
        "--n-trials",
        "3000",
        "--output-format",
        "json",
        "--per-example",
        tmp_path / "scores.jsonl",
    ]
    argv += [part for name, path in files.items() for part in ("--system", f"{name}={path}")]
    status, out, err = run_main(argv, capsys)
    assert status == 0, err
    expected = compare(
        data["sources"],
        data["references"],
        systems,
        "source",
        method=method,
        correction="holm",
        n_trials=3000,
        return_signature=True,
    )
    assert json.loads(out) == expected
    lines = [json.loads(line) for line in (tmp_path / "scores.jsonl").read_text().splitlines()]
    per_example = compute(data["sources"], data["predictions"], data["references"], use_aggregator=False)
    assert [line["line"] for line in lines] == list(range(1, 41))
    assert [line["scores"]["model"]["update_rouge2"] for line in lines] == per_example["update_rouge2"]
    assert all(line["scores"]["oracle"]["update_rouge1"] == 1.0 for line in lines)


def test_cli_jsonl_with_one_column_per_system_and_file_after_rouge_types(tmp_path, iterater, capsys):
    path = tmp_path / "systems.jsonl"
    with open(path, "w", encoding="utf-8") as handle:
        for source, reference, prediction in zip(iterater["sources"], iterater["references"], iterater["predictions"]):
            handle.write(
                json.dumps({"source": source, "reference": reference, "base": source, "model": prediction}) + "\n"
            )
    argv = [
        "compare",
        "--rouge-types",
        "rouge1",
        "rougeL",
        path,
        "--system",
        "base",
        "--system",
        "mine=model",
        "--output-format",
        "json",
    ]
    status, out, err = run_main(argv, capsys)
    assert status == 0, err
    expected = compare(
        iterater["sources"],
        iterater["references"],
        {"base": iterater["sources"], "mine": iterater["predictions"]},
        "base",
        rouge_types=["rouge1", "rougeL"],
        return_signature=True,
    )
    assert json.loads(out) == expected


def test_cli_formats_print_the_table_and_signature(tmp_path, iterater, capsys):
    data = flat(iterater)
    sources = write_lines(tmp_path / "src.txt", data["sources"])
    references = write_lines(tmp_path / "ref.txt", data["references"])
    base = write_lines(tmp_path / "base.txt", data["sources"])
    model = write_lines(tmp_path / "model.txt", data["predictions"])
    common = [
        "compare",
        "--sources",
        sources,
        "--references",
        references,
        "--system",
        f"a_&b={base}",
        "--system",
        f"model={model}",
        "--rouge-types",
        "rouge1",
    ]
    status, text, _ = run_main(common, capsys)
    assert status == 0
    rows = text.splitlines()
    assert rows[0].startswith("Mean F1 with 95% percentile bootstrap intervals (1000 resamples); paired bootstrap")
    assert "(1 comparison per type, not adjusted); * p < 0.05." in rows[0]
    assert rows[4].split()[:2] == ["a_&b", "(baseline)"]
    assert rows[5].split() == ["model", "0.5087", "[0.4629,", "0.5603]", "+0.5087", "0.0010*"]
    assert rows[-1].startswith("refs:1|seg:") and rows[-1].endswith("|test:paired-bs|correction:none|comparisons:1")
    _, markdown, _ = run_main(common + ["--output-format", "markdown"], capsys)
    assert "| model | 0.5087 [0.4629, 0.5603] | +0.5087 | 0.0010* |" in markdown.splitlines()
    _, latex, _ = run_main(common + ["--output-format", "latex"], capsys)
    assert r"a\_\&b (baseline) & 0.0000 [0.0000, 0.0000] &  &  \\" in latex.splitlines()
    _, table, _ = run_main(common + ["--output-format", "csv", "--level", "0.0005"], capsys)
    records = list(csv.DictReader(io.StringIO(table)))
    assert [(r["system"], r["type"], r["p_value"], r["significant"]) for r in records] == [
        ("a_&b", "update_rouge1", "", ""),
        ("model", "update_rouge1", repr(1 / 1001), "False"),
    ]
    # The baseline scores 0 on every example, so the delta's interval is the model's own interval.
    assert [round(float(records[1][key]), 4) for key in ("delta", "delta_low", "delta_high")] == [
        0.5087,
        0.4629,
        0.5603,
    ]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--system", "a=x.txt", "--system", "b=y.txt"], "give a JSONL or CSV FILE, or --sources and --references"),
        (["--sources", "S", "--references", "R", "--system", "a"], "give NAME=FILE"),
        (["--sources", "S", "--references", "R", "--system", "a=1", "--system", "a=2"], "--system a is given twice"),
        (
            ["--sources", "S", "--references", "R", "--system", "a=1", "--baseline", "b"],
            "baseline 'b' is not one of the systems",
        ),
        (
            ["--sources", "S", "--references", "R", "--system", "a=1", "--system", "b=2", "--level", "2"],
            "--level must be strictly between 0 and 1",
        ),
    ],
)
def test_cli_unusable_options_exit_2(argv, message, capsys):
    status, _, err = run_main(["compare", *argv], capsys)
    assert status == 2
    assert message in err


def test_cli_names_a_short_system_file(tmp_path, capsys):
    sources = write_lines(tmp_path / "src.txt", ["a.", "b.", "c."])
    references = write_lines(tmp_path / "ref.txt", ["a. x.", "b. y.", "c. z."])
    short = write_lines(tmp_path / "short.txt", ["a. x.", "b."])
    status, _, err = run_main(
        [
            "compare",
            "--sources",
            sources,
            "--references",
            references,
            "--system",
            f"base={sources}",
            "--system",
            f"short={short}",
        ],
        capsys,
    )
    assert status == 2
    assert f"{sources}:3: has more lines than {short} (2 lines)" in err


def environment(hash_seed="0"):
    return dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(REPO))


@pytest.mark.slow
def test_cli_output_is_identical_across_processes_and_hash_seeds(tmp_path, iterater):
    path = tmp_path / "systems.jsonl"
    with open(path, "w", encoding="utf-8") as handle:
        for source, reference, prediction in zip(iterater["sources"], iterater["references"], iterater["predictions"]):
            handle.write(
                json.dumps(
                    {"source": source, "reference": reference, "base": source, "model": prediction, "oracle": reference}
                )
                + "\n"
            )
    argv = [
        sys.executable,
        "-m",
        "update_rouge",
        "compare",
        str(path),
        "--system",
        "base",
        "--system",
        "model",
        "--system",
        "oracle",
        "--method",
        "randomization",
        "--correction",
        "holm",
        "--n-trials",
        "2000",
        "--output-format",
        "json",
    ]
    outputs = set()
    for hash_seed in ("0", "1", "random"):
        completed = subprocess.run(
            argv, capture_output=True, text=True, timeout=300, env=environment(hash_seed), cwd=REPO
        )
        assert completed.returncode == 0, completed.stderr
        outputs.add(completed.stdout)
    assert len(outputs) == 1
    expected = compare(
        iterater["sources"],
        iterater["references"],
        three_systems(iterater),
        "source",
        method="randomization",
        correction="holm",
        n_trials=2000,
        return_signature=True,
    )
    renamed = {
        "base": expected["source"],
        "model": expected["model"],
        "oracle": expected["oracle"],
        "signature": expected["signature"],
    }
    assert json.loads(outputs.pop()) == renamed
