"""UpdateROUGE on a Ray cluster: per-example scores as a Ray Data transform, exact corpus results.

Needs the optional extra ``pip install 'update-rouge[ray]'``. Rows of a ``ray.data.Dataset``
carry ``source``, ``prediction``, ``reference`` (a string, or a list of strings for several
references) and ``row``: an integer giving the row's place in the input (unique; ascending
``row`` is the input order). Other names are set with the ``*_column`` arguments.

- ``BatchScorer``: a callable class for ``ds.map_batches`` (``score_dataset`` applies it)
  adding to each row the per-example columns of ``compute(..., use_aggregator=False)``, under
  the same names and with the same values; under ``average="micro"`` also the int64 count
  columns of ``ray_counts`` (``_counts_update_<type>_hits``, ``_target``, ``_prediction``).
- ``corpus_scores``: from a scored dataset, what ``compute`` returns for the same examples and
  options: means summed exactly (``corpus.RunningTotals``), the bootstrap interval (and the
  paired test against a scored baseline) from the F1 columns put back in ``row`` order (under
  ``average="micro"``: the micro values, interval and test of ``micro.py`` from the count
  columns put back in ``row`` order), and the signature. Equal bit for bit whatever the blocks,
  their sizes and their order of completion. The driver reads the scored blocks one at a time
  and keeps only their numbers.
- ``score_file_on_ray``: the command line's ``--ray [ADDRESS]``, on the cluster that
  ``ray_cluster.cluster`` starts or joins. The command line only cuts the file into chunks of
  raw lines (``file_chunks``); Ray tasks parse and check them (``chunks_dataset``), so the
  driver parses no text.

Scoring options (``rouge_types``, ``stemmer``, ``tokenizer``, ...) are ``compute``'s keyword
arguments, passed through unchanged; a custom tokenizer must be importable on every worker.
"""

import contextlib
import math
import os
import pickle
import re
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from ..extras import MissingExtra

try:
    import pyarrow as pa
    import pyarrow.compute as pc
    import ray
except ImportError as error:
    raise MissingExtra("scoring on Ray needs the optional extra: pip install 'update-rouge[ray]'") from error

from ..bootstrap import bootstrap_statistics
from ..corpus import RunningTotals, f1_columns, per_example_table
from ..file_chunks import Chunk
from ..inputs import check_inputs
from ..micro import count_columns, micro_bootstrap_statistics, micro_means
from ..no_tokens import warn_tokenless
from ..parallel import THREADS_VARIABLE
from ..rouge_types import check_rouge_types
from ..scorer import UpdateRougeScorer, compute
from ..settings import Settings
from ..signature import build_signature
from .ray_cluster import cluster
from .ray_counts import count_arrays, count_column_names, count_values

ROW_COLUMN = "row"
_REFERENCE_COUNT = "_reference_count"
_CHUNK = "_chunk"
_WARM_UP = (["a."], ["a. b."], ["a. c."])


def _scoring_options(options: Dict[str, Any]) -> Dict[str, Any]:
    """The keyword arguments of ``compute`` that score each example (no statistics, signature or baseline)."""
    corpus_only = ("confidence_level", "n_bootstrap", "seed", "return_signature", "baseline_predictions")
    return {key: value for key, value in options.items() if key not in corpus_only}


def output_columns(rouge_types: Optional[Sequence[str]] = None) -> List[str]:
    """Names of the per-example columns ``compute(use_aggregator=False)`` returns for these types."""
    return list(per_example_table([], check_rouge_types(rouge_types)))


class BatchScorer:
    """``ds.map_batches(BatchScorer, fn_constructor_kwargs=..., batch_format="pyarrow")``.

    Constructed once per Ray actor: it sizes the actor's Rayon pool (rouge-score-rs's threads)
    to the CPUs Ray assigned the actor, at least one, unless ``RAYON_NUM_THREADS`` is set (as
    Ray does for ``OMP_NUM_THREADS``; left at Rayon's default, every actor would start a thread
    per CPU of its node), imports the package and scores one tiny example, which checks the
    options and fills the per-process caches (tokenizer, stems) that every later batch of that
    actor reuses. Each batch (a ``pyarrow.Table``) comes back with the columns of
    ``output_columns(rouge_types)`` appended (replacing any of the same name): float64 scores
    and lengths, and the boolean ``_both_empty``; under ``average="micro"`` then the int64
    columns of ``ray_counts.count_column_names(rouge_types)``. A bad row raises ``ValueError``
    naming its ``row`` value and column, e.g. ``row 7: source must be a string, got None``.
    """

    def __init__(
        self,
        source_column: str = "source",
        prediction_column: str = "prediction",
        reference_column: str = "reference",
        row_column: str = ROW_COLUMN,
        **options: Any,
    ):
        self.columns = (source_column, prediction_column, reference_column)
        self.row_column = row_column
        self.options = _scoring_options(options)
        _size_native_threads()
        self.scorer = UpdateRougeScorer(use_aggregator=False, **self.options)
        self.scorer.tables(*_WARM_UP)

    def __call__(self, batch: pa.Table) -> pa.Table:
        sources, predictions, references = (batch.column(name).to_pylist() for name in self.columns)
        settings = self.scorer.settings
        if batch.num_rows == 0:
            table = per_example_table([], settings.rouge_types)
            counts = count_columns([], settings.rouge_types) if settings.average == "micro" else None
        else:
            try:
                # compute(..., use_aggregator=False)'s table, with the micro average's counts
                tables = self.scorer.tables(sources, predictions, references)
            except ValueError:
                self._raise_for_bad_row(batch, sources, predictions, references)
                raise
            warn_tokenless(tables.tokenless, batch.num_rows)
            table, counts = tables.table, tables.counts
        columns = {
            name: pa.array(values, pa.bool_() if name == "_both_empty" else pa.float64())
            for name, values in table.items()
        }
        if counts is not None:
            columns.update({name: pa.array(values, pa.int64()) for name, values in count_values(counts).items()})
        for name, values in columns.items():
            if name in batch.column_names:
                batch = batch.drop_columns([name])
            batch = batch.append_column(name, values)
        return batch

    def _raise_for_bad_row(self, batch: pa.Table, sources: list, predictions: list, references: list) -> None:
        """Raise ``ValueError`` naming the first row whose texts ``compute`` refuses, if one is."""
        rows = batch.column(self.row_column).to_pylist()
        for row, source, prediction, reference in zip(rows, sources, predictions, references):
            try:
                check_inputs([source], [prediction], [reference])
            except ValueError as error:
                message = str(error)
                for field, column in zip(("sources[0]", "predictions[0]", "references[0]"), self.columns):
                    message = message.replace(field, column)
                raise ValueError(f"{self.row_column} {row}: {message}") from None


def _size_native_threads() -> None:
    """In a Ray worker, set ``RAYON_NUM_THREADS`` to the CPUs Ray assigned it (rounded down, at
    least 1) unless the environment sets it; elsewhere (a driver) change nothing."""
    context = ray.get_runtime_context()
    if context.worker.mode != ray.WORKER_MODE:
        return
    cpus = context.get_assigned_resources().get("CPU", 1)
    os.environ.setdefault(THREADS_VARIABLE, str(max(1, math.floor(cpus))))


def score_dataset(
    ds: "ray.data.Dataset", batch_size: Optional[int] = 1024, concurrency: Optional[int] = None, **options: Any
) -> "ray.data.Dataset":
    """``ds`` with the per-example columns (lazy, as every Ray transform); ``options`` are the
    ``*_column`` names and ``compute``'s scoring keyword arguments. The options are checked here,
    on the driver, before anything runs on the cluster. ``batch_size``: rows an actor scores per
    task (``None``: one block each; readers cut blocks of about 1 MB, 75 Wikipedia triples, and
    each task costs Ray tens of milliseconds: on 2 CPUs 10,000 such rows took 7.3 s to score as
    whole blocks, 5.3 s in batches of 1,000)."""
    scoring = _scoring_options({key: value for key, value in options.items() if not key.endswith("_column")})
    compute(*_WARM_UP, use_aggregator=False, **scoring)
    return ds.map_batches(
        BatchScorer,
        fn_constructor_kwargs=options,
        batch_format="pyarrow",
        batch_size=batch_size,
        concurrency=concurrency,
        zero_copy_batch=True,
    )


def _numbers(batch: pa.Table, keys: List[str], row_column: str, reference_column: str) -> pa.Table:
    """The numeric columns of ``batch`` the corpus result needs (``row``, ``keys``, references
    per example); ``ValueError`` for a key the batch lacks (scored with other options)."""
    missing = [key for key in keys if key not in batch.column_names]
    if missing:
        raise ValueError(
            f"the scored dataset has no column {missing[0]!r}: score it with the options given here "
            "(average='micro' adds the count columns)"
        )
    reference = batch.column(reference_column)
    counts = (
        pc.list_value_length(reference)
        if pa.types.is_list(reference.type) or pa.types.is_large_list(reference.type)
        else pa.array(np.ones(batch.num_rows, dtype=np.int64))
    )
    return batch.select([row_column, *keys]).append_column(_REFERENCE_COUNT, counts)


def _gather(scored, keys: List[str], ordered_keys: List[str], row_column: str, reference_column: str):
    """One pass over ``scored``: exact running totals of ``keys``, the ``ordered_keys`` columns
    (F1 or count columns) in ``row`` order, reference counts."""
    totals = RunningTotals()
    rows: List[np.ndarray] = []
    parts: Dict[str, List[np.ndarray]] = {key: [] for key in ordered_keys}
    low, high = math.inf, 0
    selected = list(dict.fromkeys(keys + ordered_keys))
    # The driver selects the numbers from each block as it arrives, one block at a time: a
    # selecting Ray stage of its own costs a task per block (seconds per 10,000 rows on a
    # 2-CPU machine, more than the scoring gains from a second CPU).
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
        raise _user_error(error) from error
    if totals.count == 0:
        raise ValueError("the dataset has no rows: there is nothing to score")
    row = np.concatenate(rows)
    order = np.argsort(row, kind="stable")
    repeated = np.flatnonzero(np.diff(row[order]) == 0)
    if repeated.size:
        raise ValueError(f"{row_column} {row[order][repeated[0]]} occurs more than once: {row_column} must be unique")
    ordered = {key: np.concatenate(key_parts)[order] for key, key_parts in parts.items()}
    return totals, row[order], ordered, (int(low), int(high))


def _user_error(error: Exception) -> Exception:
    """The ``ValueError`` (a bad row, bad options) or ``MissingExtra`` (a segmenter missing on the
    workers) a worker raised behind Ray's task error, if one did; else ``RuntimeError`` (a task
    Ray gave up on). Ray Data keeps only the text of the worker's traceback, whose
    ``ValueError: ...`` (or ``...MissingExtra: ...``) line is the message."""
    found = re.findall(r"^(ValueError|(?:[\w.]+\.)?MissingExtra): (.*)$", str(error), re.MULTILINE)
    if not found:
        return RuntimeError(str(error))
    kind, message = found[-1]
    return ValueError(message) if kind == "ValueError" else MissingExtra(message)


def corpus_scores(
    scored: "ray.data.Dataset",
    baseline: Optional["ray.data.Dataset"] = None,
    row_column: str = ROW_COLUMN,
    reference_column: str = "reference",
    **options: Any,
) -> Dict[str, Any]:
    """What ``compute(sources, predictions, references, **options)`` returns for the rows of
    ``scored`` (a dataset with the columns ``BatchScorer`` adds, scored with the same
    ``options``), bit for bit. ``baseline``: the same rows scored with the baseline system's
    predictions (e.g. ``prediction_column="baseline"``), for ``compute``'s paired test.
    ``options`` are ``compute``'s keyword arguments (``use_aggregator`` must stay true; a
    signature is added with ``return_signature=True``). Runs ``scored`` (and ``baseline``) once.
    A worker's ``ValueError`` (a bad row) is raised here as ``ValueError`` with its message, any
    other failure of a task that Ray gave up on as ``RuntimeError``.
    """
    settings = _check_corpus_options(options)
    micro = settings.average == "micro"
    keys = output_columns(settings.rouge_types)
    if micro:
        ordered_keys = count_column_names(settings.rouge_types)
    else:
        ordered_keys = list(f1_columns(dict.fromkeys(keys, []), settings.rouge_types))
    totals, rows, ordered, references = _gather(scored, keys, ordered_keys, row_column, reference_column)
    baseline_ordered = None
    if baseline is not None:
        _, baseline_rows, baseline_ordered, _ = _gather(baseline, keys, ordered_keys, row_column, reference_column)
        if not np.array_equal(rows, baseline_rows):
            raise ValueError(f"baseline must hold the same {row_column} values as the scored dataset")
    result = totals.result()
    statistics = (settings.confidence_level, settings.n_bootstrap, settings.seed)
    if micro:
        counts = count_arrays(ordered, settings.rouge_types)
        baseline_counts = None if baseline_ordered is None else count_arrays(baseline_ordered, settings.rouge_types)
        result.update(micro_means(counts, settings.alpha))
        result.update(micro_bootstrap_statistics(counts, baseline_counts, settings.alpha, *statistics))
    else:
        result.update(bootstrap_statistics(ordered, baseline_ordered, *statistics))
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


def chunks_dataset(chunks: Iterable[Chunk]) -> Tuple["ray.data.Dataset", List[Any]]:
    """A dataset of the examples of the command line's ``chunks`` (``file_chunks``), and the
    object references of the chunks. Each chunk goes to the object store as it is cut, one
    block each; a Ray task parses it (``Chunk.rows()``, with the ``files`` readers' checks) into
    ``row`` (the example's file line: unique, ascending in input order), ``source``,
    ``prediction`` and ``reference`` (a list of strings)."""
    refs = [ray.put(pa.table({_CHUNK: pa.array([pickle.dumps(chunk)], pa.large_binary())})) for chunk in chunks]
    if not refs:
        raise ValueError("no examples to score")
    # ray 2.60's annotations disagree: ray.put returns the compiled ObjectRef (ray/includes/object_ref.pyi),
    # from_arrow_refs names the typing-only ray.types.ObjectRef; both are the same object at run time.
    dataset = ray.data.from_arrow_refs(refs)  # type: ignore[arg-type, unused-ignore]
    return dataset.map_batches(_parsed, batch_format="pyarrow", batch_size=None, zero_copy_batch=True), refs


def _parsed(batch: pa.Table) -> pa.Table:
    """The examples of the pickled chunks of ``batch`` (``chunks_dataset``)."""
    rows = [row for chunk in batch.column(_CHUNK).to_pylist() for row in pickle.loads(chunk).rows()]
    return pa.table(
        {
            ROW_COLUMN: pa.array([row.line for row in rows], pa.int64()),
            "source": pa.array([row.source for row in rows], pa.string()),
            "prediction": pa.array([row.prediction for row in rows], pa.string()),
            "reference": pa.array([row.references for row in rows], pa.list_(pa.string())),
        }
    )


def _first_input_error(refs: List[Any]) -> None:
    """Raise the ``InputFileError`` of the first unusable input in file order, if a chunk has
    one: the tasks that parse chunks run in any order, so the error Ray reported first may be a
    later one. Parses the chunks here, in order, until one fails."""
    for ref in refs:
        for chunk in ray.get(ref).column(_CHUNK).to_pylist():
            pickle.loads(chunk).rows()


def _check_corpus_options(options: Dict[str, Any]) -> Settings:
    """The ``Settings`` of ``options`` (``compute``'s keyword arguments); ``ValueError`` for
    options ``compute`` refuses or ``corpus_scores`` cannot honour."""
    if options.get("use_aggregator", True) is not True:
        raise ValueError("corpus_scores gives corpus results: read per-example values from the scored dataset")
    return Settings.from_options(options)


def score_file_on_ray(chunks: Iterable[Chunk], address: Optional[str], options: Dict[str, Any]) -> Dict[str, Any]:
    """The command line's result for the examples of ``chunks`` (``file_chunks``), scored on the Ray
    cluster at ``address`` (a new local one for ``None``, stopped at the end however the run
    ends; see ``ray_cluster``); ``options``: ``compute``'s keyword arguments. Uses the Ray of
    this process if it is already initialized. Options it cannot honour are refused before a
    cluster starts."""
    _check_corpus_options(options)
    with contextlib.nullcontext() if ray.is_initialized() else cluster(address):
        dataset, refs = chunks_dataset(chunks)
        try:
            return corpus_scores(score_dataset(dataset, **_scoring_options(options)), **options)
        except (ValueError, RuntimeError):
            _first_input_error(refs)
            raise
