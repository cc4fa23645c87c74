"""Reading JSONL files: one JSON object per line, blank lines skipped; a ``.json`` file may
instead hold one JSON array of such objects (read whole, each example named by the line its
object starts on: ``json_file_records``).

Each object has the fields of ``rows.Fields``: ``source``, ``reference`` (a string or a non-empty
array of strings), the prediction columns, the evidence (a string or an array of strings) if
read. An ``id`` and a group label are kept as text (``jsonl_id``); every example must have the
group field, not ``null``. A key given twice in an object, JSON nested too deeply or a number
Python refuses to convert is an ``InputFileError`` naming the file and line. ``jsonl_values`` is
the one reading of JSONL lines (for ``jsonl_records`` and lm_eval's ``load_jsonl``).
"""

import bisect
import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..inputs import lone_surrogate
from .lines import InputFileError, decode_line, file_lines
from .rows import Fields, Record, check_present, in_other_format, text_field, text_list


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


def jsonl_id(value: Any) -> str | None:
    """An ``id`` field's JSON value as text (a string as is, another value or a string holding a
    lone surrogate as its JSON text), ``None`` (no id) for a JSON ``null``."""
    if value is None:
        return None
    if isinstance(value, str) and not lone_surrogate(value):
        return value
    return json.dumps(value, ensure_ascii=isinstance(value, str))


def _record(value: Any, path: str, number: int, fields: Fields) -> Record:
    """The example of one JSON object, read from its ``fields``."""
    if not isinstance(value, dict):
        raise InputFileError(path, number, f"expected a JSON object with {fields.names}")
    check_present(fields, list(value), path, number, "missing field(s)", "the line has")
    group = None
    if fields.group_by is not None:
        if value[fields.group_by] is None:  # compute takes no None label
            raise InputFileError(path, number, f"group field {fields.group_by!r} is null")
        group = jsonl_id(value[fields.group_by])
    evidence = (
        None if fields.evidence is None else text_list(value[fields.evidence], path, number, fields.evidence, True)
    )
    return (
        number,
        text_field(value[fields.source], path, number, fields.source),
        text_list(value[fields.reference], path, number, fields.reference),
        [text_field(value[column], path, number, column) for column in fields.predictions],
        jsonl_id(value.get("id")),
        group,
        evidence,
    )


def jsonl_value(line: str, number: int, path: str, start: int = 0, fields: Fields | None = None) -> Any:
    """The JSON value of the JSONL line ``number`` of the file ``path`` (not blank), read from
    ``line[start]`` on; ``InputFileError`` naming the file and line for anything but one JSON
    value (a key given twice in an object included; ``rows.in_other_format`` of the ``fields`` read)."""
    try:
        value, end = _parse_json(line, _skip_space(line, start), path, lambda _position: number)
    except InputFileError as error:
        raise error if fields is None else in_other_format(error, line, fields, "csv") from None
    if line[_skip_space(line, end) :]:
        raise InputFileError(path, number, "not valid JSON (extra data after the object)")
    return value


def jsonl_values(path: str, lines: Iterable[tuple[int, bytes]], fields: Fields | None = None) -> Iterator[Any]:
    """The line number and JSON value of each line of some numbered raw ``lines`` of the JSONL
    file ``path`` that is not blank: the one reading of JSONL lines. ``InputFileError`` naming
    the file and line for text that is not UTF-8 or for anything but one JSON value on a line."""
    for number, raw in lines:
        line = decode_line(raw, number, path)
        start = _skip_space(line)
        if start < len(line):
            yield number, jsonl_value(line, number, path, start, fields)


def jsonl_records(path: str, fields: Fields, lines: Iterable[tuple[int, bytes]]) -> Iterator[Record]:
    """The examples of some numbered raw ``lines`` of the JSONL file ``path`` (``jsonl_values``),
    read from their ``fields``."""
    for number, value in jsonl_values(path, lines, fields):
        yield _record(value, path, number, fields)


def json_file_records(path: str, fields: Fields, advance: Callable[[int], None]) -> Iterator[Record]:
    """The examples of a ``.json`` file: one JSON array of objects, if its first character that
    is not white space is ``[``, else JSONL lines (``jsonl_records``)."""
    lines = file_lines(path, advance)
    for number, raw in lines:
        line = decode_line(raw, number, path)
        start = _skip_space(line)
        if start == len(line):
            continue
        if not line.startswith("[", start):
            yield from jsonl_records(path, fields, itertools.chain([(number, raw)], lines))
            return
        rest = "".join(decode_line(raw, number, path) for number, raw in lines)
        yield from _json_array("\n" * (number - 1) + line + rest, path, fields)
        return


def _json_array(text: str, path: str, fields: Fields) -> Iterator[Record]:
    """The examples of a JSON text holding one array of objects, each named by its first line."""
    starts = [0] + [end.end() for end in _TEXT_LINE_END.finditer(text)]

    def line_of(position: int) -> int:
        return bisect.bisect_right(starts, position)

    position = _skip_space(text, text.index("[") + 1)
    closed = text.startswith("]", position)
    while not closed:
        value, end = _parse_json(text, position, path, line_of)
        yield _record(value, path, line_of(position), fields)
        position = _skip_space(text, end)
        closed = text.startswith("]", position)
        if not closed and not text.startswith(",", position):
            raise InputFileError(path, line_of(position), "not valid JSON (expected ',' or ']' after an item)")
        position = _skip_space(text, position + 1) if not closed else position
    if text[position + 1 :].strip():
        raise InputFileError(path, line_of(position), "not valid JSON (extra data after the array)")
