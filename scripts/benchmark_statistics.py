"""Time of UpdateROUGE's bootstrap against rouge-score's BootstrapAggregator, in the same run.

Both resample 5,000 examples 1,000 times for three rouge types; ours also runs the paired test
against a baseline on the same resamples. Prints the median of 5 repetitions of each and the
ratio. The scores are synthetic: the time does not depend on their values.

Usage: python scripts/benchmark_statistics.py
"""

import statistics
import time

import numpy as np
from rouge_score.scoring import BootstrapAggregator, Score

from update_rouge.bootstrap import bootstrap_statistics

N_EXAMPLES, N_BOOTSTRAP, REPETITIONS = 5000, 1000, 5
TYPES = ("rouge1", "rouge2", "rougeLsum")


def median_seconds(function):
    times = []
    for _ in range(REPETITIONS):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def rouge_score_bootstrap(scores):
    aggregator = BootstrapAggregator(n_samples=N_BOOTSTRAP)
    for example in scores:
        aggregator.add_scores(example)
    return aggregator.aggregate()


def main():
    rng = np.random.default_rng(0)
    f1 = {rouge_type: rng.random(N_EXAMPLES) for rouge_type in TYPES}
    baseline = {f"update_{t}": rng.random(N_EXAMPLES).tolist() for t in TYPES}
    system = {f"update_{t}": f1[t].tolist() for t in TYPES}
    scores = [{t: Score(f1[t][i], f1[t][i], f1[t][i]) for t in TYPES} for i in range(N_EXAMPLES)]

    reference = median_seconds(lambda: rouge_score_bootstrap(scores))
    intervals = median_seconds(lambda: bootstrap_statistics(system, None, 0.95, N_BOOTSTRAP, 12345))
    paired = median_seconds(lambda: bootstrap_statistics(system, baseline, 0.95, N_BOOTSTRAP, 12345))
    print(f"{N_EXAMPLES} examples x {N_BOOTSTRAP} resamples x {len(TYPES)} types, median of {REPETITIONS}:")
    print(f"  rouge-score BootstrapAggregator:          {reference:.3f} s")
    print(f"  update-rouge intervals:                   {intervals:.3f} s  ({intervals / reference:.2f} x)")
    print(f"  update-rouge intervals and paired test:   {paired:.3f} s  ({paired / reference:.2f} x)")


if __name__ == "__main__":
    main()
