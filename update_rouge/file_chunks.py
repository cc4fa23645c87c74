"""Input files cut into chunks of raw lines that worker processes parse, for the command line.

The process that reads a file only cuts it into chunks of lines: it reads blocks, splits them
at line ends (``file_lines.numbered_raw_lines``, at the speed of ``bytes.splitlines``), numbers the
lines and holds each line to ``max_line_bytes()``. Decoding, parsing, checking and building
the ``files.Row``s happen in ``Chunk.rows()``, in whichever process scores the chunk, with the
checks and messages of the ``files`` readers: the rows of the chunks, in order, are the rows
those readers yield, and the first unusable input in file order raises the same
``InputFileError``, naming its file and line.

- JSONL: chunks of ``lines`` lines (blank lines included, and skipped by ``rows()``), fewer
  when they reach ``CHUNK_BYTES``.
- Three line-aligned text files: chunks of the same line numbers of each file, as many as for
  JSONL; a file with fewer lines, or a line too long, ends the last chunk with the reader's
  error, raised by ``rows()`` after the lines before it are checked.
- CSV (a quoted cell may hold line ends, so a line end is not always a record's end) and a
  ``.json`` file (which may hold one JSON array): read as rows in this process by the ``files``
  reader, and handed out ``lines`` rows at a time.
"""

import itertools
from typing import Callable, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from .file_lines import InputFileError, decode_line, numbered_raw_lines
from .files import Row, format_of, jsonl_rows, open_examples, text_row
from .outputs import shown_path

Lines = List[Tuple[int, bytes]]
CHUNK_BYTES = 1 << 22
"""A chunk of lines ends once it holds this many bytes (4 MiB), if its ``lines`` have not ended
it: so long examples make more chunks, for the workers to share evenly, and the bytes in flight
stay bounded."""


class RowChunk(NamedTuple):
    """Examples read already."""

    examples: List[Row]

    def rows(self) -> List[Row]:
        return self.examples


class JsonlChunk(NamedTuple):
    """Numbered raw lines of the JSONL file ``path``."""

    path: str
    lines: Lines

    def rows(self) -> List[Row]:
        """The examples of these lines; ``InputFileError`` for the first unusable line."""
        return list(jsonl_rows(self.path, self.lines))


class TextChunk(NamedTuple):
    """Raw lines of three line-aligned text files (``paths``: sources, references, predictions),
    the first numbered ``first``. ``error`` ends the input, raised by ``rows()`` after checking
    these lines and ``partial``: the (raw line, path) of the next line number read before it."""

    paths: Tuple[str, str, str]
    first: int
    lines: Tuple[List[bytes], List[bytes], List[bytes]]
    partial: List[Tuple[bytes, str]]
    error: Optional[InputFileError]

    def rows(self) -> List[Row]:
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


Chunk = Union[RowChunk, JsonlChunk, TextChunk]
"""A chunk of examples: its ``rows()`` are the examples."""


def open_chunks(
    file: Optional[str] = None, file_format: Optional[str] = None, text_files: Sequence[Optional[str]] = ()
) -> Tuple[List[str], Callable[[Callable[[int], None], int], Iterator[Chunk]]]:
    """The paths to read and a function ``read(advance, lines) -> chunks`` that cuts them into
    chunks of ``lines`` lines (or rows) and reports the bytes read to ``advance``. The arguments
    are ``files.open_examples``'s, with its ``ValueError``."""
    paths, read_rows = open_examples(file, file_format, text_files)
    if file is None:
        sources, references, predictions = paths
        return paths, lambda advance, lines: _text_chunks((sources, references, predictions), advance, lines)
    if format_of(file, file_format) == "jsonl" and not file.lower().endswith(".json"):
        return paths, lambda advance, lines: _jsonl_chunks(file, advance, lines)

    def row_chunks(advance: Callable[[int], None], size: int) -> Iterator[Chunk]:
        rows = read_rows(advance)
        while examples := list(itertools.islice(rows, size)):
            yield RowChunk(examples)

    return paths, row_chunks


def _jsonl_chunks(path: str, advance: Callable[[int], None], size: int) -> Iterator[Chunk]:
    with open(path, "rb") as handle:
        lines: Lines = []
        held = 0
        for number, raw in numbered_raw_lines(handle, path):
            lines.append((number, raw))
            held += len(raw)
            if len(lines) == size or held >= CHUNK_BYTES:
                advance(held)
                yield JsonlChunk(path, lines)
                lines, held = [], 0
        if lines:
            advance(held)
            yield JsonlChunk(path, lines)


def _text_chunks(paths: Tuple[str, str, str], advance: Callable[[int], None], size: int) -> Iterator[Chunk]:
    with open(paths[0], "rb") as s, open(paths[1], "rb") as r, open(paths[2], "rb") as p:
        readers = [numbered_raw_lines(handle, path) for handle, path in zip((s, r, p), paths)]
        lines: Tuple[List[bytes], List[bytes], List[bytes]] = ([], [], [])
        first, partial, error, held = 1, [], None, 0
        for number in itertools.count(1):
            raws: List[Optional[bytes]] = []
            try:
                for reader in readers:
                    numbered = next(reader, None)
                    raws.append(None if numbered is None else numbered[1])
            except InputFileError as too_long:
                error = too_long
            if error is None and all(raw is None for raw in raws):
                break
            if error is None and None in raws:
                ended = paths[raws.index(None)]
                longer = paths[next(i for i, raw in enumerate(raws) if raw is not None)]
                error = InputFileError(longer, number, f"has more lines than {shown_path(ended)} ({number - 1} lines)")
            if error is not None:
                partial = [(raw, path) for raw, path in zip(raws, paths) if raw is not None]
                break
            for column, raw in zip(lines, raws):
                advance(len(raw))  # type: ignore[arg-type]
                column.append(raw)  # type: ignore[arg-type]
                held += len(raw)  # type: ignore[arg-type]
            if len(lines[0]) == size or held >= CHUNK_BYTES:
                yield TextChunk(paths, first, lines, [], None)
                first, lines, held = number + 1, ([], [], []), 0
        if lines[0] or error is not None:
            yield TextChunk(paths, first, lines, partial, error)
