"""The score command (``update_rouge/cli/score.py``): input layouts, per-example output, errors
with file and line, the options reaching ``compute``."""

import csv
import json
import os

import pytest
from conftest import DATA_DIR, columns, read_jsonl

from update_rouge import compute
from update_rouge.cli import main


@pytest.fixture(scope="module")
def iterater():
    rows = read_jsonl("iterater_triples.jsonl")
    return rows, compute(**columns(rows))


def run_main(argv, capsys):
    try:
        status = main([str(a) for a in argv])
    except SystemExit as exit:  # argparse's way out for unusable options
        status = exit.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_per_example_lines_follow_the_file(tmp_path, iterater, capsys):
    rows, expected = iterater
    path = tmp_path / "with_blank_lines.jsonl"
    lines = [json.dumps(r) for r in rows]
    path.write_text("\n".join(lines[:5]) + "\n\n" + "\n".join(lines[5:]) + "\n", encoding="utf-8")
    out = tmp_path / "scores.jsonl"
    status, stdout, _ = run_main([path, "--per-example", out], capsys)
    assert status == 0
    assert json.loads(stdout) == expected
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [w["line"] for w in written] == list(range(1, 6)) + list(range(7, 42))
    per_example = compute(**columns(rows), use_aggregator=False)
    assert [w["update_rougeLsum_recall"] for w in written] == per_example["update_rougeLsum_recall"]
    assert [w["_both_empty"] for w in written] == per_example["_both_empty"]


def test_average_micro_changes_the_corpus_values_not_the_per_example_lines(tmp_path, iterater, capsys):
    rows, _ = iterater
    out = tmp_path / "scores.jsonl"
    status, stdout, _ = run_main(
        [DATA_DIR / "iterater_triples.jsonl", "--average", "micro", "--per-example", out], capsys
    )
    assert status == 0
    assert json.loads(stdout) == compute(**columns(rows), average="micro")
    assert json.loads(stdout) != compute(**columns(rows))
    per_example = compute(**columns(rows), use_aggregator=False)
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [w["update_rouge1"] for w in written] == per_example["update_rouge1"]


def test_csv_with_a_list_of_references_cell(tmp_path, capsys):
    rows = read_jsonl("fruit_triples.jsonl")
    references = [[rows[0]["reference"], rows[1]["reference"]], rows[1]["reference"], "[1] " + rows[2]["reference"]]
    path = tmp_path / "data.csv"
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "prediction", "source", "reference"])
        for row, reference in zip(rows, references):
            cell = json.dumps(reference) if isinstance(reference, list) else reference
            writer.writerow([row["id"], row["prediction"], row["source"], cell])
    status, stdout, _ = run_main([path, "--rouge-types", "rouge1", "rougeL"], capsys)
    assert status == 0, _
    expected = compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[references[0], [references[1]], [references[2]]],
        rouge_types=["rouge1", "rougeL"],
    )
    assert json.loads(stdout) == expected


def test_three_text_files_and_two_processes(tmp_path, iterater, capsys):
    rows, expected = iterater
    paths = {}
    for field in ("source", "reference", "prediction"):
        paths[field] = tmp_path / f"{field}s.txt"
        paths[field].write_text("".join(r[field] + "\n" for r in rows), encoding="utf-8")
    argv = ["--sources", paths["source"], "--references", paths["reference"], "--predictions", paths["prediction"]]
    status, stdout, _ = run_main(argv + ["--num-proc", "2"], capsys)
    assert status == 0
    assert json.loads(stdout) == expected


def test_progress_bar_on_stderr_when_asked(capsys):
    status, stdout, stderr = run_main([DATA_DIR / "fruit_triples.jsonl", "--progress"], capsys)
    assert status == 0
    assert "100%" in stderr and "100%" not in stdout


GOOD = json.dumps({"source": "a.", "reference": "a. b.", "prediction": "a. c."})


def line(source="a", reference="b", prediction="c"):
    return json.dumps({"source": source, "reference": reference, "prediction": prediction}) + "\n"


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("bad.jsonl", GOOD + "\n{not json\n", ":2: not valid JSON"),
        ("bad.jsonl", GOOD + '\n\n{"source": "a"}\n', ":3: missing field(s) reference, prediction"),
        ("bad.jsonl", GOOD + "\n[1, 2]\n", ":2: expected a JSON object"),
        ("bad.jsonl", line(reference=None), ":1: reference must be a string or a non-empty array of strings, got null"),
        (
            "bad.jsonl",
            line(reference=[]),
            ":1: reference must be a string or a non-empty array of strings, got an empty",
        ),
        ("bad.jsonl", line(reference=["b", 3]), ":1: reference[1] must be a string, got a number"),
        ("bad.jsonl", line() + line(prediction={}), ":2: prediction must be a string, got an object"),
        ("bad.jsonl", line() + line(source=1.5), ":2: source must be a string, got a number"),
        ("bad.csv", "source,reference\na,b\n", ":1: the header row lacks the column(s) prediction"),
        (
            "bad.csv",
            'source,reference,prediction\na,b,c\n"multi\nline",b,c\nd,e\n',
            ":5: 2 cells, but the header has 3",
        ),
        (
            "bad.csv",
            'source,reference,prediction\na,"[""b"", 2]",c\n',
            ":2: reference[1] must be a string, got a number",
        ),
        ("empty.jsonl", "\n\n", ": no examples to score; give at least one example"),
        (
            "bad.jsonl",
            line() + line(prediction="b \ud800."),
            ":2: prediction contains a lone surrogate (U+D800) at character 2",
        ),
        ("bad.jsonl", line(reference=["b", "\udfff"]), ":1: reference[1] contains a lone surrogate (U+DFFF)"),
        (
            "bad.csv",
            'source,reference,prediction\na,"[""b"", ""\\udc00""]",c\n',
            ":2: reference[1] contains a lone surrogate",
        ),
    ],
)
def test_unusable_input_names_file_and_line_and_exits_2(tmp_path, capsys, name, text, message):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    status, stdout, stderr = run_main([path], capsys)
    assert status == 2
    assert stdout == ""
    assert f"{path}{message}" in stderr


def test_invalid_utf8_names_the_line(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(GOOD.encode() + b"\n" + b'{"source": "\xff"}\n')
    status, _, stderr = run_main([path], capsys)
    assert status == 2
    assert f"{path}:2: not valid UTF-8" in stderr


def test_text_files_of_different_lengths(tmp_path, capsys):
    for name, text in (("s.txt", "a.\nb.\n"), ("r.txt", "a. x.\nb. y.\nc.\n"), ("p.txt", "a.\nb.\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    argv = ["--sources", tmp_path / "s.txt", "--references", tmp_path / "r.txt", "--predictions", tmp_path / "p.txt"]
    status, _, stderr = run_main(argv, capsys)
    assert status == 2
    assert f"{tmp_path / 'r.txt'}:3: has more lines than {tmp_path / 's.txt'} (2 lines)" in stderr


@pytest.mark.parametrize("bad_line", ["{broken", '{"source": "a", "reference": "b", "prediction": "\\ud800"}'])
def test_a_failed_run_leaves_the_per_example_file_alone(tmp_path, capsys, bad_line):
    data = tmp_path / "data.jsonl"
    data.write_text((GOOD + "\n") * 1500 + bad_line + "\n", encoding="utf-8")
    out = tmp_path / "scores.jsonl"
    out.write_text("old results\n", encoding="utf-8")
    status, _, stderr = run_main([data, "--per-example", out], capsys)
    assert status == 2 and f"{data}:1501: " in stderr
    assert out.read_text(encoding="utf-8") == "old results\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.jsonl", "scores.jsonl"]


def test_the_per_example_file_gets_ordinary_permissions(tmp_path, capsys):
    out = tmp_path / "scores.jsonl"
    status, _, _ = run_main([DATA_DIR / "fruit_triples.jsonl", "--per-example", out], capsys)
    assert status == 0
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["--num-proc", "0", str(DATA_DIR / "fruit_triples.jsonl")],
            "update-rouge: error: --num-proc must be a whole number",
        ),
        ([str(DATA_DIR / "fruit_triples.jsonl"), "--rouge-types", "rouge0"], "unknown rouge type 'rouge0'"),
        (["--sources", "s.txt"], "give a JSONL or CSV FILE, or all three"),
        ([str(DATA_DIR / "NOTICE.md")], "cannot tell the format"),
        (["missing.jsonl"], "missing.jsonl"),
    ],
)
def test_unusable_options_exit_2(argv, message, capsys):
    status, stdout, stderr = run_main(argv, capsys)
    assert status == 2
    assert message in stderr and stdout == ""


def test_stemmer_option_scores_like_compute(capsys):
    path = DATA_DIR / "fruit_triples.jsonl"
    assert main([str(path), "--stemmer", "rouge155"]) == 0
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    expected = compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        stemmer="rouge155",
    )
    printed = json.loads(capsys.readouterr().out)
    assert printed == expected
    assert printed != compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
    )


def test_use_stemmer_with_another_stemmer_exits_2(capsys):
    assert main([str(DATA_DIR / "fruit_triples.jsonl"), "--use-stemmer", "--stemmer", "rouge155"]) == 2
    assert "error: --use-stemmer is an alias of --stemmer porter and contradicts --stemmer rouge155;" in (
        capsys.readouterr().err
    )


def test_rouge155_options_reach_compute(tmp_path, capsys):
    path = tmp_path / "two_references.jsonl"
    path.write_text(
        '{"source": "s.", "reference": ["s. a b c.", "s. a d."], "prediction": "s. a b d."}\n', encoding="utf-8"
    )
    assert main([str(path), "--rouge-types", "rouge1", "rougeSU4", "--multi-ref", "pooled"]) == 0
    expected = compute(
        sources=["s."],
        predictions=["s. a b d."],
        references=[["s. a b c.", "s. a d."]],
        rouge_types=["rouge1", "rougeSU4"],
        multi_ref="pooled",
    )
    printed = json.loads(capsys.readouterr().out)
    assert printed == expected
    # Pooled ROUGE-1: hits 2 + 2 of 3 + 2 reference tokens; 3 prediction tokens counted twice.
    assert printed["update_rouge1_recall"] == 4 / 5
    assert printed["update_rouge1_precision"] == 4 / 6
