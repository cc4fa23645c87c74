"""Reading examples from files, one at a time, with the file line each one starts on: JSONL
here, and the reader of a file picked (``open_examples``, ``read_systems``).

Three layouts, all UTF-8:

- JSONL: one JSON object per line with ``source``, ``reference`` and ``prediction``; the
  reference is a string or a non-empty array of strings. Blank lines are skipped. A ``.json``
  file may instead hold one JSON array of such objects (read whole into memory; each example
  is named by the line its object starts on).
- CSV (``csv_files``): a header row naming the columns ``source``, ``reference`` and
  ``prediction`` (others are ignored), then one example per record (quoted cells may span
  lines). A reference cell that starts with ``[`` and parses as a JSON array is a list of
  references (it must then hold one or more strings); any other cell is one reference.
- An example's optional ``id`` (JSON field or CSV column) is kept as text in ``Row.id``: a JSON
  string as is (its JSON text if it holds a lone surrogate), any other JSON value as the JSON text
  Python writes for it, a CSV cell as is; ``None`` when the example has no ``id`` or a JSON
  ``null`` one (no id, not the text ``"null"``). It is never scored.
- A group label (``group_by``: the name of a JSON field or CSV column, as the command line's
  ``--group-by`` names it) is kept as text in ``Row.group``, as ``id`` is; every example must
  have that field, and not as a JSON ``null`` (refused: ``compute`` takes no ``None`` label).
  ``None`` without ``group_by``.
- The path ``-`` (``STDIN``) is standard input, read as JSONL unless the format says CSV, and
  named ``<stdin>`` in messages.
- For a comparison of systems (``read_systems``), JSONL or CSV with one column of predictions
  per system instead of ``prediction``, named by the system.
- Three line-aligned text files (``text_files``) of sources, references and predictions: line N
  of each is example N. They must have the same number of lines.

Lines end at ``\r\n``, ``\n`` or a lone ``\r`` (old Mac files), and at nothing else (not at
U+2028, U+0085 or a form feed, which stay inside the text). Every reader yields ``Row`` tuples
(``file_rows``) and reports the bytes it has read to ``advance`` (for a progress bar). Unusable
input raises ``InputFileError`` naming the file and line: a key given twice in a JSON object, a
column named twice in a CSV header, JSON nested too deeply or holding a number Python refuses to
convert, a CSV quote out of place (read strictly), text that is not UTF-8, a line longer than
``max_line_bytes()`` (default 100,000,000 bytes, variable ``UPDATE_ROUGE_MAX_LINE_BYTES``: so
that a file without line ends, such as ``/dev/zero``, cannot fill the memory), or a CSV record
longer than that (its quoted cells may span lines: the record is held to the limit of one line,
and refused before the rest of it is read, ``csv_cuts.numbered_lines``).

``open_examples`` picks the reader for a file name (by extension, or ``file_format``) or for
three text files: the command line and the demo read through it.

Each layout is read one way, whoever reads it: JSONL lines by ``jsonl_values`` (this module's
reader, the command line's chunks and byte ranges through ``jsonl_rows``, lm_eval's
``load_jsonl``), three text files by ``text_files.aligned_lines`` (``read_text_files``, the
chunks), CSV records by ``csv_cuts`` and ``csv_files.csv_line_records`` (``read_csv``, the chunks
through ``csv_rows``). Every row and every ``InputFileError`` (an ``InputError``: ``path``,
``line``) is numbered by its file line as it is read; the one exception is a byte range's
(``file_ranges``), whose worker cannot know the lines before its range and numbers within it.
"""

import bisect
import functools
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from .csv_files import csv_file_records, csv_line_records, read_csv
from .file_lines import STDIN, InputFileError, decode_line, numbered_raw_lines, open_input
from .file_rows import Record, Row, as_rows, no_progress, reference_list, text_field
from .inputs import lone_surrogate
from .outputs import shown_path
from .text_files import read_text_files

FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv"}


class SystemsRow(NamedTuple):
    """One example scored for several systems: its line, source, references, per system
    name that system's prediction, and its ``id`` as in ``Row``."""

    line: int
    source: str
    references: list[str]
    predictions: dict[str, str]
    id: str | None = None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    row = dict(pairs)
    if len(row) < len(pairs):
        twice = next(key for index, (key, _) in enumerate(pairs) if key in (k for k, _ in pairs[:index]))
        raise ValueError(f"the key {twice!r} appears more than once in an object")
    return row


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys)
_JSON_SPACE = re.compile(r"[ \t\n\r]*")
_TEXT_LINE_END = re.compile(r"\r\n|\r|\n")


def _skip_space(text: str, position: int = 0) -> int:
    """The index of the first character at or after ``position`` that is not JSON white space."""
    match = _JSON_SPACE.match(text, position)
    return match.end() if match else position


def _on_line(line: int) -> Callable[[int], int]:
    """A ``line_of`` for a text that is one line, line number ``line``."""
    return lambda _position: line


def _json_problem(error: json.JSONDecodeError) -> str:
    """json's complaint in plain words: a string that the line's end cuts (json reads the line end
    as a control character in it, or the string as never ended) says so; json's other messages as they are."""
    if error.msg.startswith("Unterminated string") or (
        error.msg.startswith("Invalid control character") and error.doc[error.pos] in "\r\n"
    ):
        return "a string is not closed on this line"
    if error.msg.startswith("Invalid control character"):
        return f"a control character (U+{ord(error.doc[error.pos]):04X}) inside a string, column {error.colno}"
    return error.msg


def _parse_json(text: str, start: int, path: str, line_of: Callable[[int], int]) -> tuple[Any, int]:
    """The JSON value at ``text[start:]`` and the index after it; ``line_of`` maps an index to its line."""
    try:
        return _DECODER.raw_decode(text, start)
    except json.JSONDecodeError as error:
        raise InputFileError(path, line_of(error.pos), f"not valid JSON ({_json_problem(error)})") from None
    except RecursionError:
        raise InputFileError(path, line_of(start), "JSON nested too deeply to read") from None
    except ValueError as error:
        raise InputFileError(path, line_of(start), f"not usable JSON ({error})") from None


def _id_text(value: Any) -> str:
    """An ``id``'s JSON value as text: a string as is, else (or with a lone surrogate) its JSON text."""
    if isinstance(value, str) and not lone_surrogate(value):
        return value
    return json.dumps(value, ensure_ascii=isinstance(value, str))


def _record(
    value: Any, path: str, number: int, prediction_columns: Sequence[str], group_by: str | None = None
) -> Record:
    """Line, source, references, the texts of ``prediction_columns``, the id and the label of
    the field ``group_by`` (``None`` without it) of one JSON object."""
    columns = ("source", "reference", *prediction_columns, *([group_by] if group_by is not None else []))
    if not isinstance(value, dict):
        raise InputFileError(path, number, f"expected a JSON object with {', '.join(columns)}")
    missing = [column for column in columns if column not in value]
    if missing:
        raise InputFileError(path, number, f"missing field(s) {', '.join(missing)}")
    return (
        number,
        text_field(value["source"], path, number, "source"),
        reference_list(value["reference"], path, number),
        [text_field(value[column], path, number, column) for column in prediction_columns],
        None if value.get("id") is None else _id_text(value["id"]),
        None if group_by is None else _group_text(value[group_by], path, number, group_by),
    )


def _group_text(value: Any, path: str, number: int, field: str) -> str:
    """A group label's JSON value as text, as ``_id_text`` writes an id; a JSON ``null`` is no
    label (``compute`` refuses ``None`` as one): ``InputFileError`` naming the field."""
    if value is None:
        raise InputFileError(path, number, f"group field {field!r} is null")
    return _id_text(value)


def _jsonl_records(
    path: str, prediction_columns: Sequence[str], advance: Callable[[int], None], group_by: str | None = None
) -> Iterator[Record]:
    """The records of a JSONL file, skipping blank lines (or of a ``.json`` file holding one array)."""
    with open_input(path) as handle:
        lines = numbered_raw_lines(handle, path)
        for number, raw in lines:
            advance(len(raw))
            line = decode_line(raw, number, path)
            start = _skip_space(line)
            if start == len(line):
                continue
            if line.startswith("[", start) and path.lower().endswith(".json"):
                rest = "".join(_decoded(lines, path, advance))
                yield from _json_array("\n" * (number - 1) + line + rest, path, prediction_columns, group_by)
                return
            yield _record(jsonl_value(line, number, path, start), path, number, prediction_columns, group_by)
            for number, value in jsonl_values(path, lines, advance):
                yield _record(value, path, number, prediction_columns, group_by)
            return


def _decoded(lines: Iterable[tuple[int, bytes]], path: str, advance: Callable[[int], None]) -> Iterator[str]:
    """Numbered raw ``lines`` of the file ``path`` as text, each one's bytes reported to ``advance``."""
    for number, raw in lines:
        advance(len(raw))
        yield decode_line(raw, number, path)


def jsonl_values(
    path: str, lines: Iterable[tuple[int, bytes]], advance: Callable[[int], None] = no_progress
) -> Iterator[tuple[int, Any]]:
    """The line number and JSON value of each line of some numbered raw ``lines`` of the JSONL
    file ``path`` that is not blank, each line's bytes reported to ``advance``: the one reading
    of JSONL lines (``read_jsonl``, the command line's chunks and byte ranges, lm_eval's
    ``load_jsonl``). ``InputFileError`` naming the file and line for text that is not UTF-8 or
    for anything but one JSON value on a line."""
    for number, raw in lines:
        advance(len(raw))
        line = decode_line(raw, number, path)
        start = _skip_space(line)
        if start < len(line):
            yield number, jsonl_value(line, number, path, start)


def jsonl_value(line: str, number: int, path: str, start: int = 0) -> Any:
    """The JSON value of the JSONL line ``number`` of the file ``path`` (not blank), read from
    ``line[start]`` on; ``InputFileError`` naming the file and line for anything but one JSON
    value (a key given twice in an object included)."""
    value, end = _parse_json(line, _skip_space(line, start), path, _on_line(number))
    if line[_skip_space(line, end) :]:
        raise InputFileError(path, number, "not valid JSON (extra data after the object)")
    return value


def jsonl_id(value: Any) -> str | None:
    """An ``id`` field's JSON value as text (``_id_text``: a string as is, another value as its
    JSON text), ``None`` (no id) for a JSON ``null``."""
    return None if value is None else _id_text(value)


def jsonl_rows(path: str, lines: Iterable[tuple[int, bytes]], group_by: str | None = None) -> Iterator[Row]:
    """The examples of some numbered raw lines of the JSONL file ``path``, skipping blank lines
    (a part of a file that ``read_jsonl`` reads as JSONL, with the same checks: ``jsonl_values``)."""
    for number, value in jsonl_values(path, lines):
        line, source, references, (prediction,), example_id, group = _record(
            value, path, number, ("prediction",), group_by
        )
        yield Row(line, source, references, prediction, example_id, group)


def _json_array(
    text: str, path: str, prediction_columns: Sequence[str], group_by: str | None = None
) -> Iterator[Record]:
    """The examples of a JSON text holding one array of objects, each named by its first line."""
    starts = [0] + [end.end() for end in _TEXT_LINE_END.finditer(text)]

    def line_of(position: int) -> int:
        return bisect.bisect_right(starts, position)

    position = _skip_space(text, text.index("[") + 1)
    closed = text.startswith("]", position)
    while not closed:
        value, end = _parse_json(text, position, path, line_of)
        yield _record(value, path, line_of(position), prediction_columns, group_by)
        position = _skip_space(text, end)
        closed = text.startswith("]", position)
        if not closed and not text.startswith(",", position):
            raise InputFileError(path, line_of(position), "not valid JSON (expected ',' or ']' after an item)")
        position = _skip_space(text, position + 1) if not closed else position
    if text[position + 1 :].strip():
        raise InputFileError(path, line_of(position), "not valid JSON (extra data after the array)")


def read_jsonl(path: str, advance: Callable[[int], None] = no_progress, group_by: str | None = None) -> Iterator[Row]:
    """Yield the examples of a JSONL file, skipping blank lines."""
    return as_rows(_jsonl_records(path, ("prediction",), advance, group_by))


def read_systems(
    path: str, file_format: str, systems: Sequence[str], advance: Callable[[int], None] = no_progress
) -> Iterator[SystemsRow]:
    """Yield the examples of a JSONL or CSV file (``file_format`` ``"jsonl"`` or ``"csv"``) with
    one column of predictions per system: ``source``, ``reference`` and each name in ``systems``."""
    records = csv_file_records if file_format == "csv" else _jsonl_records
    for line, source, references, predictions, example_id, _ in records(path, tuple(systems), advance):
        yield SystemsRow(line, source, references, dict(zip(systems, predictions)), example_id)


csv_records = csv_line_records
"""The name ``csv_line_records`` (now ``csv_files.csv_line_records``) had before 0.2.0, kept here
for one release."""


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


def open_examples(
    file: str | None = None,
    file_format: str | None = None,
    text_files: Sequence[str | None] = (),
    group_by: str | None = None,
) -> tuple[list[str], Callable[..., Iterator[Row]]]:
    """The paths to read and a function ``read(advance=...)`` yielding their examples.

    Either ``file`` (JSONL or CSV; ``file_format`` "jsonl" or "csv", else told by the extension
    as in ``FORMATS``; ``-`` for standard input) or ``text_files``: the sources, references and
    predictions files. ``group_by`` names the field of each example's group label (a FILE only).
    Raises ``ValueError`` when the arguments do not name one of these layouts.
    """
    given = [path for path in text_files if path is not None]
    if file is not None:
        if given:
            raise ValueError("give either FILE or --sources, --references and --predictions, not both")
        reader = read_csv if format_of(file, file_format) == "csv" else read_jsonl
        return [file], functools.partial(reader, file, group_by=group_by)
    if group_by is not None:
        raise ValueError("--group-by reads a field of each example: give a JSONL or CSV FILE")
    if len(given) != 3:
        raise ValueError("give a JSONL or CSV FILE, or all three of --sources, --references and --predictions")
    sources, references, predictions = given
    return list(given), functools.partial(read_text_files, sources, references, predictions)
