"""The demo's handlers of a file (``demo.file_handlers``) called directly: the corpus summary, the
per-example table, the histogram, the downloads' numbers, the paired test, opening a row, the note
when the options or the file change (reading malformed uploads is in test_app_file_reading.py).

Expected scores come from outside the package: ROUGE-1.5.5's values in
tests/data/rouge155_golden.jsonl, rouge-score, `compute` and README.md's figures.
"""

import csv
import json
import math
import re
from pathlib import Path

import pytest
from app_calls import DEFAULT_TYPES, FRUIT, pct, score_file, score_one, table_rows
from conftest import DATA_DIR, markdown_rows, read_histogram, read_jsonl, readme_section
from rouge_score import rouge_scorer

import update_rouge
from demo import file_handlers, handlers
from demo import options as demo_options
from demo import page as demo_page
from demo.histogram import f1_histogram
from update_rouge.comparison.systems import compare

REPO = Path(__file__).resolve().parents[2]


def test_score_file_on_fruit_jsonl_matches_rouge155(golden):
    out = score_file(FRUIT, DEFAULT_TYPES, "none")
    assert out["status"] == (
        "Scored 3 examples from fruit_triples.jsonl; in 0 of them neither side adds anything (each such example scores 1.0).\n"
        "Warning: the bootstrap intervals rest on 3 examples, fewer than 30: with so few, such an interval misses "
        "the true mean more often than its level says; read it as a rough range."
    )
    assert list(out["summary"].columns) == ["rouge type", "F1 [95% interval]", "P", "R"]
    assert out["results"] == {"__type__": "update", "visible": True}
    summary = table_rows(out["summary"])
    assert [row[0] for row in summary] == DEFAULT_TYPES
    for row, rouge_type in zip(summary, DEFAULT_TYPES):
        means = [math.fsum(g["rouge155"][rouge_type][j] for g in golden) / 3 for j in (2, 0, 1)]
        assert row[1].startswith(pct(means[0]) + " [") and row[2:] == [pct(means[1]), pct(means[2])]
    # The figures README.md's "Examples" shows for the same file, as the summary shows them.
    readme_f1 = {row[0]: float(row[1]) for row in markdown_rows(readme_section("### Examples"), "update_")}
    assert [row[1].split(" ")[0] for row in summary] == [f"{100 * readme_f1[f'update_{t}']:.1f}" for t in DEFAULT_TYPES]
    assert list(out["per_example"]["line"]) == [1, 2, 3]
    assert list(out["per_example"]["rouge1"]) == [f"{row['rouge155']['rouge1'][2]:.4f}" for row in golden]
    # rouge1 F1: 0.5989, 0.5276, 0.4463: counts from 0, the mean (0.5243) drawn as a line.
    figure = read_histogram(out["histogram"])
    assert figure["bars"] == {
        **{f"{k / 10:.1f}-{(k + 1) / 10:.1f}": 0 for k in range(10)},
        "0.4-0.5": 1,
        "0.5-0.6": 2,
    }
    assert figure["y_ticks"] == [0, 1, 2]
    assert figure["mean_at"] == pytest.approx(0.5243, abs=1e-4)
    assert figure["mean_label"] == "corpus score (macro mean) 0.5243"
    assert figure["titles"] == ["F1 of rouge1 per example, 0 to 1 (bins of 0.1)", "examples"]
    assert out["histogram_of"] == {"__type__": "update", "choices": DEFAULT_TYPES, "value": "rouge1"}
    with open(out["download_csv"], newline="", encoding="utf-8") as handle:
        written = list(csv.DictReader(handle))
    assert [int(row["line"]) for row in written] == [1, 2, 3]
    for row, expected in zip(written, golden):
        for rouge_type in DEFAULT_TYPES:
            precision, recall, f1 = expected["rouge155"][rouge_type]
            assert float(row[f"update_{rouge_type}"]) == pytest.approx(f1, abs=1e-9)
            assert float(row[f"update_{rouge_type}_precision"]) == pytest.approx(precision, abs=1e-9)
            assert float(row[f"update_{rouge_type}_recall"]) == pytest.approx(recall, abs=1e-9)
    assert list(out["per_example_state"]["update_rougeLsum"]) == [float(row["update_rougeLsum"]) for row in written]


def test_the_json_download_and_signature_are_what_compute_returns():
    rows = read_jsonl("iterater_triples.jsonl")
    out = score_file(DATA_DIR / "iterater_triples.jsonl", ["rouge1", "rougeL"], "porter", "0.90")
    expected = update_rouge.compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        rouge_types=["rouge1", "rougeL"],
        stemmer="porter",
        confidence_level=0.90,
        return_signature=True,
    )
    with open(out["download_json"], encoding="utf-8") as handle:
        assert json.load(handle) == expected
    assert out["signature"] == expected["signature"]
    assert table_rows(out["summary"])[0] == [
        "rouge1",
        f"{pct(expected['update_rouge1'])} [{pct(expected['update_rouge1_low'])}, {pct(expected['update_rouge1_high'])}]",
        pct(expected["update_rouge1_precision"]),
        pct(expected["update_rouge1_recall"]),
    ]


def test_the_summary_counts_examples_where_neither_side_adds_anything(tmp_path):
    path = tmp_path / "two.jsonl"
    path.write_text(
        json.dumps({"source": "A. B.", "reference": "A.", "prediction": "B."})
        + "\n"
        + json.dumps({"source": "A.", "reference": "A. C.", "prediction": "A. C."})
        + "\n",
        encoding="utf-8",
    )
    out = score_file(path, ["rouge1"], "none", "none")
    assert out["status"].startswith("Scored 2 examples from two.jsonl; in 1 of them neither side adds anything")
    assert table_rows(out["summary"]) == [["rouge1", "100.0", "100.0", "100.0"]]


def test_histogram_of_another_rouge_type(golden):
    per_example = score_file(FRUIT, DEFAULT_TYPES, "none")["per_example_state"]
    histogram = f1_histogram(per_example, "rougeLsum")
    # rougeLsum F1: 0.5989, 0.5153, 0.4463.
    assert [count for label, count in histogram.values.tolist() if count] == [1, 2]
    assert [label for label, count in histogram.values.tolist() if count] == ["0.4-0.5", "0.5-0.6"]


def test_score_file_reports_progress_after_each_chunk_of_examples(tmp_path):
    lines = (DATA_DIR / "iterater_triples.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(lines * 3) + "\n", encoding="utf-8")  # 120 examples: chunks of 50, 50, 20
    assert file_handlers.CHUNK_SIZE == 50
    calls = []
    out = score_file(path, ["rouge1"], "none", "none", progress=lambda value, desc: calls.append((value, desc)))
    assert out["status"].startswith("Scored 120 examples")
    assert [desc for _, desc in calls] == [
        "Scoring",
        "Scored 50 examples",
        "Scored 100 examples",
        "Scored 120 examples",
    ]
    fractions = [value for value, _ in calls]
    assert fractions == sorted(fractions) and fractions[0] == 0 and fractions[-1] == 1.0
    # The share of the bytes read when each chunk is scored: about 1000/2400, then 2000/2400.
    assert 0.3 < fractions[1] < 0.5 and 0.7 < fractions[2] < 0.9


def test_score_file_on_csv_with_several_references(tmp_path, golden):
    rows = read_jsonl("fruit_triples.jsonl")
    path = tmp_path / "triples.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "source", "reference", "prediction"])
        writer.writerow([rows[0]["id"], rows[0]["source"], rows[0]["reference"], rows[0]["prediction"]])
        # An unrelated first reference: the example's own reference has the higher F1 and is used.
        references = json.dumps([rows[2]["reference"], rows[1]["reference"]])
        writer.writerow([rows[1]["id"], rows[1]["source"], references, rows[1]["prediction"]])
    out = score_file(path, ["rouge1"], "none")
    assert out["status"].startswith("Scored 2 examples from triples.csv;")
    assert list(out["per_example"]["rouge1"]) == [f"{golden[i]['rouge155']['rouge1'][2]:.4f}" for i in (0, 1)]
    assert list(out["per_example"]["line"]) == [2, 3]


def test_porter_stemmer_in_score_file_equals_rouge_score_with_stemming(golden):
    per_example = score_file(FRUIT, ["rouge1", "rougeLsum"], "porter")["per_example_state"]
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True)
    for i, row in enumerate(golden):
        expected = scorer.score("\n".join(row["reference_additions"]), "\n".join(row["prediction_additions"]))
        assert per_example["update_rouge1"][i] == expected["rouge1"].fmeasure
        assert per_example["update_rougeLsum"][i] == expected["rougeLsum"].fmeasure


@pytest.mark.parametrize("index", [0, 1, 2])
def test_rouge155_stemmer_in_the_demo_matches_rouge155_with_stemming(index, golden):
    row = read_jsonl("fruit_triples.jsonl")[index]
    _, _, scores, _ = score_one(row["source"], row["reference"], row["prediction"], DEFAULT_TYPES, "rouge155")
    assert table_rows(scores) == [
        [rouge_type, *(f"{value:.4f}" for value in golden[index]["rouge155_stem"][rouge_type])]
        for rouge_type in DEFAULT_TYPES
    ]


def test_score_file_without_an_interval_shows_f1_alone():
    shown = score_file(DATA_DIR / "iterater_triples.jsonl", ["rouge1"], "none", "none")["summary"]
    assert list(shown.columns) == ["rouge type", "F1", "P", "R"]
    summary = table_rows(shown)
    assert "[" not in summary[0][1]


def test_a_baseline_column_gives_the_paired_test_of_compute(tmp_path):
    rows = read_jsonl("fruit_triples.jsonl")
    baseline = [rows[(i + 1) % 3]["prediction"] for i in range(3)]
    path = tmp_path / "with_baseline.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["source", "reference", "prediction", "other system"])
        writer.writerows([r["source"], r["reference"], r["prediction"], b] for r, b in zip(rows, baseline))
    out = score_file(
        path, ["rouge1", "rouge2"], "none", "0.95", demo_options.NO_LANGUAGE, False, 0, 0, 0.5, "other system"
    )
    expected = update_rouge.compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        baseline_predictions=baseline,
        rouge_types=["rouge1", "rouge2"],
        return_signature=True,
    )
    with open(out["download_json"], encoding="utf-8") as handle:
        assert json.load(handle) == expected
    alone = update_rouge.compute(
        sources=[r["source"] for r in rows],
        predictions=baseline,
        references=[r["reference"] for r in rows],
        rouge_types=["rouge1", "rouge2"],
    )
    assert table_rows(out["paired"]) == [
        [
            t,
            pct(alone[f"update_{t}"]),  # the baseline's own corpus F1, scored alone
            "{:+.1f} [{:+.1f}, {:+.1f}]".format(
                *(100 * expected[f"update_{t}_delta{end}"] for end in ("", "_low", "_high"))
            ),
            f"{expected[f'update_{t}_p_value']:.3f}",
        ]
        for t in ("rouge1", "rouge2")
    ]
    assert expected["update_rouge1_delta_low"] < expected["update_rouge1_delta"] < expected["update_rouge1_delta_high"]
    # The signature on the page is that of the `update-rouge compare` command Reproduce suggests.
    compared = compare(
        [r["source"] for r in rows],
        [r["reference"] for r in rows],
        {"prediction": [r["prediction"] for r in rows], "other system": baseline},
        "other system",
        rouge_types=["rouge1", "rouge2"],
        return_signature=True,
    )
    assert out["signature"] == compared["signature"]
    assert out["signature"].endswith("|test:paired-bs|correction:none|comparisons:1")
    assert out["signature"].startswith(expected["signature"].split("|update-rouge:")[0])
    without_interval = score_file(
        path, ["rouge1"], "none", "none", demo_options.NO_LANGUAGE, False, 0, 0, 0.5, "other system"
    )
    assert table_rows(without_interval["paired"])[0][2] == f"{100 * expected['update_rouge1_delta']:+.1f}"
    assert out["paired_box"] == {"__type__": "update", "visible": True}
    missing = score_file(path, ["rouge1"], "none", "0.95", demo_options.NO_LANGUAGE, False, 0, 0, 0.5, "baseline")
    assert missing["status"] == (
        "Error: with_baseline.csv:1: the header row lacks the column(s) baseline "
        "(it names source, reference, prediction, other system)"
    )


def test_opening_a_table_row_shows_that_example_scored_in_the_one_example_view():
    out = score_file(FRUIT, DEFAULT_TYPES, "none")
    row = read_jsonl("fruit_triples.jsonl")[1]
    options = demo_options.ScreenOptions.of(rouge_types=DEFAULT_TYPES)
    opened = file_handlers.open_example(str(FRUIT), out["per_example_state"], options, 1)
    texts = (row["source"], row["reference"], row["prediction"])
    assert (opened["source"], opened["reference"], opened["prediction"]) == texts
    assert opened["scored_texts"] == texts
    assert opened["tabs"].selected == "one"
    alone = handlers.score_one(*texts, DEFAULT_TYPES, "none")
    assert opened["note"] == f"Line 2 of fruit_triples.jsonl.\n{alone['note']}"
    assert table_rows(opened["scores"]) == table_rows(alone["scores"])
    assert [table_rows(opened["scores"])[0][3]] == list(out["per_example"]["rouge1"][1:2])
    nothing = file_handlers.open_example(None, None, options, 1)
    assert nothing == {
        "reference_view": None,
        "prediction_view": None,
        "scores": None,
        "note": "",
        "scored_texts": None,
    }


def test_a_file_scored_with_the_micro_average_gives_computes_micro_numbers():
    rows = read_jsonl("fruit_triples.jsonl")
    out = score_file(FRUIT, ["rouge1", "rougeL"], "none", average="micro", n_bootstrap=200)
    expected = update_rouge.compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        rouge_types=["rouge1", "rougeL"],
        average="micro",
        n_bootstrap=200,
        return_signature=True,
    )
    with open(out["download_json"], encoding="utf-8") as handle:
        assert json.load(handle) == expected
    # Micro is not macro here: the summed counts weigh the longer additions more.
    macro = update_rouge.compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        rouge_types=["rouge1"],
    )
    assert expected["update_rouge1"] != macro["update_rouge1"]
    assert out["signature"] == expected["signature"] and "|agg:micro|" in out["signature"]
    assert table_rows(out["summary"])[0][2:] == [
        pct(expected["update_rouge1_precision"]),
        pct(expected["update_rouge1_recall"]),
    ]
    # Every label says which average its numbers are, and their scale.
    assert out["labels"]["summary"].startswith("Corpus scores: micro average (P, R and F from the counts summed")
    assert "in percent (0 to 100)" in out["labels"]["summary"]
    line = re.search(r'class="mean-label"[^>]*>([^<]*)<', out["histogram"]).group(1)
    assert line == f"mean of the examples (not the micro score) {macro['update_rouge1']:.4f}"


def test_a_file_scored_with_edit_additions_gives_computes_numbers():
    rows = read_jsonl("fruit_triples.jsonl")
    out = score_file(FRUIT, ["rouge1"], "none", additions="edits")
    expected = update_rouge.compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        rouge_types=["rouge1"],
        additions="edits",
        return_signature=True,
    )
    with open(out["download_json"], encoding="utf-8") as handle:
        assert json.load(handle) == expected


def test_a_micro_average_with_rouge_w_is_refused_with_its_reason():
    out = score_file(FRUIT, ["rougeW"], "none", average="micro")
    assert (
        out["status"]
        == 'Error: average "micro" is not defined for ROUGE-W (rougeW); instead: set average back to "macro"'
    )


UNEQUAL_REFERENCES = {  # a file whose second example has two references, its first one
    "x.jsonl": (
        '{"source": "a.", "reference": "a. b.", "prediction": "a. b. c."}\n'
        '{"source": "a.", "reference": ["a. b.", "a. c."], "prediction": "a. b."}\n',
        1,
    ),
    "x.csv": ('source,reference,prediction\na.,a. b.,a. b. c.\na.,"[""a. b."", ""a. c.""]",a. b.\n', 2),
}


@pytest.mark.parametrize("name", UNEQUAL_REFERENCES)
def test_editeval_names_the_line_of_an_example_with_another_number_of_references(tmp_path, name):
    text, first = UNEQUAL_REFERENCES[name]
    (tmp_path / name).write_text(text, encoding="utf-8")
    out = score_file(tmp_path / name, DEFAULT_TYPES, "none", protocol="editeval")
    assert out["status"] == (
        f'Error: {name}:{first + 1}: 2 references, but line {first} has 1 reference: protocol "editeval" needs '
        "the same number of references in every example (its corpus value averages reference slots); instead: "
        'set protocol back to "none"'
    )
    assert out["results"] == {"__type__": "update", "visible": False}
    assert out["download_json"] is None and out["download_csv"] is None
    # FRUIT's script takes one reference (its own reason); autometrics scores the first of each.
    fruit = score_file(tmp_path / name, DEFAULT_TYPES, "none", protocol="fruit")
    assert (
        fruit["status"] == f'Error: line {first + 1}: references holds 2 references, but protocol "fruit" takes one '
        'per example (FRUIT\'s edit_rouge has no several): give it one, or set protocol back to "none"'
    )
    assert score_file(tmp_path / name, DEFAULT_TYPES, "none", protocol="autometrics")["status"].startswith(
        f"Scored 2 examples from {name}"
    )


def test_an_error_of_the_corpus_result_is_shown_in_the_status(monkeypatch):
    def refuse(_corpus):
        raise ValueError("the corpus refuses")

    monkeypatch.setattr("update_rouge.corpus.Corpus.result", refuse)
    out = score_file(FRUIT, DEFAULT_TYPES, "none")
    assert out["status"] == "Error: the corpus refuses"
    assert out["download_json"] is None


def download_column(out, name):
    with open(out["download_csv"], newline="", encoding="utf-8") as handle:
        return [record[name] for record in csv.DictReader(handle)]


def test_the_per_example_table_and_csv_carry_the_input_ids_after_the_line(tmp_path):
    out = score_file(FRUIT, ["rouge1"], "none")
    ids = [row["id"] for row in read_jsonl("fruit_triples.jsonl")]
    assert list(out["per_example"].columns) == ["line", "id", "rouge1"]
    assert list(out["per_example"]["id"]) == ids
    assert list(out["per_example_state"].columns)[:2] == ["line", "id"]
    assert download_column(out, "id") == ids
    assert download_column(out, "line") == ["1", "2", "3"]
    # Marked so that a phone wraps its ids (demo.style); the table of a file without ids is not.
    assert out["classes"]["per_example"] == ["with-ids"]
    no_ids = tmp_path / "no_ids.jsonl"
    rows = [{key: value for key, value in row.items() if key != "id"} for row in read_jsonl("fruit_triples.jsonl")]
    no_ids.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    without = score_file(no_ids, ["rouge1"], "none")
    assert list(without["per_example"].columns) == ["line", "rouge1"] and without["classes"]["per_example"] == []


def test_ids_of_any_json_type_are_shown_as_json_text_and_a_missing_id_as_empty(tmp_path):
    rows = read_jsonl("fruit_triples.jsonl")
    texts = [{k: r[k] for k in ("source", "reference", "prediction")} for r in rows]
    path = tmp_path / "numbered.jsonl"
    lines = [dict(texts[0], id=12), texts[1], dict(texts[2], id="c")]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    out = score_file(path, ["rouge1"], "none")
    assert list(out["per_example"]["id"]) == ["12", "", "c"]
    assert download_column(out, "id") == ["12", "", "c"]


def test_csv_ids_are_kept_with_a_baseline_column_and_a_file_without_ids_has_no_id_column(tmp_path):
    rows = read_jsonl("fruit_triples.jsonl")
    path = tmp_path / "ids.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["source", "reference", "prediction", "id", "other"])
        writer.writerows(
            [r["source"], r["reference"], r["prediction"], f"00{i}", r["source"]] for i, r in enumerate(rows)
        )
    ids = ["000", "001", "002"]
    for baseline in ("", "other"):
        out = score_file(path, ["rouge1"], "none", "none", demo_options.NO_LANGUAGE, False, 0, 0, 0.5, baseline)
        assert list(out["per_example"]["id"]) == ids
        assert download_column(out, "id") == ids
    plain = tmp_path / "plain.csv"
    with open(plain, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["source", "reference", "prediction"])
        writer.writerows([r["source"], r["reference"], r["prediction"]] for r in rows)
    out = score_file(plain, ["rouge1"], "none")
    assert list(out["per_example"].columns) == ["line", "rouge1"]
    assert "id" not in out["per_example_state"].columns
    with open(out["download_csv"], newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle))
    assert header[0] == "line" and "id" not in header


def test_one_example_is_counted_in_the_singular(tmp_path):
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps({"source": "a.", "reference": "a. b.", "prediction": "a. b."}) + "\n", encoding="utf-8")
    status = score_file(path, ["rouge1"], "none", "none")["status"]
    assert status == "Scored 1 example from one.jsonl; one side or both add something."


def test_the_multi_ref_menu_offers_the_tables_mean_and_the_file_is_scored_with_it(tmp_path):
    (menu,) = [b for b in demo_page.build_demo().blocks.values() if getattr(b, "option", None) == "multi_ref"]
    assert [value for _, value in menu.choices] == ["max_f1", "pooled", "best_recall", "mean"]
    path = tmp_path / "two_refs.jsonl"
    # rouge1 of "a c" against "a b" (F1 1/2) and against "a c" (F1 1): their mean is 3/4.
    path.write_text(
        json.dumps({"source": "S.", "reference": ["S. A b.", "S. A c."], "prediction": "S. A c."}) + "\n",
        encoding="utf-8",
    )
    out = score_file(path, ["rouge1"], "none", "none", multi_ref="mean")
    assert table_rows(out["summary"])[0][:2] == ["rouge1", "75.0"]
    assert "|multiref:mean|" in out["signature"]


def test_an_option_or_file_change_leaves_a_note_where_a_file_was_scored_until_it_is_scored_again():
    scored = file_handlers.score_file(str(FRUIT), ["rouge1"], "none")
    assert scored["status"].startswith("Scored 3 examples from fruit_triples.jsonl")
    defaults = demo_options.ScreenOptions.of()
    changed = file_handlers.file_inputs_changed(scored["status"], defaults)
    assert changed["status"] == "Options changed: press Score file again."
    assert changed["results"] == {"__type__": "update", "visible": False} and changed["summary"] is None
    assert file_handlers.file_inputs_changed("Error: x.jsonl:1: not JSON", defaults)["status"] == changed["status"]
    assert (
        file_handlers.file_inputs_changed(scored["status"], defaults, "File")["status"]
        == "File changed: press Score file again."
    )
    assert file_handlers.file_inputs_changed("", defaults) == {}
    bad = file_handlers.file_inputs_changed("", demo_options.ScreenOptions.of(n_bootstrap=100000))
    assert bad["status"].startswith("Error: n_bootstrap must be a whole number from 1 to 10,000 (this demo's limit")
    again = file_handlers.score_file(str(FRUIT), ["rouge1"], "none", "0.99")
    assert again["status"] == scored["status"] and again["results"] == {"__type__": "update", "visible": True}
