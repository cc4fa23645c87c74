"""Reliability of reading and writing files: nothing read wrongly in silence, no file lost.

Each test is one case of the reliability issue; the command-line cases are in test_cli.py.
"""

import json
import os
import stat

import pytest
from hypothesis import given
from hypothesis import strategies as st

from update_rouge.file_lines import InputFileError
from update_rouge.files import open_examples, read_csv, read_jsonl, read_text_files
from update_rouge.outputs import check_output_paths, output_file

ROW = {"source": "A.", "reference": "A. B.", "prediction": "A. C."}


def write(path, data: bytes):
    path.write_bytes(data)
    return str(path)


def rows(reader):
    """Each row's line, source, references and prediction (its ``id`` is tested on its own below)."""
    return [tuple(row)[:4] for row in reader]


@pytest.mark.parametrize("end", [b"\r\n", b"\n", b"\r"])
def test_text_files_end_lines_at_crlf_lf_and_cr_alike(tmp_path, end):
    sources = write(tmp_path / "s.txt", end.join([b"A.", b"X."]) + end)
    references = write(tmp_path / "r.txt", end.join([b"A. B.", b"X. Y."]) + end)
    predictions = write(tmp_path / "p.txt", end.join([b"A. C.", b"X. Y."]))
    assert rows(read_text_files(sources, references, predictions)) == [
        (1, "A.", ["A. B."], "A. C."),
        (2, "X.", ["X. Y."], "X. Y."),
    ]


@pytest.mark.parametrize("separator", ["\u2028", "\u0085", "\x0c", "\x1c", "\u2029"])
def test_text_files_do_not_end_lines_at_other_unicode_line_breaks(tmp_path, separator):
    text = f"A.{separator}B.".encode()
    paths = [write(tmp_path / f"{name}.txt", text + b"\n") for name in "srp"]
    assert rows(read_text_files(*paths)) == [(1, f"A.{separator}B.", [f"A.{separator}B."], f"A.{separator}B.")]


def test_a_cr_at_a_read_block_boundary_followed_by_lf_ends_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr("update_rouge.file_lines._READ_SIZE", 4)
    paths = [write(tmp_path / f"{name}.txt", b"abc\r\ndef\rghi\n") for name in "srp"]
    assert [row.source for row in read_text_files(*paths)] == ["abc", "def", "ghi"]


def test_jsonl_with_cr_line_ends_reads_every_row(tmp_path):
    path = write(tmp_path / "d.jsonl", b"\r".join(json.dumps(ROW).encode() for _ in range(3)) + b"\r")
    assert [row.line for row in read_jsonl(path)] == [1, 2, 3]


def test_a_key_given_twice_in_a_jsonl_object_is_refused_with_its_line(tmp_path):
    path = write(tmp_path / "d.jsonl", (json.dumps(ROW) + "\n" + json.dumps(ROW)[:-1] + ', "source": "B."}\n').encode())
    with pytest.raises(InputFileError, match=r"d\.jsonl:2: .*'source' appears more than once"):
        rows(read_jsonl(path))


def test_a_column_named_twice_in_a_csv_header_is_refused(tmp_path):
    path = write(tmp_path / "d.csv", b"source,reference,prediction,source\nA.,A. B.,A. C.,X.\n")
    with pytest.raises(InputFileError, match=r"d\.csv:1: .*source more than once"):
        rows(read_csv(path))


def test_a_csv_field_of_200000_characters_is_read(tmp_path):
    long = "word " * 40_000 + "end."
    path = write(tmp_path / "d.csv", f'source,reference,prediction\nA.,"{long}",A.\n'.encode())
    assert rows(read_csv(path)) == [(2, "A.", [long], "A.")]


def test_a_csv_quote_inside_an_unquoted_cell_is_refused(tmp_path):
    path = write(tmp_path / "d.csv", b'source,reference,prediction\nA.,"A." B.,A.\n')
    with pytest.raises(InputFileError, match=r"d\.csv:2: not valid CSV"):
        rows(read_csv(path))


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


# Outputs


def test_an_output_that_is_an_input_is_refused_by_any_name(tmp_path, monkeypatch):
    data = tmp_path / "data.jsonl"
    data.write_text("x")
    link = tmp_path / "link.jsonl"
    link.symlink_to(data)
    hard = tmp_path / "hard.jsonl"
    os.link(data, hard)
    monkeypatch.chdir(tmp_path)
    for output in ["data.jsonl", "./data.jsonl", str(data), str(link), str(hard)]:
        with pytest.raises(ValueError, match="is the input"):
            check_output_paths(["data.jsonl"], [output])
    check_output_paths(["data.jsonl"], ["new.jsonl", "-"])


def test_an_empty_output_name_is_refused():
    with pytest.raises(ValueError, match="empty"):
        check_output_paths([], [""])


def test_a_symbolic_link_output_is_written_through_and_stays_a_link(tmp_path):
    target = tmp_path / "target.jsonl"
    target.write_text("old")
    link = tmp_path / "out.jsonl"
    link.symlink_to(target)
    with output_file(str(link)) as handle:
        handle.write("new")
    assert link.is_symlink() and target.read_text() == "new"


def test_an_existing_outputs_permissions_are_kept(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("old")
    out.chmod(0o600)
    with output_file(str(out)) as handle:
        handle.write("new")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600 and out.read_text() == "new"


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("old")
    with pytest.raises(RuntimeError):
        with output_file(str(out)) as handle:
            handle.write("half")
            raise RuntimeError("interrupted")
    assert out.read_text() == "old" and os.listdir(tmp_path) == ["out.jsonl"]


def test_a_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with output_file(str(fifo)) as handle:
            handle.write("through")
        assert os.read(reader, 100) == b"through"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.stat().st_mode) and sorted(os.listdir(tmp_path)) == ["pipe"]


def test_dev_null_is_written_in_place_and_stays_a_device():
    with output_file("/dev/null") as handle:
        handle.write("nothing")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_dash_is_standard_output(capsys):
    with output_file("-") as handle:
        handle.write("to stdout")
    assert capsys.readouterr().out == "to stdout"


@given(
    data=st.binary().map(lambda b: bytes(b"ab\r\n"[x % 4] for x in b)),
    size=st.integers(1, 9),
    limit=st.integers(1, 12),
)
def test_lines_split_at_every_block_size_as_one_regular_expression_splits_the_whole(data, size, limit):
    import io
    import re

    from update_rouge import file_lines

    expected = [line for line in re.findall(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", data) if line]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(file_lines, "_READ_SIZE", size)
        read = []
        try:
            for line in file_lines._raw_lines(io.BytesIO(data), limit):
                read.append(line)
        except file_lines._LineTooLong:
            # Refused at the first line above the limit, after every line before it.
            assert [len(line) for line in read] == [len(line) for line in expected[: len(read)]]
            assert len(expected[len(read)]) > limit, f"line {len(read) + 1} {expected[len(read)]!r} was refused"
            return
    assert read == expected
    assert all(len(line) <= limit for line in read), f"a line above {limit} bytes was read: {read}"


def test_jsonl_ids_are_kept_as_text_and_absent_ids_are_none(tmp_path):
    ids = ["x-1", 7, 2.5, None, True, "日本"]
    lines = [json.dumps(dict(ROW, id=value), ensure_ascii=False) for value in ids] + [json.dumps(ROW)]
    path = write(tmp_path / "ids.jsonl", ("\n".join(lines) + "\n").encode())
    assert [row.id for row in read_jsonl(path)] == ["x-1", "7", "2.5", "null", "true", "日本", None]


def test_an_id_holding_a_lone_surrogate_is_kept_as_its_json_text(tmp_path):
    path = write(tmp_path / "ids.jsonl", (json.dumps(dict(ROW, id="a\ud800")) + "\n").encode())
    assert [row.id for row in read_jsonl(path)] == ['"a\\ud800"']


def test_json_array_ids_are_kept_with_their_lines(tmp_path):
    text = "[\n" + json.dumps(dict(ROW, id=10)) + ",\n" + json.dumps(ROW) + ",\n" + json.dumps(dict(ROW, id="b")) + "]"
    path = write(tmp_path / "ids.json", text.encode())
    assert [(row.line, row.id) for row in read_jsonl(path)] == [(2, "10"), (3, None), (4, "b")]


def test_csv_ids_are_kept_as_their_cells_and_a_file_without_them_has_none(tmp_path):
    with_ids = write(tmp_path / "ids.csv", b"prediction,id,source,reference\nA. C.,007,A.,A. B.\nA. C.,,A.,A. B.\n")
    assert [(row.line, row.id, row.prediction) for row in read_csv(with_ids)] == [(2, "007", "A. C."), (3, "", "A. C.")]
    without = write(tmp_path / "plain.csv", b"source,reference,prediction\nA.,A. B.,A. C.\n")
    assert [row.id for row in read_csv(without)] == [None]
