"""The micro average's counts as columns of a scored Ray dataset (``average="micro"``).

Under ``average="micro"`` ``ray_batches.BatchScorer`` adds, per output key, three int64 columns:
the counts each example contributes to the micro average (``micro.py``: hits, the reference's
grams or tokens, the prediction's), named ``_counts_update_<type>_hits``, ``..._target``,
``..._prediction`` (and ``_counts_update_del_<type>_hits``, ... with ``deletions=True``:
``count_column_names``). ``ray_scoring.corpus_scores`` reads them back in ``row`` order
(``count_arrays``): integers summed exactly, so its result is ``compute(..., average="micro")``'s.
"""

from collections.abc import Mapping, Sequence

import numpy as np

from ..engines import Counts
from ..example_tables import score_keys
from ..micro import CountColumns

FIELDS = ("hits", "target", "prediction")
PREFIX = "_counts_"


def count_column_names(rouge_types: Sequence[str], deletions: bool = False) -> list[str]:
    """The count columns of ``rouge_types``: per output key (``example_tables.score_keys``) its
    hits, target and prediction columns."""
    return [f"{PREFIX}{key}_{field}" for key in score_keys(rouge_types, deletions) for field in FIELDS]


def count_values(counts: Mapping[str, Sequence[Counts]]) -> dict[str, list[int]]:
    """Per count column, its values in example order, from ``micro.count_columns``'s result
    (per output key ``update_<type>``, the ``Counts`` of each example)."""
    return {
        f"{PREFIX}{key}_{field}": [int(example[index]) for example in rows]
        for key, rows in counts.items()
        for index, field in enumerate(FIELDS)
    }


def count_arrays(
    columns: Mapping[str, np.ndarray], rouge_types: Sequence[str], deletions: bool = False
) -> CountColumns:
    """``micro.CountColumns`` (per output key, an ``n x 3`` int64 array) of the count columns
    ``columns`` (name -> its values, every column in the same example order)."""
    return {
        key: np.stack(
            [np.asarray(columns[f"{PREFIX}{key}_{field}"], dtype=np.int64) for field in FIELDS], axis=-1
        ).reshape(-1, 3)
        for key in score_keys(rouge_types, deletions)
    }
