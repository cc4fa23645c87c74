"""UpdateROUGE on a Ray cluster: exact corpus results of the per-example scores that
``ray_batches`` computes as a Ray Data transform; the import path docs/ray.md gives for both.

Needs the optional extra ``pip install 'update-rouge[ray]'``.

- ``ray_batches``' ``score_dataset``, ``BatchScorer``, ``score_jsonl`` and ``output_columns``
  (the per-example columns), imported here, where docs/ray.md imports them from.
- ``corpus_scores``: from a scored dataset, what ``compute`` returns for the same examples and
  options, bit for bit whatever the blocks, their sizes and their order of completion. The
  driver reads the scored blocks one at a time and keeps only their numbers.
"""

import math
from typing import Any

import numpy as np

from ..errors import LEFT_OUT, Field, InputError, OptionError, Setting
from ..extras import extra_imports

with extra_imports(
    "scoring on Ray needs the optional extra: pip install 'update-rouge[ray]'",
    {"pyarrow": "Table", "ray": "is_initialized"},
):
    import pyarrow as pa
    import pyarrow.compute as pc
    import ray

from ..corpus import corpus_statistics
from ..example_tables import RunningTotals, f1_columns
from ..protocols import rules_of
from ..settings import Settings
from ..signature import build_signature
from .ray_batches import NOT_RAY, ROW_COLUMN, BatchScorer, output_columns, score_dataset, score_jsonl
from .ray_counts import count_arrays, count_column_names
from .ray_errors import check_columns, worker_error
from .refusals import refuse_given, refuse_unknown

# The documented import path of the Ray Data functions (docs/ray.md): these live in ray_batches.
__all__ = ["BatchScorer", "corpus_scores", "output_columns", "score_dataset", "score_jsonl"]

_REFERENCE_COUNT = "_reference_count"


def _numbers(batch: pa.Table, keys: list[str], row_column: str, reference_column: str) -> pa.Table:
    """The numeric columns of ``batch`` the corpus result needs (``row``, ``keys``, references
    per example); ``ValueError`` for a key the batch lacks (scored with other options),
    ``OptionError`` for a missing ``row`` or ``reference`` column."""
    check_columns(batch.column_names, {"row_column": row_column, "reference_column": reference_column})
    missing = [key for key in keys if key not in batch.column_names]
    if missing:
        raise InputError(
            Field("scored"),
            (
                f"the scored dataset has no column {missing[0]!r}: score it with the options given here "
                "(average='micro' adds the count columns, deletions=True the deletions' columns)",
            ),
        )
    reference = batch.column(reference_column)
    counts = (
        pc.list_value_length(reference)
        if pa.types.is_list(reference.type) or pa.types.is_large_list(reference.type)
        else pa.array(np.ones(batch.num_rows, dtype=np.int64))
    )
    return batch.select([row_column, *keys]).append_column(_REFERENCE_COUNT, counts)


def _gather(scored, keys: list[str], ordered_keys: list[str], row_column: str, reference_column: str):
    """One pass over ``scored``: exact running totals of ``keys``, the ``ordered_keys`` columns
    (F1 or count columns) in ``row`` order, reference counts."""
    totals = RunningTotals()
    rows: list[np.ndarray] = []
    parts: dict[str, list[np.ndarray]] = {key: [] for key in ordered_keys}
    low, high = math.inf, 0
    selected = list(dict.fromkeys(keys + ordered_keys))
    # The driver selects the numbers from each block as it arrives: a Ray stage would cost a task per block.
    try:
        for block in scored.iter_batches(batch_format="pyarrow", batch_size=None):
            if block.num_rows == 0:
                continue
            batch = _numbers(block, selected, row_column, reference_column)
            totals.add({key: batch.column(key).to_pylist() for key in keys})
            rows.append(batch.column(row_column).to_numpy())
            for key in ordered_keys:
                parts[key].append(batch.column(key).to_numpy())
            counts = batch.column(_REFERENCE_COUNT)
            low, high = min(low, pc.min(counts).as_py()), max(high, pc.max(counts).as_py())
    except ray.exceptions.RayTaskError as error:
        raise worker_error(error) from None
    if totals.count == 0:
        raise InputError(Field("scored"), ("the dataset has no rows: there is nothing to score",))
    row = np.concatenate(rows)
    order = np.argsort(row, kind="stable")
    repeated = np.flatnonzero(np.diff(row[order]) == 0)
    if repeated.size:
        raise InputError(
            Field(row_column),
            (f"{row_column} {row[order][repeated[0]]} occurs more than once: {row_column} must be unique",),
        )
    ordered = {key: np.concatenate(key_parts)[order] for key, key_parts in parts.items()}
    return totals, row[order], ordered, (int(low), int(high))


def corpus_scores(
    scored: "ray.data.Dataset",
    baseline: "ray.data.Dataset | None" = None,
    row_column: str = ROW_COLUMN,
    reference_column: str = "reference",
    **options: Any,
) -> dict[str, Any]:
    """What ``compute(sources, predictions, references, **options)`` returns for the rows of
    ``scored`` (a dataset with the columns ``BatchScorer`` adds, scored with the same
    ``options``), bit for bit. ``baseline``: the same rows scored with the baseline system's
    predictions, for ``compute``'s paired test. ``options`` are ``compute``'s keyword arguments
    (``use_aggregator`` must stay true). Runs ``scored`` (and ``baseline``) once. The error a
    scoring task raised for the user (``ray_errors.USER_ERRORS``) is raised here as that same
    object; any other failure of a task that Ray gave up on as ``RuntimeError``.
    """
    settings = _check_corpus_options(options)
    micro = settings.average == "micro"
    keys = output_columns(settings.rouge_types, settings.deletions)
    if micro:
        ordered_keys = count_column_names(settings.rouge_types, settings.deletions)
    else:
        ordered_keys = list(f1_columns(dict.fromkeys(keys, []), settings.rouge_types))
    totals, rows, ordered, references = _gather(scored, keys, ordered_keys, row_column, reference_column)
    baseline_ordered = None
    if baseline is not None:
        _, baseline_rows, baseline_ordered, _ = _gather(baseline, keys, ordered_keys, row_column, reference_column)
        if not np.array_equal(rows, baseline_rows):
            raise InputError(
                Field("baseline"), (f"baseline must hold the same {row_column} values as the scored dataset",)
            )
    if micro:
        ordered = count_arrays(ordered, settings.rouge_types, settings.deletions)
        if baseline_ordered is not None:
            baseline_ordered = count_arrays(baseline_ordered, settings.rouge_types, settings.deletions)
    # As corpus.Corpus.result: the exact means, then corpus.py's statistics of the columns in row order.
    result = totals.result()
    result.update(corpus_statistics(ordered, baseline_ordered, settings))
    if options.get("return_signature"):
        # The signature reads only how many references examples have: the fewest and the most.
        low, high = references
        signature_options = {key: value for key, value in options.items() if key != "baseline_predictions"}
        result["signature"] = build_signature(
            references=[[""] * low, [""] * high],
            baseline_predictions=() if baseline is not None else None,
            **signature_options,
        )
    return result


def _check_corpus_options(options: dict[str, Any]) -> Settings:
    """The ``Settings`` of ``options`` (``compute``'s keyword arguments); ``ValueError`` for
    options ``compute`` refuses or ``corpus_scores`` cannot honour."""
    refuse_unknown(options, "corpus_scores()")
    if options.get("use_aggregator", True) is not True:
        why = "it gives corpus results; read per-example values from the scored dataset"
        refuse_given(options, ("use_aggregator",), "corpus_scores", why)
    for name, why in NOT_RAY.items():
        if name != "use_aggregator":
            refuse_given(options, (name,), "corpus_scores", why)
    settings = Settings.from_options(options)
    if rules_of(settings.protocol).bootstrap_median:
        raise OptionError(
            "protocol",
            settings.protocol,
            (
                Setting("protocol", settings.protocol),
                " cannot be set for corpus_scores: its bootstrap median needs every example's scores in "
                "order; use compute, or the command line's --ray",
            ),
            [[Setting("protocol", LEFT_OUT)]],
        )
    return settings
