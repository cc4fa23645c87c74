"""An example as the file readers yield it, and the checks of its fields that they share.

``Row`` is one example of a file; ``Record`` one example with any number of prediction
columns, as every reader parses it before it becomes a ``Row`` (``as_rows``) or a
``SystemsRow`` (a comparison's). ``text_field`` and ``reference_list`` check a source, a
prediction and a reference as a JSON value (a CSV reference cell holding a JSON array too):
``InputFileError`` naming the file, the line and the field.
"""

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from ..inputs import lone_surrogate
from .lines import InputFileError

_JSON_TYPES = {
    type(None): "null",
    bool: "a boolean",
    int: "a number",
    float: "a number",
    dict: "an object",
    list: "an array",
}


class Row(NamedTuple):
    """One example: the line of the file it starts on (1-based), its texts, its references and
    its ``id`` as text (``None`` when it has none, and for three text files) and its group
    label as text (``None`` unless the reader was given ``group_by``)."""

    line: int
    source: str
    references: list[str]
    prediction: str
    id: str | None = None
    group: str | None = None


class SystemsRow(NamedTuple):
    """One example scored for several systems: its line, source, references, per system
    name that system's prediction, and its ``id`` as in ``Row``."""

    line: int
    source: str
    references: list[str]
    predictions: dict[str, str]
    id: str | None = None


Record = tuple[int, str, list[str], list[str], str | None, str | None]
"""One example with any number of prediction columns: line, source, references, the texts of
the prediction columns, the ``id`` and the group label (as in ``Row``)."""


def no_progress(_: int) -> None:
    """An ``advance`` that reports the bytes read to no one."""


def as_rows(records: Iterable[Record]) -> Iterator[Row]:
    """The examples of records with one prediction column."""
    for line, source, references, (prediction,), example_id, group in records:
        yield Row(line, source, references, prediction, example_id, group)


def _json_type(value: object) -> str:
    return _JSON_TYPES.get(type(value), type(value).__name__)


def text_field(value: object, path: str, line: int, field: str) -> str:
    """``value`` if it is a string without a lone surrogate, else ``InputFileError`` naming ``field``."""
    if not isinstance(value, str):
        raise InputFileError(path, line, f"{field} must be a string, got {_json_type(value)}")
    problem = lone_surrogate(value)
    if problem:
        raise InputFileError(path, line, f"{field} {problem}")
    return value


def reference_list(value: object, path: str, line: int) -> list[str]:
    """A reference's JSON value as a list of references: a string, or a non-empty array of strings."""
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not value:
        got = "an empty array" if value == [] else _json_type(value)
        raise InputFileError(path, line, f"reference must be a string or a non-empty array of strings, got {got}")
    return [text_field(item, path, line, f"reference[{index}]") for index, item in enumerate(value)]
