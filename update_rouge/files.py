"""Reading examples from files, one at a time, with the file line each one starts on.

Three layouts, all UTF-8:

- JSONL: one JSON object per line with ``source``, ``reference`` and ``prediction``; the
  reference is a string or a non-empty array of strings. Blank lines are skipped.
- CSV: a header row naming the columns ``source``, ``reference`` and ``prediction`` (others
  are ignored), then one example per record (quoted cells may span lines). A reference cell
  that starts with ``[`` and parses as a JSON array is a list of references (it must then
  hold one or more strings); any other cell is one reference.
- For a comparison of systems (``read_systems``), JSONL or CSV with one column of predictions
  per system instead of ``prediction``, named by the system.
- Three line-aligned text files of sources, references and predictions: line N of each is
  example N. They must have the same number of lines.

Every reader yields ``Row`` tuples and reports the bytes it has read to ``advance`` (for a
progress bar). Unusable input raises ``InputFileError`` naming the file and line.
"""

import csv
import json
from typing import BinaryIO, Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from .inputs import lone_surrogate

_JSON_TYPES = {
    type(None): "null", bool: "a boolean", int: "a number", float: "a number", dict: "an object", list: "an array"
}


class Row(NamedTuple):
    """One example: the line of the file it starts on (1-based), its texts and its references."""

    line: int
    source: str
    references: List[str]
    prediction: str


class SystemsRow(NamedTuple):
    """One example scored for several systems: its line, source, references and, per system
    name, that system's prediction."""

    line: int
    source: str
    references: List[str]
    predictions: Dict[str, str]


class InputFileError(ValueError):
    """Unusable input, reported as ``path:line: what is wrong``."""

    def __init__(self, path: str, line: int, problem: str):
        super().__init__(f"{path}:{line}: {problem}")


def _no_progress(_: int) -> None:
    pass


def _decoded_lines(handle: BinaryIO, path: str, advance: Callable[[int], None]) -> Iterator[str]:
    for number, raw in enumerate(handle, start=1):
        advance(len(raw))
        try:
            yield raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as error:
            raise InputFileError(path, number, f"not valid UTF-8 ({error.reason} at byte {error.start})") from None


def _json_type(value: object) -> str:
    return _JSON_TYPES.get(type(value), type(value).__name__)


def _text(value: object, path: str, line: int, field: str) -> str:
    if not isinstance(value, str):
        raise InputFileError(path, line, f"{field} must be a string, got {_json_type(value)}")
    problem = lone_surrogate(value)
    if problem:
        raise InputFileError(path, line, f"{field} {problem}")
    return value


def _reference_list(value: object, path: str, line: int) -> List[str]:
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not value:
        got = "an empty array" if value == [] else _json_type(value)
        raise InputFileError(path, line, f"reference must be a string or a non-empty array of strings, got {got}")
    return [_text(item, path, line, f"reference[{index}]") for index, item in enumerate(value)]


def _jsonl_records(
    path: str, prediction_columns: Sequence[str], advance: Callable[[int], None]
) -> Iterator[Tuple[int, str, List[str], List[str]]]:
    """Line, source, references and the texts of ``prediction_columns`` of each JSONL record."""
    columns = ("source", "reference", *prediction_columns)
    with open(path, "rb") as handle:
        for number, line in enumerate(_decoded_lines(handle, path, advance), start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise InputFileError(path, number, f"not valid JSON ({error.msg})") from None
            if not isinstance(row, dict):
                raise InputFileError(path, number, f"expected a JSON object with {', '.join(columns)}")
            missing = [column for column in columns if column not in row]
            if missing:
                raise InputFileError(path, number, f"missing field(s) {', '.join(missing)}")
            yield (
                number,
                _text(row["source"], path, number, "source"),
                _reference_list(row["reference"], path, number),
                [_text(row[column], path, number, column) for column in prediction_columns],
            )


def read_jsonl(path: str, advance: Callable[[int], None] = _no_progress) -> Iterator[Row]:
    """Yield the examples of a JSONL file, skipping blank lines."""
    for number, source, references, (prediction,) in _jsonl_records(path, ("prediction",), advance):
        yield Row(number, source, references, prediction)


def _csv_reference_list(cell: str, path: str, line: int) -> List[str]:
    if cell.lstrip().startswith("["):
        try:
            value = json.loads(cell)
        except json.JSONDecodeError:
            return [cell]
        if isinstance(value, list):
            return _reference_list(value, path, line)
    return [cell]


def _csv_records(
    path: str, prediction_columns: Sequence[str], advance: Callable[[int], None]
) -> Iterator[Tuple[int, str, List[str], List[str]]]:
    """Line, source, references and the texts of ``prediction_columns`` of each CSV record."""
    columns = ("source", "reference", *prediction_columns)
    csv.field_size_limit(2**31 - 1)
    with open(path, "rb") as handle:
        reader = csv.reader(_decoded_lines(handle, path, advance))
        try:
            header = next(reader, None)
            if header is None:
                raise InputFileError(path, 1, f"empty file: expected a header row naming {', '.join(columns)}")
            missing = [column for column in columns if column not in header]
            if missing:
                raise InputFileError(path, 1, f"the header row lacks the column(s) {', '.join(missing)}")
            positions = [header.index(column) for column in columns]
            start = reader.line_num + 1
            for record in reader:
                line, start = start, reader.line_num + 1
                if not record:
                    continue
                if len(record) != len(header):
                    raise InputFileError(path, line, f"{len(record)} cells, but the header has {len(header)}")
                source, reference, *predictions = (record[position] for position in positions)
                yield line, source, _csv_reference_list(reference, path, line), predictions
        except csv.Error as error:
            raise InputFileError(path, reader.line_num, f"not valid CSV ({error})") from None


def read_csv(path: str, advance: Callable[[int], None] = _no_progress) -> Iterator[Row]:
    """Yield the examples of a CSV file with a header row, skipping blank lines."""
    for line, source, references, (prediction,) in _csv_records(path, ("prediction",), advance):
        yield Row(line, source, references, prediction)


def read_systems(
    path: str, file_format: str, systems: Sequence[str], advance: Callable[[int], None] = _no_progress
) -> Iterator[SystemsRow]:
    """Yield the examples of a JSONL or CSV file (``file_format`` ``"jsonl"`` or ``"csv"``) with
    one column of predictions per system: ``source``, ``reference`` and each name in ``systems``."""
    records = _csv_records if file_format == "csv" else _jsonl_records
    for line, source, references, predictions in records(path, tuple(systems), advance):
        yield SystemsRow(line, source, references, dict(zip(systems, predictions)))


def read_text_files(
    sources: str, references: str, predictions: str, advance: Callable[[int], None] = _no_progress
) -> Iterator[Row]:
    """Yield the examples of three line-aligned text files (line N of each is example N)."""
    paths = (sources, references, predictions)
    with open(sources, "rb") as s, open(references, "rb") as r, open(predictions, "rb") as p:
        readers = [_decoded_lines(handle, path, advance) for handle, path in zip((s, r, p), paths)]
        number = 0
        while True:
            number += 1
            lines: List[Optional[str]] = [next(reader, None) for reader in readers]
            if all(line is None for line in lines):
                return
            if any(line is None for line in lines):
                ended = paths[lines.index(None)]
                longer = paths[next(i for i, line in enumerate(lines) if line is not None)]
                raise InputFileError(longer, number, f"has more lines than {ended} ({number - 1} lines)")
            source, reference, prediction = ((line or "").rstrip("\r\n") for line in lines)
            yield Row(number, source, [reference], prediction)
