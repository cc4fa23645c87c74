"""The micro average: corpus precision, recall and F from counts summed over the examples.

Definition (docs/statistics.md, "Macro and micro averages"): each example contributes, per rouge
type, the integer ``engines.Counts`` behind its score (those of the reference ``multi_ref``
picks, or their ``pooled`` sums; none under the no-additions rule). With H, T and P the sums:
precision = H / P and recall = H / T, each 0.0 where its denominator is 0; F as
``rouge155_options.alpha_score`` forms it (0 where its denominator is 0). The bootstrap resamples
the examples as ``bootstrap`` does and sums each resample's counts into a micro F. ROUGE-W has
no micro average: ROUGE-1.5.5 defines no sums of its weighted counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .bootstrap import Resampling, over_resamples, p_values_not_better, percentile_intervals
from .engines import Counts
from .errors import LEFT_OUT, Name, OptionError, Setting
from .rouge155_options import DEFAULT_ALPHA
from .rouge_types import parse_rouge_type

if TYPE_CHECKING:
    import numpy as np

AVERAGES = ("macro", "micro")
DEFAULT_AVERAGE = "macro"
NO_COUNTS = Counts(0, 0, 0)

CountColumns = Mapping[str, "np.ndarray"]
"""Per output key ``update_<type>``, an ``n x 3`` integer array: hits, target, prediction per example."""


def check_average(average: str, rouge_types: Sequence[str]) -> str:
    """``average`` if it is one of ``AVERAGES`` and, for ``micro``, no type is ROUGE-W; else ``OptionError``."""
    if not isinstance(average, str) or average not in AVERAGES:
        raise OptionError(
            "average",
            average,
            (Name("average"), f" must be one of {', '.join(AVERAGES)}, got {average!r}"),
            [[Setting("average", LEFT_OUT)]],
        )
    weighted = [name for name in rouge_types if not parse_rouge_type(name).has_micro_counts]
    if average == "micro" and weighted:
        kept = [name for name in rouge_types if name not in weighted]
        raise OptionError(
            "average",
            average,
            (Setting("average", "micro"), f" is not defined for ROUGE-W ({', '.join(weighted)})"),
            [[Setting("average", LEFT_OUT)], *([[Setting("rouge_types", kept)]] if kept else [])],
        )
    return average


def count_columns(
    per_example: Sequence[Mapping[str, Counts]], rouge_types: Sequence[str], prefix: str = "update_"
) -> dict[str, list[Counts]]:
    """Per output key ``<prefix><type>`` (``update_<type>``; the deletions' ``update_del_<type>``),
    the counts each example contributes, in input order."""
    return {f"{prefix}{rouge_type}": [counts[rouge_type] for counts in per_example] for rouge_type in rouge_types}


def as_arrays(columns: Mapping[str, Sequence[Counts]]) -> dict[str, np.ndarray]:
    """``count_columns`` as ``n x 3`` int64 arrays (``CountColumns``)."""
    import numpy as np

    return {key: np.asarray(rows, dtype=np.int64).reshape(-1, 3) for key, rows in columns.items()}


def micro_scores(sums: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F of summed counts (``sums[..., 0:3]``: hits, target, prediction),
    by the formulas of the module docstring."""
    import numpy as np

    hits, target, prediction = (sums[..., field].astype(np.float64) for field in range(3))
    precision = np.divide(hits, prediction, out=np.zeros_like(hits), where=prediction > 0)
    recall = np.divide(hits, target, out=np.zeros_like(hits), where=target > 0)
    if alpha == DEFAULT_ALPHA:
        numerator, denominator = 2 * precision * recall, precision + recall
    else:
        numerator, denominator = precision * recall, (1 - alpha) * precision + alpha * recall
    fmeasure = np.divide(numerator, denominator, out=np.zeros_like(hits), where=denominator > 0)
    return precision, recall, fmeasure


def micro_means(counts: CountColumns, alpha: float) -> dict[str, float]:
    """The micro precision, recall and F of each key, under the keys of the macro means
    (``update_<type>``, ``update_<type>_precision``, ``update_<type>_recall``)."""
    results: dict[str, float] = {}
    for key, rows in counts.items():
        precision, recall, fmeasure = micro_scores(rows.sum(axis=0), alpha)
        results.update({key: float(fmeasure), f"{key}_precision": float(precision), f"{key}_recall": float(recall)})
    return results


def _resample_f(counts: CountColumns, alpha: float, n_bootstrap: int, seed: int, threads: int) -> np.ndarray:
    """The micro F of each key (rows, in key order) in each resample (columns), computed on
    ``threads`` threads (``bootstrap.over_resamples``)."""
    import numpy as np

    keys = list(counts)
    n_examples = len(counts[keys[0]])
    values = np.empty((len(keys), n_bootstrap))

    def key_f(row: int, start: int, stop: int, indices: np.ndarray) -> None:
        columns = counts[keys[row]]
        sums = np.stack([columns[:, field][indices].sum(axis=1) for field in range(3)], axis=-1)
        values[row, start:stop] = micro_scores(sums, alpha)[2]

    over_resamples(n_examples, n_bootstrap, seed, len(keys), key_f, threads)
    return values


def micro_bootstrap_statistics(
    counts: CountColumns, baseline: CountColumns | None, alpha: float, resampling: Resampling
) -> dict[str, float]:
    """``bootstrap.bootstrap_statistics``'s keys for the micro F of each key of ``counts`` (and
    against a ``baseline``), on ``resampling``'s resamples (the same numbers on any threads)."""
    confidence_level, n_bootstrap, seed, threads = resampling
    if confidence_level is None and baseline is None:
        return {}
    keys = list(counts)
    system_f = _resample_f(counts, alpha, n_bootstrap, seed, threads)
    results: dict[str, float] = {}
    if confidence_level is not None:
        low, high = percentile_intervals(system_f, confidence_level)
        for key, key_low, key_high in zip(keys, low, high):
            results.update({f"{key}_low": float(key_low), f"{key}_high": float(key_high)})
    if baseline is not None:
        differences = system_f - _resample_f(baseline, alpha, n_bootstrap, seed, threads)
        system_means, baseline_means = micro_means(counts, alpha), micro_means(baseline, alpha)
        for key, p_value in zip(keys, p_values_not_better(differences)):
            results.update({f"{key}_delta": system_means[key] - baseline_means[key], f"{key}_p_value": float(p_value)})
        if confidence_level is not None:
            low, high = percentile_intervals(differences, confidence_level)
            for key, key_low, key_high in zip(keys, low, high):
                results.update({f"{key}_delta_low": float(key_low), f"{key}_delta_high": float(key_high)})
    return results
