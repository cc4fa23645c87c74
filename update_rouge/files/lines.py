"""The lines of an input file: where they end, how long one may be, their text, and how
messages name the file.

Lines end at ``\r\n``, ``\n`` or a lone ``\r``, and at nothing else (not at U+2028, U+0085 or a
form feed); each is read without holding more than ``max_line_bytes()`` of it (so ``/dev/zero``
cannot fill the memory) and decoded as UTF-8 (a byte order mark starting line 1 dropped).
Unusable input is an ``InputFileError`` naming the file and line. The path ``-`` (``STDIN``) is
standard input (``open_input``), named ``<stdin>`` (``input_name``).
"""

import contextlib
import itertools
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import BinaryIO, Protocol, cast

from ..environment import positive_integer
from ..errors import InputError, InputFile

STDIN = "-"
"""The input path of standard input, named ``<stdin>`` in messages."""
_READ_SIZE = 1 << 16
DEFAULT_MAX_LINE_BYTES = 100_000_000
MAX_LINE_BYTES_VARIABLE = "UPDATE_ROUGE_MAX_LINE_BYTES"
_PLAIN_PATH = re.compile(r"[\w@%+=:,./-]+", re.ASCII)


def shown_path(path: str) -> str:
    """``path`` as messages show it: as is when made only of letters, digits and ``@%+=:,./-_``
    (what a shell takes as one word), else Python's quoted form (``repr``), so that a path
    holding a space, a quote or a line end stays one recognisable piece of a one-line message."""
    return path if _PLAIN_PATH.fullmatch(path) else repr(path)


def input_name(path: str) -> str:
    """An input path as messages name it: ``<stdin>`` for ``STDIN``, else ``shown_path``'s form."""
    return "<stdin>" if path == STDIN else shown_path(path)


def open_input(path: str) -> AbstractContextManager[BinaryIO]:
    """The input file ``path`` opened for reading bytes; for ``STDIN``, standard input's bytes
    (left open when the block ends), or an ``OSError`` naming it when the process was started
    with standard input closed (Python then has no ``sys.stdin``)."""
    if path == STDIN:
        if sys.stdin is None:
            raise OSError(f"{input_name(STDIN)}: standard input is closed")
        return contextlib.nullcontext(cast(BinaryIO, sys.stdin.buffer))
    return open(path, "rb")


class InputFileError(InputError):
    """Unusable input of an input file: ``path`` and ``line`` (1-based) say where, ``problem``
    what; its message is ``path:line: problem`` (the path as ``input_name`` shows it). ``where``
    is None. ``missing``: the options that name the fields it lacks, for a door to advise."""

    def __init__(self, path: str, line: int, problem: str, missing: tuple[str, ...] = ()):
        super().__init__(None, (InputFile(path, input_name(path)), f":{line}: ", problem))
        self.path, self.line, self.problem, self.missing = path, line, problem, missing

    def __reduce__(self):  # raised in worker processes, re-raised in their parent
        return InputFileError, (self.path, self.line, self.problem, self.missing)

    def shifted(self, offset: int) -> "InputFileError":
        """Itself: it names a file's line, not an example index that a batch's offset moves."""
        return self


class Readable(Protocol):
    """What lines are read from: a binary file, or anything with its ``read``."""

    def read(self, size: int, /) -> bytes: ...


class LineTooLong(Exception):
    """A line is longer than the limit ``raw_lines`` was given."""


def max_line_bytes() -> int:
    """The most bytes one line of an input file may have: ``UPDATE_ROUGE_MAX_LINE_BYTES`` (a
    positive integer) if set, else ``DEFAULT_MAX_LINE_BYTES``; ``ValueError`` naming the variable
    for anything else."""
    return positive_integer(MAX_LINE_BYTES_VARIABLE, DEFAULT_MAX_LINE_BYTES, "bytes")


def too_long(path: str, line: int, what: str = "line") -> InputFileError:
    """The error of a ``what`` (a line, or a CSV record whose quoted cells span lines) of the
    file ``path``, starting on ``line``, longer than ``max_line_bytes()``."""
    spans = " (its quoted cells span lines)" if what == "record" else ""
    return InputFileError(
        path,
        line,
        f"a {what}{spans} longer than {max_line_bytes():,} bytes, the limit of one {what} (raise it with the "
        f"environment variable {MAX_LINE_BYTES_VARIABLE})",
    )


# The reader of every input file's bytes, one loop on purpose (a generator per branch costs each line): C901 waived.
def raw_lines(handle: Readable, limit: int) -> Iterator[bytes]:  # noqa: C901
    """The lines of a binary file with their line ends, which are ``\r\n``, ``\n`` or ``\r``;
    ``LineTooLong`` once a line has more than ``limit`` bytes, before holding more of it."""
    pieces: list[bytes] = []  # the start of a line that the blocks read so far have not ended
    pending = 0  # the bytes in pieces
    while True:
        if pending > limit:
            raise LineTooLong()
        chunk = handle.read(_READ_SIZE)
        ended = not chunk
        if pieces and pieces[-1].endswith(b"\r"):  # its "\n" may start this block
            if chunk.startswith(b"\n"):
                pieces.append(b"\n")
                pending += 1
                chunk = chunk[1:]
            if pending > limit:
                raise LineTooLong()
            yield b"".join(pieces)
            pieces, pending = [], 0
        if ended:
            if pieces:
                yield b"".join(pieces)
            return
        if not chunk:
            continue
        lines = chunk.splitlines(keepends=True)  # bytes split at \r\n, \r and \n only
        last = lines.pop()
        if lines:
            lines[0] = b"".join([*pieces, lines[0]])
            pieces, pending = [], 0
            for line in lines:
                if len(line) > limit:
                    raise LineTooLong()
                yield line
        pieces.append(last)
        pending += len(last)
        if last.endswith(b"\n"):
            if pending > limit:
                raise LineTooLong()
            yield b"".join(pieces)
            pieces, pending = [], 0


def numbered_raw_lines(handle: Readable, path: str) -> Iterator[tuple[int, bytes]]:
    """The lines of ``handle`` (the file ``path``) with their line ends, numbered from 1;
    ``InputFileError`` for a line longer than ``max_line_bytes()``, before holding more of it."""
    lines = raw_lines(handle, max_line_bytes())
    for number in itertools.count(1):
        try:
            raw = next(lines)
        except StopIteration:
            return
        except LineTooLong:
            raise too_long(path, number) from None
        yield number, raw


def decode_line(raw: bytes, number: int, path: str) -> str:
    """Line ``number`` of the file ``path`` as text (UTF-8; a byte order mark starting line 1 is dropped)."""
    try:
        return raw.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError as error:
        raise InputFileError(path, number, f"not valid UTF-8 ({error.reason} at byte {error.start})") from None


def file_lines(path: str, advance: Callable[[int], None]) -> Iterator[tuple[int, bytes]]:
    """The numbered raw lines of the input file ``path`` (``numbered_raw_lines``), each one's
    bytes reported to ``advance`` as it is read."""
    with open_input(path) as handle:
        for number, raw in numbered_raw_lines(handle, path):
            advance(len(raw))
            yield number, raw
