"""comparison.report: a comparison as the tables `update-rouge compare` prints (text, Markdown,
LaTeX, CSV): the method stated above the table, the signature under it, names escaped, the value
named "micro" under ``--average micro``, the significance mark at ``--level``."""

import csv
import io
import json

from conftest import flat, run_main, write_lines

from update_rouge import compare


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
