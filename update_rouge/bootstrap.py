"""Bootstrap confidence intervals and a paired bootstrap test over examples, deterministic by seed.

The method (docs/statistics.md): ``n_bootstrap`` resamples of the ``n`` examples, the rows of
``np.random.default_rng(seed).integers(0, n, size=(n_bootstrap, n))`` (drawn in blocks, the
same stream; global random states untouched), shared by every statistic of one call. Intervals:
the ``alpha / 2`` and ``1 - alpha / 2`` quantiles of the resample means (``np.quantile``,
``method="linear"``), ``alpha = 1 - confidence_level``. Paired test: with ``d = system F1 -
baseline F1`` per example, the one-sided p-value ``(1 + k) / (n_bootstrap + 1)``, ``k`` the
resamples whose mean ``d`` is ``<= 0``; the difference's interval as above, over the means of
``d``. The resamples come from NumPy's ``Generator.integers``, so NumPy's version is in the
signature.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from .errors import LEFT_OUT, Name, OptionError, Setting
from .example_tables import mean
from .option_numbers import is_integer, is_real
from .parallel import available_cpus

if TYPE_CHECKING:
    from concurrent.futures import Future

    import numpy as np

DEFAULT_CONFIDENCE_LEVEL = 0.95
DEFAULT_N_BOOTSTRAP = 1000
DEFAULT_SEED = 12345
MAX_N_BOOTSTRAP = 10_000_000
"""The most resamples: their means take 8 bytes per resample and statistic. Checked before any
scoring."""
_INDICES_PER_BLOCK = 1 << 22


class Resampling(NamedTuple):
    """The bootstrap's settings and the threads its resamples are computed on."""

    confidence_level: float | None
    n_bootstrap: int
    seed: int
    threads: int = 1


def check_paired(use_aggregator: bool) -> None:
    """Raise ``OptionError`` unless a paired test against a baseline can be run: it needs ``use_aggregator``."""
    if not use_aggregator:
        raise OptionError(
            "baseline_predictions",
            LEFT_OUT,
            (
                Name("baseline_predictions"),
                " needs ",
                Setting("use_aggregator", True),
                ": the paired test compares corpus means, and per-example values (",
                Setting("use_aggregator", False),
                ") come without intervals or tests",
            ),
            [[Setting("use_aggregator", LEFT_OUT)], [Setting("baseline_predictions", LEFT_OUT)]],
        )


def check_bootstrap_options(
    confidence_level: float | None, n_bootstrap: int, seed: int, use_aggregator: bool, paired: bool
) -> None:
    """``OptionError`` unless ``confidence_level`` is ``None`` or in (0, 1), ``n_bootstrap`` a
    positive integer at most ``MAX_N_BOOTSTRAP``, ``seed`` a non-negative integer (not a boolean)
    and, for a ``paired`` test, ``use_aggregator`` true."""
    if paired:
        check_paired(use_aggregator)
    if confidence_level is not None:
        if not is_real(confidence_level) or not 0 < confidence_level < 1:
            raise OptionError(
                "confidence_level",
                confidence_level,
                (Name("confidence_level"), f" must be a number strictly between 0 and 1, got {confidence_level!r}"),
                [[Setting("confidence_level", DEFAULT_CONFIDENCE_LEVEL)], [Setting("confidence_level", None)]],
            )
    if not is_integer(n_bootstrap) or n_bootstrap < 1:
        raise OptionError(
            "n_bootstrap",
            n_bootstrap,
            (Name("n_bootstrap"), f" must be a positive integer, got {n_bootstrap!r}"),
            [[Setting("n_bootstrap", DEFAULT_N_BOOTSTRAP)]],
        )
    if n_bootstrap > MAX_N_BOOTSTRAP:
        raise OptionError(
            "n_bootstrap",
            n_bootstrap,
            (
                Name("n_bootstrap"),
                f" must be at most {MAX_N_BOOTSTRAP:,} resamples (their means alone would take "
                f"{8 * n_bootstrap:,} bytes per rouge type), got {n_bootstrap!r}",
            ),
            [[Setting("n_bootstrap", MAX_N_BOOTSTRAP)]],
        )
    if not is_integer(seed) or seed < 0:
        raise OptionError(
            "seed",
            seed,
            (Name("seed"), f" must be a non-negative integer, got {seed!r}"),
            [[Setting("seed", DEFAULT_SEED)]],
        )


def resample_means(columns: np.ndarray, n_bootstrap: int, seed: int, threads: int = 1) -> np.ndarray:
    """Mean of each row of ``columns`` (``k x n``: k per-example columns over n examples) in each of
    the ``n_bootstrap`` resamples; shape ``k x n_bootstrap``, the same numbers on any number of
    ``threads``. NumPy means (pairwise summation): they can differ from ``corpus.mean``'s in the
    last bits."""
    import numpy as np

    n_columns, n_examples = columns.shape
    means = np.empty((n_columns, n_bootstrap))

    def column_means(row: int, start: int, stop: int, indices: np.ndarray) -> None:
        means[row, start:stop] = columns[row][indices].mean(axis=1)

    over_resamples(n_examples, n_bootstrap, seed, n_columns, column_means, threads)
    return means


def over_resamples(
    n_examples: int,
    n_bootstrap: int,
    seed: int,
    n_tasks: int,
    task: Callable[[int, int, int, np.ndarray], None],
    threads: int = 1,
) -> None:
    """Call ``task(t, start, stop, indices)`` for each ``t`` below ``n_tasks`` and each block of
    ``resample_blocks``; each task must write to places of its own, so that the results do not
    depend on the order. With ``threads`` > 1 (capped at the CPUs available) the tasks run on
    that many threads while this one draws the next block, in smaller blocks, so that the blocks
    held take no more memory than one thread's."""
    threads = min(threads, available_cpus())
    most_rows = None
    if threads > 1:
        most_rows = min(
            math.ceil(n_bootstrap / (4 * threads)), max(1, _INDICES_PER_BLOCK // ((threads + 1) * n_examples))
        )
    blocks = resample_blocks(n_examples, n_bootstrap, seed, most_rows)
    if threads <= 1:
        for start, stop, indices in blocks:
            for number in range(n_tasks):
                task(number, start, stop, indices)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(threads, thread_name_prefix="update-rouge-bootstrap") as pool:
        held: deque[list[Future]] = deque()
        for block in blocks:
            held.append([pool.submit(task, number, *block) for number in range(n_tasks)])
            while len(held) > threads:
                for future in held.popleft():
                    future.result()
        for futures in held:
            for future in futures:
                future.result()


def resample_blocks(
    n_examples: int, n_bootstrap: int, seed: int, most_rows: int | None = None
) -> Iterator[tuple[int, int, np.ndarray]]:
    """The resamples in blocks ``(start, stop, indices)``: rows ``start`` to ``stop`` of the
    ``n_bootstrap x n_examples`` matrix of example indices, at most ``_INDICES_PER_BLOCK`` indices
    (a row at least) and ``most_rows`` rows a block."""
    import numpy as np

    rng = np.random.default_rng(seed)
    rows_per_block = max(1, min(_INDICES_PER_BLOCK // n_examples, most_rows or n_bootstrap))
    for start in range(0, n_bootstrap, rows_per_block):
        stop = min(start + rows_per_block, n_bootstrap)
        yield start, stop, rng.integers(0, n_examples, size=(stop - start, n_examples))


def percentile_intervals(means: np.ndarray, confidence_level: float) -> tuple[np.ndarray, np.ndarray]:
    """Low and high percentile bootstrap bounds of each row of resample ``means`` (``k x B``)."""
    import numpy as np

    alpha = 1.0 - confidence_level
    low, high = np.quantile(means, [alpha / 2, 1 - alpha / 2], axis=1, method="linear")
    return low, high


def p_values_not_better(mean_differences: np.ndarray) -> np.ndarray:
    """One-sided p-value per row of resample mean differences (``k x B``, system minus baseline):
    ``(1 + number of resamples <= 0) / (B + 1)``, in (0, 1]."""
    import numpy as np

    n_bootstrap = mean_differences.shape[1]
    return (1 + np.count_nonzero(mean_differences <= 0, axis=1)) / (n_bootstrap + 1)


def bootstrap_statistics(
    system: Mapping[str, Sequence[float]],
    baseline: Mapping[str, Sequence[float]] | None,
    confidence_level: float | None,
    n_bootstrap: int,
    seed: int,
    threads: int = 1,
) -> dict[str, float]:
    """Intervals and paired tests for each key of ``system`` (an output key such as ``update_rouge1``
    -> its per-example values), all from one set of resamples; ``baseline``, if given, maps the
    same keys to the baseline's values on the same examples.

    Returns ``<key>_low`` and ``<key>_high`` (unless ``confidence_level`` is ``None``) and, with a
    baseline, ``<key>_delta`` (exact mean of the system minus that of the baseline),
    ``<key>_p_value`` and (unless ``confidence_level`` is ``None``) ``<key>_delta_low`` and
    ``<key>_delta_high``; all plain floats.
    """
    interval_keys = list(system) if confidence_level is not None else []
    test_keys = list(system) if baseline is not None else []
    if not interval_keys + test_keys:
        return {}
    import numpy as np

    columns = [np.asarray(system[key], dtype=float) for key in interval_keys]
    if baseline is not None:
        columns += [np.asarray(system[key], dtype=float) - np.asarray(baseline[key], dtype=float) for key in test_keys]
    means = resample_means(np.vstack(columns), n_bootstrap, seed, threads)
    results: dict[str, float] = {}
    if confidence_level is not None and interval_keys:
        low, high = percentile_intervals(means[: len(interval_keys)], confidence_level)
        for key, key_low, key_high in zip(interval_keys, low, high):
            results[f"{key}_low"] = float(key_low)
            results[f"{key}_high"] = float(key_high)
    if baseline is not None and test_keys:
        differences = means[len(interval_keys) :]
        p_values = p_values_not_better(differences)
        for key, p_value in zip(test_keys, p_values):
            results[f"{key}_delta"] = mean(system[key]) - mean(baseline[key])
            results[f"{key}_p_value"] = float(p_value)
        if confidence_level is not None:
            low, high = percentile_intervals(differences, confidence_level)
            for key, key_low, key_high in zip(test_keys, low, high):
                results[f"{key}_delta_low"] = float(key_low)
                results[f"{key}_delta_high"] = float(key_high)
    return results
