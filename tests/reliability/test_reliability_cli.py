"""The command line never loses a file, stops cleanly on signals, and checks its limits first.

One test per case of docs/guarantees.md for ``update-rouge`` and ``update-rouge compare``
(``tests/reliability/test_files.py``, ``test_jsonl_files.py``, ``test_csv_files.py``,
``test_text_files.py``, ``test_files_lines.py`` and ``test_outputs.py`` cover the readers and
``files.outputs`` on their own).
"""

import csv
import itertools
import json
import os
import stat
import subprocess
import sys
import threading
from importlib import import_module
from pathlib import Path

import pytest
from conftest import DATA_DIR, read_jsonl, run_main

import update_rouge
from update_rouge import compute
from update_rouge.bootstrap import MAX_N_BOOTSTRAP
from update_rouge.cli import main
from update_rouge.lcs_limits import (
    DEFAULT_MAX_PYTHON_LCS_CELLS,
    MAX_PYTHON_LCS_CELLS_VARIABLE,
    MAX_WLCS_CELLS_VARIABLE,
    LcsTableTooLarge,
)

REPO = Path(__file__).resolve().parents[2]
FRUIT = DATA_DIR / "fruit_triples.jsonl"
UNREADABLE = '{"source": "not json\n'
SYSTEMS = ["--system", "system=prediction", "--system", "copy=source"]


def one_line(text):
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def fruit_columns():
    rows = read_jsonl("fruit_triples.jsonl")
    return {
        "sources": [r["source"] for r in rows],
        "predictions": [r["prediction"] for r in rows],
        "references": [r["reference"] for r in rows],
    }


# 1. Data loss: an output that is an input, an empty name, links, special files, modes.


@pytest.mark.parametrize("kind", ["same name", "./name", "symbolic link", "hard link", "text file", "compare"])
def test_an_output_that_is_an_input_is_refused_before_reading(tmp_path, capsys, monkeypatch, kind):
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "data.jsonl"
    data.write_text(UNREADABLE)  # reading it would fail with data.jsonl:1
    output = "data.jsonl"
    argv = ["data.jsonl", "--per-example"]
    if kind == "./name":
        output = "./data.jsonl"
    elif kind == "symbolic link":
        os.symlink(data, tmp_path / "link.jsonl")
        output = "link.jsonl"
    elif kind == "hard link":
        os.link(data, tmp_path / "hard.jsonl")
        output = "hard.jsonl"
    elif kind == "text file":
        for name in ("s.txt", "r.txt", "p.txt"):
            (tmp_path / name).write_text("a.\n")
        argv = ["--sources", "s.txt", "--references", "r.txt", "--predictions", "p.txt", "--per-example"]
        output = "r.txt"
    elif kind == "compare":
        argv = ["compare", "data.jsonl", *SYSTEMS, "--per-example"]
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    status, out, err = run_main([*argv, output], capsys)
    assert status == 2
    assert "refusing to overwrite" in one_line(err) and output in err
    assert out == ""
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == before


def fruit_csv(path):
    """FRUIT's three examples as a CSV file at ``path``."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["source", "reference", "prediction"])
        writer.writerows(zip(*(fruit_columns()[key] for key in ("sources", "references", "predictions"))))


@pytest.mark.parametrize("command", ["score", "compare"])
@pytest.mark.parametrize("how", ["no input named", "-", "csv"])
def test_the_file_behind_standard_input_is_never_an_output(tmp_path, command, how):
    data = tmp_path / ("data.csv" if how == "csv" else "data.jsonl")
    if how == "csv":
        fruit_csv(data)
    else:
        data.write_bytes(FRUIT.read_bytes())
    before = data.read_bytes()
    argv = [] if command == "score" else ["compare", *SYSTEMS]
    argv += ["-"] if how == "-" else ["--input-format", "csv"] if how == "csv" else []
    with open(data, "rb") as stdin:  # update-rouge ... --per-example data.jsonl < data.jsonl
        completed = subprocess.run(
            [sys.executable, "-m", "update_rouge", *argv, "--per-example", data.name],
            stdin=stdin,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
            timeout=300,
        )
    prog = "update-rouge" if command == "score" else "update-rouge compare"
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr == f"{prog}: error: the output {data.name} is the input <stdin>: refusing to overwrite it\n"
    assert data.read_bytes() == before and os.listdir(tmp_path) == [data.name]


# A run that fails once the per-example file is open (a bad line, the LCS limit, a lone surrogate,
# a protocol's references, an interrupt) leaves an existing one byte for byte as it was, and no temporary file.
OLD_SCORES = b'{"line": 1, "old": true}\n'
SMALL = {"source": "", "reference": "a b.", "prediction": "a c."}
LONG_ROW = {"source": "", "reference": " ".join(["w"] * 20), "prediction": " ".join(["w"] * 20)}
TWO_REFERENCES = {"source": "", "reference": ["a b.", "a c."], "prediction": "a c."}


def interrupted_after_one(function):
    """``function``, giving an iterable, made to raise ``KeyboardInterrupt`` (Ctrl-C) after its
    first item; a function giving nothing, on its second call."""
    calls = []

    def interrupted(*args):
        if calls:
            raise KeyboardInterrupt
        calls.append(args)
        result = function(*args)
        return result if result is None else itertools.chain(itertools.islice(result, 1), interrupt())

    def interrupt():
        raise KeyboardInterrupt
        yield

    return interrupted


def mid_file_failure(tmp_path, monkeypatch, failure, command):
    """The data file, the options and the message of ``failure`` at line 3, after lines 1 and 2
    (one chunk each in ``score``) were scored and written to the temporary file."""
    monkeypatch.setattr("update_rouge.cli.score.CHUNK_LINES", 1)
    rows, options = [json.dumps(SMALL)] * 3, []
    if failure == "bad line":
        rows[2], message = UNREADABLE.strip(), "data.jsonl:3: "
    elif failure == "LCS limit":
        rows[2], options = json.dumps(LONG_ROW), ["--engine", "python", "--rouge-types", "rougeL"]
        monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "399")
        message = "rougeL of 20 x 20 tokens is more than the LCS limit of 399 cells"
    elif failure == "lone surrogate":  # refused where the texts are checked, with the tokens
        rows[2], message = json.dumps({**SMALL, "reference": "a \ud800 b."}), "contains a lone surrogate (U+D800)"
    elif failure == "references":
        rows[2], options = json.dumps(TWO_REFERENCES), ["--protocol", "editeval"]
        message = "error: --protocol editeval needs the same number of references in every example"
    else:
        module = import_module(f"update_rouge.cli.{command}")
        name = "write_per_example" if command == "score" else "per_example_lines"
        monkeypatch.setattr(module, name, interrupted_after_one(getattr(module, name)))
        message = "interrupted by SIGINT: stopped; no existing output file was changed"
    data = tmp_path / "data.jsonl"
    data.write_text("".join(row + "\n" for row in rows))
    return data, options, message


@pytest.mark.parametrize("failure", ["bad line", "LCS limit", "lone surrogate", "references", "interrupt"])
def test_a_failure_after_the_output_is_opened_leaves_it_as_it_was(tmp_path, capsys, monkeypatch, failure):
    data, options, message = mid_file_failure(tmp_path, monkeypatch, failure, "score")
    output = tmp_path / "per.jsonl"
    output.write_bytes(OLD_SCORES)
    status, out, err = run_main([data, *options, "--num-proc", "1", "--per-example", output], capsys)
    assert status == (130 if failure == "interrupt" else 2) and out == ""
    assert message in one_line(err)
    assert output.read_bytes() == OLD_SCORES and sorted(os.listdir(tmp_path)) == ["data.jsonl", "per.jsonl"]


@pytest.mark.parametrize("failure", ["bad line", "LCS limit", "lone surrogate", "interrupt"])
def test_a_failure_in_compare_leaves_the_output_as_it_was(tmp_path, capsys, monkeypatch, failure):
    data, options, message = mid_file_failure(tmp_path, monkeypatch, failure, "compare")
    output = tmp_path / "per.jsonl"
    output.write_bytes(OLD_SCORES)
    argv = ["compare", data, "--system", "a=prediction", "--system", "b=reference", *options]
    status, out, err = run_main([*argv, "--per-example", output], capsys)
    assert status == (130 if failure == "interrupt" else 2) and out == ""
    assert message in one_line(err)
    assert output.read_bytes() == OLD_SCORES and sorted(os.listdir(tmp_path)) == ["data.jsonl", "per.jsonl"]


def test_an_empty_output_name_is_refused(tmp_path, capsys):
    status, out, err = run_main([FRUIT, "--per-example", ""], capsys)
    assert status == 2 and "empty" in one_line(err) and out == ""
    status, _, err = run_main(["compare", FRUIT, *SYSTEMS, "--per-example", ""], capsys)
    assert status == 2 and "empty" in one_line(err)


def test_dash_writes_the_per_example_lines_to_standard_output(capsys):
    status, out, _ = run_main([FRUIT, "--per-example", "-"], capsys)
    assert status == 0
    lines = out.splitlines(keepends=True)
    per_example = [json.loads(line) for line in lines[:3]]
    assert [row["line"] for row in per_example] == [1, 2, 3]
    expected = compute(**fruit_columns(), use_aggregator=False)
    assert [row["update_rouge1"] for row in per_example] == expected["update_rouge1"]
    assert json.loads("".join(lines[3:])) == compute(**fruit_columns())


def test_a_symbolic_link_is_written_through_and_stays_a_link(tmp_path, capsys):
    target, link = tmp_path / "target.jsonl", tmp_path / "link.jsonl"
    target.write_text("old\n")
    os.symlink(target, link)
    status, _, _ = run_main([FRUIT, "--per-example", link], capsys)
    assert status == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert [json.loads(line)["line"] for line in target.read_text().splitlines()] == [1, 2, 3]


def test_a_fifo_is_written_in_place(tmp_path, capsys):
    fifo = tmp_path / "scores.fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    status, _, _ = run_main([FRUIT, "--per-example", fifo], capsys)
    reader.join(timeout=60)
    assert status == 0
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [json.loads(line)["line"] for line in received[0].splitlines()] == [1, 2, 3]
    assert [path.name for path in tmp_path.iterdir()] == ["scores.fifo"]


@pytest.mark.parametrize("command", ["score", "compare"])
def test_an_existing_output_keeps_its_mode(tmp_path, capsys, command):
    output = tmp_path / "scores.jsonl"
    output.write_text("old\n")
    output.chmod(0o600)
    argv = [FRUIT] if command == "score" else ["compare", FRUIT, *SYSTEMS]
    status, _, _ = run_main([*argv, "--per-example", output], capsys)
    assert status == 0
    assert stat.S_IMODE(os.stat(output).st_mode) == 0o600
    assert output.read_text() != "old\n"


def test_the_per_example_file_is_complete_before_the_bootstrap_runs(tmp_path, capsys, monkeypatch):
    output = tmp_path / "scores.jsonl"

    def bootstrap_fails(self):
        raise MemoryError("the bootstrap ran out of memory")

    monkeypatch.setattr("update_rouge.corpus.Corpus.result", bootstrap_fails)
    with pytest.raises(MemoryError):
        main([str(FRUIT), "--per-example", str(output)])
    expected = compute(**fruit_columns(), use_aggregator=False)
    written = [json.loads(line) for line in output.read_text().splitlines()]
    assert [row["update_rougeLsum"] for row in written] == expected["update_rougeLsum"]


# 2. Signals: tests/reliability/test_signals.py.


# 3. Bounds checked before scoring.


def test_n_bootstrap_beyond_its_bound_is_refused_before_reading(tmp_path, capsys):
    data = tmp_path / "data.jsonl"
    data.write_text(UNREADABLE)
    status, _, err = run_main([data, "--n-bootstrap", "1000000000"], capsys)
    assert status == 2
    assert "update-rouge: error: --n-bootstrap must be at most 10,000,000" in one_line(err)
    status, _, err = run_main(["compare", data, *SYSTEMS, "--n-bootstrap", "1000000000"], capsys)
    assert status == 2 and "update-rouge compare: error: --n-bootstrap must be at most" in one_line(err)
    with pytest.raises(ValueError, match="n_bootstrap must be at most 10,000,000"):
        compute(sources=["a."], predictions=["b."], references=["c."], n_bootstrap=MAX_N_BOOTSTRAP + 1)


def test_an_absurd_num_proc_is_capped_and_said_once(capsys):
    status, out, err = run_main([FRUIT, "--num-proc", 10**30], capsys)
    assert status == 0
    assert f"--num-proc {10**30}: using 1 worker process(es)" in one_line(err)
    assert json.loads(out) == compute(**fruit_columns())
    first = {key: values[:1] for key, values in fruit_columns().items()}
    assert compute(**first, num_proc=10**30) == compute(**first)  # one example: no worker at all


# 4. Size limits for one huge addition.


@pytest.mark.parametrize("engine", ["python", "auto", "rust", "rouge-score"])
def test_the_lcs_limit_names_the_line_the_variable_and_the_example(tmp_path, capsys, monkeypatch, engine):
    rows = [{"source": "", "reference": "a b.", "prediction": "a c."}] * 2
    rows.append({"source": "", "reference": " ".join(["w"] * 20), "prediction": " ".join(["w"] * 20)})
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    # 400 cells, at 12 each on the accelerator and 4,000 on rouge-score (lcs_limits.CELL_COSTS); "auto"
    # hands what the accelerator refuses to the python engine, which refuses it at 400. rouge-score's
    # limit lets lines 1 and 2 (2 x 2 tokens, 16,000) pass.
    limit = 1_599_999 if engine == "rouge-score" else 399
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, str(limit))
    status, _, err = run_main([data, "--engine", engine, "--rouge-types", "rougeL"], capsys)
    assert status == 2
    cost = {"rust": " (a cost of 4,800 cells)", "rouge-score": " (a cost of 1,600,000 cells)"}.get(engine, "")
    assert f"line 3: rougeL of 20 x 20 tokens{cost} is more than the LCS limit of {limit:,} cells" in one_line(err)
    assert MAX_PYTHON_LCS_CELLS_VARIABLE in err
    columns = {
        key: [row[name] for row in rows]
        for key, name in (("sources", "source"), ("references", "reference"), ("predictions", "prediction"))
    }
    # rougeLsum (a default type) counts its 400 cells at 8 each (lcs_limits.CELL_COSTS) and its one line
    # pair at 200 (lcs_limits.PAIR_CELLS) on the python engine: 3,400.
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "3399")
    with pytest.raises(
        LcsTableTooLarge, match=r"^example 2: rougeLsum of 20 x 20 tokens with their line pairs \(a cost of 3,400"
    ):
        compute(**columns, engine="python")
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "3400")
    assert compute(**columns, engine="python")["update_rougeLsum"] == pytest.approx((0.5 + 0.5 + 1) / 3)


def test_the_rouge_w_limit_names_the_variable(monkeypatch):
    monkeypatch.setenv(MAX_WLCS_CELLS_VARIABLE, "15")
    texts = {"sources": ["", ""], "references": ["a b.", "a b c d."], "predictions": ["a b.", "a b c d."]}
    with pytest.raises(LcsTableTooLarge, match=f"^example 1: ROUGE-W .* 4 x 4 tokens.*{MAX_WLCS_CELLS_VARIABLE}"):
        compute(**texts, rouge_types=["rougeW"])
    monkeypatch.setenv(MAX_WLCS_CELLS_VARIABLE, "16")
    raised = compute(**texts, rouge_types=["rougeW"])
    monkeypatch.delenv(MAX_WLCS_CELLS_VARIABLE)
    assert raised == compute(**texts, rouge_types=["rougeW"])


def test_the_default_limit_refuses_half_a_million_words_each_but_not_150000(monkeypatch):
    assert 150_000 * 150_000 < DEFAULT_MAX_PYTHON_LCS_CELLS < 500_000 * 500_000
    words = [f"w{index % 5000}" for index in range(500_000)]

    def no_lcs(*arguments):
        raise AssertionError("the LCS was computed before the refusal")

    # Refused after tokenizing, before any LCS: proven by the work done, not by a clock.
    monkeypatch.setattr(update_rouge.engines, "summary_lcs_hits", no_lcs)
    monkeypatch.setattr(update_rouge.engines, "lcs_length", no_lcs)
    with pytest.raises(LcsTableTooLarge, match="example 0: rougeLsum of 500,000 x 500,000 tokens"):
        compute(sources=[""], references=[" ".join(words)], predictions=[" ".join(reversed(words))], engine="python")


# 5. Output into a closed pipe.


@pytest.mark.parametrize(
    "argv",
    [
        [FRUIT],
        ["compare", FRUIT, *SYSTEMS],
        pytest.param(["--help"], marks=pytest.mark.slow),
        pytest.param(["compare", "--help"], marks=pytest.mark.slow),
    ],
)
def test_a_closed_standard_output_ends_quietly(argv):
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "update_rouge", *map(str, argv)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
            timeout=300,
        )
    finally:
        os.close(write_end)
    assert completed.stderr == ""
    assert completed.returncode == (0 if "--help" in argv else 141)
