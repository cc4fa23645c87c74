"""Files read in chunks for worker processes (``files.chunks``): the same examples, the same
errors with file and line, the same scores and per-example lines as one process reading the
file example by example (``open_examples``, ``compute``)."""

import csv
import io
import json
import os
import pickle
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from conftest import DATA_DIR, quick_and_full, read_jsonl, run_main
from hypothesis import strategies as st

import update_rouge.cli.score
import update_rouge.files.chunks
import update_rouge.files.lines
from update_rouge import compute
from update_rouge.files import InputFileError, open_examples, open_reader, read_csv
from update_rouge.no_tokens import NoTokensWarning

ROWS = read_jsonl("iterater_triples.jsonl")


def write_jsonl(path, rows, blank_every=0, line_end="\n", bom=False):
    text = "".join(
        json.dumps({"source": r["source"], "reference": r["reference"], "prediction": r["prediction"]})
        + line_end
        + (line_end if blank_every and i % blank_every == 0 else "")
        for i, r in enumerate(rows)
    )
    path.write_bytes(("\ufeff" if bom else "").encode() + text.encode())
    return [str(path)], {}


def write_csv(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["prediction", "source", "reference"])
        for i, r in enumerate(rows):
            # Every third source holds line ends inside its quoted cell.
            source = r["source"].replace(". ", ".\r\n", 2) if i % 3 == 0 else r["source"]
            writer.writerow([r["prediction"], source, r["reference"]])
    return [str(path)], {}


def write_csv_lists(path, rows):
    """A CSV file with a byte order mark, \\r\\n line ends, a column to ignore, blank lines, lone
    \\r inside quoted cells and every fourth reference a JSON list of two."""
    with open(path, "w", newline="", encoding="utf-8-sig") as handle:
        writer = csv.writer(handle)
        writer.writerow(["source", "reference", "ignored", "prediction"])
        for i, r in enumerate(rows):
            reference = json.dumps([r["reference"], r["source"]]) if i % 4 == 0 else r["reference"]
            writer.writerow([r["source"].replace(". ", ".\r", 1), reference, f'"{i}",', r["prediction"]])
            if i % 5 == 0:
                handle.write("\r\n")
    return [str(path)], {}


def write_text(folder, rows, line_end="\n"):
    paths = []
    for name in ("source", "reference", "prediction"):
        path = folder / f"{name}s.txt"
        path.write_bytes("".join(r[name].replace("\n", " ") + line_end for r in rows).encode())
        paths.append(str(path))
    return [], dict(zip(("sources", "references", "predictions"), paths))


LAYOUTS = {
    "jsonl": lambda tmp, rows: write_jsonl(tmp / "x.jsonl", rows, blank_every=4),
    "jsonl-crlf-bom": lambda tmp, rows: write_jsonl(tmp / "x.jsonl", rows, line_end="\r\n", bom=True),
    "jsonl-cr": lambda tmp, rows: write_jsonl(tmp / "x.jsonl", rows, blank_every=5, line_end="\r"),
    "csv-multiline": lambda tmp, rows: write_csv(tmp / "x.csv", rows),
    "csv-lists": lambda tmp, rows: write_csv_lists(tmp / "x.csv", rows),
    "text": lambda tmp, rows: write_text(tmp, rows),
    "text-cr": lambda tmp, rows: write_text(tmp, rows, "\r"),
}


def text_files(files):
    return [files.get(name) for name in ("sources", "references", "predictions")]


def reader(paths, files):
    return open_reader(paths[0] if paths else None, None, text_files(files))


def chunked_rows(paths, files, size):
    chunks = [pickle.loads(pickle.dumps(chunk)) for chunk in reader(paths, files).chunks(lambda _: None, size)]
    return [row for chunk in chunks for row in chunk.rows()]


def chunks_and_bytes(paths, files, size, workers=1):
    """The chunks of the files, and the bytes read for each (the CSV header's in the first)."""
    read = [0]

    def advance(count):
        read[0] += count

    chunks, sizes = [], []
    for chunk in reader(paths, files).chunks(advance, size, workers):
        chunks.append(chunk)
        sizes.append(read[0])
        read[0] = 0
    return chunks, sizes


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("size", [1, 3, 1000])
def test_the_chunks_hold_the_rows_the_reader_yields(tmp_path, layout, size):
    paths, files = LAYOUTS[layout](tmp_path, ROWS)
    _, read_rows = open_examples(paths[0] if paths else None, None, text_files(files))
    expected = list(read_rows())
    assert len(expected) == len(ROWS)
    assert chunked_rows(paths, files, size) == expected


@pytest.mark.parametrize("name", ["x.jsonl", "x.json", "x.csv"])
def test_the_chunks_keep_each_examples_id_through_pickling(tmp_path, name):
    path = tmp_path / name
    ids = [r["id"] for r in ROWS]
    if name.endswith(".csv"):
        with open(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["prediction", "id", "source", "reference"])
            writer.writerows([r["prediction"], r["id"], r["source"], r["reference"]] for r in ROWS)
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    assert [row.id for row in chunked_rows([str(path)], {}, 7)] == ids
    assert len(set(ids)) == len(ROWS)


@pytest.mark.parametrize("layout", ["jsonl", "text", "csv-multiline"])
def test_chunks_of_long_lines_end_at_their_byte_limit(tmp_path, monkeypatch, layout):
    monkeypatch.setattr(update_rouge.files.chunks, "CHUNK_BYTES", 8000)
    paths, files = LAYOUTS[layout](tmp_path, ROWS)
    chunks = list(reader(paths, files).chunks(lambda _: None, 1000))
    assert 5 < len(chunks) < len(ROWS) / 2  # 116,757 bytes of JSONL in all
    _, read_rows = open_examples(paths[0] if paths else None, None, text_files(files))
    assert [row for chunk in chunks for row in chunk.rows()] == list(read_rows())


@pytest.mark.parametrize("layout", ["jsonl", "text", "csv-multiline"])
def test_for_several_workers_the_chunks_get_smaller_towards_the_end(tmp_path, monkeypatch, layout):
    monkeypatch.setattr(update_rouge.files.chunks, "CHUNK_BYTES", 20000)
    monkeypatch.setattr(update_rouge.files.chunks, "LEAST_CHUNK_BYTES", 3000)
    paths, files = LAYOUTS[layout](tmp_path, ROWS)
    total = sum(os.path.getsize(path) for path in paths + list(files.values()))
    chunks, sizes = chunks_and_bytes(paths, files, 1000, 2)
    assert sum(sizes) == total
    longest = max(len(line) for path in paths + list(files.values()) for line in open(path, "rb"))
    cut = 0
    for index, size in enumerate(sizes):
        # 2 workers: a quarter of the bytes not cut yet, between 3,000 and 20,000 bytes.
        limit = max(3000, min(20000, (total - cut) // 4))
        assert size < limit + 3 * longest, f"chunk {index}: {size} bytes, limit {limit}"
        assert index == len(sizes) - 1 or size >= limit, f"chunk {index}: {size} bytes, limit {limit}"
        cut += size
    assert sizes[0] >= 20000 > 2 * max(sizes[-3:])
    _, read_rows = open_examples(paths[0] if paths else None, None, text_files(files))
    assert [row for chunk in chunks for row in chunk.rows()] == list(read_rows())
    assert len(chunks_and_bytes(paths, files, 1000)[0]) < len(chunks), "one worker: no smaller chunks"


@pytest.mark.parametrize("layout, limit", [("jsonl", None), ("csv-lists", None), ("csv-lists", 6600)])
def test_the_progress_counts_every_byte(tmp_path, monkeypatch, layout, limit):
    paths, _ = LAYOUTS[layout](tmp_path, ROWS)
    data = open(paths[0], "rb").read()
    if limit is not None:  # lines of 6,515 bytes at most, one record of 6,685 (two lines): refused
        assert max(map(len, data.splitlines(keepends=True))) < limit
        monkeypatch.setenv("UPDATE_ROUGE_MAX_LINE_BYTES", str(limit))
    seen = []
    chunks = list(open_reader(paths[0]).chunks(seen.append, 4))
    assert all(chunk.error is None for chunk in chunks[:-1])
    if limit is None:
        assert sum(seen) == os.path.getsize(paths[0]) and chunks[-1].error is None
        return
    # The records before the long one, then its error: the bytes read are those before its line.
    with pytest.raises(InputFileError, match=r"x\.csv:(\d+): a record \(its quoted cells span lines\) longer") as error:
        chunks[-1].rows()
    line = int(error.value.line)
    assert line > 2
    assert sum(seen) == len(b"".join(data.splitlines(keepends=True)[: line - 1]))
    record = b"".join(data.splitlines(keepends=True)[line - 1 : line + 1])
    assert len(record) > limit  # and it is one record of the header's four cells, on two lines:
    assert [len(cells) for cells in csv.reader(io.StringIO(record.decode(), newline=""))] == [4]


def reader_error(paths, files):
    _, read_rows = open_examples(paths[0] if paths else None, None, text_files(files))
    with pytest.raises(InputFileError) as raised:
        list(read_rows())
    return str(raised.value)


BAD_INPUT = {
    "bad json": lambda tmp: (tmp / "x.jsonl", 22, b'{"source": "a", "reference": "b", "prediction": }\n'),
    "bad utf-8": lambda tmp: (tmp / "x.jsonl", 22, b'{"source": "a\xff", "reference": "b", "prediction": "c"}\n'),
    "missing field": lambda tmp: (tmp / "x.jsonl", 22, b'{"source": "a", "reference": "b"}\n'),
}


@pytest.mark.parametrize("problem", BAD_INPUT)
@pytest.mark.parametrize("size", [1, 5])
def test_bad_input_in_a_later_chunk_is_named_by_its_file_and_line(tmp_path, problem, size):
    path, line, bad = BAD_INPUT[problem](tmp_path)
    good = [json.dumps({k: r[k] for k in ("source", "reference", "prediction")}).encode() + b"\n" for r in ROWS]
    path.write_bytes(b"".join(good[: line - 1]) + bad + b"".join(good[line - 1 :]))
    expected = reader_error([str(path)], {})
    assert f"x.jsonl:{line}:" in expected
    with pytest.raises(InputFileError) as raised:
        chunked_rows([str(path)], {}, size)
    assert str(raised.value) == expected


def csv_records(rows):
    """The records of a CSV file of ``rows`` (no header), each with its line ends."""
    text = io.StringIO(newline="")
    writer = csv.writer(text)
    for r in rows:
        writer.writerow([r["source"].replace(". ", ".\n", 2), r["reference"], r["prediction"]])
    records, record = [], ""
    for line in text.getvalue().encode().splitlines(keepends=True):
        record += line.decode()
        if record.count('"') % 2 == 0:  # csv.writer doubles every quote inside a quoted cell
            records.append(record.encode())
            record = ""
    assert len(records) == len(rows)
    return records


BAD_CSV = {  # a bad record, the line of the error in it
    "text after a closing quote": (b'"A." B.,A.,A.\r\n', 0),
    "too few cells": (b"A.,A.\r\n", 0),
    "bad utf-8 on the second line of a cell": (b'"A.\r\n\xff",A.,A.\r\n', 1),
    "an empty list of references": (b'A.,"\r\n[]",A.\r\n', 0),
    "an unclosed quote at the end": (b'A.,"A.\r\nB.,C.', 1),
    "a line too long": (b"A." + b"x" * 6000 + b",A.,A.\r\n", 0),
    "a record too long, on lines not too long": (b'A.,"A.\n' + b"x" * 3000 + b"\n" + b"y" * 3000 + b'\n",A.\n', 0),
}


def write_bad_csv(path, problem, at=22):
    """A CSV file with the bad record of ``problem`` after ``at`` good ones (at the end for an
    unclosed quote); the line its error names."""
    records = csv_records(ROWS)
    bad, offset = BAD_CSV[problem]
    before = records if problem == "an unclosed quote at the end" else records[:at]
    header = b"source,reference,prediction\r\n"
    path.write_bytes(header + b"".join(before) + bad + b"".join(records[len(before) :]))
    return 2 + sum(record.count(b"\n") for record in before) + offset


@pytest.mark.parametrize("size", [1, 5, 1000])
@pytest.mark.parametrize("problem", BAD_CSV)
def test_bad_csv_is_named_by_its_file_and_line_as_the_reader_names_it(tmp_path, monkeypatch, problem, size):
    line = write_bad_csv(tmp_path / "x.csv", problem)
    if "too long" in problem:
        monkeypatch.setenv("UPDATE_ROUGE_MAX_LINE_BYTES", "5500")  # the longest other record has 5,093 bytes
    expected = reader_error([str(tmp_path / "x.csv")], {})
    assert f"x.csv:{line}: " in expected
    if "too long" in problem:
        what = "line" if problem == "a line too long" else "record (its quoted cells span lines)"
        assert f"x.csv:{line}: a {what} longer than 5,500 bytes, the limit of one " in expected
    with pytest.raises(InputFileError) as raised:
        chunked_rows([str(tmp_path / "x.csv")], {}, size)
    assert str(raised.value) == expected


@pytest.mark.parametrize(
    "limit, problem",
    [
        (None, "not valid CSV (unexpected end of data)"),  # the file ends in the cell (named by its last line)
        ("20000", "a record (its quoted cells span lines) longer than 20,000 bytes, the limit of one record"),
        ("6000", "a record (its quoted cells span lines) longer than 6,000 bytes, the limit of one record"),
    ],
)
def test_an_unclosed_quote_takes_the_rest_of_the_file_as_the_reader_does(tmp_path, monkeypatch, limit, problem):
    if limit is not None:
        monkeypatch.setenv("UPDATE_ROUGE_MAX_LINE_BYTES", limit)
    records = csv_records(ROWS)
    rest = b"".join(record.replace(b'"', b"") for record in records[22:])  # no quote to close it
    path = tmp_path / "x.csv"
    path.write_bytes(b"source,reference,prediction\n" + b"".join(records[:22]) + b'A.,"A.\r\n' + rest)
    expected = reader_error([str(path)], {})
    assert f": {problem}" in expected and expected.endswith(")")
    if limit is not None:  # the record is named by the line it starts on, where the quote opens
        line = 2 + sum(record.count(b"\n") for record in records[:22])
        assert f"x.csv:{line}: " in expected
    with pytest.raises(InputFileError) as raised:
        chunked_rows([str(path)], {}, 5)
    assert str(raised.value) == expected


@pytest.mark.parametrize("size", [1, 4, 1000])
@pytest.mark.parametrize(
    "problem, where",
    [
        ("fewer predictions", "sources.txt:38: has more lines than"),
        ("fewer sources", "references.txt:10: has more lines than"),
        ("bad utf-8 before the end", "sources.txt:10: not valid UTF-8"),
        ("too long", "references.txt:13: a line longer than"),
    ],
)
def test_text_files_fail_as_their_reader_does(tmp_path, monkeypatch, size, problem, where):
    _, files = write_text(tmp_path, ROWS)
    if problem == "fewer predictions":
        path = tmp_path / "predictions.txt"
        path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:-3]))
    if problem == "fewer sources":
        path = tmp_path / "sources.txt"
        path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:9]))
    if problem == "bad utf-8 before the end":  # line 10 of the sources is bad, the predictions end at 10
        path = tmp_path / "sources.txt"
        lines = path.read_bytes().splitlines(keepends=True)
        path.write_bytes(b"".join(lines[:9] + [b"\xff\n"] + lines[10:]))
        path = tmp_path / "predictions.txt"
        path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:9]))
    if problem == "too long":  # line 13 of the references: over the limit
        path = tmp_path / "references.txt"
        lines = path.read_bytes().splitlines(keepends=True)
        path.write_bytes(b"".join(lines[:12] + [b"x" * 5000 + b"\n"] + lines[13:]))
        monkeypatch.setenv("UPDATE_ROUGE_MAX_LINE_BYTES", "4000")  # the longest other line has 1,897 bytes
    expected = reader_error([], files)
    assert where in expected
    with pytest.raises(InputFileError) as raised:
        chunked_rows([], files, size)
    assert str(raised.value) == expected


HEADERS = {  # and how many columns each names
    b"prediction,source,reference\r\n": 3,
    b'\xef\xbb\xbf"x\ny",source,reference,prediction\n': 4,  # a byte order mark, then a name on two lines
    b'reference,"a\r\n""b""",source,prediction\r': 4,
}
# Records of as many cells as the header names (quoted cells, some with line ends or a JSON list
# of references; plain cells; line ends of each kind), and pieces of broken ones: a quote out
# of place, a byte that is not UTF-8, an empty list of references, a cell too many or too few.
CELLS = [b"A.", b"A. B.", b'"C, D.\nE."', b'"F ""G""\r\nH."', b'"[""I."", ""J."" ]"', "é語".encode()]
BREAKING = [b",", b"\n", b"\r\n", b"\r", b'"', b"x", b"\xff", b'"[]"']


def records_of(width):
    cells = st.lists(st.sampled_from(CELLS), min_size=width, max_size=width).map(b",".join)
    whole = st.tuples(cells, st.sampled_from([b"\n", b"\r\n", b"\r"])).map(b"".join)
    broken = st.lists(st.one_of(st.sampled_from(CELLS), st.sampled_from(BREAKING)), max_size=30).map(b"".join)
    return st.lists(st.one_of(whole, whole, whole, st.just(b"\n"), broken), max_size=12).map(b"".join)


files = st.sampled_from(sorted(HEADERS)).flatmap(
    lambda header: records_of(HEADERS[header]).map(lambda body: header + body)
)


def outcome(read):
    """The rows ``read()`` gives, then the error that stops it, if one does."""
    rows = []
    try:
        for row in read():
            rows.append(row)
    except InputFileError as error:
        rows.append(str(error))
    return rows


def chunked(path, size):
    def read():
        for chunk in open_reader(str(path)).chunks(lambda _: None, size):
            yield from pickle.loads(pickle.dumps(chunk)).rows()

    return read


def check_chunks_read_as_the_file(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.csv"
        path.write_bytes(data)
        # Blocks of the usual size and of a few bytes; records over a limit of 40 bytes, an
        # error for both (named by the line the record starts on).
        for block, limit in ((update_rouge.files.lines._READ_SIZE, "100000000"), (5, "100000000"), (7, "40")):
            with mock.patch.object(update_rouge.files.lines, "_READ_SIZE", block):
                with mock.patch.dict(os.environ, {"UPDATE_ROUGE_MAX_LINE_BYTES": limit}):
                    expected = outcome(lambda: read_csv(str(path)))
                    for size in (1, 2, 1000):
                        found = outcome(chunked(path, size))
                        if expected and isinstance(expected[-1], str):
                            # An error: the rows of the chunk that raises it are not read.
                            assert found[-1] == expected[-1] and found[:-1] == expected[: len(found) - 1]
                        else:
                            assert found == expected


test_csv_chunks_read_as_the_file, test_csv_chunks_read_as_the_file_full = quick_and_full(
    1000, files, quick_examples=150
)(check_chunks_read_as_the_file)


def test_a_later_line_starting_with_a_byte_order_mark_is_not_line_1(tmp_path):
    path = tmp_path / "x.jsonl"
    first = json.dumps({k: ROWS[0][k] for k in ("source", "reference", "prediction")}).encode()
    path.write_bytes(first + b"\n\xef\xbb\xbf" + first + b"\n")
    with pytest.raises(InputFileError) as one_process:
        list(open_examples(str(path))[1]())
    with pytest.raises(InputFileError) as chunked:
        chunked_rows([str(path)], {}, 1)
    assert (one_process.value.line, chunked.value.line) == (2, 2)
    assert one_process.value.problem == chunked.value.problem == "not valid JSON (Expecting value)"


def test_a_line_too_long_is_refused_with_its_line(tmp_path, monkeypatch):
    paths, _ = write_jsonl(tmp_path / "x.jsonl", ROWS)
    lengths = [len(line) for line in open(paths[0], "rb")]
    monkeypatch.setenv("UPDATE_ROUGE_MAX_LINE_BYTES", str(max(lengths) - 1))
    expected = reader_error(paths, {})
    assert f"x.jsonl:{lengths.index(max(lengths)) + 1}: a line longer than" in expected
    with pytest.raises(InputFileError) as raised:
        chunked_rows(paths, {}, 2)
    assert str(raised.value) == expected


def test_an_input_error_survives_the_trip_from_a_worker():
    error = pickle.loads(pickle.dumps(InputFileError("a b.jsonl", 7, "not valid JSON")))
    assert str(error) == "'a b.jsonl':7: not valid JSON"
    assert (error.path, error.line, error.problem) == ("a b.jsonl", 7, "not valid JSON")


def small_chunks(monkeypatch):
    """Chunks of 3 lines, fewer for long lines and towards the end, for two workers."""
    monkeypatch.setattr(update_rouge.cli.score, "CHUNK_LINES", 3)
    monkeypatch.setattr(update_rouge.files.chunks, "CHUNK_BYTES", 3000)
    monkeypatch.setattr(update_rouge.files.chunks, "LEAST_CHUNK_BYTES", 700)


def arguments(paths, files):
    return [*paths, *(f"--{name}={path}" for name, path in files.items())]


@pytest.mark.slow
@pytest.mark.parametrize("layout", ["jsonl", "jsonl-crlf-bom", "jsonl-cr", "csv-multiline", "csv-lists", "text"])
def test_two_workers_print_and_write_what_one_process_does(tmp_path, capsys, monkeypatch, layout):
    small_chunks(monkeypatch)
    paths, files = LAYOUTS[layout](tmp_path, ROWS)
    outputs = []
    for num_proc in (1, 2):
        per_example = tmp_path / f"per_example_{num_proc}.jsonl"
        status, out, err = run_main(
            [*arguments(paths, files), "--num-proc", num_proc, "--per-example", per_example, "--signature"], capsys
        )
        assert status == 0, err
        outputs.append((out, per_example.read_bytes()))
        status, out, err = run_main([*arguments(paths, files), "--num-proc", num_proc, "--signature"], capsys)
        assert status == 0 and out == outputs[-1][0], err
    assert outputs[0] == outputs[1]
    outputs = [
        (json.dumps({k: v for k, v in json.loads(out).items() if k != "signature"}), lines.decode())
        for out, lines in outputs
    ]
    expected = compute(
        sources=[r["source"] for r in ROWS],
        predictions=[r["prediction"] for r in ROWS],
        references=[r["reference"] for r in ROWS],
    )
    if not layout.startswith("csv"):  # their sources hold line ends that the others lack
        assert json.loads(outputs[0][0]) == expected
    assert len(outputs[0][1].splitlines()) == len(ROWS)


@pytest.mark.slow
def test_two_workers_name_bad_input_in_a_later_chunk(tmp_path, capsys, monkeypatch):
    small_chunks(monkeypatch)
    path, line, bad = BAD_INPUT["bad json"](tmp_path)
    good = [json.dumps({k: r[k] for k in ("source", "reference", "prediction")}).encode() + b"\n" for r in ROWS]
    path.write_bytes(b"".join(good[: line - 1]) + bad + b"".join(good[line - 1 :]))
    status, out, err = run_main([path, "--num-proc", 2], capsys)
    assert status != 0 and out == ""
    assert f"x.jsonl:{line}: not valid JSON" in err


@pytest.mark.slow
def test_two_workers_name_bad_json_before_a_later_line_too_long(tmp_path, capsys, monkeypatch):
    # The main process cuts ahead of the workers: the line too long (line 10) that it meets while
    # cutting must wait for the earlier chunks, whose line 4 is not JSON.
    small_chunks(monkeypatch)
    good = [json.dumps({k: r[k] for k in ("source", "reference", "prediction")}).encode() + b"\n" for r in ROWS]
    lines = good[:9]
    lines[3] = b"{not json\n"
    limit = max(len(line) for line in lines)
    lines.append(b'{"source": "' + b"x" * limit + b'"}\n')
    path = tmp_path / "x.jsonl"
    path.write_bytes(b"".join(lines))
    monkeypatch.setenv("UPDATE_ROUGE_MAX_LINE_BYTES", str(limit))
    outcomes = [run_main([path, "--num-proc", num_proc], capsys) for num_proc in (1, 2)]
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == 2 and "x.jsonl:4: not valid JSON" in outcomes[0][2]
    lines[3] = good[3]
    path.write_bytes(b"".join(lines))
    status, out, err = run_main([path, "--num-proc", 2], capsys)
    assert status == 2 and out == "" and "x.jsonl:10: a line longer than" in err


@pytest.mark.slow
@pytest.mark.parametrize("problem", ["bad utf-8 on the second line of a cell", "an unclosed quote at the end"])
def test_two_workers_name_bad_csv_as_one_process_does(tmp_path, capsys, monkeypatch, problem):
    small_chunks(monkeypatch)
    line = write_bad_csv(tmp_path / "x.csv", problem)
    outcomes = [run_main([tmp_path / "x.csv", "--num-proc", num_proc], capsys) for num_proc in (1, 2)]
    assert outcomes[0] == outcomes[1]
    status, out, err = outcomes[0]
    assert status == 2 and out == "" and f"x.csv:{line}: " in err


def test_the_wikipedia_triples_chunk_as_they_read():
    path = str(DATA_DIR / "wiki_triples.jsonl")
    assert chunked_rows([path], {}, 100) == list(open_examples(path)[1]())


@pytest.mark.slow
def test_compute_in_two_workers_counts_tokenless_examples_there_and_equals_one_process():
    rows = read_jsonl("multilingual_triples.jsonl") + ROWS
    columns = {name + "s": [row[name] for row in rows] for name in ("source", "reference", "prediction")}
    outcomes = []
    for num_proc in (1, 2):
        with pytest.warns(NoTokensWarning) as warned:
            table = compute(**columns, use_aggregator=False, num_proc=num_proc)
            result = compute(**columns, baseline_predictions=columns["sources"], num_proc=num_proc)
        outcomes.append((json.dumps(table), json.dumps(result), [w.message.count for w in warned]))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][2][0] > 0
