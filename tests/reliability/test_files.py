"""Reading examples from files (``files``: the reader picked for a layout): nothing read wrongly
in silence.

Each test is one case of the reliability issue; JSONL files are in test_jsonl_files.py, CSV files
in test_csv_files.py, three text files in test_text_files.py, where lines end in
test_files_lines.py, the writing of outputs in test_outputs.py, the command-line cases in
test_reliability_cli.py.
"""

import json

import pytest

from update_rouge.files import InputFileError, open_examples, read_systems

ROW = {"source": "A.", "reference": "A. B.", "prediction": "A. C."}


def write(path, data: bytes):
    path.write_bytes(data)
    return str(path)


def rows(reader):
    """Each row's line, source, references and prediction (its ``id`` is tested on its own below)."""
    return [tuple(row)[:4] for row in reader]


def test_open_examples_picks_the_reader_and_refuses_mixed_layouts(tmp_path):
    path = write(tmp_path / "d.csv", b"source,reference,prediction\nA.,A. B.,A.\n")
    paths, read = open_examples(path)
    assert paths == [path] and [row.references for row in read()] == [["A. B."]]
    with pytest.raises(ValueError, match="not both"):
        open_examples(path, text_files=(path, path, path))
    with pytest.raises(ValueError, match="pass --input-format"):
        open_examples(str(tmp_path / "d.txt"))
    with pytest.raises(ValueError, match="all three"):
        open_examples(text_files=(path, None, path))


def test_a_comparison_reads_one_prediction_column_per_system_from_jsonl_and_csv(tmp_path):
    jsonl = write(tmp_path / "d.jsonl", (json.dumps(dict(ROW, a="X.", b="Y.", id=3)) + "\n").encode())
    csv = write(tmp_path / "d.csv", b"b,source,a,reference\nY.,A.,X.,A. B.\n")
    for path, file_format, example_id in ((jsonl, "jsonl", "3"), (csv, "csv", None)):
        (row,) = read_systems(path, file_format, ["a", "b"])
        assert row == (1 + (file_format == "csv"), "A.", ["A. B."], {"a": "X.", "b": "Y."}, example_id, None)
    with pytest.raises(InputFileError, match=r"d\.csv:1: the header row lacks the column\(s\) c"):
        list(read_systems(csv, "csv", ["a", "c"]))
