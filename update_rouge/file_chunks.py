"""Input files cut into chunks of raw lines that worker processes parse, for the command line.

The process that reads a file only cuts it into chunks of lines: it reads blocks, splits them at
line ends (``file_lines.numbered_raw_lines``, at the speed of ``bytes.splitlines``; a CSV file
at record ends, below), numbers the lines and holds each line to ``max_line_bytes()``. Decoding,
parsing, checking and building the ``file_rows.Row``s happen in ``Chunk.rows()``, in whichever
process scores the chunk, with the checks and messages of the one-process readers (``files``,
``csv_files``, ``text_files``): the rows of the chunks, in order, are the rows those readers
yield, and the first unusable input in file order raises the same ``InputFileError``, naming its
file and line.

- JSONL: chunks of ``lines`` lines (blank lines included, and skipped by ``rows()``), fewer
  when they reach the byte limit (``CHUNK_BYTES``; for several workers smaller towards the end
  of the file, ``_Sizes``), parsed by ``files.jsonl_rows`` (``files.jsonl_values``, the one
  reading of JSONL lines); a line too long ends the last chunk with the reader's error,
  raised by ``rows()`` after the lines before it are checked.
- Three line-aligned text files: chunks of the same line numbers of each file (read by
  ``text_files.aligned_lines``, as ``text_files.read_text_files`` reads them), as many as for
  JSONL; a file with fewer lines, or a line too long, ends the last chunk with the reader's
  error, raised by ``rows()`` after the lines before it are checked.
- CSV: cut where records end, found in the bytes (``csv_cuts.CsvRecords``: one match of a
  compiled expression per record, as ``csv.reader`` would end it: a line end inside a quoted
  cell does not). The header row is read here (``csv_files.csv_columns``) and sent with every
  chunk; then chunks of ``lines`` records (blank lines included), fewer when they reach
  the byte limit, each from the line a record starts on; ``rows()`` reads them with
  ``csv_files.csv_rows``, as the reader goes on from that line. A record of more than
  ``max_line_bytes()`` bytes (a line too long, several long cells, or an unclosed quote) is
  refused as the reader refuses it, once a little more than the limit of it is read: its error
  is raised by the last chunk's ``rows()``, after the chunks before.
- A ``.json`` file (which may hold one JSON array, one document that ``json`` parses in C):
  read as rows in this process by the ``files`` reader, and handed out ``lines`` rows at a time.
- Standard input (the path ``-``): JSONL, or CSV when the format says so, cut as a file of
  unknown size (a pipe) is; its lines are named ``<stdin>:LINE``.
- A regular JSONL file, for several worker processes on this machine (``ranges``): not read
  here at all, but cut into byte ranges that the workers read themselves (``file_ranges``).

With ``group_by``, the chunks carry the name of the field (or CSV column) whose text each
``Row.group`` gets (``files``).
"""

import itertools
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import BinaryIO, NamedTuple

from .csv_cuts import CsvRecords, lines_in
from .csv_files import CsvColumns, csv_columns, csv_rows
from .file_lines import (
    STDIN,
    InputFileError,
    decode_line,
    max_line_bytes,
    numbered_raw_lines,
    open_input,
)
from .file_ranges import RangeChunk, range_chunks, regular_file
from .file_rows import Row
from .files import format_of, jsonl_rows, open_examples
from .parallel import guided_share
from .text_files import aligned_lines, text_row

Lines = list[tuple[int, bytes]]
CHUNK_BYTES = 1 << 22
"""A chunk of lines ends once it holds this many bytes (4 MiB), if its ``lines`` have not ended
it: so long examples make more chunks, for the workers to share evenly, and the bytes in flight
stay bounded."""
LEAST_CHUNK_BYTES = 1 << 16
"""For several workers, the chunks get smaller towards the end of a file (``parallel.guided_share``
of the bytes not yet cut), down to this many bytes (64 KiB)."""


class RowChunk(NamedTuple):
    """Examples read already; ``error``, if any, the reader's error that ended them, raised by ``rows()``."""

    examples: list[Row]
    error: InputFileError | None = None

    def rows(self) -> list[Row]:
        if self.error is not None:
            raise self.error
        return self.examples


class JsonlChunk(NamedTuple):
    """Numbered raw lines of the JSONL file ``path``; ``error`` (a line too long) ends the input,
    raised by ``rows()`` after checking these lines; ``group_by``, the field of the group labels."""

    path: str
    lines: Lines
    error: InputFileError | None = None
    group_by: str | None = None

    def rows(self) -> list[Row]:
        """The examples of these lines; ``InputFileError`` for the first unusable line."""
        rows = list(jsonl_rows(self.path, self.lines, self.group_by))
        if self.error is not None:
            raise self.error
        return rows


class TextChunk(NamedTuple):
    """Raw lines of three line-aligned text files (``paths``: sources, references, predictions),
    the first numbered ``first``. ``error`` ends the input, raised by ``rows()`` after checking
    these lines and ``partial``: the (raw line, path) of the next line number read before it."""

    paths: tuple[str, str, str]
    first: int
    lines: tuple[list[bytes], list[bytes], list[bytes]]
    partial: list[tuple[bytes, str]]
    error: InputFileError | None

    def rows(self) -> list[Row]:
        """The examples of these lines; ``InputFileError`` for the first unusable line."""
        rows = [
            text_row(number, [decode_line(raw, number, path) for raw, path in zip(raws, self.paths)])
            for number, raws in enumerate(zip(*self.lines), start=self.first)
        ]
        number = self.first + len(rows)
        for raw, path in self.partial:
            decode_line(raw, number, path)
        if self.error is not None:
            raise self.error
        return rows


class CsvChunk(NamedTuple):
    """Raw lines ``text`` of the CSV file ``path`` whose header row gives ``columns``: whole
    records, from line ``first`` (the last may end with the file, without a line end or
    inside a quoted cell)."""

    path: str
    columns: CsvColumns
    first: int
    text: bytes

    def rows(self) -> list[Row]:
        """The examples of these lines; ``InputFileError`` for the first unusable record or line."""
        numbered = enumerate(self.text.splitlines(keepends=True), start=self.first)
        return list(csv_rows(self.path, _decoded(self.path, numbered), self.first, self.columns))


def _decoded(path: str, numbered: Iterable[tuple[int, bytes]]) -> Iterator[str]:
    """The numbered raw lines of the file ``path`` as text."""
    for number, raw in numbered:
        yield decode_line(raw, number, path)


Chunk = RowChunk | JsonlChunk | TextChunk | CsvChunk | RangeChunk
"""A chunk of examples: its ``rows()`` are the examples, numbered by their file lines; a
``RangeChunk``'s ``read()`` numbers them within the range (``file_ranges``)."""


Reader = Callable[[Callable[[int], None], int, int, bool], Iterator[Chunk]]


def open_chunks(
    file: str | None = None,
    file_format: str | None = None,
    text_files: Sequence[str | None] = (),
    group_by: str | None = None,
) -> tuple[list[str], Reader]:
    """The paths to read and a function ``read(advance, lines, workers, ranges) -> chunks`` that
    cuts them into chunks of ``lines`` lines (or CSV records, or rows) and reports the bytes read
    to ``advance``; for ``workers`` > 1 the chunks of a file of known size get smaller towards its
    end (``_Sizes``). With ``ranges`` (for worker processes on this machine, which can open the
    file), a regular JSONL file is cut into byte ranges that the workers read themselves
    (``file_ranges``) instead. The arguments are ``files.open_examples``'s, with its ``ValueError``."""
    paths, read_rows = open_examples(file, file_format, text_files, group_by)
    if file is None:
        sources, references, predictions = paths
        return paths, lambda advance, lines, workers=1, ranges=False: _text_chunks(
            (sources, references, predictions), advance, lines, workers
        )
    if format_of(file, file_format) == "csv":
        return paths, lambda advance, lines, workers=1, ranges=False: _csv_chunks(
            file, (advance, group_by), lines, workers
        )
    if not file.lower().endswith(".json"):
        return paths, lambda advance, lines, workers=1, ranges=False: _jsonl_chunks(
            file, (advance, group_by), lines, (workers, ranges)
        )
    return paths, lambda advance, lines, workers=1, ranges=False: _row_chunks(read_rows(advance), lines)


class _Sizes:
    """The bytes the next chunk of the files ``handles`` may hold, for ``workers`` workers:
    ``CHUNK_BYTES``, or ``parallel.guided_share`` of the bytes not cut yet (from the files' sizes;
    unknown for a pipe) once that is smaller, at least ``LEAST_CHUNK_BYTES``."""

    def __init__(self, handles: Sequence[BinaryIO], workers: int):
        self.workers = workers
        self.total = sum(_size(handle) for handle in handles)
        self.cut = 0
        self.limit = self.next(0)

    def next(self, cut: int) -> int:
        """The limit of the chunk after ``cut`` more bytes were cut (also kept as ``limit``)."""
        self.cut += cut
        remaining = self.total - self.cut if self.total else 0
        self.limit = guided_share(remaining, self.workers, CHUNK_BYTES, LEAST_CHUNK_BYTES)
        return self.limit


def _size(handle: BinaryIO) -> int:
    """The size of the regular file ``handle``; 0 for anything else (a pipe, a stream without a file)."""
    try:
        status = os.fstat(handle.fileno())
    except OSError:  # io.UnsupportedOperation: no file descriptor
        return 0
    return status.st_size if stat.S_ISREG(status.st_mode) else 0


def _row_chunks(rows: Iterator[Row], size: int) -> Iterator[Chunk]:
    """``rows``, read in this process, ``size`` at a time; a last chunk raises their reader's error."""
    try:
        while examples := list(itertools.islice(rows, size)):
            yield RowChunk(examples)
    except InputFileError as error:
        yield RowChunk([], error)


Reading = tuple[Callable[[int], None], str | None]
"""What a reader of chunks is given besides the path and sizes: the function told the bytes
read (``advance``) and the field of the group labels (``group_by``)."""


def _jsonl_chunks(path: str, reading: Reading, size: int, cutting: tuple[int, bool]) -> Iterator[Chunk]:
    """The chunks of the JSONL file ``path``: byte ranges for a regular file when ``cutting``
    (workers, ranges) asks for ranges and several workers, else chunks of raw lines."""
    advance, group_by = reading
    workers, ranges = cutting
    file = regular_file(path) if ranges and workers > 1 and path != STDIN else None
    if file is not None:
        yield from range_chunks(path, file, advance, workers, group_by)
        return
    with open_input(path) as handle:
        sizes = _Sizes([handle], workers)
        lines: Lines = []
        held = 0
        try:
            for number, raw in numbered_raw_lines(handle, path):
                lines.append((number, raw))
                held += len(raw)
                if len(lines) == size or held >= sizes.limit:
                    advance(held)
                    yield JsonlChunk(path, lines, None, group_by)
                    sizes.next(held)
                    lines, held = [], 0
        except InputFileError as too_long:  # raised after the lines before it, as one reader would
            advance(held)
            yield JsonlChunk(path, lines, too_long, group_by)
            return
        if lines:
            advance(held)
            yield JsonlChunk(path, lines, None, group_by)


def _csv_chunks(path: str, reading: Reading, size: int, workers: int) -> Iterator[Chunk]:
    advance, group_by = reading
    with open_input(path) as handle:
        sizes = _Sizes([handle], workers)
        records = CsvRecords(handle, max_line_bytes())
        if not records.next() and records.too_long:
            yield RowChunk([], records.refusal(path, 1))
            return
        header = records.take()
        advance(len(header))
        numbered = enumerate(header.splitlines(keepends=True), start=1)
        columns, first = csv_columns(path, _decoded(path, numbered), ("prediction",), group_by)
        count = 0  # records found since the last chunk
        while records.next():
            count += 1
            if count == size or records.end >= sizes.limit:
                text = records.take()
                advance(len(text))
                yield CsvChunk(path, columns, first, text)
                sizes.next(len(text))
                first, count = first + lines_in(text), 0
        text = records.take()
        if text:
            advance(len(text))
            yield CsvChunk(path, columns, first, text)
        if records.too_long:
            yield RowChunk([], records.refusal(path, first + lines_in(text)))


def _text_chunks(
    paths: tuple[str, str, str], advance: Callable[[int], None], size: int, workers: int
) -> Iterator[Chunk]:
    with open(paths[0], "rb") as s, open(paths[1], "rb") as r, open(paths[2], "rb") as p:
        sizes = _Sizes([s, r, p], workers)
        lines: tuple[list[bytes], list[bytes], list[bytes]] = ([], [], [])
        first, held = 1, 0
        for number, raws, error in aligned_lines(paths, (s, r, p)):
            if error is not None:
                yield TextChunk(paths, first, lines, raws, error)
                return
            for column, (raw, _) in zip(lines, raws):
                advance(len(raw))
                column.append(raw)
                held += len(raw)
            if len(lines[0]) == size or held >= sizes.limit:
                yield TextChunk(paths, first, lines, [], None)
                sizes.next(held)
                first, lines, held = number + 1, ([], [], []), 0
        if lines[0]:
            yield TextChunk(paths, first, lines, [], None)
