"""Where the records of a CSV file end, found in its bytes, for cutting it into chunks.

A CSV record ends at a line end (``\r\n``, ``\r`` or ``\n``) outside a quoted cell: Python's
``csv.reader`` (the excel dialect that ``files`` reads with) keeps a line end inside a quoted
cell. ``record_end`` finds the end of a record with one match of a compiled expression, which
follows the reader's rules: a quote opens a quoted cell only at the start of a cell and is a
plain character anywhere else in an unquoted cell; inside a quoted cell ``""`` is a quote and
a lone ``"`` closes it; text after a closing quote, which the strict reader refuses, is read as
the lenient reader reads it (as more of the cell), since the record that holds it fails to
parse wherever it is cut. The bytes ``"``, ``,``, ``\r`` and ``\n`` are never part of a longer
UTF-8 character, so the bytes tell what the decoded text would, but for the byte order mark
that may start the file (``CsvRecords`` steps over it).

``CsvRecords`` reads a file in blocks and moves from record end to record end, holding only
the bytes not yet taken, and stops at a record longer than a limit.
"""

import re
from typing import BinaryIO

_QUOTED = rb'[^"]*(?:""[^"]*)*'
"""The inside of a quoted cell, its quotes in pairs. Followed by a lone ``"`` (``(?!")``), the
cell closes there, and nowhere else."""
_CELL = rb'(?:"' + _QUOTED + rb'"(?!")[^,\r\n]*|[^",\r\n][^,\r\n]*)?'
"""A cell: quoted (line ends and all, and closed), unquoted or empty."""
_RECORD = re.compile(_CELL + rb"(?:," + _CELL + rb")*(?:\r\n?|\n)")

BLOCK = 1 << 20
"""The bytes ``CsvRecords`` reads at a time (more for a record longer than that)."""
BOM = b"\xef\xbb\xbf"


def record_end(data: bytes | bytearray, start: int, complete: bool) -> int | None:
    """The index in ``data`` just after the CSV record that starts at ``data[start]``, with its
    line end; ``None`` if ``data`` ends before the record is known to (more bytes follow),
    unless ``data`` holds the rest of the file (``complete``): the last record then ends with
    ``data``, line end or not (and ``start`` itself when no byte is left)."""
    match = _RECORD.match(data, start)
    if match is None:
        return len(data) if complete else None
    end = match.end()
    if end == len(data) and data.endswith(b"\r") and not complete:
        return None  # a "\n" may follow in the bytes not read yet
    return end


def lines_in(data: bytes) -> int:
    """How many line ends ``data`` holds (``\r\n`` is one)."""
    if b"\r" not in data:
        return data.count(b"\n")
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")


class CsvRecords:
    """The records of the CSV file ``handle`` (binary, read from its start), found one by one.

    ``next()`` finds the record after ``end`` (the bytes before ``end`` are whole records);
    ``take()`` hands them out. A record of more than ``limit`` bytes, ended or not, stops the
    search (``too_long``), so that no line in the records found is longer than ``limit`` and
    at most about ``limit`` bytes of one record are held: ``rest()`` is then the file from its
    start.
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
            # Reading as much again as the record holds keeps the matches of a long record linear.
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

    def rest(self) -> "_Replay":
        """The rest of the file, from ``end`` (once the records before it are taken)."""
        return _Replay(bytes(self.data[self.end :]), self.handle)


class _Replay:
    """A binary file read from ``head`` (its bytes read already) and then from ``handle``."""

    def __init__(self, head: bytes, handle: BinaryIO):
        self.head, self.at, self.handle = memoryview(head), 0, handle

    def read(self, size: int) -> bytes:
        if self.at < len(self.head):
            self.at += size
            return bytes(self.head[self.at - size : self.at])
        return self.handle.read(size)
