"""Speed of comparing systems (``update_rouge.comparison.systems.compare_scores``), scoring excluded.

5 systems (one the baseline) x 5,000 examples x 3 rouge types of per-example F1, drawn from a
seeded generator (the statistics do not look at the values' origin): every system's mean and
95% percentile bootstrap interval, and the paired test of the 4 others against the baseline,
with Holm's correction:

- bootstrap: 1,000 resamples (intervals and tests on the same resamples);
- randomization: 10,000 trials for the tests, plus the 1,000-resample intervals.

Each figure is the median wall time of ``--repeats`` interleaved repetitions.

Run from the repository root: python benchmarks/compare.py [--repeats 5]
"""

import argparse

import numpy as np
from engine import median_times

from update_rouge.comparison.systems import SignificanceTest, compare_scores
from update_rouge.settings import Settings

TYPES = ("update_rouge1", "update_rouge2", "update_rougeLsum")


def per_example_scores(n_systems=5, n_examples=5000, seed=0):
    """System name -> output key -> per-example F1 in [0, 1], systems of slightly different skill."""
    rng = np.random.default_rng(seed)
    difficulty = rng.beta(2, 3, size=n_examples)
    return {
        f"system{index}": {
            key: np.clip(difficulty + 0.01 * index + rng.normal(0, 0.15, n_examples), 0, 1).tolist() for key in TYPES
        }
        for index in range(n_systems)
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    scores = per_example_scores()
    settings = Settings(n_bootstrap=1000)
    contenders = {
        "bootstrap, 1,000 resamples": lambda: compare_scores(
            scores, "system0", SignificanceTest("bootstrap", "holm"), settings
        ),
        "randomization, 10,000 trials": lambda: compare_scores(
            scores, "system0", SignificanceTest("randomization", "holm", 10000), settings
        ),
    }
    for name, seconds in median_times(contenders, args.repeats).items():
        print(f"{name}: {seconds:.2f} s (median of {args.repeats})")


if __name__ == "__main__":
    main()
