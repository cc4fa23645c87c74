"""Reading CSV files of examples: the header row's columns, then one example per record.

A CSV file has a header row naming the columns ``source``, ``reference`` and ``prediction``
(others are ignored), then one example per record (quoted cells may span lines); a column named
twice is refused. A reference cell that starts with ``[`` and parses as a JSON array is a list of
references (it must then hold one or more strings, ``file_rows.reference_list``); any other cell
is one reference. An ``id`` column's cell is kept as is in ``Row.id``, the ``group_by`` column's in
``Row.group``. The file is read strictly (a quote out of place is refused), each record held to
``max_line_bytes()``: its quoted cells may span lines, so the record is held to the limit of one
line, and refused before the rest of it is read (``csv_cuts.numbered_lines``).

CSV records are read one way, whoever reads them: ``csv_cuts`` finds where they end and
``csv_line_records`` parses them, for ``read_csv`` (and ``files.read_systems``) and for the
command line's chunks (``csv_columns`` reads the header once, ``csv_rows`` each chunk).
"""

import csv
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple

from . import csv_cuts
from .file_lines import InputFileError, decode_line, max_line_bytes, open_input
from .file_rows import Record, Row, as_rows, no_progress, reference_list


def _csv_reference_list(cell: str, path: str, line: int) -> list[str]:
    if cell.lstrip().startswith("["):
        try:
            value = json.loads(cell)
        except json.JSONDecodeError:
            return [cell]
        if isinstance(value, list):
            return reference_list(value, path, line)
    return [cell]


class CsvColumns(NamedTuple):
    """Where a CSV file's header row puts the columns: how many cells it has (``width``, which
    every record must have), the cells of ``source``, ``reference`` and the predictions, the
    cell of ``id`` (``None`` without that column) and that of the group label (``None`` without
    ``group_by``)."""

    width: int
    positions: tuple[int, ...]
    id_at: int | None = None
    group_at: int | None = None


class _CsvReader:
    """``csv.reader`` over decoded lines, strict, with a cell held to ``max_line_bytes()``
    characters. The csv module's cell limit is one setting for the whole process: it is set only
    while a record is read and put back after, so that the caller's program (and libraries in
    it that read CSV, as ``importlib.metadata`` does) keeps its own."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._reader = csv.reader(lines, strict=True)
        self._limit = min(max_line_bytes(), 2**31 - 1)

    @property
    def line_num(self) -> int:
        """The number of lines read so far (``csv.reader.line_num``)."""
        return self._reader.line_num

    def __iter__(self) -> "_CsvReader":
        return self

    def __next__(self) -> list[str]:
        previous = csv.field_size_limit(self._limit)
        try:
            return next(self._reader)
        finally:
            csv.field_size_limit(previous)


def csv_columns(
    path: str, lines: Iterator[str], prediction_columns: Sequence[str], group_by: str | None = None
) -> tuple[CsvColumns, int]:
    """The columns that the header row of the CSV file ``path`` names, read from its decoded
    ``lines`` (taking no line after the header), and the number of the line after the header;
    the column ``group_by``, if given, must be among them."""
    grouped = [group_by] if group_by is not None else []
    columns = ("source", "reference", *prediction_columns, *grouped)
    reader = _CsvReader(lines)
    try:
        header = next(reader, None)
    except csv.Error as error:
        raise InputFileError(path, reader.line_num, f"not valid CSV ({error})") from None
    if header is None:
        raise InputFileError(path, 1, f"empty file: expected a header row naming {', '.join(columns)}")
    twice = sorted({column for column in header if header.count(column) > 1})
    if twice:
        raise InputFileError(path, 1, f"the header row names the column(s) {', '.join(twice)} more than once")
    missing = [column for column in columns if column not in header]
    if missing:
        raise InputFileError(path, 1, f"the header row lacks the column(s) {', '.join(missing)}")
    id_at = header.index("id") if "id" in header else None
    group_at = None if group_by is None else header.index(group_by)
    positions = tuple(header.index(column) for column in columns[: len(columns) - len(grouped)])
    return CsvColumns(len(header), positions, id_at, group_at), reader.line_num + 1


def csv_line_records(path: str, lines: Iterable[str], first: int, columns: CsvColumns) -> Iterator[Record]:
    """Line, source, references, the texts of the prediction columns and the ``id`` cell (``None``
    without an ``id`` column) of each record of the decoded ``lines`` of the CSV file ``path``,
    the first numbered ``first`` and starting a record; blank lines are skipped."""
    reader = _CsvReader(lines)
    start = first
    try:
        for record in reader:
            line, start = start, first + reader.line_num
            if not record:
                continue
            if len(record) != columns.width:
                raise InputFileError(path, line, f"{len(record)} cells, but the header has {columns.width}")
            source, reference, *predictions = (record[position] for position in columns.positions)
            example_id = None if columns.id_at is None else record[columns.id_at]
            group = None if columns.group_at is None else record[columns.group_at]
            yield line, source, _csv_reference_list(reference, path, line), predictions, example_id, group
    except csv.Error as error:
        raise InputFileError(path, first - 1 + reader.line_num, f"not valid CSV ({error})") from None


def csv_rows(path: str, lines: Iterable[str], first: int, columns: CsvColumns) -> Iterator[Row]:
    """The examples of some decoded lines of the CSV file ``path`` (``csv_line_records``), for a
    header with one ``prediction`` column."""
    return as_rows(csv_line_records(path, lines, first, columns))


def csv_file_records(
    path: str, prediction_columns: Sequence[str], advance: Callable[[int], None], group_by: str | None = None
) -> Iterator[Record]:
    """Line, source, references, the texts of ``prediction_columns``, the ``id`` and the group
    label of each record of the CSV file ``path``, header row and all (read here: its columns
    are found; ``csv_line_records`` reads some lines after the header, the columns known)."""
    with open_input(path) as handle:
        lines = (decode_line(raw, number, path) for number, raw in csv_cuts.numbered_lines(handle, path, advance))
        columns, first = csv_columns(path, lines, prediction_columns, group_by)
        yield from csv_line_records(path, lines, first, columns)


def read_csv(path: str, advance: Callable[[int], None] = no_progress, group_by: str | None = None) -> Iterator[Row]:
    """Yield the examples of a CSV file with a header row, skipping blank lines."""
    return as_rows(csv_file_records(path, ("prediction",), advance, group_by))
