"""Reading the demo's uploaded batch files: JSONL or CSV with source, reference and prediction.

A JSONL file holds one JSON object per line; blank lines are skipped; ``reference`` is a string
or a non-empty list of strings. A CSV file has a header row naming at least the columns
``source``, ``reference`` and ``prediction`` (other columns are ignored); a reference cell that
is a JSON list of strings (``["first", "second"]``) holds several references, any other cell
is one reference. Every problem raises ``BatchFileError`` naming the line of the file (1-based,
the first line of a CSV record), so the demo can show it instead of a stack trace.
"""

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List, Tuple, Union

from app_metric import package_module

lone_surrogate = package_module("inputs").lone_surrogate

FIELDS = ("source", "reference", "prediction")
SUFFIXES = (".jsonl", ".csv")

Reference = Union[str, List[str]]


class BatchFileError(ValueError):
    """An uploaded file that cannot be scored; the message names the line."""


@dataclass(frozen=True)
class BatchExamples:
    """The examples of a file, in file order, with the line each one starts on.

    ``references`` holds one list of reference strings per example.
    """

    lines: List[int]
    sources: List[str]
    references: List[List[str]]
    predictions: List[str]


def read_batch_file(path: Union[str, Path]) -> BatchExamples:
    """Read a ``.jsonl`` or ``.csv`` file of examples; raise ``BatchFileError`` on any problem."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise BatchFileError(f"{path.name}: expected a .jsonl or .csv file, got {suffix or 'no extension'}")
    text = _decode(path.read_bytes())
    rows = _jsonl_rows(text) if suffix == ".jsonl" else _csv_rows(text)
    lines, sources, references, predictions = [], [], [], []
    for line, row in rows:
        lines.append(line)
        sources.append(_text(row, "source", line))
        references.append(_references(row["reference"], line, from_csv=suffix == ".csv"))
        predictions.append(_text(row, "prediction", line))
    if not lines:
        raise BatchFileError(f"{path.name}: the file holds no examples")
    return BatchExamples(lines=lines, sources=sources, references=references, predictions=predictions)


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise BatchFileError(f"line {line}: the file is not UTF-8 text") from None


def _jsonl_rows(text: str) -> Iterator[Tuple[int, dict]]:
    for line, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except json.JSONDecodeError as error:
            raise BatchFileError(f"line {line}: not valid JSON ({error.msg})") from None
        if not isinstance(row, dict):
            raise BatchFileError(f"line {line}: expected a JSON object with {', '.join(FIELDS)}")
        _check_fields(row, line)
        yield line, row


def _csv_rows(text: str) -> Iterator[Tuple[int, dict]]:
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
        if header is None:
            return
        missing = [field for field in FIELDS if field not in header]
        if missing:
            raise BatchFileError(f"line 1: the header lacks the column(s) {', '.join(missing)}")
        start = reader.line_num + 1
        for record in reader:
            if record:
                if len(record) != len(header):
                    raise BatchFileError(f"line {start}: {len(record)} cells, but the header has {len(header)}")
                yield start, dict(zip(header, record))
            start = reader.line_num + 1
    except csv.Error as error:
        raise BatchFileError(f"line {reader.line_num}: not valid CSV ({error})") from None


def _check_fields(row: dict, line: int) -> None:
    missing = [field for field in FIELDS if field not in row]
    if missing:
        raise BatchFileError(f"line {line}: missing field(s) {', '.join(missing)}")


def _text(row: dict, field: str, line: int) -> str:
    value = row[field]
    if not isinstance(value, str):
        raise BatchFileError(f"line {line}: {field} must be a string, got {type(value).__name__}")
    return _unicode(value, field, line)


def _unicode(value: str, field: str, line: int) -> str:
    problem = lone_surrogate(value)
    if problem:
        raise BatchFileError(f"line {line}: {field} {problem}")
    return value


def _references(value: object, line: int, from_csv: bool) -> List[str]:
    if from_csv and isinstance(value, str) and value.lstrip().startswith("["):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            pass  # a reference text that happens to start with "[", such as wiki markup
    if isinstance(value, str):
        return [_unicode(value, "reference", line)]
    if not isinstance(value, list) or not value or not all(isinstance(item, str) for item in value):
        raise BatchFileError(f"line {line}: reference must be a string or a non-empty list of strings")
    return [_unicode(item, "reference", line) for item in value]
