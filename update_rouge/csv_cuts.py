"""Where the records of a CSV file end, found in its bytes, for reading it record by record.

A CSV record ends at a line end (``\r\n``, ``\r`` or ``\n``) outside a quoted cell: Python's
``csv.reader`` (the excel dialect that ``csv_files`` reads with) keeps a line end inside a quoted
cell. ``record_end`` finds the end of a record, following the reader's rules: a quote opens a
quoted cell only at the start of a cell and is a plain character anywhere else in an unquoted
cell; inside a quoted cell ``""`` is a quote and a lone ``"`` closes it; text after a closing
quote, which the strict reader refuses, is read as the lenient reader reads it (as more of the
cell), since the record that holds it fails to parse wherever it is cut. A record in the first
``WINDOW`` bytes is found with one match of a compiled expression; a longer one (or one not
ended yet) cell by cell: runs of whole cells matched ``WINDOW`` bytes at a time, the end of a
long quoted cell and the line end found with ``bytes.find``, so that no match backtracks over
more than ``WINDOW`` bytes (a failing match over a whole long record backtracks for seconds).
The bytes ``"``, ``,``, ``\r`` and ``\n`` are never part of a longer UTF-8 character, so the
bytes tell what the decoded text would, but for the byte order mark that may start the file
(``CsvRecords`` steps over it).

``CsvRecords`` reads a file in blocks and moves from record end to record end, holding only
the bytes not yet taken, and stops at a record longer than a limit (``max_line_bytes()``, the
limit of one line, is the limit of one record: a record is the line of text ``csv.reader``
reads, quoted line ends and all). ``numbered_lines`` gives the lines of a CSV file record by
record, and refuses a record over the limit once it has read a little more than the limit of
it, before reading the rest.
"""

import re
from collections.abc import Callable, Iterator
from typing import BinaryIO

from .file_lines import MAX_LINE_BYTES_VARIABLE, InputFileError, max_line_bytes

_QUOTED = rb'[^"]*(?:""[^"]*)*'
"""The inside of a quoted cell, its quotes in pairs. Followed by a lone ``"`` (``(?!")``), the
cell closes there, and nowhere else."""
_CELL = rb'(?:"' + _QUOTED + rb'"(?!")[^,\r\n]*|[^",\r\n][^,\r\n]*)?'
"""A cell: quoted (line ends and all, and closed), unquoted or empty."""
_RECORD = re.compile(_CELL + rb"(?:," + _CELL + rb")*(?:\r\n?|\n)")
_CELLS = re.compile(rb"(?:" + _CELL + rb",)*")
"""Whole cells, each followed by its comma: where a match ends, a cell starts."""
_QUOTED_RUN = re.compile(_QUOTED)

BLOCK = 1 << 20
"""The bytes ``CsvRecords`` reads at a time (more for a record longer than that)."""
WINDOW = 1 << 16
"""A record in this many bytes is found with one match of ``_RECORD``; a longer one by
``_step_end``, which matches at most this many bytes at a time."""
BOM = b"\xef\xbb\xbf"
_CR = ord("\r")


def record_end(data: bytes | bytearray, start: int, complete: bool) -> int | None:
    """The index in ``data`` just after the CSV record that starts at ``data[start]``, with its
    line end; ``None`` if ``data`` ends before the record is known to (more bytes follow),
    unless ``data`` holds the rest of the file (``complete``): the last record then ends with
    ``data``, line end or not (and ``start`` itself when no byte is left)."""
    window = min(len(data), start + WINDOW)
    match = _RECORD.match(data, start, window)
    if match is None or (match.end() == window < len(data) and data[window - 1] == _CR):
        return _step_end(data, start, complete)
    end = match.end()
    if end == len(data) and data.endswith(b"\r") and not complete:
        return None  # a "\n" may follow in the bytes not read yet
    return end


class _Next:
    """Where ``needle`` is next in ``data`` (its length if nowhere) at or after a position, each
    place found once."""

    def __init__(self, data: bytes | bytearray, needle: bytes):
        self.data, self.needle, self.at = data, needle, -1

    def after(self, position: int) -> int:
        if self.at < position:
            found = self.data.find(self.needle, position)
            self.at = len(self.data) if found < 0 else found
        return self.at


def _step_end(data: bytes | bytearray, start: int, complete: bool) -> int | None:
    """``record_end``, found cell by cell: whole cells (each followed by its comma) in runs of at
    most ``WINDOW`` bytes matched at once, then a quoted cell to its closing quote and the rest
    of a cell to its comma or line end, each looked for with ``bytes.find``."""
    size = len(data)
    position = start  # where a cell starts
    lf, cr, comma = _Next(data, b"\n"), _Next(data, b"\r"), _Next(data, b",")
    while True:
        position = _CELLS.match(data, position, min(size, position + WINDOW)).end()  # type: ignore[union-attr]
        if data.startswith(b'"', position):
            closed = _closed(data, position + 1, complete)
            if closed is None:
                return size if complete else None
            position = closed
        end = min(lf.after(position), cr.after(position))  # the first line end outside quotes
        if end == size and not complete:
            return None  # no line end in the bytes read: the record goes on
        if comma.after(position) < end:
            position = comma.after(position) + 1
            continue
        if end == size:
            return size
        if data[end] == _CR:
            if end + 1 == size and not complete:
                return None  # a "\n" may follow in the bytes not read yet
            end += data.startswith(b"\n", end + 1)
        return end + 1


def _closed(data: bytes | bytearray, position: int, complete: bool) -> int | None:
    """The index after the quote that closes the quoted cell whose text starts at
    ``data[position]``; ``None`` if ``data`` does not hold it (or ends at a quote that a second
    one may follow, unless ``complete``)."""
    while True:
        close = data.find(b'"', position)
        if close < 0 or (close + 1 == len(data) and not complete):
            return None
        if not data.startswith(b'"', close + 1):
            return close + 1
        run = _QUOTED_RUN.match(data, close, min(len(data), close + WINDOW))  # the pairs and text after
        position = max(close + 2, run.end())  # type: ignore[union-attr]


def lines_in(data: bytes) -> int:
    """How many line ends ``data`` holds (``\r\n`` is one)."""
    if b"\r" not in data:
        return data.count(b"\n")
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")


class CsvRecords:
    """The records of the CSV file ``handle`` (binary, read from its start), found one by one.

    ``next()`` finds the record after ``end`` (the bytes before ``end`` are whole records);
    ``take()`` hands them out. A record of more than ``limit`` bytes, ended or not, stops the
    search (``too_long``) once about ``limit`` bytes of it are held, before the rest is read, so
    that no record found (and no line in one) is longer than ``limit``; ``refusal()`` then says so.
    """

    def __init__(self, handle: BinaryIO, limit: int):
        self.handle, self.limit = handle, limit
        self.data = bytearray()  # read and not taken yet
        self.end = 0  # in data: the end of the records found
        self.complete = False  # whether data holds the rest of the file
        self.too_long = False
        self.taken = 0  # bytes taken so far

    def next(self) -> bool:
        """Move ``end`` past the next record: True, or False at the end of the file or at a
        record longer than the limit (``too_long``; ``end`` stays at its start)."""
        while True:
            at_bom = self.taken == self.end == 0 and self.data.startswith(BOM)
            found = record_end(self.data, self.end + 3 * at_bom, self.complete)
            pending = (len(self.data) if found is None else found) - self.end
            if pending > self.limit:
                self.too_long = True
                return False
            if found is not None:
                self.end = found
                return pending > 0
            # Reading as much again as the record holds keeps the searches of a long record linear.
            block = self.handle.read(max(BLOCK, min(pending, self.limit + 1 - pending)))
            self.complete = not block
            self.data += block

    def take(self) -> bytes:
        """The whole records found since the last ``take()``."""
        with memoryview(self.data) as view:
            records = bytes(view[: self.end])
        del self.data[: self.end]
        self.taken += self.end
        self.end = 0
        return records

    def refusal(self, path: str, line: int) -> InputFileError:
        """The error for the record too long (``too_long``) that starts on line ``line`` of the
        file ``path``: a line too long, as ``file_lines`` says it, if its first line has more than
        ``limit`` bytes, else a record too long."""
        start, stop = self.end, self.end + self.limit + 1
        ends = [end for end in (self.data.find(b"\n", start, stop), self.data.find(b"\r", start, stop)) if end >= 0]
        first = min(ends, default=stop)  # where its first line ends
        one_line = first + 1 + self.data.startswith(b"\r\n", first) - start > self.limit
        what = "line" if one_line else "record"
        spans = "" if one_line else " (its quoted cells span lines)"
        return InputFileError(
            path,
            line,
            f"a {what}{spans} longer than {self.limit:,} bytes, the limit of one {what} "
            f"(raise it with the environment variable {MAX_LINE_BYTES_VARIABLE})",
        )


def numbered_lines(handle: BinaryIO, path: str, advance: Callable[[int], None]) -> Iterator[tuple[int, bytes]]:
    """The lines of the CSV file ``handle`` (the file ``path``) with their line ends, numbered
    from 1 and read record by record, each record's bytes reported to ``advance``;
    ``InputFileError`` for a record longer than ``max_line_bytes()``, before reading the rest of it."""
    records = CsvRecords(handle, max_line_bytes())
    number = 1
    while records.next():
        text = records.take()
        advance(len(text))
        for line in text.splitlines(keepends=True):
            yield number, line
            number += 1
    if records.too_long:
        raise records.refusal(path, number)
