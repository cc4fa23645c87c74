"""Reading CSV files of examples: the header row's columns, then one example per record.

The header row names the columns of ``rows.Fields`` (others are ignored; one named twice is
refused); quoted cells may span lines. A reference or evidence cell that starts with ``[`` and
parses as a JSON array is a list of texts (``rows.text_list``); any other cell is one text. An
``id`` cell is kept as is in ``Row.id``, the ``group_by`` column's in ``Row.group``. The file is
read strictly by ``csv.reader``, each record held to ``max_line_bytes()`` before the rest is read.
"""

import csv
import json
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from .lines import InputFileError, LineTooLong, decode_line, max_line_bytes, open_input, raw_lines, too_long
from .rows import Fields, Record, check_present, in_other_format, no_progress, text_list


def _csv_text_list(cell: str, path: str, line: int, field: str, empty: bool = False) -> list[str]:
    if cell.lstrip().startswith("["):
        try:
            value = json.loads(cell)
        except json.JSONDecodeError:
            return [cell]
        if isinstance(value, list):
            return text_list(value, path, line, field, empty)
    return [cell]


class CsvColumns(NamedTuple):
    """Where a CSV file's header row puts the columns: how many cells it has (``width``, which
    every record must have), the cells of the source, the reference and the predictions, and
    those of ``id``, the group label and the evidence (``None``: not read)."""

    width: int
    positions: tuple[int, ...]
    id_at: int | None = None
    group_at: int | None = None
    evidence_at: int | None = None


class _Lines:
    """The decoded lines of the CSV file ``path`` for ``csv.reader``, from its raw ``lines``:
    ``start`` is the line the record being read starts on (``record_read`` moves it on and reports
    its bytes to ``advance``), whose bytes are held to ``limit`` (``lines.too_long`` beyond)."""

    def __init__(self, path: str, lines: Iterator[bytes], limit: int, advance: Callable[[int], None], first: int = 1):
        self.path, self.lines, self.limit, self.advance = path, lines, limit, advance
        self.number = first - 1  # the last line read
        self.start = first
        self.held = 0
        self.text = ""  # the last line read

    def __iter__(self) -> "_Lines":
        return self

    def __next__(self) -> str:
        try:
            raw = next(self.lines)
        except LineTooLong:  # its record is too long, if it started on an earlier line
            raise too_long(self.path, self.number + 1, "line" if self.number + 1 == self.start else "record") from None
        self.number += 1
        self.held += len(raw)
        if self.held > self.limit:
            raise too_long(self.path, self.start, "record")
        self.text = decode_line(raw, self.number, self.path)
        return self.text

    def record_read(self) -> int:
        """The line the record just read starts on; the next one starts after it."""
        self.advance(self.held)
        start, self.start, self.held = self.start, self.number + 1, 0
        return start


class _CsvReader:
    """``csv.reader`` over decoded lines, strict, with a cell held to ``max_line_bytes()``
    characters: the csv module's process-wide cell limit, set only while a record is read."""

    def __init__(self, lines: _Lines) -> None:
        self.lines = lines
        self._reader = csv.reader(lines, strict=True)
        self._limit = min(max_line_bytes(), 2**31 - 1)

    def __iter__(self) -> Iterator[tuple[int, list[str]]]:
        """Each record with the line it starts on; ``InputFileError`` for CSV that is not valid."""
        while True:
            previous = csv.field_size_limit(self._limit)
            try:
                record = next(self._reader)
            except StopIteration:
                return
            except csv.Error as error:
                raise InputFileError(self.lines.path, self.lines.number, f"not valid CSV ({error})") from None
            finally:
                csv.field_size_limit(previous)
            yield self.lines.record_read(), record


def _columns(path: str, reader: Iterator[tuple[int, list[str]]], fields: Fields) -> CsvColumns:
    """The ``CsvColumns`` of the header row that ``reader`` reads first, naming every field of ``fields``."""
    names = [name for name, _ in fields.needed]
    header = next(reader, (1, None))[1]
    if header is None:
        raise InputFileError(path, 1, f"empty file: expected a header row naming {fields.names}")
    twice = sorted({column for column in header if header.count(column) > 1})
    if twice:
        raise InputFileError(path, 1, f"the header row names the column(s) {', '.join(twice)} more than once")
    check_present(fields, header, path, 1, "the header row lacks the column(s)", "it names")
    at = {name: header.index(name) for name in names}
    group_at, evidence_at = (None if name is None else at[name] for name in (fields.group_by, fields.evidence))
    positions = tuple(at[name] for name in names[: 2 + len(fields.predictions)])
    id_at = header.index("id") if "id" in header else None
    return CsvColumns(len(header), positions, id_at, group_at, evidence_at)


def _records(path: str, reader: Iterable[tuple[int, list[str]]], columns: CsvColumns) -> Iterator[Record]:
    """The examples of the records that ``reader`` reads, blank lines skipped."""
    for line, record in reader:
        if not record:
            continue
        if len(record) != columns.width:
            raise InputFileError(path, line, f"{len(record)} cells, but the header has {columns.width}")
        source, reference, *predictions = (record[position] for position in columns.positions)
        example_id, group, cell = (None if at is None else record[at] for at in columns[2:5])
        evidence = None if cell is None else _csv_text_list(cell, path, line, "evidence", empty=True)
        yield line, source, _csv_text_list(reference, path, line, "reference"), predictions, example_id, group, evidence


def csv_file_records(path: str, fields: Fields, advance: Callable[[int], None]) -> Iterator[Record]:
    """The examples of the CSV file ``path``, header row and all, read from their ``fields``."""
    with open_input(path) as handle:
        limit = max_line_bytes()
        reader = iter(_CsvReader(lines := _Lines(path, raw_lines(handle, limit), limit, advance)))
        try:
            columns = _columns(path, reader, fields)
        except InputFileError as error:
            raise in_other_format(error, lines.text, fields, "jsonl") from None
        yield from _records(path, reader, columns)


def csv_records(path: str, lines: Iterable[str], first: int, columns: CsvColumns) -> Iterator[Record]:
    """The examples of the decoded ``lines`` of the CSV file ``path`` after its header row, the
    first numbered ``first`` (the name 0.1.0 published in ``files``)."""
    encoded = (line.encode("utf-8") for line in lines)
    return _records(path, _CsvReader(_Lines(path, encoded, 2**63, no_progress, first)), columns)
