"""Reading CSV files of examples (``csv_files``): nothing read wrongly in silence.

Each test is one case of the reliability issue, as in test_files.py (JSONL and the reader picked).
"""

import csv
import io

import pytest
from test_files import rows, write

import update_rouge.files.csv_files
import update_rouge.files.lines
from update_rouge.files import InputFileError, open_reader, read_csv
from update_rouge.files.rows import Row


def test_a_column_named_twice_in_a_csv_header_is_refused(tmp_path):
    path = write(tmp_path / "d.csv", b"source,reference,prediction,source\nA.,A. B.,A. C.,X.\n")
    with pytest.raises(InputFileError, match=r"d\.csv:1: .*source more than once"):
        rows(read_csv(path))


def test_a_csv_field_of_200000_characters_is_read(tmp_path):
    long = "word " * 40_000 + "end."
    path = write(tmp_path / "d.csv", f'source,reference,prediction\nA.,"{long}",A.\n'.encode())
    assert rows(read_csv(path)) == [(2, "A.", [long], "A.")]


def test_reading_a_csv_file_leaves_the_csv_modules_cell_limit_as_it_was(tmp_path, monkeypatch):
    # The csv module's limit is one setting for the whole process: a reader that left its own
    # there broke other libraries that read CSV (importlib.metadata's RECORD files, under
    # inspect_ai) after a file was read with a 40-byte limit.
    path = write(
        tmp_path / "d.csv", b"source,reference,prediction\nA.,A. B.,A. C.\n" + b"A.,A. B.," + b"x" * 60 + b"\n"
    )
    monkeypatch.setenv("UPDATE_ROUGE_MAX_LINE_BYTES", "40")
    original = csv.field_size_limit(123_456)  # a limit of the test's own, put back at the end
    try:
        reader = read_csv(path)
        assert rows([next(reader)]) == [(2, "A.", ["A. B."], "A. C.")]
        assert csv.field_size_limit() == 123_456
        # The file's own limit still holds while its records are read.
        with pytest.raises(InputFileError, match=r"d\.csv:3: "):
            next(reader)
        assert csv.field_size_limit() == 123_456
    finally:
        csv.field_size_limit(original)


def test_a_csv_quote_inside_an_unquoted_cell_is_refused(tmp_path):
    path = write(tmp_path / "d.csv", b'source,reference,prediction\nA.,"A." B.,A.\n')
    with pytest.raises(InputFileError, match=r"d\.csv:2: not valid CSV"):
        rows(read_csv(path))


def test_csv_ids_are_kept_as_their_cells_and_a_file_without_them_has_none(tmp_path):
    with_ids = write(tmp_path / "ids.csv", b"prediction,id,source,reference\nA. C.,007,A.,A. B.\nA. C.,,A.,A. B.\n")
    assert [(row.line, row.id, row.prediction) for row in read_csv(with_ids)] == [(2, "007", "A. C."), (3, "", "A. C.")]
    without = write(tmp_path / "plain.csv", b"source,reference,prediction\nA.,A. B.,A. C.\n")
    assert [row.id for row in read_csv(without)] == [None]


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


@pytest.mark.parametrize("chunks", [False, True])
@pytest.mark.parametrize("repeated", ENDLESS)
def test_a_record_over_the_limit_is_refused_before_the_rest_is_read(monkeypatch, chunks, repeated):
    monkeypatch.setenv("UPDATE_ROUGE_MAX_LINE_BYTES", "1000")
    monkeypatch.setattr(update_rouge.files.lines, "_READ_SIZE", 64)
    head = b'source,reference,prediction\nA.,A. B.,A.\r\n\nA.,B.,"'
    handle = Endless(head, ENDLESS[repeated], 2 * 1000 + len(head))
    monkeypatch.setattr(update_rouge.files.csv_files, "open_input", lambda path: handle)
    found = []
    try:
        if chunks:
            for chunk in open_reader("endless.csv").chunks(lambda _: None, 1):
                found.extend(chunk.rows())
        else:
            found.extend(read_csv("endless.csv"))
    except InputFileError as error:
        found.append(str(error))
    what = "line" if repeated == "a line" else "record (its quoted cells span lines)"
    assert found == [
        Row(2, "A.", ["A. B."], "A."),
        f"endless.csv:4: a {what} longer than 1,000 bytes, the limit of one {what.split()[0]} (raise it with the "
        "environment variable UPDATE_ROUGE_MAX_LINE_BYTES)",
    ]
    assert 1000 < handle.count <= 2 * 1000 + len(head)


def test_the_0_1_0_name_csv_records_reads_the_records_after_a_header():
    from update_rouge.files import csv_records
    from update_rouge.files.csv_files import CsvColumns

    records = csv_records("d.csv", ['A.,"B.\n', 'C.",D.\n', "\n", "E.,F.\n"], 2, CsvColumns(3, (0, 1, 2)))
    assert next(records) == (2, "A.", ["B.\nC."], ["D."], None, None, None)
    with pytest.raises(InputFileError, match=r"^d\.csv:5: 2 cells, but the header has 3$"):
        next(records)
