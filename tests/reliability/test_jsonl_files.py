"""Reading JSONL files of examples (``files.jsonl_files``): nothing read wrongly in silence."""

import json

import pytest
from test_files import ROW, rows, write

from update_rouge.files import InputFileError, jsonl_values, open_reader, read_jsonl
from update_rouge.files.lines import file_lines


def test_jsonl_with_cr_line_ends_reads_every_row(tmp_path):
    path = write(tmp_path / "d.jsonl", b"\r".join(json.dumps(ROW).encode() for _ in range(3)) + b"\r")
    assert [row.line for row in read_jsonl(path)] == [1, 2, 3]


def test_a_key_given_twice_in_a_jsonl_object_is_refused_with_its_line(tmp_path):
    path = write(tmp_path / "d.jsonl", (json.dumps(ROW) + "\n" + json.dumps(ROW)[:-1] + ', "source": "B."}\n').encode())
    with pytest.raises(InputFileError, match=r"d\.jsonl:2: .*'source' appears more than once"):
        rows(read_jsonl(path))


def test_deeply_nested_json_is_refused_with_its_line(tmp_path):
    path = write(tmp_path / "d.jsonl", (json.dumps(ROW) + "\n" + "[" * 100_000 + "]" * 100_000 + "\n").encode())
    with pytest.raises(InputFileError, match=r"d\.jsonl:2: JSON nested too deeply"):
        rows(read_jsonl(path))


def test_a_number_of_5000_digits_is_refused_with_its_line(tmp_path):
    path = write(
        tmp_path / "d.jsonl", ('{"source": ' + "9" * 5000 + ', "reference": "A", "prediction": "A"}\n').encode()
    )
    with pytest.raises(InputFileError, match=r"d\.jsonl:1: "):
        rows(read_jsonl(path))


def test_a_json_file_holding_one_array_is_read_as_records_named_by_their_line(tmp_path):
    second = dict(ROW, reference=["A. B.", "A. D."])
    text = "[\n  " + json.dumps(ROW) + ",\n\n  " + json.dumps(second) + "\n]\n"
    path = write(tmp_path / "d.json", text.encode())
    assert rows(read_jsonl(path)) == [(2, "A.", ["A. B."], "A. C."), (4, "A.", ["A. B.", "A. D."], "A. C.")]


def test_a_json_array_with_a_bad_item_names_the_items_line(tmp_path):
    text = "[\n" + json.dumps(ROW) + ",\n" + json.dumps({"source": "A."}) + "\n]"
    with pytest.raises(InputFileError, match=r"d\.json:3: missing field\(s\) reference, prediction"):
        rows(read_jsonl(write(tmp_path / "d.json", text.encode())))


def test_a_json_array_with_a_trailing_comma_is_refused(tmp_path):
    text = "[" + json.dumps(ROW) + ",\n]"
    with pytest.raises(InputFileError, match=r"d\.json:2: not valid JSON"):
        rows(read_jsonl(write(tmp_path / "d.json", text.encode())))


def test_an_array_in_a_jsonl_file_is_refused(tmp_path):
    with pytest.raises(InputFileError, match=r"d\.jsonl:1: expected a JSON object"):
        rows(read_jsonl(write(tmp_path / "d.jsonl", b"[]\n")))


def test_jsonl_ids_are_kept_as_text_and_absent_and_null_ids_are_none(tmp_path):
    ids = ["x-1", 7, 2.5, None, True, "日本", "null"]
    lines = [json.dumps(dict(ROW, id=value), ensure_ascii=False) for value in ids] + [json.dumps(ROW)]
    path = write(tmp_path / "ids.jsonl", ("\n".join(lines) + "\n").encode())
    assert [row.id for row in read_jsonl(path)] == ["x-1", "7", "2.5", None, "true", "日本", "null", None]


def test_an_id_holding_a_lone_surrogate_is_kept_as_its_json_text(tmp_path):
    path = write(tmp_path / "ids.jsonl", (json.dumps(dict(ROW, id="a\ud800")) + "\n").encode())
    assert [row.id for row in read_jsonl(path)] == ['"a\\ud800"']


def test_json_array_ids_are_kept_with_their_lines(tmp_path):
    text = "[\n" + json.dumps(dict(ROW, id=10)) + ",\n" + json.dumps(ROW) + ",\n" + json.dumps(dict(ROW, id="b")) + "]"
    path = write(tmp_path / "ids.json", text.encode())
    assert [(row.line, row.id) for row in read_jsonl(path)] == [(2, "10"), (3, None), (4, "b")]


def test_jsonl_lines_are_read_one_way_by_every_reader(tmp_path):
    """``jsonl_values`` is the one reading of JSONL lines: the one-process reader, the command
    line's chunks and lm_eval's ``load_jsonl`` go through it, so a byte order mark, a blank line
    and a bad line are met alike, each row and error numbered by its line as it is read."""
    data = b"\xef\xbb\xbf" + json.dumps(ROW).encode() + b"\r\n \t\r\n" + json.dumps(ROW).encode() + b"\n\n{]\n"
    path = write(tmp_path / "d.jsonl", data)
    values = jsonl_values(path, file_lines(path, lambda _: None))
    assert [next(values), next(values)] == [(1, ROW), (3, ROW)]
    with pytest.raises(InputFileError, match=r"d\.jsonl:5: not valid JSON") as error:
        next(values)
    assert (error.value.path, error.value.line) == (path, 5)
    read = []
    with pytest.raises(InputFileError, match=r"d\.jsonl:5: not valid JSON"):
        read.extend(row.line for row in read_jsonl(path))
    assert read == [1, 3]
    chunks = open_reader(path).chunks(lambda _: None, 2)
    assert [(row.line, row.source) for row in next(chunks).rows()] == [(1, "A.")]
    with pytest.raises(InputFileError, match=r"d\.jsonl:5: not valid JSON"):
        [chunk.rows() for chunk in chunks]


@pytest.mark.parametrize("line_end", [b"\n", b"\r\n", b"\r", b""])
def test_a_line_cut_inside_a_string_says_so_plainly(tmp_path, line_end):
    # json calls the line's end "Invalid control character at" (or the last line's "Unterminated
    # string starting at"), words that stop short of saying what is wrong.
    whole = json.dumps(ROW).encode()
    path = write(tmp_path / "bad_json.jsonl", (whole + b"\n") * 3 + whole[: whole.index(b"A. B.") + 2] + line_end)
    with pytest.raises(InputFileError) as error:
        rows(read_jsonl(path))
    assert str(error.value) == f"{path}:4: not valid JSON (a string is not closed on this line)"
    path = write(tmp_path / "tab.jsonl", whole.replace(b"A. B.", b"A.\tB.") + b"\n")
    with pytest.raises(InputFileError) as error:
        rows(read_jsonl(path))
    assert str(error.value).endswith(":1: not valid JSON (a control character (U+0009) inside a string, column 34)")
