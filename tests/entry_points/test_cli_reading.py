"""How the command line reads a FILE it cannot read as given (``update_rouge/files``, ``cli/runner.py``):
fields under other names (``--source-field``, ``--reference-field``, ``--prediction-field``; compare's
``--system NAME=COLUMN``), a CSV file named ``.jsonl`` and the reverse, a JSON string cut at its line
end, a directory or a missing file: each refused in one line that says what is wrong, and the flag it
names, followed, reads the file (its numbers those of ``compute``)."""

import csv
import io
import json

import pytest
from conftest import run_main

from update_rouge import compute

SOURCES = ["Bo is a cat.", "It rained."]
PREDICTIONS = ["Bo is a cat. Bo is ten.", "It rained. The river rose."]
REFERENCES = [["Bo is a cat. Bo is ten years old."], ["It rained. The river flooded.", "It rained. A flood."]]
QUICK = ["--rouge-types", "rouge1", "--n-bootstrap", "20"]
WANT = compute(SOURCES, PREDICTIONS, REFERENCES, rouge_types=["rouge1"], n_bootstrap=20)


def jsonl(names=("source", "reference", "prediction")):
    rows = zip(SOURCES, REFERENCES, PREDICTIONS)
    return "".join(json.dumps(dict(zip(names, row))) + "\n" for row in rows)


def csv_text(names=("source", "reference", "prediction")):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    for source, reference, prediction in zip(SOURCES, REFERENCES, PREDICTIONS):
        writer.writerow([source, json.dumps(reference) if isinstance(reference, list) else reference, prediction])
    return out.getvalue()


def scored(argv, capsys):
    status, out, err = run_main(argv, capsys)
    assert status == 0, err
    return json.loads(out)


RENAMED = ("text", "gold", "output")
RENAMING = ["--source-field", "text", "--reference-field", "gold", "--prediction-field", "output"]


@pytest.mark.parametrize(("name", "write"), [("d.jsonl", jsonl), ("d.csv", csv_text)])
def test_fields_under_other_names_are_named_beside_those_the_file_has_and_the_flags_read_them(
    tmp_path, capsys, name, write
):
    path = tmp_path / name
    path.write_text(write(RENAMED), encoding="utf-8")
    status, out, err = run_main([path, *QUICK], capsys)
    lacks = "missing field(s)" if name.endswith("jsonl") else "the header row lacks the column(s)"
    has = "the line has" if name.endswith("jsonl") else "it names"
    assert (status, out) == (2, "")
    assert err == (
        f"update-rouge: error: {path}:1: {lacks} source, reference, prediction ({has} text, gold, output); "
        "if FILE names them otherwise, give --source-field NAME, --reference-field NAME, --prediction-field NAME\n"
    )
    assert scored([path, *QUICK, *RENAMING], capsys) == WANT
    # Only the flags of the fields missing are advised.
    path.write_text(write(("source", "gold", "prediction")), encoding="utf-8")
    status, _, err = run_main([path, *QUICK], capsys)
    assert status == 2 and err.endswith("; if FILE names it otherwise, give --reference-field NAME\n")
    assert scored([path, *QUICK, "--reference-field", "gold"], capsys) == WANT


def test_compare_names_the_source_and_reference_fields_and_advises_system_for_a_column(tmp_path, capsys):
    path = tmp_path / "d.jsonl"
    rows = zip(SOURCES, REFERENCES, PREDICTIONS)
    path.write_text("".join(json.dumps({"text": s, "gold": r, "model": p}) + "\n" for s, r, p in rows))
    argv = ["compare", path, "--system", "text", "--system", "model", "-f", "json", *QUICK]
    status, _, err = run_main(argv, capsys)
    assert status == 2
    assert err.endswith(
        ":1: missing field(s) source, reference (the line has text, gold, model); if FILE names them otherwise, "
        "give --source-field NAME, --reference-field NAME\n"
    )
    got = scored([*argv, "--source-field", "text", "--reference-field", "gold"], capsys)
    assert got["model"]["update_rouge1"] == WANT["update_rouge1"]
    status, _, err = run_main(
        ["compare", path, "--system", "model", "--system", "x", "--source-field", "text", "--reference-field", "gold"],
        capsys,
    )
    assert status == 2 and err.endswith(
        "missing field(s) x (the line has text, gold, model); if FILE names it otherwise, give --system NAME=COLUMN\n"
    )


@pytest.mark.parametrize(
    ("name", "write", "said", "flag"),
    [
        ("d.jsonl", csv_text, "not JSON but a CSV header row naming source, reference, prediction", "csv"),
        ("d.csv", jsonl, "not a CSV header row but a JSON object with source, reference, prediction", "jsonl"),
    ],
)
def test_a_file_in_the_other_format_is_said_to_be_and_the_flag_named_reads_it(
    tmp_path, capsys, name, write, said, flag
):
    path = tmp_path / name
    path.write_text(write(), encoding="utf-8")
    status, _, err = run_main([path, *QUICK], capsys)
    assert (status, err) == (2, f"update-rouge: error: {path}:1: {said}: give --input-format {flag}\n")
    assert scored([path, *QUICK, "--input-format", flag], capsys) == WANT
    # compare too; a file whose line 1 lacks a field read gets no such advice (it would not work).
    argv = ["compare", path, "--system", "source", "--system", "prediction", "-f", "json", *QUICK]
    status, _, err = run_main(argv, capsys)
    assert status == 2 and err.endswith(f"{said}: give --input-format {flag}\n")
    assert scored([*argv, "--input-format", flag], capsys)["prediction"]["update_rouge1"] == WANT["update_rouge1"]
    status, _, err = run_main([path, *QUICK, "--source-field", "text"], capsys)
    assert status == 2 and "--input-format" not in err


def test_a_json_string_cut_at_its_line_end_is_said_so(tmp_path, capsys):
    path = tmp_path / "bad_json.jsonl"
    good = jsonl().splitlines()
    path.write_text(f'{good[0]}\n{good[1]}\n{{"source": "It rained.", "reference": "It rai\n', encoding="utf-8")
    status, _, err = run_main([path], capsys)
    assert (status, err) == (
        2,
        f"update-rouge: error: {path}:3: not valid JSON (a string is not closed on this line)\n",
    )
    path.write_text(f'{good[0]}\n{{"source": "It rai', encoding="utf-8")  # the last line, without its line end
    assert run_main([path], capsys)[2].endswith(":2: not valid JSON (a string is not closed on this line)\n")
    path.write_text('{"source": "a\tb", "reference": "c", "prediction": "d"}\n', encoding="utf-8")
    err = run_main([path], capsys)[2]
    assert err.endswith(":1: not valid JSON (a control character (U+0009) inside a string, column 14)\n")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["."], ". is a directory, not a file of examples"),
        (["--input-format", "jsonl", "."], ". is a directory, not a file of examples"),
        (["nothere"], "nothere: no such file"),
        (["nothere.jsonl"], "nothere.jsonl: no such file"),
        (
            ["--sources", ".", "--references", "r.txt", "--predictions", "p.txt"],
            ". is a directory, not a file of examples",
        ),
        (["compare", ".", "--system", "a", "--system", "b"], ". is a directory, not a file of examples"),
        (
            ["compare", "--sources", "s.txt", "--references", ".", "--system", "a=p", "--system", "b=p"],
            "s.txt: no such file",
        ),
    ],
)
def test_a_directory_or_a_missing_input_is_one_line_without_advice(tmp_path, monkeypatch, capsys, argv, said):
    monkeypatch.chdir(tmp_path)
    status, out, err = run_main(argv, capsys)
    prog = "update-rouge compare" if argv[0] == "compare" else "update-rouge"
    assert (status, out, err) == (2, "", f"{prog}: error: {said}\n")
