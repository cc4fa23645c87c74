"""A JSONL file cut into byte ranges that workers read themselves (``file_ranges``): every line
read by exactly one range wherever the cuts fall, the rows and errors of the one-process reader
once the lines before a range are added, and only regular files cut so."""

import json
import os
import pickle
import subprocess
import sys

import pytest
from conftest import read_jsonl

import update_rouge.file_ranges
from update_rouge import Settings
from update_rouge.chunk_scoring import score_chunks
from update_rouge.file_lines import InputFileError
from update_rouge.file_ranges import RangeChunk, line_start, range_chunks, regular_file
from update_rouge.files import open_examples

ROWS = read_jsonl("iterater_triples.jsonl")[:6]


def record(row, **more):
    return json.dumps({k: row[k][:120] for k in ("source", "reference", "prediction")} | more)


# Line ends of every kind, blank lines, a byte order mark, a later line that starts with U+FEFF
# (kept there: only the file's first line loses it), no line end at the end.
MIXED = (
    "\ufeff"
    + record(ROWS[0], id="a")
    + "\r\n\n"
    + record(ROWS[1])
    + "\r"
    + record(ROWS[2], id="c")
    + "\r\n\r\n  \n"
    + record(ROWS[3])
    + "\n\r"
    + record(ROWS[4])
    + "\n"
    + record(ROWS[5], id="f")
).encode()


def ranges_of(path, cuts):
    """The ``RangeChunk``s of ``path`` between the byte positions ``cuts``, as sent to a worker."""
    file = regular_file(str(path))
    assert file is not None
    return [pickle.loads(pickle.dumps(RangeChunk(str(path), *file, a, b))) for a, b in zip(cuts, cuts[1:])]


def read_in_ranges(path, cuts):
    """The rows of the ranges, their lines numbered as in the file (the lines before each added)."""
    rows, before = [], 0
    for chunk in ranges_of(path, cuts):
        read, count = chunk.read()
        rows += [row._replace(line=row.line + before + 1 - chunk.first) for row in read]
        before += count
    return rows


def brute_line_start(data, start):
    """The first line start at or after ``start`` by the definition: after \\n, after \\r not before \\n."""
    for position in range(start, len(data) + 1):
        if position == 0 or data[position - 1 : position] == b"\n":
            return position
        if data[position - 1 : position] == b"\r" and data[position : position + 1] != b"\n":
            return position
    return len(data)


@pytest.mark.parametrize("data", [MIXED, b"\r\n\r\r\n\n\rx\r", b"abc", b"\n"])
def test_a_line_starts_where_the_definition_says_at_every_position(tmp_path, data, monkeypatch):
    monkeypatch.setattr(update_rouge.file_ranges, "_READ_SIZE", 7)  # blocks end between \r and \n too
    path = tmp_path / "x.jsonl"
    path.write_bytes(data)
    with open(path, "rb") as handle:
        for start in range(len(data) + 1):
            expected = brute_line_start(data, start)
            found = line_start(handle, start, len(data))
            assert found == expected or (found >= len(data) and expected >= len(data)), start


def test_ranges_cut_at_every_byte_read_the_rows_the_reader_yields(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_bytes(MIXED)
    expected = list(open_examples(str(path))[1]())
    assert [row.id for row in expected] == ["a", None, "c", None, None, "f"]
    assert read_in_ranges(path, list(range(len(MIXED) + 1))) == expected
    for size in (1, 2, 3, 50, 999, len(MIXED)):
        cuts = [*range(0, len(MIXED), size), len(MIXED)]
        assert read_in_ranges(path, cuts) == expected, size


def test_a_later_line_starting_with_a_byte_order_mark_is_not_line_1(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_bytes(record(ROWS[0]).encode() + b"\n\xef\xbb\xbf" + record(ROWS[1]).encode() + b"\n")
    with pytest.raises(InputFileError) as one_process:
        list(open_examples(str(path))[1]())
    with pytest.raises(InputFileError) as in_range:
        read_in_ranges(path, [0, len(record(ROWS[0])) + 1, path.stat().st_size])
    assert one_process.value.line == 2
    assert (in_range.value.line, in_range.value.problem) == (2, one_process.value.problem)


def test_the_ranges_cover_the_file_and_get_smaller_towards_its_end(tmp_path, monkeypatch):
    monkeypatch.setattr(update_rouge.file_ranges, "RANGE_BYTES", 4000)
    monkeypatch.setattr(update_rouge.file_ranges, "LEAST_RANGE_BYTES", 500)
    path = tmp_path / "x.jsonl"
    path.write_bytes(MIXED * 10)
    told = []
    chunks = list(range_chunks(str(path), regular_file(str(path)), told.append, 2, None))
    sizes = [chunk.stop - chunk.start for chunk in chunks]
    assert chunks[0].start == 0 and chunks[-1].stop == path.stat().st_size == sum(told)
    assert all(a.stop == b.start for a, b in zip(chunks, chunks[1:]))
    assert sizes[0] == 4000 and 500 <= sizes[-2] < 4000
    assert all(a >= b for a, b in zip(sizes[:-1], sizes[1:-1]))  # the last: what is left


def test_a_pipe_is_not_cut_into_ranges_and_a_file_behind_dev_stdin_is(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_bytes(MIXED)
    read, write = os.pipe()
    try:
        assert regular_file(f"/dev/fd/{read}") is None
    finally:
        os.close(read)
        os.close(write)
    assert regular_file(str(tmp_path)) is None
    assert regular_file(str(tmp_path / "missing.jsonl")) is None
    code = "import sys; from update_rouge.file_ranges import regular_file; print(regular_file('/dev/stdin')[0])"
    with open(path, "rb") as stdin:
        found = subprocess.run([sys.executable, "-c", code], stdin=stdin, capture_output=True, text=True, check=True)
    assert found.stdout.strip() == os.path.realpath(path)


def test_a_file_replaced_after_it_was_cut_is_refused(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_bytes(MIXED)
    [chunk] = ranges_of(path, [0, len(MIXED)])
    (tmp_path / "new.jsonl").write_bytes(MIXED)
    with open(path, "rb"):  # the old file stays, so its inode is not the new one's
        os.replace(tmp_path / "new.jsonl", path)
    with pytest.raises(ValueError, match="x.jsonl: the file was replaced while it was read"):
        chunk.read()


@pytest.mark.parametrize(
    "bad, line, problem",
    [
        (b"{not json\n", 9, "not valid JSON"),
        (b'{"source": "' + b"x" * 3000 + b'"}\n', 9, "a line longer than 2,000 bytes"),
    ],
)
def test_an_error_in_a_later_range_names_its_line_in_the_file(tmp_path, monkeypatch, bad, line, problem):
    monkeypatch.setenv("UPDATE_ROUGE_MAX_LINE_BYTES", "2000")
    short = [record({"source": f"s {i}.", "reference": f"r {i}.", "prediction": f"p {i}."}).encode() for i in range(12)]
    data = b"\n".join(short[:7]) + b"\n\n" + bad + b"\n".join(short[7:]) + b"\n"
    path = tmp_path / "x.jsonl"
    path.write_bytes(data)
    chunks = ranges_of(path, [*range(0, len(data), 100), len(data)])
    with pytest.raises(InputFileError) as error:
        score_chunks(chunks, Settings())
    assert error.value.line == line and error.value.problem.startswith(problem)
    assert str(error.value).startswith(f"{path}:{line}: {problem}")
