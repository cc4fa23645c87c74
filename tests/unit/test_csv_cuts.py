"""Where CSV records end (``csv_cuts``): a text cut there and read piece by piece with
``csv.reader`` gives the records, starting lines and errors that ``csv.reader`` gives over the
whole text, whatever part of it has been read; and the chunks ``file_chunks`` cuts a CSV file
into (read in blocks of a few bytes, with records over the limit) read as ``csv_files.read_csv``
reads the file."""

import csv
import io
import os
import pickle
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from conftest import quick_and_full
from hypothesis import strategies as st

import update_rouge.csv_cuts
from update_rouge.csv_cuts import lines_in, numbered_lines, record_end
from update_rouge.csv_files import read_csv
from update_rouge.file_chunks import open_chunks
from update_rouge.file_lines import InputFileError
from update_rouge.file_rows import Row

# Rich in what the reader treats apart, with characters of two and three bytes in UTF-8, and
# characters that end lines for str.splitlines but neither for the reader nor for file_lines
# (and NUL, which csv refuses before Python 3.11: then in the pieces as in the whole).
PIECES = [b'"', b'""', b",", b"\r", b"\n", b"\r\n", b"a", b"b ", "é".encode(), "語".encode(), b"\xef\xbb\xbf"]
PIECES += [b"\x0c", "\u2028".encode(), b"\x00"]
texts = st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join)


def records(data: bytes, strict: bool, first: int = 1):
    """``csv.reader`` over the lines of ``data`` (split as ``file_lines`` splits them), numbered
    from ``first``: (line it starts on, cells) of each record, then ("error", line, message)
    if the reader stops at an error."""
    reader = csv.reader([line.decode() for line in data.splitlines(keepends=True)], strict=strict)
    found, start = [], first
    try:
        for record in reader:
            found.append((start, record))
            start = first + reader.line_num
    except csv.Error as error:
        found.append(("error", first - 1 + reader.line_num, str(error)))
    return found


def cut(data: bytes):
    """``data`` in pieces, each ending where ``record_end`` says a record ends."""
    pieces, start = [], 0
    while (end := record_end(data, start, True)) > start:
        pieces.append(data[start:end])
        start = end
    assert start == len(data)
    return pieces


def read_in_pieces(data: bytes, strict: bool):
    found, first = [], 1
    for piece in cut(data):
        found += records(piece, strict, first)
        if found and found[-1][0] == "error":
            break
        first += lines_in(piece)
    return found


def check_pieces_read_as_the_whole(data: bytes) -> None:
    for strict in (False, True):
        assert read_in_pieces(data, strict) == records(data, strict)
    # Where the bytes read so far stop, a record ends where it ends in the whole file, or is not known to end.
    start = 0
    for piece in cut(data):
        end = start + len(piece)
        for stop in range(start, min(end + 2, len(data)) + 1):
            assert record_end(data[:stop], start, False) in (None, end), (start, stop)
        assert record_end(data[: end + 1], start, False) == end or end == len(data) or data[end - 1 : end + 1] == b"\r"
        start = end


test_pieces_read_as_the_whole, test_pieces_read_as_the_whole_full = quick_and_full(5000, texts, quick_examples=500)(
    check_pieces_read_as_the_whole
)


@pytest.mark.parametrize(
    "data, ends",
    [
        (b"a,b\n", [4]),  # a record on one line
        (b'"a\nb",c\n', [8]),  # a quoted cell holding a line end
        (b'a"b,c\n', [6]),  # a quote inside an unquoted cell is a character
        (b'a,"b""\n","c"\r\n', [14]),  # "" inside a quoted cell is a quote, not its end
        (b'"a"""\n', [6]),  # an escaped quote, then the closing one
        (b'"a""""\nb"\n', [10]),
        (b'x,"\r\r\n\n",y\n', [11]),  # \r, \r\n and \n inside a cell
        (b'"a"b"\nc\n', [6, 8]),  # text after a closing quote (refused when strict) is more of the cell
        (b'"a",""\n"b\n', [7, 10]),  # an unclosed quote: the last record ends with the file
        (b"\n\r\n\r", [1, 3, 4]),  # blank lines are records (without cells)
        (b'a,"b', [4]),  # no final line end, the quote still open
        (b'a,"b"', [5]),  # no final line end
    ],
)
def test_records_end_where_the_reader_ends_them(data, ends):
    found, start = [], 0
    while (end := record_end(data, start, True)) > start:
        found.append(end)
        start = end
    assert found == ends


def test_a_record_ending_at_a_lone_cr_may_go_on_in_the_bytes_not_read():
    assert record_end(b"a,b\r", 0, False) is None
    assert record_end(b"a,b\r", 0, True) == 4
    assert record_end(b"a,b\r\n", 0, False) == 5
    assert record_end(b'a,"b\r', 0, False) is None


def test_lines_are_counted_as_the_reader_splits_them():
    for data in (b"", b"a", b"a\n", b"\r\r\n\n\r", b'"x\r\ny"\r\nz\r'):
        assert lines_in(data) == sum(line.endswith((b"\r", b"\n")) for line in data.splitlines(keepends=True))


def test_long_lines_of_quotes_and_commas_are_cut_as_read():
    # 1.6 MB: a match that tried the cells of a line in more than linear time would not end.
    line = b'"a"' + b'x"",' * 200_000 + b'"' + b'b""' * 200_000 + b"\n"
    data = line + b'c","' * 100_000 + b'"\n' + line + b'"\n'
    for strict in (False, True):
        assert read_in_pieces(data, strict) == records(data, strict)
    last = len(data) - len(cut(data)[-1])
    assert data[last:] == line + b'"\n'
    assert record_end(data[:-1], last, False) is None  # no match: tried in linear time too


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
        for chunk in open_chunks(str(path))[1](lambda _: None, size):
            yield from pickle.loads(pickle.dumps(chunk)).rows()

    return read


def check_chunks_read_as_the_file(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.csv"
        path.write_bytes(data)
        # Blocks of the usual size and of a few bytes; records over a limit of 40 bytes, an
        # error for both (named by the line the record starts on).
        for block, limit in ((update_rouge.csv_cuts.BLOCK, "100000000"), (5, "100000000"), (7, "40")):
            with mock.patch.object(update_rouge.csv_cuts, "BLOCK", block):
                with mock.patch.dict(os.environ, {"UPDATE_ROUGE_MAX_LINE_BYTES": limit}):
                    expected = outcome(lambda: read_csv(str(path)))
                    for size in (1, 2, 1000):
                        found = outcome(chunked(path, size))
                        if expected and isinstance(expected[-1], str):
                            # An error: the rows of the chunk that raises it are not read.
                            assert found[-1] == expected[-1] and found[:-1] == expected[: len(found) - 1]
                        else:
                            assert found == expected


test_chunks_read_as_the_file, test_chunks_read_as_the_file_full = quick_and_full(1000, files, quick_examples=150)(
    check_chunks_read_as_the_file
)


def check_stepped_as_matched(data: bytes) -> None:
    # Records longer than the window are found cell by cell (runs of cells matched in windows, a
    # quoted cell's end and a line end found with bytes.find): the same ends, wherever windows end.
    for window in (0, 1, 3):
        with mock.patch.object(update_rouge.csv_cuts, "WINDOW", window):
            check_pieces_read_as_the_whole(data)


test_records_past_the_window_end_as_read, test_records_past_the_window_end_as_read_full = quick_and_full(
    5000, texts, quick_examples=300
)(check_stepped_as_matched)


class Endless:
    """A binary file of ``head`` and then ``repeated`` for ever, counting the bytes read; past
    ``most`` bytes read, an ``AssertionError``."""

    def __init__(self, head: bytes, repeated: bytes, most: int):
        self.head, self.repeated, self.most, self.count = head, repeated, most, 0

    def read(self, size: int) -> bytes:
        data = (self.head + self.repeated * (size // len(self.repeated) + 1))[:size]
        self.head = self.head[size:]
        self.count += len(data)
        assert self.count <= self.most, f"read {self.count:,} bytes of a record over the limit"
        return data

    def fileno(self) -> int:
        raise io.UnsupportedOperation("no file descriptor")  # a stream, as a pipe is

    def __enter__(self):
        return self

    def __exit__(self, *_):
        pass


ENDLESS = {  # what repeats for ever after the quote that opens the last record's third cell
    "a line": b"x",
    "quoted line ends": b"x\r\n",
    "quoted cells and line ends": b'x",y,"z\n',
}


@pytest.mark.parametrize("reader", ["numbered_lines", "read_csv", "open_chunks"])
@pytest.mark.parametrize("repeated", ENDLESS)
def test_a_record_over_the_limit_is_refused_before_the_rest_is_read(monkeypatch, reader, repeated):
    monkeypatch.setenv("UPDATE_ROUGE_MAX_LINE_BYTES", "1000")
    monkeypatch.setattr(update_rouge.csv_cuts, "BLOCK", 64)
    head = b'source,reference,prediction\nA.,A. B.,A.\r\n\nA.,B.,"'
    handle = Endless(head, ENDLESS[repeated], 2 * 1000 + len(head))
    for module in ("csv_files", "file_chunks"):
        monkeypatch.setattr(f"update_rouge.{module}.open_input", lambda path: handle)
    reads = {
        "numbered_lines": lambda: (line for _, line in numbered_lines(handle, "endless.csv", lambda _: None)),
        "read_csv": lambda: read_csv("endless.csv"),
        "open_chunks": chunked("endless.csv", 2),
    }
    found = outcome(reads[reader])
    what = "line" if repeated == "a line" else "record (its quoted cells span lines)"
    assert found[-1] == (
        f"endless.csv:4: a {what} longer than 1,000 bytes, the limit of one {what.split()[0]} (raise it with the "
        "environment variable UPDATE_ROUGE_MAX_LINE_BYTES)"
    )
    if reader == "numbered_lines":
        assert found[:-1] == [b"source,reference,prediction\n", b"A.,A. B.,A.\r\n", b"\n"]
    else:  # the rows before it, then its error
        assert found[:-1] == [Row(2, "A.", ["A. B."], "A.")]
    assert 1000 < handle.count <= 2 * 1000 + len(head)
