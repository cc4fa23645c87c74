"""The demo's functions called directly: single-example scoring, highlighting, file scoring, CSV.

Expected scores come from outside the package: hand counts, ROUGE-1.5.5's values and additions
in tests/data/rouge155_golden.jsonl, and rouge-score run here on those additions.
"""

import csv
import json
import math

import gradio
import pandas as pd
import pytest
from conftest import DATA_DIR, markdown_rows, read_jsonl, readme_section
from rouge_score import rouge_scorer

import app
import update_rouge

DAN = (
    "Dan is a baker.",
    "Dan is a baker. Dan loves chocolate cakes.",
    "Dan is a baker. Dan loves chocolate chip cookies.",
)
DEFAULT_TYPES = ["rouge1", "rouge2", "rougeLsum"]
FRUIT = DATA_DIR / "fruit_triples.jsonl"


@pytest.fixture(scope="module")
def golden():
    """ROUGE-1.5.5's additions and [P, R, F1] for each FRUIT sample, in file order."""
    return [row for row in read_jsonl("rouge155_golden.jsonl") if row["file"] == "fruit_triples.jsonl"]


def table_rows(frame):
    return frame.values.tolist()


def test_score_one_highlights_the_added_sentence_and_shows_hand_counted_scores():
    reference_view, prediction_view, scores, note = app.score_one(*DAN, DEFAULT_TYPES, "none")
    assert reference_view == [("Dan is a baker. ", None), ("Dan loves chocolate cakes.", "added")]
    assert prediction_view == [("Dan is a baker. ", None), ("Dan loves chocolate chip cookies.", "added")]
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
    reference_view, prediction_view, scores, _ = app.score_one(
        row["source"], row["reference"], row["prediction"], DEFAULT_TYPES, "none"
    )
    for view, text, additions in (
        (reference_view, row["reference"], expected["reference_additions"]),
        (prediction_view, row["prediction"], expected["prediction_additions"]),
    ):
        assert "".join(piece for piece, _ in view) == text
        assert [piece for piece, label in view if label == "added"] == additions
        assert all(label in (None, "added") for _, label in view)
    assert table_rows(scores) == [
        [rouge_type, *(f"{value:.4f}" for value in expected["rouge155"][rouge_type])] for rouge_type in DEFAULT_TYPES
    ]


def test_score_one_notes_the_both_empty_rule():
    _, _, scores, note = app.score_one("A cat sat. A dog ran.", "A dog ran.", "A cat sat.", ["rouge1"], "none")
    assert table_rows(scores) == [["rouge1", "1.0000", "1.0000", "1.0000"]]
    assert "Neither adds anything" in note and "1.0" in note


def test_porter_stemmer_choice_stems():
    example = ("Pets.", "Pets. The cats run.", "Pets. The cat runs.")
    _, _, plain, _ = app.score_one(*example, ["rouge1"], "none")
    _, _, stemmed, _ = app.score_one(*example, ["rouge1"], "porter")
    # Unstemmed only "the" matches (1 of 3 each way); stemmed all three do.
    assert table_rows(plain) == [["rouge1", "0.3333", "0.3333", "0.3333"]]
    assert table_rows(stemmed) == [["rouge1", "1.0000", "1.0000", "1.0000"]]


def test_rouge_types_are_shown_in_a_fixed_order():
    _, _, scores, _ = app.score_one(*DAN, ["rougeLsum", "rougeL", "rouge1"], "none")
    assert list(scores["rouge type"]) == ["rouge1", "rougeL", "rougeLsum"]


def test_no_rouge_type_is_a_clear_error():
    with pytest.raises(gradio.Error, match="rouge_types is empty"):
        app.score_one(*DAN, [], "none")


def test_highlighting_keeps_every_character_and_marks_repeated_additions():
    text = "Old. New...  New. Old.\nLast"
    view = app.highlight_additions(text, ["New.", "New.", "Last"])
    assert view == [
        ("Old. ", None),
        ("New.", "added"),
        ("..  ", None),
        ("New.", "added"),
        (" Old.\n", None),
        ("Last", "added"),
    ]


def test_highlighting_rejects_additions_that_are_not_segments_of_the_text():
    with pytest.raises(ValueError, match="'Gone.' is not a segment"):
        app.highlight_additions("Kept. New.", ["New.", "Gone."])


def test_score_file_on_fruit_jsonl_matches_rouge155(golden):
    status, results, corpus, shown, histogram, choice, per_example, csv_path = app.score_file(
        str(FRUIT), DEFAULT_TYPES, "none"
    )
    assert status == "Scored 3 examples from fruit_triples.jsonl."
    assert results == {"__type__": "update", "visible": True}
    corpus_values = dict(table_rows(corpus))
    for _i, rouge_type in enumerate(DEFAULT_TYPES):
        for j, name in enumerate(["", "_precision", "_recall"]):
            values = [row["rouge155"][rouge_type][[2, 0, 1][j]] for row in golden]
            assert corpus_values[f"update_{rouge_type}{name}"] == f"{math.fsum(values) / 3:.4f}"
    # The figures README.md's "Examples" shows for the same file.
    readme_f1 = {row[0]: row[1] for row in markdown_rows(readme_section("### Examples"), "update_")}
    assert readme_f1 == {f"update_{t}": corpus_values[f"update_{t}"] for t in DEFAULT_TYPES}
    assert corpus_values["_both_empty"] == "0"
    assert list(shown["line"]) == [1, 2, 3]
    assert list(shown["update_rouge1"]) == [f"{row['rouge155']['rouge1'][2]:.4f}" for row in golden]
    # rouge1 F1: 0.5989, 0.5276, 0.4463.
    assert dict(zip(histogram["F1"], histogram["examples"])) == {
        **{f"{k / 10:.1f}-{(k + 1) / 10:.1f}": 0 for k in range(10)},
        "0.4-0.5": 1,
        "0.5-0.6": 2,
    }
    assert choice == {"__type__": "update", "choices": DEFAULT_TYPES, "value": "rouge1"}
    with open(csv_path, newline="", encoding="utf-8") as handle:
        written = list(csv.DictReader(handle))
    assert [int(row["line"]) for row in written] == [1, 2, 3]
    for row, expected in zip(written, golden):
        for rouge_type in DEFAULT_TYPES:
            precision, recall, f1 = expected["rouge155"][rouge_type]
            assert float(row[f"update_{rouge_type}"]) == pytest.approx(f1, abs=1e-9)
            assert float(row[f"update_{rouge_type}_precision"]) == pytest.approx(precision, abs=1e-9)
            assert float(row[f"update_{rouge_type}_recall"]) == pytest.approx(recall, abs=1e-9)
    assert list(per_example["update_rougeLsum"]) == [float(row["update_rougeLsum"]) for row in written]


def test_histogram_of_another_rouge_type(golden):
    *_, per_example, _ = app.score_file(str(FRUIT), DEFAULT_TYPES, "none")
    histogram = app.f1_histogram(per_example, "rougeLsum")
    # rougeLsum F1: 0.5989, 0.5153, 0.4463.
    assert [count for label, count in histogram.values.tolist() if count] == [1, 2]
    assert [label for label, count in histogram.values.tolist() if count] == ["0.4-0.5", "0.5-0.6"]


def test_histogram_puts_perfect_scores_in_the_last_bin():
    histogram = app.f1_histogram(pd.DataFrame({"update_rouge1": [0.0, 0.1, 0.95, 1.0]}), "rouge1")
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
    status, _, _, shown, *_ = app.score_file(str(path), ["rouge1"], "none")
    assert status == "Scored 2 examples from triples.csv."
    assert list(shown["update_rouge1"]) == [f"{golden[i]['rouge155']['rouge1'][2]:.4f}" for i in (0, 1)]
    assert list(shown["line"]) == [2, 3]


def test_porter_stemmer_in_score_file_equals_rouge_score_with_stemming(golden):
    _, _, _, _, _, _, per_example, _ = app.score_file(str(FRUIT), ["rouge1", "rougeLsum"], "porter")
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True)
    for i, row in enumerate(golden):
        expected = scorer.score("\n".join(row["reference_additions"]), "\n".join(row["prediction_additions"]))
        assert per_example["update_rouge1"][i] == expected["rouge1"].fmeasure
        assert per_example["update_rougeLsum"][i] == expected["rougeLsum"].fmeasure


GOOD_LINE = '{"source": "a.", "reference": "a. b.", "prediction": "a. c."}\n'

BAD_FILES = [
    ("bad.jsonl", GOOD_LINE + '{"source": "a.",\n', "line 2: not valid JSON"),
    ("bad.jsonl", GOOD_LINE + "\n" + '{"source": "a.", "prediction": "a."}\n', "line 3: missing field(s) reference"),
    ("bad.jsonl", GOOD_LINE + '{"source": 3, "reference": "a", "prediction": "a"}\n', "line 2: source must be a str"),
    ("bad.jsonl", GOOD_LINE + '{"source": "a", "reference": [], "prediction": "a"}\n', "line 2: reference must be"),
    ("bad.jsonl", GOOD_LINE + '["a", "b", "c"]\n', "line 2: expected a JSON object"),
    ("bad.jsonl", "\n\n", "bad.jsonl: the file holds no examples"),
    ("bad.csv", "source,prediction\na.,b.\n", "line 1: the header lacks the column(s) reference"),
    ("bad.csv", 'source,reference,prediction\n"a\nb.",c.,d.\ne.,f.\n', "line 4: 2 cells, but the header has 3"),
    ("bad.csv", 'source,reference,prediction\na.,"[""x"", 1]",c.\n', "line 2: reference must be"),
    ("bad.csv", 'source,reference,prediction\na.,"b.\n', "not valid CSV"),
    ("bad.txt", "whatever", "bad.txt: expected a .jsonl or .csv file, got .txt"),
    (
        "bad.jsonl",
        GOOD_LINE + '{"source": "a", "reference": "b", "prediction": "c \\ud800"}\n',
        "line 2: prediction contains a lone surrogate (U+D800) at character 2",
    ),
    ("bad.jsonl", '{"source": "a", "reference": ["b", "\\udfff"], "prediction": "c"}\n', "line 1: reference contains"),
    ("bad.csv", 'source,reference,prediction\na,"[""\\udc00""]",c\n', "line 2: reference contains a lone surrogate"),
]


@pytest.mark.parametrize("name, content, message", BAD_FILES)
def test_malformed_file_gives_a_message_naming_the_line_and_nothing_else(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    status, results, *outputs = app.score_file(str(path), DEFAULT_TYPES, "none")
    assert status.startswith("**Error:** ") and message in status
    assert results == {"__type__": "update", "visible": False}
    assert outputs == [None, None, None, {"__type__": "update", "choices": [], "value": None}, None, None]


def test_non_utf8_file_names_the_line(tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(GOOD_LINE.encode() + '{"source": "caf\u00e9"}\n'.encode("latin-1"))
    status, *_ = app.score_file(str(path), DEFAULT_TYPES, "none")
    assert status == "**Error:** line 2: the file is not UTF-8 text"


def test_csv_reference_starting_with_a_bracket_that_is_not_json_is_one_reference(tmp_path):
    path = tmp_path / "wiki.csv"
    path.write_text("source,reference,prediction\nA.,A. [[B]] c.,A. [[B]] c.\n", encoding="utf-8")
    _, _, _, shown, *_ = app.score_file(str(path), ["rouge1"], "none")
    assert list(shown["update_rouge1"]) == ["1.0000"]


@pytest.mark.parametrize(
    "texts, message",
    [
        (("s.", "s. a.", None), "predictions[0] must be a string, got None"),
        (("s.", "s. \ud800.", "s."), "references[0] contains a lone surrogate (U+D800)"),
    ],
)
def test_score_one_reports_bad_text_as_a_message(texts, message):
    with pytest.raises(gradio.Error) as raised:
        app.score_one(*texts, DEFAULT_TYPES, "none")
    assert message in str(raised.value)


def test_score_one_on_white_space_scores_the_both_empty_rule():
    _, _, scores, note = app.score_one("", " \n ", "\t", DEFAULT_TYPES, "none")
    assert list(scores["F1"]) == ["1.0000"] * len(DEFAULT_TYPES)
    assert "Neither adds anything" in note


def test_no_upload_asks_for_a_file():
    status, results, *_ = app.score_file(None, DEFAULT_TYPES, "none")
    assert status == "Upload a .jsonl or .csv file first."
    assert results == {"__type__": "update", "visible": False}


def test_csv_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    table = pd.DataFrame({"line": [1, 2], "update_rouge1": [0.1, 1 / 3]})
    path = app.write_csv_atomically(table, tmp_path)
    assert path.read_text(encoding="utf-8") == f"line,update_rouge1\n1,0.1\n2,{1 / 3!r}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [app.CSV_NAME]

    def write_half_then_fail(self, target, **kwargs):
        with open(target, "w", encoding="utf-8") as handle:
            handle.write("line,upd")
        raise OSError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_csv", write_half_then_fail)
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(OSError, match="disk full"):
        app.write_csv_atomically(table, other)
    assert not (other / app.CSV_NAME).exists()


def test_metric_card_is_the_readme_without_front_matter():
    card = app.metric_card((DATA_DIR.parent.parent / "README.md").read_text(encoding="utf-8"))
    assert card.startswith("# Metric Card for UpdateROUGE\n")
    assert "app_file:" not in card and "## Citation" in card
    assert app.metric_card("# No front matter\n") == "# No front matter\n"


def test_demo_builds_without_analytics():
    demo = app.build_demo()
    assert isinstance(demo, gradio.Blocks)
    assert demo.analytics_enabled is False


@pytest.mark.parametrize("index", [0, 1, 2])
def test_rouge155_stemmer_in_the_demo_matches_rouge155_with_stemming(index, golden):
    row = read_jsonl("fruit_triples.jsonl")[index]
    _, _, scores, _ = app.score_one(row["source"], row["reference"], row["prediction"], DEFAULT_TYPES, "rouge155")
    assert table_rows(scores) == [
        [rouge_type, *(f"{value:.4f}" for value in golden[index]["rouge155_stem"][rouge_type])]
        for rouge_type in DEFAULT_TYPES
    ]


def test_score_file_reports_the_bootstrap_interval_of_the_chosen_level():
    rows = read_jsonl("iterater_triples.jsonl")
    columns = dict(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        rouge_types=["rouge1"],
    )
    path = str(DATA_DIR / "iterater_triples.jsonl")
    for level, value in (("0.90", 0.90), ("0.99", 0.99)):
        _, _, corpus, *_ = app.score_file(path, ["rouge1"], "none", level)
        expected = update_rouge.compute(**columns, confidence_level=value)
        shown = dict(table_rows(corpus))
        assert shown["update_rouge1_low"] == f"{expected['update_rouge1_low']:.4f}"
        assert shown["update_rouge1_high"] == f"{expected['update_rouge1_high']:.4f}"
    _, _, corpus, *_ = app.score_file(path, ["rouge1"], "none", "none")
    assert "update_rouge1_low" not in dict(table_rows(corpus))
