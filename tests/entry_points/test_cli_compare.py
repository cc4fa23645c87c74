"""`update-rouge compare` (the command line): JSON equal to `compare`, its input and output formats,
unusable options, short files named, identical output across processes and hash seeds."""

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_main, three_systems

from update_rouge import compare, compute

REPO = Path(__file__).resolve().parents[2]


# The command line.


def write_lines(path, texts):
    path.write_text("".join(text.replace("\n", " ") + "\n" for text in texts), encoding="utf-8")
    return path


def flat(data):
    """The texts with line breaks made spaces, as the text-file form of the command line reads them."""
    return {key: [text.replace("\n", " ") for text in texts] for key, texts in data.items()}


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


def test_cli_average_micro_prints_compares_micro_numbers(tmp_path, iterater, capsys):
    path = tmp_path / "systems.jsonl"
    with open(path, "w", encoding="utf-8") as handle:
        for source, reference, prediction in zip(iterater["sources"], iterater["references"], iterater["predictions"]):
            handle.write(json.dumps({"source": source, "reference": reference, "base": source, "model": prediction}))
            handle.write("\n")
    argv = ["compare", path, "--system", "base", "--system", "model", "--average", "micro", "--n-bootstrap", "300"]
    status, out, err = run_main([*argv, "--output-format", "json"], capsys)
    assert status == 0, err
    systems = {"base": iterater["sources"], "model": iterater["predictions"]}
    expected = compare(
        iterater["sources"],
        iterater["references"],
        systems,
        "base",
        average="micro",
        n_bootstrap=300,
        return_signature=True,
    )
    assert json.loads(out) == expected
    assert "|agg:micro|" in expected["signature"]
    assert (
        expected["model"]["update_rouge1"]
        != compare(iterater["sources"], iterater["references"], systems, "base", n_bootstrap=300)["model"][
            "update_rouge1"
        ]
    )
    status, text, _ = run_main(argv, capsys)
    assert status == 0
    assert text.startswith("Micro F1 (from counts summed over the examples) with 95% percentile bootstrap intervals")
    assert text.splitlines()[-1] == expected["signature"]
    # Every table names the value "micro", never "mean": it is not a mean over examples.
    assert text.splitlines()[3].split()[:4] == ["micro", "interval", "delta", "p"]
    tables = {form: run_main([*argv, "--output-format", form], capsys)[1] for form in ("markdown", "latex", "csv")}
    assert "| update_rouge1 micro [interval] | delta | p |" in tables["markdown"]
    assert " & micro & $\\Delta$ & $p$ & micro & " in tables["latex"]
    assert tables["csv"].splitlines()[0].split(",")[:5] == ["system", "baseline", "type", "micro", "low"]
    assert "mean" not in tables["markdown"] + tables["latex"] + tables["csv"].splitlines()[0]


def test_cli_formats_print_the_table_and_signature(tmp_path, iterater, capsys):
    data = flat(iterater)
    sources = write_lines(tmp_path / "src.txt", data["sources"])
    references = write_lines(tmp_path / "ref.txt", data["references"])
    base = write_lines(tmp_path / "base.txt", data["sources"])
    model = write_lines(tmp_path / "model.txt", data["predictions"])
    common = [
        "compare",
        "--sources",
        sources,
        "--references",
        references,
        "--system",
        f"a_&b={base}",
        "--system",
        f"model={model}",
        "--rouge-types",
        "rouge1",
    ]
    status, text, _ = run_main(common, capsys)
    assert status == 0
    rows = text.splitlines()
    assert rows[0].startswith("Mean F1 with 95% percentile bootstrap intervals (1000 resamples); paired bootstrap")
    assert "(1 comparison per type, not adjusted); * p < 0.05." in rows[0]
    assert rows[4].split()[:2] == ["a_&b", "(baseline)"]
    assert rows[5].split() == ["model", "0.5087", "[0.4629,", "0.5603]", "+0.5087", "0.0010*"]
    assert rows[-1].startswith("refs:1|seg:") and rows[-1].endswith("|test:paired-bs|correction:none|comparisons:1")
    _, markdown, _ = run_main(common + ["--output-format", "markdown"], capsys)
    assert "| model | 0.5087 [0.4629, 0.5603] | +0.5087 | 0.0010* |" in markdown.splitlines()
    _, latex, _ = run_main(common + ["--output-format", "latex"], capsys)
    assert r"a\_\&b (baseline) & 0.0000 [0.0000, 0.0000] &  &  \\" in latex.splitlines()
    _, table, _ = run_main(common + ["--output-format", "csv", "--level", "0.0005"], capsys)
    records = list(csv.DictReader(io.StringIO(table)))
    assert [(r["system"], r["type"], r["p_value"], r["significant"]) for r in records] == [
        ("a_&b", "update_rouge1", "", ""),
        ("model", "update_rouge1", repr(1 / 1001), "False"),
    ]
    # The baseline scores 0 on every example, so the delta's interval is the model's own interval.
    assert [round(float(records[1][key]), 4) for key in ("delta", "delta_low", "delta_high")] == [
        0.5087,
        0.4629,
        0.5603,
    ]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--system", "a=x.txt", "--system", "b=y.txt"], "give a JSONL or CSV FILE, or --sources and --references"),
        (["--sources", "S", "--references", "R", "--system", "a"], "give NAME=FILE"),
        (["--sources", "S", "--references", "R", "--system", "a=1", "--system", "a=2"], "--system a is given twice"),
        (
            ["--sources", "S", "--references", "R", "--system", "a=1", "--baseline", "b"],
            "baseline 'b' is not one of the systems",
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
