"""``deletions=True`` at the command line and in ``update_rouge.compare`` (issue 53): the score
command's tables, ``--score-only``, groups and per-example file, and the comparison's paired
tests in every format, each number equal to ``compute(..., deletions=True)``'s. The deletion
scores themselves are checked against the definition in tests/agreement/test_deletions.py."""

import csv
import io
import json

import pytest
from conftest import read_jsonl, run_main

from update_rouge import compare, compute

FRUIT = read_jsonl("fruit_triples.jsonl")
# A fourth example where neither side deletes anything: its deletions score 1.0 (_both_kept).
KEPT = {
    "id": "kept",
    "source": "Ann plays the piano.",
    "reference": "Ann plays the piano. She plays every day.",
    "prediction": "Ann plays the piano. She plays daily.",
}
ROWS = [*FRUIT, KEPT]
SOURCES = [row["source"] for row in ROWS]
PREDICTIONS = [row["prediction"] for row in ROWS]
REFERENCES = [row["reference"] for row in ROWS]
TYPES = ["rouge1", "rougeLsum"]
OPTIONS = {"rouge_types": TYPES, "n_bootstrap": 50, "deletions": True}
FLAGS = ["--rouge-types", *TYPES, "--n-bootstrap", "50", "--deletions"]


def write_jsonl(tmp_path, rows=ROWS):
    path = tmp_path / "examples.jsonl"
    path.write_text("".join(json.dumps({**row, "g": row["id"][:5]}) + "\n" for row in rows))
    return path


def write_csv(tmp_path):
    path = tmp_path / "examples.csv"
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, ["source", "reference", "prediction"], extrasaction="ignore")
        writer.writeheader()
        writer.writerows(ROWS)
    return path


def row_cells(values, key, width=4):
    """The F, interval, P and R cells of ``key`` as the tables format them."""
    return [
        f"{values[key]:.{width}f}",
        f"[{values[f'{key}_low']:.{width}f},",
        f"{values[f'{key}_high']:.{width}f}]",
        f"{values[f'{key}_precision']:.{width}f}",
        f"{values[f'{key}_recall']:.{width}f}",
    ]


def test_the_text_table_has_a_del_row_per_type_with_computes_numbers(tmp_path, capsys):
    want = compute(SOURCES, PREDICTIONS, REFERENCES, **OPTIONS)
    status, text, err = run_main(["score", write_jsonl(tmp_path), *FLAGS, "-f", "text"], capsys)
    assert (status, err) == (0, "")
    lines = text.splitlines()
    assert lines[0].endswith("; the del rows: the same for what the texts delete from their sources.")
    rows = [line.split() for line in lines[3:7]]
    assert rows[0] == ["rouge1", *row_cells(want, "update_rouge1")]
    assert rows[1] == ["rougeLsum", *row_cells(want, "update_rougeLsum")]
    assert rows[2] == ["del", "rouge1", *row_cells(want, "update_del_rouge1")]
    assert rows[3] == ["del", "rougeLsum", *row_cells(want, "update_del_rougeLsum")]
    # The FRUIT deletions' mean rouge1 F is 0.5555 (tests/agreement/test_deletions.py's
    # definition); the kept example adds a 1.0: (3 x 0.5555 + 1) / 4.
    assert rows[2][2] == "0.6666"
    # The fourth example: both sides add, neither deletes.
    assert want["_both_empty"] == 0 and want["_both_kept"] == 1
    assert lines[7:9] == [
        "",
        "Neither side adds anything in 0 of the 4 examples; neither deletes anything in 1 "
        "(each such example scores 1.0).",
    ]
    assert lines[9] == "" and "|del:sentences|" in lines[10]


def test_the_markdown_table_has_the_del_rows_of_every_group(tmp_path, capsys):
    argv = ["score", write_jsonl(tmp_path), *FLAGS, "-f", "markdown", "--group-by", "g", "-w", "3"]
    status, markdown, err = run_main(argv, capsys)
    assert (status, err) == (0, "")
    rows = [line for line in markdown.splitlines() if line.startswith("| kept | 1 | ")]
    alone = compute(SOURCES[3:], PREDICTIONS[3:], REFERENCES[3:], **OPTIONS)
    assert rows[2:] == [f"| kept | 1 | del {t} | 1.000 | [1.000, 1.000] | 1.000 | 1.000 |" for t in TYPES]
    assert alone["update_del_rouge1"] == 1.0 and alone["_both_kept"] == 1
    assert rows[0].startswith(f"| kept | 1 | rouge1 | {alone['update_rouge1']:.3f} | ")


def test_score_only_prints_the_deletions_after_the_additions(tmp_path, capsys):
    want = compute(SOURCES, PREDICTIONS, REFERENCES, **OPTIONS)
    keys = ["update_rouge1", "update_rougeLsum", "update_del_rouge1", "update_del_rougeLsum"]
    status, only, err = run_main(["score", write_jsonl(tmp_path), *FLAGS, "-b", "-w", "6"], capsys)
    assert (status, err) == (0, "")
    assert only == "".join(f"{want[key]:.6f}\n" for key in keys)
    status, grouped, _ = run_main(["score", write_jsonl(tmp_path), *FLAGS, "-b", "--group-by", "g"], capsys)
    fruit = compute(SOURCES[:3], PREDICTIONS[:3], REFERENCES[:3], **OPTIONS)
    assert grouped.splitlines()[1] == "fruit\t" + " ".join(f"{fruit[key]:.4f}" for key in keys)
    kept = compute(SOURCES[3:], PREDICTIONS[3:], REFERENCES[3:], **OPTIONS)
    assert grouped.splitlines()[2] == f"kept\t{kept['update_rouge1']:.4f} {kept['update_rougeLsum']:.4f} 1.0000 1.0000"


@pytest.mark.parametrize("make_input", [write_jsonl, write_csv])
def test_each_per_example_line_carries_the_deletions_and_both_kept(make_input, tmp_path, capsys):
    out = tmp_path / "per_example.jsonl"
    argv = ["score", make_input(tmp_path), *FLAGS, "--confidence-level", "none", "--per-example", out, "-b"]
    assert run_main(argv, capsys)[0] == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    want = compute(SOURCES, PREDICTIONS, REFERENCES, **OPTIONS, use_aggregator=False)
    del_keys = [key for key in want if key.startswith("update_del_")]
    assert len(del_keys) == 6 and "_both_kept" in want
    for index, line in enumerate(lines):
        assert {key: line[key] for key in [*del_keys, "_both_kept"]} == {
            key: want[key][index] for key in [*del_keys, "_both_kept"]
        }
    assert [line["_both_kept"] for line in lines] == [False, False, False, True]
    assert lines[3]["update_del_rougeLsum_recall"] == 1.0 and lines[0]["update_del_rouge1"] == 0.0


SYSTEMS = {"source": SOURCES, "model": PREDICTIONS, "oracle": REFERENCES}


def paired(predictions, **options):
    """compute's paired result of ``predictions`` against the sources as baseline."""
    return compute(SOURCES, predictions, REFERENCES, baseline_predictions=SOURCES, **OPTIONS, **options)


@pytest.mark.parametrize("average", ["macro", "micro"])
def test_compare_gives_computes_paired_numbers_for_the_deletions(average):
    got = compare(SOURCES, REFERENCES, SYSTEMS, "source", **OPTIONS, average=average)
    for name in ("model", "oracle"):
        want = paired(SYSTEMS[name], average=average)
        keys = [key for key in got[name] if key.startswith("update_del_")]
        assert len(keys) == 2 * 7  # value, low, high, delta, delta_low, delta_high, p_value
        assert {key: got[name][key] for key in keys} == {key: want[key] for key in keys}
    # The baseline's entry is compute's on the baseline alone.
    alone = compute(SOURCES, SOURCES, REFERENCES, **OPTIONS, average=average)
    assert {key: got["source"][key] for key in keys if "_delta" not in key and "_p_value" not in key} == {
        key: alone[key] for key in keys if "_delta" not in key and "_p_value" not in key
    }


def test_holm_adjusts_the_deletions_apart_from_the_additions():
    raw = compare(SOURCES, REFERENCES, SYSTEMS, "source", **OPTIONS)
    holm = compare(SOURCES, REFERENCES, SYSTEMS, "source", **OPTIONS, correction="holm")
    without = compare(SOURCES, REFERENCES, SYSTEMS, "source", **{**OPTIONS, "deletions": False}, correction="holm")
    for key in ("update_rouge1_p_value", "update_del_rouge1_p_value", "update_del_rougeLsum_p_value"):
        # Holm over m = 2 systems, by hand: the smaller p doubled, the larger at least that.
        low, high = sorted(raw[name][key] for name in ("model", "oracle"))
        adjusted = sorted(holm[name][key] for name in ("model", "oracle"))
        assert adjusted == [min(1.0, 2 * low), max(min(1.0, 2 * low), high)]
    # The additions' numbers do not move with the deletions on.
    assert {key: holm["model"][key] for key in without["model"]} == without["model"]


@pytest.fixture
def systems_file(tmp_path):
    rows = [{**row, "model": row["prediction"], "oracle": row["reference"]} for row in ROWS]
    path = tmp_path / "systems.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def run_compare(path, capsys, *words):
    argv = ["compare", path, "--system", "source", "--system", "model", "--system", "oracle", *FLAGS, *words]
    status, out, err = run_main(argv, capsys)
    assert (status, err) == (0, "")
    return out


def test_compare_json_and_csv_hold_computes_paired_deletions(systems_file, capsys):
    got = json.loads(run_compare(systems_file, capsys, "-f", "json"))
    want = paired(PREDICTIONS)
    keys = [key for key in want if key.startswith("update_del_") and not key.endswith(("_precision", "_recall"))]
    assert {key: got["model"][key] for key in keys} == {key: want[key] for key in keys}
    assert "|del:sentences|" in got["signature"]
    rows = list(csv.DictReader(io.StringIO(run_compare(systems_file, capsys, "-f", "csv"))))
    row = next(row for row in rows if (row["system"], row["type"]) == ("model", "update_del_rouge1"))
    assert [float(row[c]) for c in ("mean", "low", "high", "delta", "p_value")] == [
        want[f"update_del_rouge1{suffix}"] for suffix in ("", "_low", "_high", "_delta", "_p_value")
    ]
    assert [row["type"] for row in rows[:4]] == [
        "update_rouge1",
        "update_rougeLsum",
        "update_del_rouge1",
        "update_del_rougeLsum",
    ]


@pytest.mark.parametrize("output_format", ["text", "markdown", "latex"])
def test_compare_tables_show_the_deletions_mean_interval_delta_and_p(systems_file, capsys, output_format):
    out = run_compare(systems_file, capsys, "-f", output_format)
    want = paired(PREDICTIONS)
    key = "update_del_rougeLsum"
    cells = [
        f"{want[key]:.4f}",
        f"[{want[f'{key}_low']:.4f}, {want[f'{key}_high']:.4f}]",
        f"{want[f'{key}_delta']:+.4f}",
        f"{want[f'{key}_p_value']:.4f}",
    ]
    model = next(line for line in out.splitlines() if line.lstrip("| ").startswith("model"))
    assert " ".join(cells[:2]) in model or "  ".join(cells[:2]) in model
    assert model.index(cells[2]) > model.index(cells[1]) and cells[3] in model[model.index(cells[2]) :]
    assert (key if output_format != "latex" else key.replace("_", r"\_")) in out
    assert "The update_del_ keys: the same for what the texts delete from their sources, tested apart" in out


def test_compares_per_example_file_carries_each_systems_deletions(systems_file, tmp_path, capsys):
    out = tmp_path / "per_example.jsonl"
    run_compare(systems_file, capsys, "--per-example", out)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    for name in ("model", "oracle"):
        want = compute(SOURCES, SYSTEMS[name], REFERENCES, **OPTIONS, use_aggregator=False)
        keys = [key for key in want if key.startswith("update_del_")] + ["_both_kept"]
        assert [{key: line["scores"][name][key] for key in keys} for line in lines] == [
            {key: want[key][index] for key in keys} for index in range(len(ROWS))
        ]
    # The oracle deletes what the reference deletes: 1.0 everywhere.
    assert {line["scores"]["oracle"]["update_del_rouge1"] for line in lines} == {1.0}


@pytest.mark.parametrize("command", ["score", "compare"])
def test_the_help_offers_deletions_with_the_tables_words(command, capsys):
    status, out, _ = run_main([command, "--help"], capsys)
    help_text = " ".join(out.split())
    assert status == 0
    assert (
        "--deletions Also score what each text removes from its source (docs/deletions.md): its deletions are the "
        "source's segments that are not substrings of the text (with --additions edits, the runs of source tokens "
        "the diff deletes or replaces), scored prediction against reference exactly as additions are, under "
        "`update_del_<type>` (and `_precision`, `_recall`); where neither side deletes anything, 1.0, counted in "
        "`_both_kept`. Not with --protocol."
    ) in help_text


def test_the_randomization_test_of_the_additions_does_not_move_with_the_deletions():
    options = {**OPTIONS, "method": "randomization", "n_trials": 200}
    with_deletions = compare(SOURCES, REFERENCES, SYSTEMS, "source", **options)
    without = compare(SOURCES, REFERENCES, SYSTEMS, "source", **{**options, "deletions": False})
    assert {key: with_deletions["model"][key] for key in without["model"]} == without["model"]
    # The oracle deletes exactly what the references delete; the baseline only where they keep.
    assert with_deletions["oracle"]["update_del_rouge1_delta"] == 0.5
    assert with_deletions["oracle"]["update_del_rouge1_p_value"] < with_deletions["model"]["update_del_rouge1_p_value"]
