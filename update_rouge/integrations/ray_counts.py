"""The micro average's counts as columns of a scored Ray dataset (``average="micro"``).

Under ``average="micro"`` ``ray_scoring.BatchScorer`` adds, per rouge type, three int64
columns: the counts each example contributes to the micro average (``micro.py``: hits, the
reference's grams or tokens, the prediction's; 0, 0, 0 for an example the no-additions rule
scored), named

    _counts_update_<type>_hits, _counts_update_<type>_target, _counts_update_<type>_prediction

(``count_column_names``). ``ray_scoring.corpus_scores`` reads them back in ``row`` order and
gives them to ``micro.py`` as ``micro.CountColumns`` (``count_arrays``): integers summed exactly,
so its result is ``compute(..., average="micro")``'s. A dataset scored under ``average="macro"``
has none of these columns.
"""

from collections.abc import Mapping, Sequence

import numpy as np

from ..engines import Counts
from ..micro import CountColumns

FIELDS = ("hits", "target", "prediction")
PREFIX = "_counts_"


def count_column_names(rouge_types: Sequence[str]) -> list[str]:
    """The count columns of ``rouge_types``, per type its hits, target and prediction columns."""
    return [f"{PREFIX}update_{rouge_type}_{field}" for rouge_type in rouge_types for field in FIELDS]


def count_values(counts: Mapping[str, Sequence[Counts]]) -> dict[str, list[int]]:
    """Per count column, its values in example order, from ``micro.count_columns``'s result
    (per output key ``update_<type>``, the ``Counts`` of each example)."""
    return {
        f"{PREFIX}{key}_{field}": [int(example[index]) for example in rows]
        for key, rows in counts.items()
        for index, field in enumerate(FIELDS)
    }


def count_arrays(columns: Mapping[str, np.ndarray], rouge_types: Sequence[str]) -> CountColumns:
    """``micro.CountColumns`` (per output key, an ``n x 3`` int64 array) of the count columns
    ``columns`` (name -> its values, every column in the same example order)."""
    return {
        f"update_{rouge_type}": np.stack(
            [np.asarray(columns[f"{PREFIX}update_{rouge_type}_{field}"], dtype=np.int64) for field in FIELDS], axis=-1
        ).reshape(-1, 3)
        for rouge_type in rouge_types
    }
