"""Checks on what users pass in, before any scoring, with errors that name the field and the example
index, so that a bad example is reported instead of being dropped, truncated or misread.

Every door checks its texts here. A leading byte order mark (U+FEFF, ``BOM``) is dropped, so that
it cannot make the first sentence an addition, except under a published protocol (``keep_bom``);
a U+FEFF anywhere else is kept.
"""

import math
from collections.abc import Hashable, Sequence
from typing import Any

from .errors import Field, InputError, input_error


def lone_surrogate(text: str) -> str | None:
    """What is wrong with ``text`` if it holds a lone surrogate (no Unicode text does, nor can it be
    written as UTF-8), else None."""
    if text.isascii():  # known without a scan: a fifth to a third less of compute's check of Wikipedia rows
        return None
    try:
        text.encode("utf-8")  # fails at the first surrogate, and only there
    except UnicodeEncodeError as error:
        return (
            f"contains a lone surrogate (U+{ord(text[error.start]):04X}) at character {error.start}, which is not "
            "Unicode text: decode the data with errors='replace' or fix it"
        )
    return None


def _describe(value: Any) -> str:
    if value is None:
        return "None"
    if isinstance(value, float) and math.isnan(value):
        return "a float NaN"
    if isinstance(value, (bytes, bytearray)):
        return "bytes (decode them to str first)"
    if hasattr(value, "columns"):
        return f"a {type(value).__name__} of shape {getattr(value, 'shape', '?')} (pass one of its columns)"
    if getattr(value, "ndim", 1) != 1:
        return f"a {type(value).__name__} of shape {getattr(value, 'shape', '?')} (expected one dimension)"
    return f"a {type(value).__name__} ({value!r:.60})"


def is_column(value: Any) -> bool:
    """Whether ``value`` holds one entry per example in order: a sequence that is not a string or a
    one-dimensional array (not a ``DataFrame``, ``dict``, ``set``, generator or bare string)."""
    if isinstance(value, (str, bytes, bytearray)):
        return False
    ndim = getattr(value, "ndim", None)
    if ndim is not None:
        return ndim == 1 and hasattr(value, "__len__")
    return isinstance(value, Sequence)


def _as_list(field: str, column: Any, n_examples: int | None = None, entry: str = "entry") -> list:
    """``column`` as a list; ``InputError`` unless it is a column of ``n_examples`` (if given) entries."""
    if column is None:
        raise input_error(field, None, "is missing: expected a list with one entry per example")
    if not is_column(column):
        raise input_error(field, None, f"must be a list with one entry per example, got {_describe(column)}")
    if n_examples is not None and len(column) != n_examples:
        raise input_error(
            field, None, f"must have one {entry} per example, got {len(column)} for {n_examples} examples"
        )
    return list(column)


BOM = "\ufeff"


def _check_string(value: Any, where: Field, keep_bom: bool = False) -> str:
    """``value`` if it is Unicode text, less a leading ``BOM`` unless ``keep_bom``; ``InputError``
    at ``where`` otherwise."""
    if not isinstance(value, str):
        raise InputError(where, (where, f" must be a string, got {_describe(value)}"))
    problem = lone_surrogate(value)
    if problem:
        raise InputError(where, (where, f" {problem}"))
    return value if keep_bom else value.removeprefix(BOM)


def check_inputs(
    sources: Any, predictions: Any, references: Any, predictions_field: str = "predictions", keep_bom: bool = False
) -> tuple[list[str], list[str], list[list[str]]]:
    """Validate the three input columns and return them as lists.

    ``references`` may hold one string per example or one non-empty list of strings per example,
    not a mix; they are returned as a list of lists. Each text is returned less a leading ``BOM``
    unless ``keep_bom``. ``InputError`` names the field and index of the first problem;
    ``predictions_field`` is the name the predictions go by (e.g. ``systems['base']``).
    """
    fields = ("sources", predictions_field, "references")
    sources, predictions, references = (_as_list(f, c) for f, c in zip(fields, (sources, predictions, references)))
    lengths = {field: len(column) for field, column in zip(fields, (sources, predictions, references))}
    columns = (Field("sources"), ", ", Field(predictions_field), " and ", Field("references"))
    if len(set(lengths.values())) > 1:
        counts = [
            part for field, n in lengths.items() for part in (", " if field != "sources" else "", f"{n} ", Field(field))
        ]
        raise InputError(None, (*columns, " must have the same length, got ", *counts))
    if not sources:
        raise InputError(None, (*columns, " are empty: there is nothing to score"))

    checked_sources = [_check_string(s, Field("sources", i), keep_bom) for i, s in enumerate(sources)]
    checked_predictions = [_check_string(p, Field(predictions_field, i), keep_bom) for i, p in enumerate(predictions)]

    several = not isinstance(references[0], str) and references[0] is not None
    checked_references = []
    for i, reference in enumerate(references):
        if several:
            if isinstance(reference, str):
                raise _mixed_references(i, "a string", "a list")
            if not is_column(reference):
                raise input_error("references", i, f"must be a list of strings, got {_describe(reference)}")
            if len(reference) == 0:
                raise input_error("references", i, "is an empty list: every example needs at least one reference")
            checked_references.append(
                [_check_string(r, Field("references", i, j), keep_bom) for j, r in enumerate(reference)]
            )
        else:
            if isinstance(reference, (list, tuple)):
                raise _mixed_references(i, "a list", "a string")
            checked_references.append([_check_string(reference, Field("references", i), keep_bom)])
    return checked_sources, checked_predictions, checked_references


def _mixed_references(index: int, kind: str, first_kind: str) -> InputError:
    where = Field("references", index)
    return InputError(
        where,
        (
            where,
            f" is {kind} but ",
            Field("references", 0),
            f" is {first_kind}: give every example either one reference string or a list of reference strings, not a mix",
        ),
    )


def check_group_labels(group_by: Any, n_examples: int | None) -> list:
    """Validate ``group_by``, one hashable label other than ``None`` per example (``n_examples``:
    ``None`` when the inputs are not columns), and return it as a list."""
    column = _as_list("group_by", group_by, n_examples, "label")
    for index, label in enumerate(column):
        if label is None or not isinstance(label, Hashable) or (isinstance(label, float) and math.isnan(label)):
            raise input_error("group_by", index, f"must be a label (a string, a number, ...), got {_describe(label)}")
    return column


def check_baseline_predictions(baseline_predictions: Any, n_examples: int, keep_bom: bool = False) -> list[str]:
    """Validate the baseline system's texts (one string per example) and return them as a list
    (less a leading ``BOM`` unless ``keep_bom``, as ``check_inputs``)."""
    column = _as_list("baseline_predictions", baseline_predictions, n_examples, "text")
    return [_check_string(p, Field("baseline_predictions", i), keep_bom) for i, p in enumerate(column)]


def check_evidence(evidence: Any, n_examples: int) -> list[list[str]]:
    """Validate ``evidence``, one string or list of strings (possibly empty) per example, and
    return it as one list of strings per example."""
    column = _as_list("evidence", evidence, n_examples)
    checked = []
    for index, texts in enumerate(column):
        if isinstance(texts, str):
            checked.append([_check_string(texts, Field("evidence", index))])
        elif is_column(texts):
            checked.append([_check_string(text, Field("evidence", index, item)) for item, text in enumerate(texts)])
        else:
            raise input_error("evidence", index, f"must be a string or a list of strings, got {_describe(texts)}")
    return checked
