"""The one reader of each layout, whole or in chunks for the processes that score them.

A ``Reader`` reads a layout in two steps, whoever reads it: ``split`` reads the files in the
process that opened them (JSONL and text files into raw lines, CSV and ``.json`` files into
examples), and ``parse`` makes examples of what it gives, in whichever process scores them;
``chunks`` hands out what ``split`` gives in chunks, ``records`` parses it all in one process. So
the examples and the first unusable input (an ``InputFileError`` naming its file and line) are the
same however many processes read them: an error met by ``split`` ends the last chunk, raised
after the examples before it are parsed.
"""

import functools
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from ..parallel import guided_share
from .csv_files import csv_file_records
from .jsonl_files import json_file_records, jsonl_records
from .lines import STDIN, InputFileError, file_lines, shown_path
from .rows import DEFAULT_FIELDS, Fields, Record, Row, SystemsRow, as_rows, no_progress
from .text_files import aligned_lines, text_records

FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv"}
CHUNK_LINES = 1000
"""The lines (or records, or examples) of a chunk, unless ``CHUNK_BYTES`` ends it first."""
CHUNK_BYTES = 1 << 22
"""A chunk ends once it holds this many bytes (4 MiB): long examples shared evenly, the bytes in flight bounded."""
LEAST_CHUNK_BYTES = 1 << 16
"""For several workers, the chunks get smaller towards the end of the files, down to this many bytes."""


class Chunk(NamedTuple):
    """Some of a file's examples, as ``split`` gave them (``units``), that ``parse(*source,
    units)`` makes examples of; ``error``, if any, the error that ended the file's units."""

    parse: Callable[..., Iterator[Record]]
    source: tuple
    units: list
    error: InputFileError | None = None

    def records(self) -> Iterator[Record]:
        """The examples of the chunk; ``InputFileError`` for the first unusable input."""
        yield from self.parse(*self.source, self.units)
        if self.error is not None:
            raise self.error

    def rows(self) -> list[Row]:
        """The examples of the chunk, as ``Row``s."""
        return list(as_rows(self.records()))


def _add(total: list[int], count: int) -> None:
    total[0] += count


def _read_already(units: list[Record]) -> Iterator[Record]:
    """The ``parse`` of examples read where the file was split."""
    return iter(units)


class Reader(NamedTuple):
    """The reader of the files ``paths``: ``split(advance)`` reads them, reporting the bytes it
    reads to ``advance``; ``parse(*source, units)`` makes examples of what ``split`` gives."""

    paths: list[str]
    split: Callable[[Callable[[int], None]], Iterator[Any]]
    parse: Callable[..., Iterator[Record]] = _read_already
    source: tuple = ()

    def chunks(self, advance: Callable[[int], None], lines: int = CHUNK_LINES, workers: int = 1) -> Iterator[Chunk]:
        """The files in chunks of ``lines`` units, fewer when they reach ``CHUNK_BYTES`` (for
        several ``workers``, ``guided_share`` of the bytes not read yet, from the files' sizes)."""
        remaining = sum(map(_size, self.paths))
        held = [0]  # the bytes read since the last chunk, told to advance with it
        units: list = []
        limit = guided_share(remaining, workers, CHUNK_BYTES, LEAST_CHUNK_BYTES)
        try:
            for unit in self.split(functools.partial(_add, held)):
                units.append(unit)
                if len(units) == lines or held[0] >= limit:
                    advance(held[0])
                    yield Chunk(self.parse, self.source, units)
                    remaining, units, held[0] = remaining - held[0], [], 0
                    limit = guided_share(remaining, workers, CHUNK_BYTES, LEAST_CHUNK_BYTES)
        except InputFileError as error:  # raised after the examples before it, as one reader would
            advance(held[0])
            yield Chunk(self.parse, self.source, units, error)
            return
        advance(held[0])
        if units:
            yield Chunk(self.parse, self.source, units)

    def records(self, advance: Callable[[int], None] = no_progress) -> Iterator[Record]:
        """The examples of the files, in order, each parsed as soon as it is split."""
        return self.parse(*self.source, self.split(advance))


def _size(path: str) -> int:
    """The size of the regular file ``path``; 0 for anything else (standard input, a pipe)."""
    try:
        status = os.stat(path)
    except OSError:
        return 0
    return status.st_size if path != STDIN and stat.S_ISREG(status.st_mode) else 0


def format_of(file: str, file_format: str | None = None) -> str:
    """``file_format`` if given, else the format ``FORMATS`` tells by ``file``'s extension;
    ``ValueError`` when neither says "jsonl" or "csv". Standard input (``-``) is JSONL unless
    ``file_format`` says otherwise."""
    if file == STDIN:
        return file_format or "jsonl"
    file_format = file_format or FORMATS.get(os.path.splitext(file)[1].lower())
    if file_format not in ("jsonl", "csv"):
        raise ValueError(
            f"cannot tell the format of {shown_path(file)} from its extension: pass --input-format jsonl or csv"
        )
    return file_format


def open_reader(
    file: str | None = None,
    file_format: str | None = None,
    text_files: Sequence[str | None] = (),
    fields: Fields = DEFAULT_FIELDS,
) -> Reader:
    """The reader of ``file`` (JSONL or CSV; ``file_format`` "jsonl" or "csv", else told by the
    extension as in ``FORMATS``; ``-`` for standard input), its examples read from ``fields``, or
    of ``text_files``: the sources, references and predictions files. ``ValueError`` when the
    arguments do not name one of these layouts (a group label or evidence is a FILE's field)."""
    given = [path for path in text_files if path is not None]
    if file is not None:
        if given:
            raise ValueError("give either FILE or --sources, --references and --predictions, not both")
        source = (file, fields)
        if format_of(file, file_format) == "csv":
            return Reader([file], functools.partial(csv_file_records, *source))
        if file.lower().endswith(".json"):
            return Reader([file], functools.partial(json_file_records, *source))
        return Reader([file], functools.partial(file_lines, file), jsonl_records, source)
    if fields.group_by is not None or fields.evidence is not None:
        flag = "--group-by" if fields.group_by is not None else "--evidence-field"
        raise ValueError(f"{flag} reads a field of each example: give a JSONL or CSV FILE")
    if len(given) != 3:
        raise ValueError("give a JSONL or CSV FILE, or all three of --sources, --references and --predictions")
    return Reader(given, functools.partial(aligned_lines, given), text_records)


def open_examples(
    file: str | None = None,
    file_format: str | None = None,
    text_files: Sequence[str | None] = (),
    group_by: str | None = None,
) -> tuple[list[str], Callable[..., Iterator[Row]]]:
    """The paths to read and a function ``read(advance=...)`` yielding their examples as
    ``Row``s; the arguments are ``open_reader``'s (``group_by``: ``Fields.group_by``)."""
    reader = open_reader(file, file_format, text_files, Fields(group_by=group_by))
    return reader.paths, lambda advance=no_progress: as_rows(reader.records(advance))


def read_systems(
    path: str,
    file_format: str | None,
    systems: Sequence[str],
    advance: Callable[[int], None] = no_progress,
    fields: Fields = DEFAULT_FIELDS,
) -> Iterator[SystemsRow]:
    """Yield the examples of a JSONL or CSV file (``file_format`` as ``open_reader`` takes it)
    with one column of predictions per system: the source, the reference (``fields``') and each
    name in ``systems``."""
    records = open_reader(path, file_format, fields=fields._replace(predictions=tuple(systems))).records(advance)
    for line, source, references, predictions, example_id, _, evidence in records:
        yield SystemsRow(line, source, references, dict(zip(systems, predictions)), example_id, evidence)
