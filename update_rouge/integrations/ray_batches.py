"""UpdateROUGE's per-example scores as a Ray Data transform: each row of a ``ray.data.Dataset``
(or each line of a JSONL file) scored where the data flows.

Needs the optional extra ``pip install 'update-rouge[ray]'``. Rows carry ``source``,
``prediction``, ``reference`` (a string, or a list of strings) and ``row``: a unique integer,
the row's place in the input. Other names are set with the ``*_column`` arguments.

- ``BatchScorer``: a callable class for ``ds.map_batches`` (``score_dataset`` applies it)
  adding to each row the per-example columns of ``compute(..., use_aggregator=False)``, under
  the same names and with the same values; under ``average="micro"`` also ``ray_counts``' columns.
- ``score_jsonl``: a JSONL file read by the driver as the command line reads it, its examples
  handed to Ray in blocks and scored as ``score_dataset`` scores them.

``ray_scoring`` is the documented import path (docs/ray.md). Scoring options are ``compute``'s
keyword arguments, passed through unchanged; a custom tokenizer must be importable on every worker.
"""

import dataclasses
import itertools
from collections.abc import Sequence
from typing import Any

from ..errors import Field, InputError
from ..extras import extra_imports
from ..files import open_examples

with extra_imports(
    "scoring on Ray needs the optional extra: pip install 'update-rouge[ray]'",
    {"pyarrow": "Table", "ray": "is_initialized"},
):
    import pyarrow as pa
    import ray

from ..example_tables import COUNT_KEYS, per_example_table, score_keys
from ..inputs import check_inputs
from ..lcs_limits import LcsTableTooLarge
from ..metric import UpdateRougeScorer, compute
from ..no_tokens import warn_tokenless
from ..rouge_types import check_rouge_types
from ..tokens import TokenizerError
from .ray_chunks import size_native_threads
from .ray_counts import count_values
from .ray_errors import COLUMN_DEFAULTS, COLUMN_OPTIONS, carried, check_columns, own_errors
from .refusals import refuse_given

ROW_COLUMN = "row"
BLOCK_ROWS = 1024
"""The examples of a block of ``score_jsonl``, each scored as one batch."""
_WARM_UP = (["a."], ["a. b."], ["a. c."])
# compute's options that Ray's scoring does not take, and why (corpus_scores refuses them too).
NOT_RAY = {
    "baseline_predictions": "a baseline is its rows scored with its predictions, given to corpus_scores as baseline=",
    "group_by": "it computes no groups",
    "use_aggregator": "score_dataset gives the per-example columns, corpus_scores the corpus result",
    **dict.fromkeys(
        ("entities", "evidence"),
        "its columns hold no entity scores (nor the micro average's entity counts); "
        "score them with update_rouge.compute(..., entities=...)",
    ),
}


def _scoring_options(options: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``compute`` that score each example (no statistics or signature,
    which ``corpus_scores`` takes); ``OptionError`` for those that give no per-example columns."""
    for name, why in NOT_RAY.items():
        refuse_given(options, (name,), "Ray's scoring", why)
    corpus_only = ("confidence_level", "n_bootstrap", "seed", "return_signature", "baseline_predictions")
    return {key: value for key, value in options.items() if key not in corpus_only}


def output_columns(rouge_types: Sequence[str] | None = None, deletions: bool = False) -> list[str]:
    """Names of the per-example columns ``compute(use_aggregator=False, deletions=deletions)``
    returns for these types."""
    return list(per_example_table([], check_rouge_types(rouge_types), deletions))


class BatchScorer:
    """``ds.map_batches(BatchScorer, fn_constructor_kwargs=..., batch_format="pyarrow")``.

    Constructed once per Ray actor: it sizes the actor's Rayon pool to the CPUs Ray assigned it
    (``ray_chunks.size_native_threads``) and scores one tiny example (the options checked, the
    caches filled). Each batch (a ``pyarrow.Table``) comes back with the float64 columns of
    ``output_columns(rouge_types, deletions)`` (booleans ``_both_empty``, ``_both_kept``) appended,
    replacing any of the same name, then under ``average="micro"`` the int64 ``ray_counts``
    columns. A bad row raises ``InputError`` at ``Field(column, row)`` (``row 7: source must be a
    string, got None``; a tokenizer's error and ``LcsTableTooLarge`` at its row too); a batch
    without a column, ``OptionError`` naming its ``*_column`` option. The user's errors reach the
    driver as they are (``ray_errors.carried``).
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
        context = ray.get_runtime_context()
        if context.get_actor_id() is not None:  # a Ray actor's, not a driver's
            size_native_threads(context.get_assigned_resources().get("CPU", 1))
        with carried():
            self.scorer = UpdateRougeScorer(use_aggregator=False, **self.options)
            self.scorer.tables(*_WARM_UP)

    def __call__(self, batch: pa.Table) -> pa.Table:
        with carried():
            return self._scored(batch)

    def _scored(self, batch: pa.Table) -> pa.Table:
        check_columns(batch.column_names, dict(zip(COLUMN_OPTIONS, (*self.columns, self.row_column))))
        sources, predictions, references = (batch.column(name).to_pylist() for name in self.columns)
        settings = self.scorer.settings
        if batch.num_rows == 0:
            table = per_example_table([], settings.rouge_types, settings.deletions)
            counts: dict[str, list] | None = None
            if settings.average == "micro":
                counts = {key: [] for key in score_keys(settings.rouge_types, settings.deletions)}
        else:
            try:
                # compute(..., use_aggregator=False)'s table, with the micro average's counts
                tables = self.scorer.tables(sources, predictions, references)
            except LcsTableTooLarge as error:
                if error.index is None:
                    raise
                raise error.at(batch.column(self.row_column)[error.index].as_py(), self.row_column) from None
            except InputError as error:
                self._raise_for_bad_row(batch, sources, predictions, references)
                raise self._relocated(error, batch) from None
            warn_tokenless(tables.tokenless, batch.num_rows, deletions=settings.deletions)
            table, counts = tables.table, tables.counts
        columns = {
            name: pa.array(values, pa.bool_() if name in COUNT_KEYS else pa.float64()) for name, values in table.items()
        }
        if counts is not None and settings.average == "micro":  # not a published protocol's slots
            columns.update({name: pa.array(values, pa.int64()) for name, values in count_values(counts).items()})
        for name, values in columns.items():
            if name in batch.column_names:
                batch = batch.drop_columns([name])
            batch = batch.append_column(name, values)
        return batch

    def _raise_for_bad_row(self, batch: pa.Table, sources: list, predictions: list, references: list) -> None:
        """Raise ``InputError`` at the first row whose texts ``compute`` refuses, if one is: at
        ``Field(column, row)``, its message ``row 7: source must be a string, got None``."""
        rows = batch.column(self.row_column).to_pylist()
        for row, source, prediction, reference in zip(rows, sources, predictions, references):
            try:
                check_inputs([source], [prediction], [reference])
            except InputError as error:
                raise self._at_row(error, row) from None

    def _relocated(self, error: InputError, batch: pa.Table) -> InputError:
        """``error`` of the example at ``error.index`` of ``batch``, at its ``row``: a tokenizer's
        ``TokenizerError`` at ``Field(column, row)``, an ``InputError`` as ``_at_row`` gives it, any other as is."""
        where = error.where
        if where is None or where.index is None:
            return error
        row = batch.column(self.row_column)[where.index].as_py()
        if isinstance(error, TokenizerError):
            return TokenizerError(error.problem, error.text, self._column(where, row), error.texts)
        return self._at_row(error, row) if type(error) is InputError else error

    def _column(self, field: Field, row: Any) -> Field:
        """``field`` (``sources[0]``, ``references[0][1]``) as this scorer's column at ``row``."""
        columns = dict(zip(("sources", "predictions", "references"), self.columns))
        return Field(columns.get(field.field, field.field), row, field.item)

    def _at_row(self, error: InputError, row: Any) -> InputError:
        """``error`` of one example, ``row 7: source must be a string, got None``: its fields
        named by this scorer's columns, at ``row``."""
        parts = [
            dataclasses.replace(self._column(part, row), index=None) if isinstance(part, Field) else part
            for part in error.parts
        ]
        where = error.where and self._column(error.where, row)
        return InputError(where, (f"{self.row_column} {row}: ", *parts))


def score_dataset(
    ds: "ray.data.Dataset", batch_size: int | None = 1024, concurrency: int | None = None, **options: Any
) -> "ray.data.Dataset":
    """``ds`` with the per-example columns (lazy, as every Ray transform); ``options`` are the
    ``*_column`` names and ``compute``'s scoring keyword arguments. The options are checked here,
    on the driver, before anything runs on the cluster. ``batch_size``: rows an actor scores per
    task (``None``: one block each; docs/speed.md)."""
    scoring = _scoring_options({key: value for key, value in options.items() if not key.endswith("_column")})
    compute(*_WARM_UP, use_aggregator=False, **scoring)
    known = ds.columns(fetch_if_missing=False)
    if known is not None:
        check_columns(known, {option: options.get(option, name) for option, name in COLUMN_DEFAULTS.items()})
    return _mapped(ds, batch_size, concurrency, options)


def _mapped(ds: "ray.data.Dataset", batch_size: int | None, concurrency: int | None, options: dict[str, Any]):
    """``ds`` scored by ``BatchScorer`` actors, their errors raised as they were (``own_errors``)."""
    scored = ds.map_batches(
        BatchScorer,
        fn_constructor_kwargs=options,
        batch_format="pyarrow",
        batch_size=batch_size,
        concurrency=concurrency,
        zero_copy_batch=True,
    )
    return own_errors(scored)


def score_jsonl(path: str, concurrency: int | None = None, **options: Any) -> "ray.data.Dataset":
    """The examples of the JSONL file ``path``, read here as the command line reads them, with the
    per-example columns ``score_dataset`` gives, for ``corpus_scores``; lazy. ``options`` are
    ``compute``'s scoring keyword arguments, checked first. The examples go into Ray's object store
    in blocks of ``BLOCK_ROWS`` (rows as ``example_table`` makes them), scored by at most
    ``concurrency`` actors. A bad line raises the reader's ``InputFileError`` before anything is scored."""
    scoring = _scoring_options(options)
    compute(*_WARM_UP, use_aggregator=False, **scoring)
    _, read = open_examples(path, "jsonl")
    examples, blocks = iter(read()), list[Any]()
    while block := list(itertools.islice(examples, BLOCK_ROWS)):
        blocks.append(ray.put(example_table(block)))
    return _mapped(ray.data.from_arrow_refs(blocks or [ray.put(example_table([]))]), None, concurrency, scoring)


def example_table(rows: Sequence[Any]) -> pa.Table:
    """The input columns of a reader's ``rows`` (``files.open_examples``'s: ``line``, ``id``,
    ``source``, ``prediction``, ``references``): ``row`` (the example's line), ``id``, texts."""
    return pa.table(
        {
            ROW_COLUMN: pa.array([row.line for row in rows], pa.int64()),
            "id": pa.array([row.id for row in rows], pa.string()),
            "source": pa.array([row.source for row in rows], pa.string()),
            "prediction": pa.array([row.prediction for row in rows], pa.string()),
            "reference": pa.array([row.references for row in rows], pa.list_(pa.string())),
        }
    )
