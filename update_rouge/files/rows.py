"""An example as the file readers yield it, and the checks of its fields that they share.

``Row`` is one example of a file; ``Record`` one with any number of prediction columns, as every
reader parses it before it becomes a ``Row`` (``as_rows``) or a ``SystemsRow``; ``Fields`` names
the fields it is read from. ``text_field`` and ``text_list`` check a JSON value's texts.
"""

import csv
import json
from collections.abc import Iterable, Iterator, Sequence
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
    its ``id`` as text (``None`` when it has none, and for three text files), its group
    label as text and its evidence (``None`` unless ``Fields`` name them)."""

    line: int
    source: str
    references: list[str]
    prediction: str
    id: str | None = None
    group: str | None = None
    evidence: list[str] | None = None


class SystemsRow(NamedTuple):
    """One example scored for several systems: its line, source, references, per system
    name that system's prediction, and its ``id`` and evidence as in ``Row``."""

    line: int
    source: str
    references: list[str]
    predictions: dict[str, str]
    id: str | None = None
    evidence: list[str] | None = None


Record = tuple[int, str, list[str], list[str], str | None, str | None, list[str] | None]
"""One example with any number of prediction columns: line, source, references, the texts of
the prediction columns, the ``id``, the group label and the evidence (as in ``Row``)."""


class Fields(NamedTuple):
    """The fields (JSON) or columns (CSV) an example is read from: its source, its reference,
    its prediction columns, its group label and its evidence (``None``: not read)."""

    source: str = "source"
    reference: str = "reference"
    predictions: tuple[str, ...] = ("prediction",)
    group_by: str | None = None
    evidence: str | None = None

    @property
    def needed(self) -> list[tuple[str, str]]:
        """Each field read with the option that names it, in ``Record``'s order."""
        named = [(self.source, "source_field"), (self.reference, "reference_field")]
        named += [(column, "prediction_field") for column in self.predictions]
        optional = ((self.group_by, "group_by"), (self.evidence, "evidence_field"))
        return named + [(name, option) for name, option in optional if name is not None]

    @property
    def names(self) -> str:
        """The fields read, each once, separated by commas."""
        return ", ".join(dict.fromkeys(name for name, _ in self.needed))


DEFAULT_FIELDS = Fields()


def check_present(fields: Fields, present: Sequence[str], path: str, line: int, lacks: str, has: str) -> None:
    """``InputFileError`` at ``line`` when a field of ``fields`` is not among ``present`` (a
    line's fields, a header row's columns): ``lacks`` then those missing, ``has`` then (some of)
    ``present``; its ``missing``, the options that name the missing fields."""
    missing = [(name, option) for name, option in fields.needed if name not in present]
    if missing:
        shown = [name if name.isprintable() and name else repr(name) for name in present[:12]]
        names = ", ".join(dict.fromkeys(name for name, _ in missing))
        problem = f"{lacks} {names} ({has} {', '.join(shown + ['...'] * (len(present) > 12)) or 'none'})"
        raise InputFileError(path, line, problem, tuple(dict.fromkeys(option for _, option in missing)))


def in_other_format(error: InputFileError, line: str, fields: Fields, other: str) -> InputFileError:
    """``error``, or, where it is of line 1, which reads as the format ``other`` (``"csv"``: a
    header row, ``"jsonl"``: a JSON object) naming ``fields``, the error that says so and names
    the flag that reads the file so."""
    try:
        names = next(csv.reader([line])) if other == "csv" else json.loads(line)
    except (ValueError, csv.Error):
        return error
    named = isinstance(names, list if other == "csv" else dict) and all(name in names for name, _ in fields.needed)
    if error.line != 1 or not named:
        return error
    found = "not JSON but a CSV header row naming" if other == "csv" else "not a CSV header row but a JSON object with"
    return InputFileError(error.path, 1, f"{found} {fields.names}: give --input-format {other}")


def no_progress(_: int) -> None:
    """An ``advance`` that reports the bytes read to no one."""


def as_rows(records: Iterable[Record]) -> Iterator[Row]:
    """The examples of records with one prediction column."""
    for line, source, references, (prediction,), example_id, group, evidence in records:
        yield Row(line, source, references, prediction, example_id, group, evidence)


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


def text_list(value: object, path: str, line: int, field: str, empty: bool = False) -> list[str]:
    """The JSON value of ``field`` as a list of texts: a string, or an array of strings, not empty
    unless ``empty`` (a reference's is not, evidence's may be)."""
    if isinstance(value, str):
        return [value]
    array = "an array" if empty else "a non-empty array"
    if not isinstance(value, list) or (not value and not empty):
        got = "an empty array" if value == [] else _json_type(value)
        raise InputFileError(path, line, f"{field} must be a string or {array} of strings, got {got}")
    return [text_field(item, path, line, f"{field}[{index}]") for index, item in enumerate(value)]
