"""`update-rouge compare` (the command line): JSON equal to `compare`, its input layouts, unusable
options, short files named, identical output across processes and hash seeds. The tables it prints
(text, Markdown, LaTeX, CSV) are comparison.report's: entry_points/test_comparison_report.py."""

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import flat, run_main, three_systems, write_lines

from update_rouge import compare, compute

REPO = Path(__file__).resolve().parents[2]


# The command line.


@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_cli_json_equals_compare(tmp_path, iterater, capsys, method):
    data = flat(iterater)
    systems = three_systems(data)
    files = {name: write_lines(tmp_path / f"{name}.txt", texts) for name, texts in systems.items()}
    sources = write_lines(tmp_path / "src.txt", data["sources"])
    references = write_lines(tmp_path / "ref.txt", data["references"])
    argv = [
        "compare",
        "--sources",
        sources,
        "--references",
        references,
        "--baseline",
        "source",
        "--method",
        method,
        "--correction",
        "holm",
        "--n-trials",
        "3000",
        "--output-format",
        "json",
        "--per-example",
        tmp_path / "scores.jsonl",
    ]
    argv += [part for name, path in files.items() for part in ("--system", f"{name}={path}")]
    status, out, err = run_main(argv, capsys)
    assert status == 0, err
    expected = compare(
        data["sources"],
        data["references"],
        systems,
        "source",
        method=method,
        correction="holm",
        n_trials=3000,
        return_signature=True,
    )
    assert json.loads(out) == expected
    lines = [json.loads(line) for line in (tmp_path / "scores.jsonl").read_text().splitlines()]
    per_example = compute(data["sources"], data["predictions"], data["references"], use_aggregator=False)
    assert [line["line"] for line in lines] == list(range(1, 41))
    assert [line["scores"]["model"]["update_rouge2"] for line in lines] == per_example["update_rouge2"]
    assert all(line["scores"]["oracle"]["update_rouge1"] == 1.0 for line in lines)


def test_cli_jsonl_with_one_column_per_system_and_file_after_rouge_types(tmp_path, iterater, capsys):
    path = tmp_path / "systems.jsonl"
    with open(path, "w", encoding="utf-8") as handle:
        for source, reference, prediction in zip(iterater["sources"], iterater["references"], iterater["predictions"]):
            handle.write(
                json.dumps({"source": source, "reference": reference, "base": source, "model": prediction}) + "\n"
            )
    argv = [
        "compare",
        "--rouge-types",
        "rouge1",
        "rougeL",
        path,
        "--system",
        "base",
        "--system",
        "mine=model",
        "--output-format",
        "json",
    ]
    status, out, err = run_main(argv, capsys)
    assert status == 0, err
    expected = compare(
        iterater["sources"],
        iterater["references"],
        {"base": iterater["sources"], "mine": iterater["predictions"]},
        "base",
        rouge_types=["rouge1", "rougeL"],
        return_signature=True,
    )
    assert json.loads(out) == expected


@pytest.mark.parametrize("how", ["no input named", "-", "csv"])
def test_cli_reads_standard_input_as_update_rouge_score_does(iterater, capsys, monkeypatch, how):
    rows = zip(iterater["sources"], iterater["references"], iterater["predictions"])
    if how == "csv":
        text = io.StringIO()
        writer = csv.writer(text)
        writer.writerow(["source", "reference", "base", "model"])
        writer.writerows((source, reference, source, prediction) for source, reference, prediction in rows)
        data = text.getvalue()
    else:
        data = "".join(json.dumps({"source": s, "reference": r, "base": s, "model": p}) + "\n" for s, r, p in rows)
    # cat systems.jsonl | update-rouge compare --system base --system model
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode("utf-8")), encoding="utf-8"))
    argv = ["compare", "--system", "base", "--system", "model", "--n-bootstrap", "50", "-f", "json"]
    argv += ["-"] if how == "-" else ["--input-format", "csv"] if how == "csv" else []
    status, out, err = run_main(argv, capsys)
    assert status == 0, err
    expected = compare(
        iterater["sources"],
        iterater["references"],
        {"base": iterater["sources"], "model": iterater["predictions"]},
        "base",
        n_bootstrap=50,
        return_signature=True,
    )
    assert json.loads(out) == expected


def test_cli_with_no_input_and_a_terminal_says_what_to_give(capsys, monkeypatch):
    terminal = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
    monkeypatch.setattr(terminal, "isatty", lambda: True)
    monkeypatch.setattr(sys, "stdin", terminal)
    status, out, err = run_main(["compare", "--system", "a=x.txt", "--system", "b=y.txt"], capsys)
    assert status == 2 and out == ""
    assert err.splitlines()[-1] == (
        "update-rouge compare: error: give a JSONL or CSV FILE, or --sources and --references with "
        "--system NAME=FILE, or pipe JSONL to standard input"
    )


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--system", "a=x.txt", "--system", "b=y.txt"], "give a JSONL or CSV FILE, or --sources and --references"),
        (["--sources", "S", "--references", "R", "--system", "a"], "give NAME=FILE"),
        (["--sources", "S", "--references", "R", "--system", "a=1", "--system", "a=2"], "--system a is given twice"),
        (
            ["--sources", "S", "--references", "R", "--system", "a=1", "--system", "c=2", "--baseline", "b"],
            "--baseline b is not one of the systems ('a', 'c'); instead: --baseline a, or --baseline c",
        ),
        (
            ["--sources", "S", "--references", "R", "--system", "a=1", "--system", "b=2", "--level", "2"],
            "--level must be strictly between 0 and 1",
        ),
    ],
)
def test_cli_unusable_options_exit_2(argv, message, capsys):
    status, _, err = run_main(["compare", *argv], capsys)
    assert status == 2
    assert message in err


@pytest.mark.parametrize("protocol", ["fruit", "editeval"])
def test_cli_refuses_a_bootstrap_median_protocol_in_one_line_that_it_can_follow(tmp_path, iterater, protocol, capsys):
    path = tmp_path / "systems.jsonl"
    rows = zip(iterater["sources"], iterater["references"], iterater["predictions"])
    path.write_text("".join(json.dumps({"source": s, "reference": r, "model": p}) + "\n" for s, r, p in rows))
    argv = ["compare", path, "--system", "model", "--system", "source", "--protocol", protocol]
    status, out, err = run_main(argv, capsys)
    assert status == 2 and out == ""
    message = err.strip().splitlines()[-1]
    assert message == (
        f"update-rouge compare: error: --protocol {protocol} has no paired test: its corpus value is a bootstrap "
        "median, not a mean; instead: leave out --protocol, or --protocol autometrics"
    )


def test_cli_with_protocol_autometrics_equals_compare(tmp_path, iterater, capsys):
    path = tmp_path / "systems.jsonl"
    rows = zip(iterater["sources"], iterater["references"], iterater["predictions"])
    path.write_text(
        "".join(json.dumps({"source": s, "reference": r, "base": s, "model": p}) + "\n" for s, r, p in rows)
    )
    argv = ["compare", path, "--system", "base", "--system", "model", "--protocol", "autometrics", "-f", "json"]
    status, out, err = run_main(argv, capsys)
    assert status == 0, err
    expected = compare(
        iterater["sources"],
        iterater["references"],
        {"base": iterater["sources"], "model": iterater["predictions"]},
        "base",
        protocol="autometrics",
        return_signature=True,
    )
    assert json.loads(out) == expected
    assert "|protocol:autometrics@0e97645|" in expected["signature"]
    # autometrics' rouge1 per example is ours (tests/unit/test_protocols.py): so is its mean.
    ours = compute(iterater["sources"], iterater["predictions"], iterater["references"])
    assert expected["model"]["update_rouge1"] == ours["update_rouge1"]
    assert expected["model"]["update_rougeLsum"] != ours["update_rougeLsum"]  # the space join


def test_cli_names_a_short_system_file(tmp_path, capsys):
    sources = write_lines(tmp_path / "src.txt", ["a.", "b.", "c."])
    references = write_lines(tmp_path / "ref.txt", ["a. x.", "b. y.", "c. z."])
    short = write_lines(tmp_path / "short.txt", ["a. x.", "b."])
    status, _, err = run_main(
        [
            "compare",
            "--sources",
            sources,
            "--references",
            references,
            "--system",
            f"base={sources}",
            "--system",
            f"short={short}",
        ],
        capsys,
    )
    assert status == 2
    assert f"{sources}:3: has more lines than {short} (2 lines)" in err


def environment(hash_seed="0"):
    return dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(REPO))


@pytest.mark.slow
def test_cli_output_is_identical_across_processes_and_hash_seeds(tmp_path, iterater):
    path = tmp_path / "systems.jsonl"
    with open(path, "w", encoding="utf-8") as handle:
        for source, reference, prediction in zip(iterater["sources"], iterater["references"], iterater["predictions"]):
            handle.write(
                json.dumps(
                    {"source": source, "reference": reference, "base": source, "model": prediction, "oracle": reference}
                )
                + "\n"
            )
    argv = [
        sys.executable,
        "-m",
        "update_rouge",
        "compare",
        str(path),
        "--system",
        "base",
        "--system",
        "model",
        "--system",
        "oracle",
        "--method",
        "randomization",
        "--correction",
        "holm",
        "--n-trials",
        "2000",
        "--output-format",
        "json",
    ]
    outputs = set()
    for hash_seed in ("0", "1", "random"):
        completed = subprocess.run(
            argv, capture_output=True, text=True, timeout=300, env=environment(hash_seed), cwd=REPO
        )
        assert completed.returncode == 0, completed.stderr
        outputs.add(completed.stdout)
    assert len(outputs) == 1
    expected = compare(
        iterater["sources"],
        iterater["references"],
        three_systems(iterater),
        "source",
        method="randomization",
        correction="holm",
        n_trials=2000,
        return_signature=True,
    )
    renamed = {
        "base": expected["source"],
        "model": expected["model"],
        "oracle": expected["oracle"],
        "signature": expected["signature"],
    }
    assert json.loads(outputs.pop()) == renamed
