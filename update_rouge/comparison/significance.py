"""Paired approximate randomization, its exact counterpart, and Holm-Bonferroni adjustment.

The test (docs/compare.md): with ``d_i = system F1 - baseline F1`` per example, a trial swaps
each example's pair independently with probability 1/2 (``T = sum(s_i * d_i)``); the one-sided
p-value that the system is not better is ``(1 + k) / (R + 1)``, ``k`` the trials of the ``R``
with ``T >= D - n * eps * sum(|d_i|)`` (``D = sum(d_i)``, ``eps`` = 2**-52: a bound on the
rounding of the two sums, so that exact ties count). Trial ``t`` swaps example ``i`` when bit
``i % 64`` of word ``i // 64`` of row ``t`` of ``np.random.default_rng(seed).integers(0, 2**64
- 1, size=(R, ceil(n / 64)), dtype=np.uint64, endpoint=True)`` is 1, drawn in blocks of one
stream; every system and rouge type is tested on the same trials.

Under ``average="micro"`` a trial swaps each example's count triples instead and the statistic
is the difference of the micro F of the summed counts (``micro.micro_scores``), ties within
``8 * eps``. ``exact_permutation_p_value`` enumerates all ``2**n`` sign patterns with exact sums:
the value the approximate test estimates.
"""

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from ..errors import Name, OptionError, Setting
from ..micro import micro_scores
from ..option_numbers import is_integer

DEFAULT_N_TRIALS = 10000
MAX_N_TRIALS = 10_000_000
"""The most randomization trials (a p-value's Monte Carlo standard error is then at most 0.00016).
Checked before scoring."""
MAX_EXACT_EXAMPLES = 16
_SIGNS_PER_BLOCK = 1 << 22
_WORD_BITS = 64


def check_n_trials(n_trials: int) -> None:
    """``OptionError`` unless ``n_trials`` is a positive integer (not a boolean) at most ``MAX_N_TRIALS``."""
    if not is_integer(n_trials) or n_trials < 1:
        raise OptionError(
            "n_trials",
            n_trials,
            (Name("n_trials"), f" must be a positive integer, got {n_trials!r}"),
            [[Setting("n_trials", DEFAULT_N_TRIALS)]],
        )
    if n_trials > MAX_N_TRIALS:
        raise OptionError(
            "n_trials",
            n_trials,
            (
                Name("n_trials"),
                f" must be at most {MAX_N_TRIALS:,} trials (the p-value's Monte Carlo error is then "
                f"at most 0.00016), got {n_trials!r}",
            ),
            [[Setting("n_trials", MAX_N_TRIALS)]],
        )


def _swap_blocks(n_trials: int, n_examples: int, seed: int):
    """Consecutive blocks of the ``n_trials x n_examples`` sign matrix (+1 keep, -1 swap), as floats."""
    rng = np.random.default_rng(seed)
    words = -(-n_examples // _WORD_BITS)
    rows_per_block = max(1, _SIGNS_PER_BLOCK // n_examples)
    for start in range(0, n_trials, rows_per_block):
        rows = min(rows_per_block, n_trials - start)
        raw = rng.integers(0, np.iinfo(np.uint64).max, size=(rows, words), dtype=np.uint64, endpoint=True)
        octets = raw.astype("<u8", copy=False).view(np.uint8).reshape(rows, words * 8)
        swaps = np.unpackbits(octets, axis=1, count=n_examples, bitorder="little")
        yield 1.0 - 2.0 * swaps


def randomization_p_values(differences: np.ndarray, n_trials: int, seed: int) -> np.ndarray:
    """One-sided approximate randomization p-value of each row of ``differences`` (``k x n``,
    per-example system minus baseline), all rows on the same ``n_trials`` trials; see the module
    docstring. Returns ``k`` floats in ``[1 / (n_trials + 1), 1]``."""
    differences = np.atleast_2d(np.asarray(differences, dtype=float))
    n_examples = differences.shape[1]
    observed = np.array([math.fsum(row) for row in differences])
    tolerance = n_examples * np.finfo(float).eps * np.abs(differences).sum(axis=1)
    threshold = observed - tolerance
    at_least = np.zeros(len(differences), dtype=np.int64)
    for signs in _swap_blocks(n_trials, n_examples, seed):
        at_least += np.count_nonzero(signs @ differences.T >= threshold, axis=0)
    return (1 + at_least) / (n_trials + 1)


def micro_randomization_p_values(
    pairs: Sequence[tuple[np.ndarray, np.ndarray]], alpha: float, n_trials: int, seed: int
) -> np.ndarray:
    """One-sided approximate randomization p-value of the micro F of each pair (system counts,
    baseline counts; ``n x 3`` integers per example, ``micro.CountColumns``' rows), all pairs
    on the same ``n_trials`` trials; see the module docstring. Returns floats in
    ``[1 / (n_trials + 1), 1]``."""
    n_examples = len(pairs[0][0])
    totals = [(system.sum(axis=0), baseline.sum(axis=0)) for system, baseline in pairs]
    observed = np.array(
        [micro_scores(system, alpha)[2] - micro_scores(baseline, alpha)[2] for system, baseline in totals]
    )
    threshold = observed - 8 * np.finfo(float).eps
    moves = [(baseline - system).astype(float) for system, baseline in pairs]  # what a swap adds to the system
    at_least = np.zeros(len(pairs), dtype=np.int64)
    for signs in _swap_blocks(n_trials, n_examples, seed):
        swapped = (1.0 - signs) / 2.0  # 1 where the trial swaps the example; sums of integers below 2**53 are exact
        for row, ((system, baseline), move) in enumerate(zip(totals, moves)):
            moved = swapped @ move
            statistic = micro_scores(system + moved, alpha)[2] - micro_scores(baseline - moved, alpha)[2]
            at_least[row] += np.count_nonzero(statistic >= threshold[row])
    return (1 + at_least) / (n_trials + 1)


def exact_permutation_p_value(differences: Sequence[float]) -> float:
    """The exact paired permutation p-value over all ``2**n`` swap patterns:
    ``#{s in {+1,-1}^n: sum(s_i d_i) >= sum(d_i) - n * eps * sum(|d_i|)} / 2**n``, every sum in
    exact rational arithmetic (floats are binary fractions), ties as in the module docstring.

    Raises ``ValueError`` for more than ``MAX_EXACT_EXAMPLES`` examples (``2**n`` patterns).
    """
    values = [Fraction(float(d)) for d in differences]
    n = len(values)
    if not 1 <= n <= MAX_EXACT_EXAMPLES:
        raise ValueError(f"the exact test enumerates 2**n swaps: n must be 1 to {MAX_EXACT_EXAMPLES}, got {n}")
    # Every float is an integer over a power of two: scaled to integers, the sums are exact and fast.
    scale = max(value.denominator for value in values)
    integers = [value.numerator * (scale // value.denominator) for value in values]
    tolerance = n * Fraction(np.finfo(float).eps) * sum(abs(value) for value in integers)
    threshold = sum(integers) - tolerance
    at_least = sum(
        sum(sign * d for sign, d in zip(signs, integers)) >= threshold for signs in itertools.product((1, -1), repeat=n)
    )
    return at_least / 2**n


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values of ``m`` tests, in the input order.

    With ``p_(1) <= ... <= p_(m)`` sorted (ties keep their order), the adjusted ``p_(j)`` is
    ``max over i <= j of min(1, (m - i + 1) * p_(i))``. Rejecting where the adjusted value is
    below ``alpha`` controls the family-wise error rate at ``alpha``.
    """
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    m = len(p)
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    return adjusted
