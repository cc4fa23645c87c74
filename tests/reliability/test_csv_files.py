"""Reading CSV files of examples (``csv_files``): nothing read wrongly in silence.

Each test is one case of the reliability issue, as in test_files.py (JSONL and the reader picked).
"""

import csv

import pytest
from test_files import rows, write

from update_rouge.csv_files import read_csv
from update_rouge.file_lines import InputFileError


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
