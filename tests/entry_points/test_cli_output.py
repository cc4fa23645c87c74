"""The score command as sacreBLEU users expect it: standard input, the ``id`` in ``--per-example``
and ``--group-by`` (the corpus scores of each group, equal to ``compute(group_by=...)`` and to
``compute`` on the group's examples alone), with one and two worker processes (the formats,
``--score-only`` and ``--width`` are in test_cli_score_report.py)."""

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA_DIR, read_jsonl, run_main

from update_rouge import compute

ITERATER = DATA_DIR / "iterater_triples.jsonl"
FAST = ["--rouge-types", "rouge1", "rougeL", "--n-bootstrap", "50"]


def columns(rows):
    return {
        "sources": [r["source"] for r in rows],
        "predictions": [r["prediction"] for r in rows],
        "references": [r["reference"] for r in rows],
    }


def intent(row):
    """A group label of the iterater rows: which prediction of its source, written last in the id (``...-pred2``)."""
    return row["id"].rsplit("-", 1)[1]


@pytest.fixture
def grouped(tmp_path):
    """The iterater triples with an ``intent`` field: groups of different sizes, first seen in file order."""
    rows = read_jsonl("iterater_triples.jsonl")
    path = tmp_path / "grouped.jsonl"
    path.write_text("".join(json.dumps({**row, "intent": intent(row)}) + "\n" for row in rows), encoding="utf-8")
    return path, rows


def piped(monkeypatch, data: bytes):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.mark.parametrize("argv", [["-"], []])
def test_standard_input_is_read_as_the_file_is(monkeypatch, capsys, argv):
    from_file = run_main([ITERATER, *FAST], capsys)
    piped(monkeypatch, ITERATER.read_bytes())
    from_stdin = run_main([*argv, *FAST], capsys)
    assert from_stdin == from_file and from_file[0] == 0
    assert json.loads(from_file[1]) == compute(**columns(read_jsonl("iterater_triples.jsonl")), **FAST_OPTIONS)


FAST_OPTIONS = {"rouge_types": ["rouge1", "rougeL"], "n_bootstrap": 50}


def test_standard_input_errors_are_named_stdin_and_csv_needs_the_input_format(monkeypatch, capsys):
    piped(monkeypatch, b'{"source": "a", "reference": "b", "prediction": "c"}\n{"source": 1}\n')
    status, out, err = run_main(["-"], capsys)
    assert (status, out) == (2, "")
    assert err == (
        "update-rouge: error: <stdin>:2: missing field(s) reference, prediction (the line has source); if FILE names "
        "them otherwise, give --reference-field NAME, --prediction-field NAME\n"
    )
    piped(monkeypatch, b"")
    no_examples = "<stdin>: no examples to score; give at least one example"
    assert run_main(["-"], capsys) == (2, "", f"update-rouge: error: {no_examples}\n")
    piped(monkeypatch, b"source,reference,prediction\nA b.,A b. C d.,A b. C d.\n")
    status, out, _ = run_main(["-", "--input-format", "csv", "-b", "--rouge-types", "rouge1"], capsys)
    assert (status, out) == (0, "1.0000\n")


@pytest.mark.parametrize(
    "argv",
    [
        ["update-rouge", "-"],
        ["update-rouge", "compare", "-", "--system", "base=source", "--system", "prediction"],
        [sys.executable, "-m", "update_rouge", "-"],
    ],
    ids=["installed", "compare", "python -m"],
)
def test_a_closed_standard_input_is_one_line_naming_it(argv):
    # Started with file descriptor 0 closed, Python has no sys.stdin: it was an AttributeError.
    # The installed script next to this interpreter (pip install -e . puts it there).
    command = shutil.which(argv[0], path=Path(sys.executable).parent) or argv[0]
    done = subprocess.run(
        ["bash", "-c", 'exec "$@" <&-', "bash", command, *argv[1:]], capture_output=True, text=True, timeout=120
    )
    prog = "update-rouge compare" if "compare" in argv else "update-rouge"
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"{prog}: error: <stdin>: standard input is closed\n"


@pytest.mark.parametrize("num_proc", ["1", "2"])
def test_a_pipe_into_the_command_with_one_or_two_workers_prints_the_files_numbers(num_proc):
    argv = [sys.executable, "-m", "update_rouge", *FAST, "--num-proc", num_proc, "-f", "text"]
    piped_run = subprocess.run(argv, input=ITERATER.read_bytes(), capture_output=True, timeout=120)
    from_file = subprocess.run([*argv, str(ITERATER)], capture_output=True, timeout=120)
    assert piped_run.returncode == from_file.returncode == 0, piped_run.stderr
    assert piped_run.stdout == from_file.stdout
    assert piped_run.stdout.decode().startswith("UpdateROUGE of 40 examples: mean F, precision and recall; 95%")


def test_per_example_lines_carry_the_id_of_examples_that_have_one(tmp_path, capsys):
    data = tmp_path / "ids.jsonl"
    data.write_text(
        '{"id": 7, "source": "A b.", "reference": "A b. C d.", "prediction": "A b. C e."}\n'
        '{"source": "A b.", "reference": "A b. C d.", "prediction": "A b. C d."}\n'
        '{"id": "x-1", "source": "A b.", "reference": "A b.", "prediction": "A b."}\n',
        encoding="utf-8",
    )
    status, out, _ = run_main([data, "--per-example", "-", "--rouge-types", "rouge1", "-b"], capsys)
    assert status == 0
    lines = [json.loads(line) for line in out.splitlines()[:3]]
    assert [line.get("id") for line in lines] == ["7", None, "x-1"]
    assert list(lines[0])[:3] == ["line", "id", "update_rouge1"] and "id" not in lines[1]
    assert [line["update_rouge1"] for line in lines] == [0.5, 1.0, 1.0]


def test_a_null_id_is_no_id_as_a_missing_one_is(tmp_path, capsys):
    data = tmp_path / "ids.jsonl"
    data.write_text(
        '{"id": null, "source": "A b.", "reference": "A b. C d.", "prediction": "A b. C e."}\n'
        '{"id": "null", "source": "A b.", "reference": "A b. C d.", "prediction": "A b. C d."}\n',
        encoding="utf-8",
    )
    status, out, _ = run_main([data, "--per-example", "-", "--rouge-types", "rouge1", "-b"], capsys)
    assert status == 0
    first, second = (json.loads(line) for line in out.splitlines()[:2])
    assert list(first) == ["line", "update_rouge1", "update_rouge1_precision", "update_rouge1_recall"] + [
        "_target_diff_len",
        "_prediction_diff_len",
        "_both_empty",
    ]
    assert (first["update_rouge1"], second["id"], second["update_rouge1"]) == (0.5, "null", 1.0)


def example(group, prediction="A b. C d."):
    return json.dumps({"source": "A b.", "reference": "A b. C d.", "prediction": prediction, "g": group}) + "\n"


def test_a_null_group_label_is_refused_naming_the_line_and_the_field(tmp_path, capsys):
    data = tmp_path / "g.jsonl"
    data.write_text(example("null") + example(None), encoding="utf-8")
    assert run_main([data, "--group-by", "g"], capsys) == (
        2,
        "",
        f"update-rouge: error: {data}:2: group field 'g' is null\n",
    )
    data.write_text(example("null") + example("x", "A b."), encoding="utf-8")
    status, out, _ = run_main([data, "--group-by", "g", "-b", "--rouge-types", "rouge1"], capsys)
    assert (status, out) == (0, "ALL\t0.5000\nnull\t1.0000\nx\t0.0000\n")


def test_no_group_row_reads_like_the_whole_corpus_or_another_group(tmp_path, capsys):
    data = tmp_path / "g.jsonl"
    data.write_text(
        example("ALL") + example("'ALL'", "A b.") + example("", "A b. C e.") + example("a\tb", "A b."),
        encoding="utf-8",
    )
    status, out, _ = run_main([data, "--group-by", "g", "-b", "--rouge-types", "rouge1"], capsys)
    assert status == 0
    assert out == "ALL\t0.3750\n'ALL'\t1.0000\n\"'ALL'\"\t0.0000\n''\t0.5000\n'a\\tb'\t0.0000\n"
    status, text, _ = run_main(
        [data, "--group-by", "g", "-f", "text", "--rouge-types", "rouge1", "--confidence-level", "none"], capsys
    )
    assert [line.split()[:2] for line in text.splitlines()[3:8]] == [
        ["ALL", "4"],
        ["'ALL'", "1"],
        ["\"'ALL'\"", "1"],
        ["''", "1"],
        ["'a\\tb'", "1"],
    ]


def test_an_empty_group_by_name_is_refused_before_reading(tmp_path, capsys):
    status, out, err = run_main([tmp_path / "absent.jsonl", "--group-by", ""], capsys)
    assert (status, out) == (2, "")
    assert err.endswith(
        "error: argument --group-by: expected the name of a JSON field or CSV column, got an empty name\n"
    )


@pytest.mark.parametrize("num_proc", ["1", "2"])
def test_group_by_gives_each_groups_corpus_scores_as_compute_does(grouped, capsys, num_proc):
    path, rows = grouped
    status, out, err = run_main([path, *FAST, "--group-by", "intent", "--num-proc", num_proc, "--signature"], capsys)
    assert status == 0, err
    result = json.loads(out)
    labels = [intent(row) for row in rows]
    expected = compute(**columns(rows), **FAST_OPTIONS, group_by=labels, return_signature=True)
    assert result == expected
    assert list(result["groups"]) == list(dict.fromkeys(labels)) and len(result["groups"]) > 1
    # Each group's values are compute's on its examples alone; the whole corpus is as without groups.
    for label, values in result["groups"].items():
        alone = compute(**columns([row for row in rows if intent(row) == label]), **FAST_OPTIONS)
        assert values == alone, label
    without = compute(**columns(rows), **FAST_OPTIONS, return_signature=True)
    assert {key: value for key, value in result.items() if key != "groups"} == without
    # The table: the whole corpus, then each group, with its number of examples.
    status, text, _ = run_main([path, *FAST, "--group-by", "intent", "--num-proc", num_proc, "-f", "text"], capsys)
    table = [line.split() for line in text.splitlines()[2:-4]]
    assert table[0][:3] == ["group", "n", "type"]
    assert [(cells[0], cells[1], cells[2]) for cells in table[1::2]] == [("ALL", "40", "rouge1")] + [
        (label, str(labels.count(label)), "rouge1") for label in dict.fromkeys(labels)
    ]
    status, only, _ = run_main([path, *FAST, "--group-by", "intent", "-b", "-w", "3"], capsys)
    first = next(iter(result["groups"]))
    assert only.splitlines()[:2] == [
        f"ALL\t{result['update_rouge1']:.3f} {result['update_rougeL']:.3f}",
        f"{first}\t{result['groups'][first]['update_rouge1']:.3f} {result['groups'][first]['update_rougeL']:.3f}",
    ]


def test_group_by_a_csv_column_and_its_errors(tmp_path, capsys):
    data = tmp_path / "d.csv"
    data.write_text("source,reference,prediction,domain\nA b.,A b. C d.,A b. C d.,x\nA b.,A b. C d.,A b.,y\n")
    status, out, _ = run_main([data, "--group-by", "domain", "-b", "--rouge-types", "rouge1"], capsys)
    assert (status, out) == (0, "ALL\t0.5000\nx\t1.0000\ny\t0.0000\n")
    status, _, err = run_main([data, "--group-by", "topic"], capsys)
    assert status == 2 and "d.csv:1: the header row lacks the column(s) topic" in err
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text('{"source": "a", "reference": "b", "prediction": "c"}\n')
    status, _, err = run_main([jsonl, "--group-by", "topic"], capsys)
    assert status == 2 and "d.jsonl:1: missing field(s) topic" in err
    status, _, err = run_main(
        ["--sources", data, "--references", data, "--predictions", data, "--group-by", "x"], capsys
    )
    assert status == 2 and "--group-by reads a field of each example: give a JSONL or CSV FILE" in err


def test_compute_group_by_checks_its_labels():
    rows = read_jsonl("fruit_triples.jsonl")
    with pytest.raises(ValueError, match=r"group_by must have one label per example, got 2 for 3 examples"):
        compute(**columns(rows), group_by=["a", "b"])
    with pytest.raises(ValueError, match=r"group_by\[1\] must be a label .*got None"):
        compute(**columns(rows), group_by=["a", None, "a"])
    with pytest.raises(ValueError, match="needs use_aggregator=True"):
        compute(**columns(rows), group_by=["a", "b", "a"], use_aggregator=False)
    result = compute(**columns(rows), group_by=[2, 1, 2], n_bootstrap=20)
    assert list(result["groups"]) == [2, 1]
    assert result["groups"][1] == compute(**columns(rows[1:2]), n_bootstrap=20)


@pytest.mark.slow
def test_ids_groups_and_every_format_are_the_same_with_two_workers_reading_chunks(tmp_path, capsys):
    # 400 rows (about 1.2 MB): two workers parse the file's chunks of lines (files.chunks).
    rows = read_jsonl("iterater_triples.jsonl") * 10
    ids = [index if index % 3 == 0 else f"s{index}" if index % 3 == 2 else None for index in range(len(rows))]
    path = tmp_path / "ids.jsonl"
    path.write_text(
        "".join(
            json.dumps(
                {
                    **{k: v for k, v in row.items() if k != "id"},
                    **({} if i is None else {"id": i}),
                    "g": f"g{n // 7 % 3}",
                }
            )
            + "\n"
            for n, (row, i) in enumerate(zip(rows, ids))
        ),
        encoding="utf-8",
    )
    outputs = {}
    for num_proc in ("1", "2"):
        for output in (["-f", "json"], ["-f", "text"], ["-f", "markdown"], ["-b", "-w", "3"]):
            per_example = tmp_path / f"pe{num_proc}{output[0]}{output[-1]}.jsonl"
            argv = [path, *FAST, "--group-by", "g", "--num-proc", num_proc, "--per-example", per_example, *output]
            status, out, err = run_main(argv, capsys)
            assert status == 0, err
            outputs[num_proc, output[-1]] = out, per_example.read_text(encoding="utf-8")
    for key in ("json", "text", "markdown", "3"):
        assert outputs["2", key] == outputs["1", key], key
    lines = [json.loads(line) for line in outputs["2", "3"][1].splitlines()]
    assert [line["line"] for line in lines] == list(range(1, 401))
    assert [line.get("id") for line in lines] == [None if i is None else str(i) for i in ids]
    assert list(json.loads(outputs["2", "json"][0])["groups"]) == ["g0", "g1", "g2"]
