"""A regular JSONL file cut into byte ranges that the worker processes read themselves.

With several worker processes on this machine (``cli.score``), the process that hands out a
regular JSONL file's examples does not read the file: it cuts its size into byte ranges
(``range_chunks``: ``RANGE_BYTES`` each, smaller towards the end for several workers,
``parallel.guided_share``), and the worker that scores a range reads it (``RangeChunk.read``).
A range holds the lines that start in it, the last read to its end beyond the range; where a
line starts is found in the bytes (after ``\\n``, after a ``\\r`` not followed by ``\\n``), so
the lines are those that ``file_lines`` reads from the start of the file, split, held to
``max_line_bytes()`` and decoded as there, and parsed by ``files.jsonl_rows``: the rows of the
ranges, in order, are those the one-process reader yields, and the first unusable line raises
the same ``InputFileError`` once the lines before it in its range are checked.

A worker does not know how many lines come before its range: it numbers its lines from 1 in the
range at the start of the file, else from 2 (so that only the file's first line is read as
line 1, the one whose byte order mark is dropped), and says how many it read
(``RangeChunk.first``, ``read``); the process that receives the ranges' results in order adds
the lines before (``chunk_scoring``). The worker opens the file by the real path found when it
was cut and checks that it is still the same file (device and inode).
"""

import os
import re
import stat
from collections.abc import Callable, Iterator
from typing import BinaryIO, NamedTuple

from .file_lines import InputFileError, numbered_raw_lines
from .file_rows import Row
from .files import jsonl_rows
from .outputs import shown_path
from .parallel import guided_share

RANGE_BYTES = 1 << 22
"""The most bytes of a range (4 MiB): long enough that a range costs the process that cuts it
nothing next to its scoring, short enough that the ranges in flight stay small."""
LEAST_RANGE_BYTES = 1 << 16
"""For several workers, the ranges get smaller towards the end of the file, down to this many bytes."""
_READ_SIZE = 1 << 16
_LINE_END = re.compile(rb"\r\n|\r|\n")


class RangeChunk(NamedTuple):
    """The lines of the JSONL file ``path`` (as the user named it) that start at byte ``start``
    or later and before ``stop``; ``location`` is its real path and ``identity`` its device and
    inode when it was cut; ``group_by``, the field of the group labels."""

    path: str
    location: str
    identity: tuple[int, int]
    start: int
    stop: int
    group_by: str | None = None

    @property
    def first(self) -> int:
        """The number ``read`` gives the range's first line: 1 at the start of the file, else 2."""
        return 1 if self.start == 0 else 2

    def read(self) -> tuple[list[Row], int]:
        """The examples of the range's lines (their ``line`` numbered from ``first``) and how many
        lines it holds, blank ones included; ``InputFileError`` (numbered so too) for the first
        unusable line, ``ValueError`` if the file was replaced since it was cut."""
        with open(self.location, "rb") as handle:
            status = os.fstat(handle.fileno())
            if (status.st_dev, status.st_ino) != self.identity:
                raise ValueError(f"{shown_path(self.path)}: the file was replaced while it was read")
            lines, error = self._lines(handle)
        rows = list(jsonl_rows(self.path, lines, self.group_by))
        if error is not None:
            raise error
        return rows, len(lines)

    def _lines(self, handle: BinaryIO) -> tuple[list[tuple[int, bytes]], InputFileError | None]:
        """The numbered raw lines that start in the range, and the error of a line too long
        that ended them (``None`` if none did)."""
        lines: list[tuple[int, bytes]] = []
        position = line_start(handle, self.start, self.stop)
        if position >= self.stop:
            return lines, None
        handle.seek(position)
        try:
            for numbered in numbered_raw_lines(handle, self.path, self.first):
                lines.append(numbered)
                position += len(numbered[1])
                if position >= self.stop:  # checked before the next line is read: it is the next range's
                    break
        except InputFileError as too_long:
            return lines, too_long
        return lines, None


def line_start(handle: BinaryIO, start: int, stop: int) -> int:
    """Where the first line that starts at ``start`` or later begins in the file ``handle``: a
    position after ``\\n`` or ``\\r\\n``, or after a ``\\r`` that no ``\\n`` follows; 0 for 0;
    ``stop`` or more when no line starts before ``stop``. Reads at most the bytes from
    ``start - 1`` to the first line end, and none beyond ``stop`` but one."""
    if start == 0:
        return 0
    position = start - 1
    while position < stop:
        handle.seek(position)
        block = handle.read(_READ_SIZE + 1)  # one byte more: the "\n" after a "\r" at the end
        found = _LINE_END.search(block)
        if found is not None and (found.start() < len(block) - 1 or len(block) <= _READ_SIZE):
            return position + found.end()
        if len(block) <= _READ_SIZE:  # the end of the file inside a line that started before
            return stop
        position += len(block) - 1
    return stop


def regular_file(path: str) -> tuple[str, tuple[int, int]] | None:
    """The real path and the device and inode of ``path`` if it is a regular file that a worker
    process can open by that real path (``/dev/stdin`` redirected from a file is, a pipe is not);
    ``None`` otherwise."""
    try:
        with open(path, "rb") as handle:
            status = os.fstat(handle.fileno())
        location = os.path.realpath(path)
        found = os.stat(location)
    except OSError:
        return None
    identity = (status.st_dev, status.st_ino)
    if not stat.S_ISREG(status.st_mode) or (found.st_dev, found.st_ino) != identity:
        return None
    return location, identity


def range_chunks(
    path: str, file: tuple[str, tuple[int, int]], advance: Callable[[int], None], workers: int, group_by: str | None
) -> Iterator[RangeChunk]:
    """The ranges of the regular file ``path`` (``file``: its ``regular_file``), from its size
    now: ``RANGE_BYTES`` each, or for several ``workers`` ``parallel.guided_share`` of the bytes
    not cut yet once that is smaller, at least ``LEAST_RANGE_BYTES``; each range's bytes are
    told to ``advance`` as it is handed out."""
    location, identity = file
    size = os.stat(location).st_size
    start = 0
    while start < size:
        stop = min(size, start + guided_share(size - start, workers, RANGE_BYTES, LEAST_RANGE_BYTES))
        advance(stop - start)
        yield RangeChunk(path, location, identity, start, stop, group_by)
        start = stop
