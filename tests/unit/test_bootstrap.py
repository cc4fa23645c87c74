"""Bootstrap intervals and the paired test: the documented method, determinism, coverage, power."""

import concurrent.futures
import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import markdown_rows, read_jsonl, readme_section

from update_rouge import bootstrap, compute
from update_rouge.bootstrap import bootstrap_statistics
from update_rouge.parallel import available_cpus

ROWS = read_jsonl("iterater_triples.jsonl")
DATA = dict(
    sources=[row["source"] for row in ROWS],
    predictions=[row["prediction"] for row in ROWS],
    references=[row["reference"] for row in ROWS],
)
TYPES = ("rouge1", "rouge2", "rougeLsum")
TESTS = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def with_baseline():
    """The bundled IteraTeR predictions against a baseline that returns its sources unchanged."""
    return compute(**DATA, baseline_predictions=DATA["sources"])


def naive_percentile_interval(values, confidence_level, n_bootstrap, seed):
    """The documented method written out with loops: index matrix, fsum means, type-7 quantiles."""
    n = len(values)
    indices = np.random.default_rng(seed).integers(0, n, size=(n_bootstrap, n))
    means = sorted(math.fsum(values[i] for i in row) / n for row in indices)

    def quantile(q):
        position = (n_bootstrap - 1) * q
        below = math.floor(position)
        above = min(below + 1, n_bootstrap - 1)
        return means[below] + (position - below) * (means[above] - means[below])

    alpha = 1 - confidence_level
    return quantile(alpha / 2), quantile(1 - alpha / 2)


@pytest.mark.parametrize("threads", [1, 2])
def test_interval_is_the_documented_percentile_bootstrap(monkeypatch, threads):
    monkeypatch.setattr(bootstrap, "_INDICES_PER_BLOCK", 23 * 9)  # 23 blocks of 9 resamples
    values = [row / 7 % 1 for row in range(23)]
    result = bootstrap_statistics({"k": values}, None, 0.9, 200, 7, threads)
    low, high = naive_percentile_interval(values, 0.9, 200, 7)
    assert result["k_low"] == pytest.approx(low, abs=1e-12)
    assert result["k_high"] == pytest.approx(high, abs=1e-12)


def test_p_value_is_the_documented_fraction_with_plus_one():
    # Dyadic scores: every sum of differences is exact, so the sign of each resample mean is too.
    system = [0.5, 0.75, 0.25, 1.0, 0.375]
    baseline = [0.25, 1.0, 0.25, 0.5, 0.5]
    differences = [s - b for s, b in zip(system, baseline)]
    indices = np.random.default_rng(3).integers(0, 5, size=(300, 5))
    not_better = sum(sum(differences[i] for i in row) <= 0 for row in indices)
    result = bootstrap_statistics({"k": system}, {"k": baseline}, None, 300, 3)
    assert 0 < not_better < 300
    assert result == {"k_delta": pytest.approx(0.375 / 5, abs=1e-15), "k_p_value": (1 + not_better) / 301}


def test_delta_interval_is_the_percentile_bootstrap_of_the_differences():
    system = [row / 7 % 1 for row in range(23)]
    baseline = [row / 5 % 1 for row in range(23)]
    differences = [s - b for s, b in zip(system, baseline)]
    result = bootstrap_statistics({"k": system}, {"k": baseline}, 0.9, 200, 7)
    low, high = naive_percentile_interval(differences, 0.9, 200, 7)
    assert low < result["k_delta"] < high
    assert result["k_delta_low"] == pytest.approx(low, abs=1e-12)
    assert result["k_delta_high"] == pytest.approx(high, abs=1e-12)
    # The system's own interval comes from the same resamples as before.
    assert result["k_low"] == bootstrap_statistics({"k": system}, None, 0.9, 200, 7)["k_low"]


def test_a_system_better_by_a_constant_has_that_constant_as_its_delta_interval():
    baseline = [row / 8 % 1 / 2 for row in range(30)]
    result = bootstrap_statistics({"k": [b + 0.25 for b in baseline]}, {"k": baseline}, 0.95, 500, 1)
    assert result["k_delta_low"] == result["k_delta_high"] == 0.25
    assert result["k_p_value"] == 1 / 501


def test_drawing_the_resamples_in_blocks_does_not_change_them(monkeypatch):
    values = np.random.default_rng(0).random(50)
    whole = bootstrap.resample_means(values[None, :], 1000, 99)
    monkeypatch.setattr(bootstrap, "_INDICES_PER_BLOCK", 50 * 7)  # 143 blocks of 7 resamples
    assert np.array_equal(bootstrap.resample_means(values[None, :], 1000, 99), whole)


@pytest.mark.skipif(available_cpus() < 2, reason="the threads are capped at the CPUs: two threads need two")
@pytest.mark.parametrize("paired", [False, True])
def test_threads_give_the_numbers_of_one_thread(monkeypatch, paired):
    rng = np.random.default_rng(5)
    system = {f"k{i}": rng.random(300) for i in range(3)}
    baseline = {key: rng.random(300) for key in system} if paired else None
    one = bootstrap_statistics(system, baseline, 0.9, 2000, 11)
    # On two threads a block holds a third of these indices: 154 blocks of 13 resamples.
    monkeypatch.setattr(bootstrap, "_INDICES_PER_BLOCK", 3 * 300 * 13)
    submitted = []

    class Recording(concurrent.futures.ThreadPoolExecutor):
        def submit(self, *args, **kwargs):
            submitted.append(args[0])
            return super().submit(*args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ThreadPoolExecutor", Recording)  # what threads > 1 import
    assert bootstrap_statistics(system, baseline, 0.9, 2000, 11, threads=2) == one
    assert len(submitted) == 154 * len(system) * (2 if paired else 1), "one task per block and column"


@pytest.mark.skipif(available_cpus() < 2, reason="the threads are capped at the CPUs: two threads need two")
def test_threads_hold_no_more_indices_than_one_thread(monkeypatch):
    # One thread holds one block and the array a task gathers from it: 2 x 600 indices here. Two
    # threads hold up to three blocks (two being scored, one being drawn) and two gathered
    # arrays: five blocks of at most 600 / 3 indices.
    monkeypatch.setattr(bootstrap, "_INDICES_PER_BLOCK", 600)
    sizes = {1: [], 2: []}
    for threads, seen in sizes.items():
        bootstrap.over_resamples(
            100, 400, 3, 2, lambda _, start, stop, indices, seen=seen: seen.append(indices.size), threads
        )
    assert max(sizes[1]) == 600 and max(sizes[2]) == 200, f"largest blocks: {max(sizes[1])}, {max(sizes[2])} indices"


def test_intervals_contain_the_mean_for_every_type(with_baseline):
    for rouge_type in TYPES:
        key = f"update_{rouge_type}"
        assert with_baseline[f"{key}_low"] < with_baseline[key] < with_baseline[f"{key}_high"]
        # 40 examples with F1 spread over [0, 1]: the interval is neither degenerate nor vacuous.
        assert 0.02 < with_baseline[f"{key}_high"] - with_baseline[f"{key}_low"] < 0.3


def test_intervals_narrow_as_examples_grow():
    # Four copies of each example: the same score distribution over four times as many examples,
    # so the width of a mean's interval shrinks by about sqrt(4) = 2.
    small = compute(**DATA, rouge_types=["rouge1"])
    large = compute(**{field: column * 4 for field, column in DATA.items()}, rouge_types=["rouge1"])
    assert large["update_rouge1"] == pytest.approx(small["update_rouge1"], abs=1e-12)
    ratio = (small["update_rouge1_high"] - small["update_rouge1_low"]) / (
        large["update_rouge1_high"] - large["update_rouge1_low"]
    )
    assert 1.6 < ratio < 2.5


def test_intervals_narrow_with_examples_on_synthetic_scores():
    widths = []
    for n in (25, 100, 400, 1600):
        values = np.random.default_rng(n).beta(2, 5, size=n).tolist()
        result = bootstrap_statistics({"k": values}, None, 0.95, 1000, 12345)
        widths.append(result["k_high"] - result["k_low"])
    # width ~ 2 * 1.96 * sd / sqrt(n), sd of Beta(2, 5) = 0.16: 0.125, 0.063, 0.031, 0.016.
    assert all(0.35 < later / earlier < 0.65 for earlier, later in zip(widths, widths[1:]))


def inflated_scores(rng, n):
    """F1-like scores: a quarter at 0, a tenth at 1 (both sides added nothing), the rest Beta(2, 2)."""
    u = rng.random(n)
    return np.select([u < 0.25, u < 0.35], [0.0, 1.0], default=rng.beta(2, 2, size=n))


@pytest.mark.parametrize(
    "name, draw, true_mean",
    [
        ("Beta(2, 5)", lambda rng, n: rng.beta(2, 5, size=n), 2 / 7),
        ("zero/one inflated", inflated_scores, 0.10 + 0.65 * 0.5),
    ],
)
def test_coverage_is_near_the_nominal_level(name, draw, true_mean):
    # 400 data sets of 100 examples, each with its own fixed seed; 0.95 nominal. With 400 data
    # sets the standard error of the coverage is 0.011; the percentile bootstrap of a mean of
    # 100 examples covers slightly less than nominal, so the accepted range is [0.91, 0.98].
    rng = np.random.default_rng(2024)
    covered = 0
    for data_set in range(400):
        values = draw(rng, 100).tolist()
        result = bootstrap_statistics({"k": values}, None, 0.95, 500, data_set)
        covered += result["k_low"] <= true_mean <= result["k_high"]
    assert 0.91 <= covered / 400 <= 0.98, name


def test_coverage_follows_a_lower_nominal_level():
    rng = np.random.default_rng(7)
    covered = 0
    for data_set in range(400):
        values = rng.beta(2, 5, size=100).tolist()
        result = bootstrap_statistics({"k": values}, None, 0.8, 500, data_set)
        covered += result["k_low"] <= 2 / 7 <= result["k_high"]
    # 0.80 nominal; standard error 0.02.
    assert 0.74 <= covered / 400 <= 0.86


SAME_SEED_SCRIPT = """
import json, sys
from conftest import read_jsonl
from update_rouge import compute
rows = read_jsonl("iterater_triples.jsonl")
result = compute(
    sources=[r["source"] for r in rows],
    predictions=[r["prediction"] for r in rows],
    references=[r["reference"] for r in rows],
    baseline_predictions=[r["source"] for r in rows],
    seed=int(sys.argv[1]),
)
print(json.dumps(result))
"""


def run_in_new_process(seed):
    completed = subprocess.run(
        [sys.executable, "-c", SAME_SEED_SCRIPT, str(seed)],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS), str(TESTS.parent)])),
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


@pytest.mark.slow
def test_same_seed_same_numbers_in_separate_processes(with_baseline):
    first, second = run_in_new_process(12345), run_in_new_process(12345)
    assert first == second == with_baseline
    assert "update_rouge1_low" in first and "update_rouge1_p_value" in first


def test_different_seeds_give_different_intervals(with_baseline):
    other = compute(**DATA, seed=1)
    for rouge_type in TYPES:
        key = f"update_{rouge_type}"
        assert other[key] == with_baseline[key]
        assert (other[f"{key}_low"], other[f"{key}_high"]) != (
            with_baseline[f"{key}_low"],
            with_baseline[f"{key}_high"],
        )


def test_global_random_states_are_neither_used_nor_changed():
    np.random.seed(5)
    random.seed(5)
    numpy_state, python_state = np.random.get_state(), random.getstate()
    first = compute(**DATA, rouge_types=["rouge1"], baseline_predictions=DATA["sources"])
    after_numpy, after_python = np.random.get_state(), random.getstate()
    assert after_python == python_state
    assert after_numpy[0] == numpy_state[0] and np.array_equal(after_numpy[1], numpy_state[1])
    assert after_numpy[2:] == numpy_state[2:]
    np.random.seed(6)
    random.seed(6)
    assert compute(**DATA, rouge_types=["rouge1"], baseline_predictions=DATA["sources"]) == first


def test_a_clearly_better_system_gets_the_smallest_p_value(with_baseline):
    # The baseline copies its source: it scores 0 on every example, where the references add
    # text and the system scores above 0 on most; no resample has a mean difference <= 0.
    for rouge_type in TYPES:
        assert with_baseline[f"update_{rouge_type}_p_value"] == 1 / 1001


def test_the_baseline_against_the_system_gets_a_large_p_value():
    swapped = compute(**dict(DATA, predictions=DATA["sources"]), baseline_predictions=DATA["predictions"])
    assert swapped["update_rouge1_p_value"] == 1.0
    assert swapped["update_rouge1_delta"] < -0.4


def test_identical_systems_get_p_value_one_and_delta_zero():
    # Every per-example difference is exactly 0, so every resample mean is <= 0: p = 1001 / 1001.
    result = compute(**DATA, baseline_predictions=DATA["predictions"])
    for rouge_type in TYPES:
        assert result[f"update_{rouge_type}_p_value"] == 1.0
        assert result[f"update_{rouge_type}_delta"] == 0.0


def test_delta_is_the_difference_of_the_two_systems_means(with_baseline):
    baseline_alone = compute(**dict(DATA, predictions=DATA["sources"]))
    assert baseline_alone["update_rouge1"] == 0.0  # every reference adds text, the copy nothing
    for rouge_type in TYPES:
        key = f"update_{rouge_type}"
        assert with_baseline[f"{key}_delta"] == with_baseline[key] - baseline_alone[key]


def paired_scores(seed, n):
    """Synthetic paired scores: the system 0.03 better on average, per-example noise of sd 0.1."""
    rng = np.random.default_rng(seed)
    baseline = rng.random(n)
    return baseline + 0.03 + rng.normal(0, 0.1, size=n), baseline


def test_a_consistently_better_system_gets_the_smallest_p_value():
    # Over 1,000 examples the mean difference is 0.03 with a standard error of 0.003 (z = 9).
    system, baseline = paired_scores(11, 1000)
    result = bootstrap_statistics({"k": system.tolist()}, {"k": baseline.tolist()}, None, 1000, 1)
    assert result["k_p_value"] == 1 / 1001


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_p_value_agrees_with_the_normal_approximation(seed):
    # Over 50 examples the bootstrap p-value is close to the one-sided normal p-value
    # 1 - Phi(mean / (sd / sqrt(n))) of the same differences (here between 0.002 and 0.5).
    system, baseline = paired_scores(seed, 50)
    differences = system - baseline
    z = differences.mean() / (differences.std() / math.sqrt(50))
    normal_p_value = 0.5 * math.erfc(z / math.sqrt(2))
    result = bootstrap_statistics({"k": system.tolist()}, {"k": baseline.tolist()}, None, 10000, 1)
    assert result["k_p_value"] == pytest.approx(normal_p_value, abs=0.02)


def test_confidence_level_none_computes_no_interval():
    result = compute(**DATA, rouge_types=["rouge1"], confidence_level=None)
    assert not any(key.endswith(("_low", "_high")) for key in result)
    assert compute(**DATA, rouge_types=["rouge1"])["update_rouge1"] == result["update_rouge1"]


def test_per_example_output_has_no_intervals():
    result = compute(**DATA, rouge_types=["rouge1"], use_aggregator=False)
    assert set(result) == {
        "update_rouge1",
        "update_rouge1_precision",
        "update_rouge1_recall",
        "_target_diff_len",
        "_prediction_diff_len",
        "_both_empty",
    }


def test_without_signature_every_value_is_a_number(with_baseline):
    assert "signature" not in with_baseline
    assert {type(value) for key, value in with_baseline.items() if key != "_both_empty"} == {float}
    assert type(with_baseline["_both_empty"]) is int


def test_a_wider_level_gives_a_wider_interval(with_baseline):
    wider = compute(**DATA, rouge_types=["rouge1"], confidence_level=0.99)
    assert wider["update_rouge1_low"] < with_baseline["update_rouge1_low"]
    assert wider["update_rouge1_high"] > with_baseline["update_rouge1_high"]


def test_the_readme_reporting_example(with_baseline):
    # The table and signature README.md's "Reporting a result" shows for these data and options.
    section = readme_section("## Reporting a result")
    shown = markdown_rows(section, "update_")
    assert [row[0] for row in shown] == [f"update_{t}" for t in TYPES]
    for key, mean, interval, delta, p_value in shown:
        low, high = interval.strip("[]").split(", ")
        assert [f"{with_baseline[k]:.4f}" for k in (key, f"{key}_low", f"{key}_high")] == [mean, low, high]
        delta, delta_interval = delta.split(" ", 1)
        assert f"{with_baseline[f'{key}_delta']:+.4f}" == delta
        delta_low, delta_high = delta_interval.strip("[]").split(", ")
        assert [f"{with_baseline[f'{key}_delta_{end}']:.4f}" for end in ("low", "high")] == [delta_low, delta_high]
        assert f"{with_baseline[f'{key}_p_value']:.3f}" == p_value
    shown_signature = section.split("```text\n", 1)[1].split("\n", 1)[0]
    signature = compute(**DATA, baseline_predictions=DATA["sources"], return_signature=True)["signature"]
    # The README states the NumPy it was run with; the rest must be what this checkout writes.
    assert shown_signature.split("|numpy:")[0] == signature.split("|numpy:")[0]
