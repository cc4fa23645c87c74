"""The demo's functions called directly: single-example scoring, highlighting, file scoring, CSV.

Expected scores come from outside the package: hand counts, ROUGE-1.5.5's values and additions
in tests/data/rouge155_golden.jsonl, and rouge-score run here on those additions.
"""

import csv
import inspect
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import gradio
import pandas as pd
import pytest
from conftest import DATA_DIR, markdown_rows, read_histogram, read_jsonl, readme_section
from rouge_score import rouge_scorer

import app
import app_downloads
import app_handlers
import app_options
import app_render
import update_rouge

REPO = Path(__file__).resolve().parent.parent

DAN = (
    "Dan is a baker.",
    "Dan is a baker. Dan loves chocolate cakes.",
    "Dan is a baker. Dan loves chocolate chip cookies.",
)
DEFAULT_TYPES = ["rouge1", "rouge2", "rougeLsum"]
FRUIT = DATA_DIR / "fruit_triples.jsonl"
KEPT = "in the source"


@pytest.fixture(scope="module")
def golden():
    """ROUGE-1.5.5's additions and [P, R, F1] for each FRUIT sample, in file order."""
    return [row for row in read_jsonl("rouge155_golden.jsonl") if row["file"] == "fruit_triples.jsonl"]


def table_rows(frame):
    """The rows of a table as shown: a DataFrame, or a gradio update giving one (with its label)."""
    return (frame["value"] if isinstance(frame, dict) else frame).values.tolist()


FILE_RESULTS = {
    "status",
    "results",
    "summary",
    "signature",
    "per_example",
    "histogram",
    "histogram_of",
    "per_example_state",
    "download_json",
    "download_csv",
    "paired",
    "paired_box",
}
ONE_EXAMPLE = ("reference_view", "prediction_view", "scores", "note")


def score_file(path, *options, **keywords):
    """``app_handlers.score_file``'s results, checked to name every result component and no other."""
    out = app_handlers.score_file(str(path) if path is not None else None, *options, **keywords)
    assert set(out) == FILE_RESULTS, f"score_file gave {sorted(out)}"
    return out


def score_one(*arguments):
    """``app_handlers.score_one``'s results in ``ONE_EXAMPLE``'s order, checked to be those four."""
    out = app_handlers.score_one(*arguments)
    assert set(out) == set(ONE_EXAMPLE), f"score_one gave {sorted(out)}"
    return tuple(out[name] for name in ONE_EXAMPLE)


def show_matches(*arguments):
    """``app_handlers.show_matches``'s two token views and note, checked to show their box."""
    out = app_handlers.show_matches(*arguments)
    assert out.pop("matches_box") == {"__type__": "update", "visible": True}
    assert set(out) == {"reference_matches", "prediction_matches", "match_note"}, f"show_matches gave {sorted(out)}"
    return out["reference_matches"], out["prediction_matches"], out["match_note"]


def pct(value):
    return f"{100 * value:.1f}"


def test_score_one_highlights_the_added_sentence_and_shows_hand_counted_scores():
    reference_view, prediction_view, scores, note = score_one(*DAN, DEFAULT_TYPES, "none")
    assert reference_view == [("Dan is a baker.", KEPT), (" ", None), ("Dan loves chocolate cakes.", "added")]
    assert prediction_view == [("Dan is a baker.", KEPT), (" ", None), ("Dan loves chocolate chip cookies.", "added")]
    # 3 of the prediction's 5 words match 3 of the reference's 4; 2 of 4 bigrams match 2 of 3.
    assert table_rows(scores) == [
        ["rouge1", "0.6000", "0.7500", "0.6667"],
        ["rouge2", "0.5000", "0.6667", "0.5714"],
        ["rougeLsum", "0.6000", "0.7500", "0.6667"],
    ]
    assert note == "The reference adds 1 segment(s) to the source, the prediction 1."


@pytest.mark.parametrize("index", [0, 1, 2])
def test_score_one_on_fruit_samples_matches_rouge155(index, golden):
    row = read_jsonl("fruit_triples.jsonl")[index]
    expected = golden[index]
    reference_view, prediction_view, scores, _ = score_one(
        row["source"], row["reference"], row["prediction"], DEFAULT_TYPES, "none"
    )
    for view, text, additions in (
        (reference_view, row["reference"], expected["reference_additions"]),
        (prediction_view, row["prediction"], expected["prediction_additions"]),
    ):
        assert "".join(piece for piece, _ in view) == text
        assert [piece for piece, label in view if label == "added"] == additions
        assert all(label in (None, "added", KEPT) for _, label in view)
        assert [piece for piece, label in view if label == KEPT] == [
            segment
            for segment in (m.strip() for m in re.findall(r"[^.]+\.?", text))
            if segment and segment not in additions
        ]
    assert table_rows(scores) == [
        [rouge_type, *(f"{value:.4f}" for value in expected["rouge155"][rouge_type])] for rouge_type in DEFAULT_TYPES
    ]


def test_score_one_notes_the_both_empty_rule():
    _, _, scores, note = score_one("A cat sat. A dog ran.", "A dog ran.", "A cat sat.", ["rouge1"], "none")
    assert table_rows(scores) == [["rouge1", "1.0000", "1.0000", "1.0000"]]
    assert "Neither adds anything" in note and "1.0" in note


def test_porter_stemmer_choice_stems():
    example = ("Pets.", "Pets. The cats run.", "Pets. The cat runs.")
    _, _, plain, _ = score_one(*example, ["rouge1"], "none")
    _, _, stemmed, _ = score_one(*example, ["rouge1"], "porter")
    # Unstemmed only "the" matches (1 of 3 each way); stemmed all three do.
    assert table_rows(plain) == [["rouge1", "0.3333", "0.3333", "0.3333"]]
    assert table_rows(stemmed) == [["rouge1", "1.0000", "1.0000", "1.0000"]]


def test_rouge_types_are_shown_in_a_fixed_order():
    _, _, scores, _ = score_one(*DAN, ["rougeLsum", "rougeL", "rouge1"], "none")
    assert list(scores["rouge type"]) == ["rouge1", "rougeL", "rougeLsum"]


def test_no_rouge_type_is_a_clear_error_shown_as_text():
    *views, note = score_one(*DAN, [], "none")
    assert views == [None, None, None] and note.startswith("Error: rouge_types is empty; valid types are rouge1")


def test_highlighting_keeps_every_character_and_marks_repeated_additions():
    text = "Old. New...  New. Old.\nLast"
    view = app_render.highlight_additions(text, ["New.", "New.", "Last"])
    assert view == [
        ("Old.", KEPT),
        (" ", None),
        ("New.", "added"),
        ("..  ", None),
        ("New.", "added"),
        (" ", None),
        ("Old.", KEPT),
        ("\n", None),
        ("Last", "added"),
    ]


def test_highlighting_rejects_additions_that_are_not_segments_of_the_text():
    with pytest.raises(ValueError, match="'Gone.' is not a segment"):
        app_render.highlight_additions("Kept. New.", ["New.", "Gone."])


def test_score_file_on_fruit_jsonl_matches_rouge155(golden):
    out = score_file(FRUIT, DEFAULT_TYPES, "none")
    assert out["status"] == (
        "Scored 3 examples from fruit_triples.jsonl; in 0 of them neither side adds anything (each scores 1.0).\n"
        "Warning: the bootstrap intervals rest on 3 examples, fewer than 30: with so few, such an interval misses "
        "the true mean more often than its level says; read it as a rough range."
    )
    assert out["summary"]["label"] == (
        "Corpus scores: mean over 3 examples, in %; F1's 95% bootstrap interval (1000 resamples, seed 12345)"
    )
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
    assert figure["mean_label"] == "corpus mean 0.5243"
    assert figure["titles"] == ["F1 of rouge1 per example (bins of 0.1)", "examples"]
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
    histogram = app_render.f1_histogram(per_example, "rougeLsum")
    # rougeLsum F1: 0.5989, 0.5153, 0.4463.
    assert [count for label, count in histogram.values.tolist() if count] == [1, 2]
    assert [label for label, count in histogram.values.tolist() if count] == ["0.4-0.5", "0.5-0.6"]


def test_show_matches_labels_the_matched_tokens_and_explains_the_counts():
    source, reference, prediction = (
        "Dan is a baker.",
        "Dan is a baker. Dan loves chocolate cakes.",
        "Dan is a baker. Dan loves chocolate chip cookies.",
    )
    reference_pieces, prediction_pieces, note = show_matches(source, reference, prediction, "rouge1", "none")
    assert reference_pieces == [
        ("dan", "matched"),
        (" ", None),
        ("loves", "matched"),
        (" ", None),
        ("chocolate", "matched"),
        (" ", None),
        ("cakes", None),
    ]
    assert [token for token, label in prediction_pieces if label] == ["dan", "loves", "chocolate"]
    assert note.startswith("rouge1 counts 3 matched tokens: ") and "Precision 3/5 " in note and "recall 3/4 " in note
    _, _, note = show_matches(source, reference, prediction, "rouge2", "none")
    assert "Precision 2/4 of the prediction's 2-grams, recall 2/3 of the reference's" in note


def test_show_matches_puts_each_addition_on_a_line_for_rougelsum_and_handles_no_additions():
    pieces, _, note = show_matches("S.", "S. A cat sat. The dog ran.", "S. The cat ran.", "rougeLsum", "none")
    assert [token for token, _ in pieces] == ["a", " ", "cat", " ", "sat", "\n", "the", " ", "dog", " ", "ran"]
    assert "counts 3 matched tokens" in note  # cat from the first line; the, ran from the second
    assert show_matches("S.", "S.", "S.", "rouge1", "none") == (
        None,
        None,
        "Neither side adds anything: there is nothing to match.",
    )
    assert show_matches("S.", "S. A.", "S. B.", "rougeW", "none")[2].startswith("Error: the matches of rougeW")


def test_score_file_reports_progress_after_each_chunk_of_examples(tmp_path):
    lines = (DATA_DIR / "iterater_triples.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(lines * 3) + "\n", encoding="utf-8")  # 120 examples: chunks of 50, 50, 20
    assert app_handlers.CHUNK_SIZE == 50
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


def test_histogram_counts_start_at_zero_and_reach_a_round_number():
    per_example = pd.DataFrame({"update_rouge1": [0.05] * 7 + [0.95] * 3})
    figure = read_histogram(app_render.histogram_svg(per_example, "rouge1"))
    assert figure["y_ticks"] == [0, 2, 4, 6, 8]
    assert figure["bars"]["0.0-0.1"] == 7 and figure["bars"]["0.9-1.0"] == 3
    assert figure["mean_at"] == pytest.approx(0.32, abs=1e-4)
    assert figure["mean_label"] == "corpus mean 0.3200"
    assert app_render.histogram_svg(None, "rouge1") == ""


def test_histogram_names_are_escaped():
    svg = app_render.histogram_svg(pd.DataFrame({"update_<b>&": [0.5]}), "<b>&")
    assert read_histogram(svg)["titles"][0] == "F1 of <b>& per example (bins of 0.1)"


def test_histogram_puts_perfect_scores_in_the_last_bin():
    histogram = app_render.f1_histogram(pd.DataFrame({"update_rouge1": [0.0, 0.1, 0.95, 1.0]}), "rouge1")
    assert histogram["examples"].tolist() == [1, 1, 0, 0, 0, 0, 0, 0, 0, 2]


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


GOOD_LINE = '{"source": "a.", "reference": "a. b.", "prediction": "a. c."}\n'

# The command line's reader (update_rouge/files.py) gives these messages, as path:line: problem.
BAD_FILES = [
    ("bad.jsonl", GOOD_LINE + '{"source": "a.",\n', "bad.jsonl:2: not valid JSON"),
    (
        "bad.jsonl",
        GOOD_LINE + "\n" + '{"source": "a.", "prediction": "a."}\n',
        "bad.jsonl:3: missing field(s) reference",
    ),
    (
        "bad.jsonl",
        GOOD_LINE + '{"source": 3, "reference": "a", "prediction": "a"}\n',
        "bad.jsonl:2: source must be a string, got a number",
    ),
    (
        "bad.jsonl",
        GOOD_LINE + '{"source": "a", "reference": [], "prediction": "a"}\n',
        "bad.jsonl:2: reference must be",
    ),
    ("bad.jsonl", GOOD_LINE + '["a", "b", "c"]\n', "bad.jsonl:2: expected a JSON object"),
    (
        "bad.jsonl",
        GOOD_LINE + '{"source": "a", "source": "b", "reference": "c", "prediction": "d"}\n',
        "bad.jsonl:2: not usable JSON (the key 'source' appears more than once",
    ),
    ("bad.jsonl", "\n\n", "bad.jsonl: the file holds no examples"),
    ("bad.csv", "source,prediction\na.,b.\n", "bad.csv:1: the header row lacks the column(s) reference"),
    (
        "bad.csv",
        "source,reference,prediction,source\na.,b.,c.,d.\n",
        "bad.csv:1: the header row names the column(s) source more than once",
    ),
    ("bad.csv", 'source,reference,prediction\n"a\nb.",c.,d.\ne.,f.\n', "bad.csv:4: 2 cells, but the header has 3"),
    ("bad.csv", 'source,reference,prediction\na.,"[""x"", 1]",c.\n', "bad.csv:2: reference[1] must be a string"),
    ("bad.csv", 'source,reference,prediction\na.,"b.\n', "not valid CSV"),
    ("bad.txt", "whatever", "cannot tell the format of"),
    (
        "bad.jsonl",
        GOOD_LINE + '{"source": "a", "reference": "b", "prediction": "c \\ud800"}\n',
        "bad.jsonl:2: prediction contains a lone surrogate (U+D800) at character 2",
    ),
    (
        "bad.jsonl",
        '{"source": "a", "reference": ["b", "\\udfff"], "prediction": "c"}\n',
        "bad.jsonl:1: reference[1] contains",
    ),
]


@pytest.mark.parametrize("name, content, message", BAD_FILES)
def test_malformed_file_gives_a_message_naming_the_line_and_nothing_else(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    out = score_file(path, DEFAULT_TYPES, "none")
    assert out["status"].startswith("Error: ") and message in out["status"]
    assert out["results"] == {"__type__": "update", "visible": False}
    assert out["histogram_of"] == {"__type__": "update", "choices": [], "value": None}
    assert [
        out[name]
        for name in (
            "summary",
            "signature",
            "per_example",
            "per_example_state",
            "download_json",
            "download_csv",
            "paired",
        )
    ] == [None] * 7


def test_non_utf8_file_names_the_line(tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(GOOD_LINE.encode() + '{"source": "caf\u00e9"}\n'.encode("latin-1"))
    status = score_file(path, DEFAULT_TYPES, "none")["status"]
    assert status.startswith("Error: latin1.jsonl:2: not valid UTF-8")


def test_the_reader_is_the_command_lines_one_long_csv_fields_and_only_three_line_ends(tmp_path):
    # A 200,000-character field (beyond csv's default field limit); U+2028 and U+0085 stay
    # inside a JSONL line, a lone CR ends one.
    long_text = "word " * 40_000 + "end."
    csv_path = tmp_path / "long.csv"
    with open(csv_path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(
            [["source", "reference", "prediction"], ["s.", "s. " + long_text, "s. " + long_text]]
        )
    assert list(score_file(csv_path, ["rouge1"], "none")["per_example"]["rouge1"]) == ["1.0000"]
    jsonl = tmp_path / "ends.jsonl"
    first = json.dumps({"source": "s.", "reference": "s. a\u2028b.", "prediction": "s. a\u0085b."}, ensure_ascii=False)
    second = json.dumps({"source": "s.", "reference": "s. c.", "prediction": "s. c."})
    jsonl.write_bytes((first + "\r" + second + "\r").encode("utf-8"))
    out = score_file(jsonl, ["rouge1"], "none")
    assert list(out["per_example"]["line"]) == [1, 2]
    # rouge-score's tokens: "a", "b" on both sides (U+2028 and U+0085 are not a-z0-9).
    assert list(out["per_example"]["rouge1"]) == ["1.0000", "1.0000"]


def test_an_upload_over_the_size_cap_is_refused_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(app_handlers, "MAX_UPLOAD_MB", 0.001)
    path = tmp_path / "big.jsonl"
    path.write_text(GOOD_LINE * 20, encoding="utf-8")
    status = score_file(path, DEFAULT_TYPES, "none")["status"]
    assert status == (
        "Error: big.jsonl is 0.0 MB; this demo takes files up to 0.001 MB (UPDATE_ROUGE_DEMO_MAX_MB). "
        "Score larger files with the update-rouge command."
    )


def test_the_size_cap_comes_from_the_environment():
    assert app_options.max_upload_mb({}) == 50
    assert app_options.max_upload_mb({"UPDATE_ROUGE_DEMO_MAX_MB": "7.5"}) == 7.5
    for bad in ("0", "-1", "inf", "nan", "lots"):
        with pytest.raises(
            ValueError, match=f"UPDATE_ROUGE_DEMO_MAX_MB must be a number of megabytes > 0, got '{bad}'"
        ):
            app_options.max_upload_mb({"UPDATE_ROUGE_DEMO_MAX_MB": bad})


def test_the_tokenless_warning_is_shown_for_one_example_and_for_a_file(tmp_path):
    *_, note = score_one("s.", "s. 中文。", "s. 中文。", ["rouge1"], "none")
    assert "Warning: 1 of 1 examples have additions in which the tokenizer finds no token" in note
    path = tmp_path / "zh.jsonl"
    path.write_text(
        GOOD_LINE + json.dumps({"source": "s.", "reference": "s. 中文。", "prediction": "s. 中文。"}) + "\n",
        encoding="utf-8",
    )
    status = score_file(path, ["rouge1"], "none")["status"]
    assert "\nWarning: 1 of 2 examples have additions in which the tokenizer finds no token" in status
    # A demo user cannot pass tokenizer= or language=: the note says what to do on the page instead.
    for shown in (note, status):
        assert "tokenizer=" not in shown and "language=" not in shown
        assert 'drops most non-Latin scripts); choose the texts\' language under "Advanced options"' in shown


@pytest.mark.parametrize("value, got", [(None, "null"), (3, "int"), (2.5, "float"), (["a."], "list")])
@pytest.mark.parametrize("field", ["source", "reference", "prediction"])
def test_score_one_refuses_non_strings_naming_the_field(field, value, got):
    texts = dict(zip(("source", "reference", "prediction"), DAN), **{field: value})
    with pytest.raises(gradio.Error) as raised:
        score_one(texts["source"], texts["reference"], texts["prediction"], DEFAULT_TYPES, "none")
    assert raised.value.message == f"{field} must be a string, got {got}"


def test_score_one_reports_bad_text_as_text():
    *views, note = score_one("s.", "s. \ud800.", "s.", DEFAULT_TYPES, "none")
    assert views == [None, None, None]
    assert note.startswith("Error: ") and "references[0] contains a lone surrogate (U+D800)" in note


@pytest.mark.parametrize(
    "texts, expected",
    [
        (("", "A b.", "A c."), "The source is empty, so every segment of both texts counts as added."),
        (("A.", "A. B.", "A. B."), "The prediction is identical to the reference."),
        (("A.", "A.", "A."), "Neither adds anything, so by UpdateROUGE's rule every score is 1.0."),
    ],
)
def test_score_one_notes_empty_sources_identical_texts_and_nothing_added(texts, expected):
    *_, note = score_one(*texts, ["rouge1"], "none")
    assert expected in note.splitlines()


def test_score_one_on_white_space_scores_the_both_empty_rule():
    _, _, scores, note = score_one("", " \n ", "\t", DEFAULT_TYPES, "none")
    assert list(scores["F1"]) == ["1.0000"] * len(DEFAULT_TYPES)
    assert "Neither adds anything" in note


def test_no_upload_asks_for_a_file():
    out = score_file(None, DEFAULT_TYPES, "none")
    assert out["status"] == "Upload a .jsonl or .csv file first."
    assert out["results"] == {"__type__": "update", "visible": False}


def test_csv_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    table = pd.DataFrame({"line": [1, 2], "update_rouge1": [0.1, 1 / 3]})
    path = app_downloads.write_csv_atomically(table, tmp_path)
    assert path.read_text(encoding="utf-8") == f"line,update_rouge1\n1,0.1\n2,{1 / 3!r}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [app_downloads.CSV_NAME]

    def write_half_then_fail(self, target, **kwargs):
        with open(target, "w", encoding="utf-8") as handle:
            handle.write("line,upd")
        raise OSError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_csv", write_half_then_fail)
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(OSError, match="disk full"):
        app_downloads.write_csv_atomically(table, other)
    assert not (other / app_downloads.CSV_NAME).exists()


@pytest.mark.slow
def test_the_downloads_folder_is_removed_when_the_process_exits(tmp_path):
    code = (
        "import app_downloads, app_handlers, sys; out = app_handlers.score_file(sys.argv[1], ['rouge1'], 'none'); "
        "print(app_downloads.downloads_root()); print(out['download_csv'])"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", code, str(FRUIT)], cwd=REPO, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    root, csv_file = run.stdout.split()
    assert (
        csv_file.endswith(app_downloads.CSV_NAME)
        and csv_file.startswith(root + os.sep)
        and Path(root).parent == tmp_path
    )
    assert not Path(root).exists()
    assert list(tmp_path.iterdir()) == []


def test_the_advanced_options_reach_the_scorer():
    # max_words=2 keeps "dan loves" of each addition: 2 of 2 unigrams match.
    _, _, scores, _ = score_one(*DAN, ["rouge1"], "none", app_options.NO_LANGUAGE, False, 2, 0, 0.5)
    assert table_rows(scores) == [["rouge1", "1.0000", "1.0000", "1.0000"]]
    *_, note = score_one(*DAN, ["rouge1"], "none", app_options.NO_LANGUAGE, False, 2, 5, 0.5)
    assert note.startswith("Error: ") and "max_words" in note and "max_bytes" in note


def test_metric_card_is_the_readme_without_front_matter():
    card = app_render.metric_card((DATA_DIR.parent.parent / "README.md").read_text(encoding="utf-8"))
    assert card.startswith("# Metric Card for UpdateROUGE\n")
    assert "app_file:" not in card and "## Citation" in card
    assert app_render.metric_card("# No front matter\n") == "# No front matter\n"


def test_demo_builds_without_analytics():
    demo = app.build_demo()
    assert isinstance(demo, gradio.Blocks)
    assert demo.analytics_enabled is False


@pytest.mark.parametrize("index", [0, 1, 2])
def test_rouge155_stemmer_in_the_demo_matches_rouge155_with_stemming(index, golden):
    row = read_jsonl("fruit_triples.jsonl")[index]
    _, _, scores, _ = score_one(row["source"], row["reference"], row["prediction"], DEFAULT_TYPES, "rouge155")
    assert table_rows(scores) == [
        [rouge_type, *(f"{value:.4f}" for value in golden[index]["rouge155_stem"][rouge_type])]
        for rouge_type in DEFAULT_TYPES
    ]


def test_score_file_without_an_interval_shows_f1_alone():
    summary = table_rows(score_file(DATA_DIR / "iterater_triples.jsonl", ["rouge1"], "none", "none")["summary"])
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
        path, ["rouge1", "rouge2"], "none", "0.95", app_options.NO_LANGUAGE, False, 0, 0, 0.5, "other system"
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
    assert table_rows(out["paired"]) == [
        [
            t,
            "{:+.1f} [{:+.1f}, {:+.1f}]".format(
                *(100 * expected[f"update_{t}_delta{end}"] for end in ("", "_low", "_high"))
            ),
            f"{expected[f'update_{t}_p_value']:.3f}",
        ]
        for t in ("rouge1", "rouge2")
    ]
    assert expected["update_rouge1_delta_low"] < expected["update_rouge1_delta"] < expected["update_rouge1_delta_high"]
    without_interval = score_file(
        path, ["rouge1"], "none", "none", app_options.NO_LANGUAGE, False, 0, 0, 0.5, "other system"
    )
    assert table_rows(without_interval["paired"])[0][1] == f"{100 * expected['update_rouge1_delta']:+.1f}"
    assert out["paired_box"] == {"__type__": "update", "visible": True}
    missing = score_file(path, ["rouge1"], "none", "0.95", app_options.NO_LANGUAGE, False, 0, 0, 0.5, "baseline")
    assert missing["status"] == "Error: with_baseline.csv:1: the header row lacks the column(s) baseline"


def test_score_one_scores_the_example_once(monkeypatch):
    scorer_module = app_handlers.package_module("scorer")
    score_checked = scorer_module._score_checked
    scored = []

    def counted(settings, sources, predictions, references):
        scored.append(len(sources))
        return score_checked(settings, sources, predictions, references)

    monkeypatch.setattr(scorer_module, "_score_checked", counted)
    _, _, scores, note = score_one(*DAN, DEFAULT_TYPES, "none")
    assert scored == [1], f"score_one scored {scored} examples per call, expected one call of one example"
    assert table_rows(scores)[0] == ["rouge1", "0.6000", "0.7500", "0.6667"]
    # The no-token warning comes from the same scoring.
    scored.clear()
    *_, note = score_one("s.", "s. 中文。", "s. 中文。", ["rouge1"], "none")
    assert scored == [1] and "Warning: 1 of 1 examples have additions in which the tokenizer finds no token" in note


def test_opening_a_table_row_shows_that_example_scored_in_the_one_example_view():
    out = score_file(FRUIT, DEFAULT_TYPES, "none")
    row = read_jsonl("fruit_triples.jsonl")[1]
    selected = type("Selected", (), {"index": [1, 0]})()
    opened = app_handlers.open_example(
        str(FRUIT), out["per_example_state"], DEFAULT_TYPES, "none", app_options.NO_LANGUAGE, False, 0, 0, 0.5, selected
    )
    texts = (row["source"], row["reference"], row["prediction"])
    assert (opened["source"], opened["reference"], opened["prediction"]) == texts
    assert opened["scored_texts"] == texts
    assert opened["tabs"].selected == "one"
    alone = app_handlers.score_one(*texts, DEFAULT_TYPES, "none")
    assert opened["note"] == f"Line 2 of fruit_triples.jsonl.\n{alone['note']}"
    assert table_rows(opened["scores"]) == table_rows(alone["scores"])
    assert [table_rows(opened["scores"])[0][3]] == list(out["per_example"]["rouge1"][1:2])
    nothing = app_handlers.open_example(
        None, None, DEFAULT_TYPES, "none", app_options.NO_LANGUAGE, False, 0, 0, 0.5, selected
    )
    assert nothing == {
        "reference_view": None,
        "prediction_view": None,
        "scores": None,
        "note": "",
        "scored_texts": None,
    }


def test_a_text_change_clears_the_view_unless_the_texts_are_those_scored():
    assert app_handlers.clear_unless_scored(*DAN, DAN) == {}
    cleared = app_handlers.clear_unless_scored(*DAN[:2], "other", DAN)
    assert cleared == app_handlers.cleared_example()
    assert cleared["scored_texts"] is None and cleared["matches_box"] == {"__type__": "update", "visible": False}
    assert app_handlers.matches_if_scored(*DAN[:2], "other", "rouge1", "none", DAN) == {}
    assert app_handlers.matches_if_scored(*DAN, "rouge1", "none", DAN)["match_note"].startswith("rouge1 counts 3")


def test_the_page_gives_gradio_a_handlers_results_keyed_by_component_and_keeps_its_signature():
    page = app.Page(**{name: gradio.Textbox() for name in ONE_EXAMPLE})
    keyed = page.keyed(app_handlers.score_one)
    out = keyed(*DAN, ["rouge1"], "none")
    assert list(out) == page(*ONE_EXAMPLE)
    assert out[page.note] == "The reference adds 1 segment(s) to the source, the prediction 1."
    assert table_rows(out[page.scores]) == [["rouge1", "0.6000", "0.7500", "0.6667"]]
    # gradio reads the API's parameters, the progress bar and the select event from the signature.
    assert inspect.signature(keyed) == inspect.signature(app_handlers.score_one)
    assert keyed.__doc__ == app_handlers.score_one.__doc__
