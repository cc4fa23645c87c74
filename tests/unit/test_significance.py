"""The significance tests of `compare`: the exact permutation test and Holm against hand values,
approximate randomization within Monte-Carlo error of the exact test, calibration under the null."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from update_rouge.bootstrap import p_values_not_better, resample_means
from update_rouge.comparison import significance
from update_rouge.comparison.significance import (
    exact_permutation_p_value,
    holm,
    micro_randomization_p_values,
    randomization_p_values,
)

TRIALS = 10000


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


# The micro average's randomization: a trial swaps examples' count triples (hits, target, prediction).


def exact_micro_f(hits, target, prediction):
    """F1 of summed counts in rational arithmetic (0 where a denominator is 0), written here from the definition."""
    precision = Fraction(hits, prediction) if prediction else Fraction(0)
    recall = Fraction(hits, target) if target else Fraction(0)
    return 2 * precision * recall / (precision + recall) if precision + recall else Fraction(0)


def exact_micro_p_value(system, baseline):
    """#{swap patterns s: F(system') - F(baseline') >= F(system) - F(baseline)} / 2**n, exactly."""

    def difference(pattern):
        sums = [[0, 0, 0], [0, 0, 0]]
        for swap, mine, theirs in zip(pattern, system, baseline):
            for field in range(3):
                sums[0][field] += theirs[field] if swap else mine[field]
                sums[1][field] += mine[field] if swap else theirs[field]
        return exact_micro_f(*sums[0]) - exact_micro_f(*sums[1])

    observed = difference([False] * len(system))
    patterns = list(itertools.product((False, True), repeat=len(system)))
    return sum(difference(pattern) >= observed for pattern in patterns) / len(patterns)


def count_triples(rng, n):
    target = rng.integers(1, 15, size=n)
    prediction = rng.integers(1, 15, size=n)
    hits = np.minimum(rng.integers(0, 15, size=n), np.minimum(target, prediction))
    return np.stack([hits, target, prediction], axis=1)


def test_micro_randomization_is_within_monte_carlo_error_of_the_exact_test():
    rng = np.random.default_rng(21)
    pairs = [(count_triples(rng, n), count_triples(rng, n)) for n in (3, 6, 9, 11, 11)]
    # One call per size: the pairs of one call share their examples.
    exact = [exact_micro_p_value(system.tolist(), baseline.tolist()) for system, baseline in pairs]
    approximate = [micro_randomization_p_values([pair], 0.5, TRIALS, seed=4)[0] for pair in pairs]
    for e, a in zip(exact, approximate):
        assert abs(a - e) <= 4 * math.sqrt(e * (1 - e) / TRIALS) + 1 / (TRIALS + 1), (exact, approximate)
    assert sum(0.05 < e < 0.95 for e in exact) >= 2, exact


def test_micro_randomization_ties_and_extremes():
    counts = count_triples(np.random.default_rng(5), 40)
    assert micro_randomization_p_values([(counts, counts)], 0.5, 500, seed=1).tolist() == [1.0]
    perfect = np.stack([counts[:, 1], counts[:, 1], counts[:, 1]], axis=1)  # every target token predicted
    nothing = np.stack([np.zeros(40, dtype=int), counts[:, 1], counts[:, 2]], axis=1)
    assert micro_randomization_p_values([(perfect, nothing)], 0.5, 500, seed=1).tolist() == [1 / 501]
    assert micro_randomization_p_values([(nothing, perfect)], 0.5, 500, seed=1).tolist() == [1.0]
