"""Every view true to what was computed (issue 52 items 4 and 6): a file's row opens scored as the
table was (its protocol too), the labels name the statistic shown (a bootstrap median, no
interval), and the words fit the file (no language for a file without a word, one example in the
singular) and the Reproduce code (what ``<namespace>`` is)."""

import json

from app_calls import DEFAULT_TYPES, FRUIT, score_file
from conftest import read_histogram

from demo import events, render, reproduce
from demo.histogram import histogram_svg
from demo.options import ScreenOptions


def _option_values(**changes):
    return vars(ScreenOptions.of(**changes)).copy()


def test_a_row_of_a_table_scored_under_fruit_opens_scored_under_fruit(golden):
    out = score_file(FRUIT, DEFAULT_TYPES, "none", protocol="fruit")
    values = {**_option_values(stemmer="none"), "upload": str(FRUIT), "per_example_state": out["per_example_state"]}
    opened = events._open_example({**values, "protocol": "fruit"}, 0)
    rows = {row[0]: row[1:] for row in opened["scores"].values.tolist()}
    # rougeLsum under FRUIT's rules is the table's row, not ROUGE-1.5.5's (our rules') F1.
    assert rows["rougeLsum"][2] == out["per_example"]["rougeLsum"][0]
    assert rows["rougeLsum"][2] != f"{golden[0]['rouge155']['rougeLsum'][2]:.4f}"
    assert opened["note"].startswith(
        "Line 1 of fruit_triples.jsonl. Scored under protocol fruit, as the table's row.\n"
    )
    assert opened["scored_options"].protocol == "fruit"
    # Without a protocol the row opens as ROUGE-1.5.5 scores it, and the note names none.
    plain = events._open_example({**values, "protocol": "none"}, 0)
    assert {row[0]: row[3] for row in plain["scores"].values.tolist()}["rougeLsum"] == (
        f"{golden[0]['rouge155']['rougeLsum'][2]:.4f}"
    )
    assert "protocol" not in plain["note"]


def test_the_histograms_line_names_the_corpus_statistic():
    fruit = score_file(FRUIT, DEFAULT_TYPES, "none", protocol="fruit")
    label = read_histogram(fruit["histogram"])["mean_label"]
    assert label.startswith("mean of the examples (corpus score: fruit's bootstrap median x 100) ")
    editeval = score_file(FRUIT, DEFAULT_TYPES, "none", protocol="editeval")
    assert read_histogram(editeval["histogram"])["mean_label"].startswith(
        "mean of the examples (corpus score: editeval's bootstrap median) "
    )
    plain = score_file(FRUIT, ["rouge1"], "none")
    assert read_histogram(plain["histogram"])["mean_label"] == "corpus score (macro mean) 0.5243"
    # The histogram drawn again for another type (its menu) names it too.
    again = histogram_svg(fruit["per_example_state"], "rouge1", "macro", "fruit")
    assert "fruit's bootstrap median x 100" in again


def test_no_interval_wording_without_an_interval():
    out = score_file(FRUIT, ["rouge1"], "none", confidence_level="none")
    assert list(out["summary"].columns)[1] == "F1"
    assert "interval" not in out["labels"]["summary"]
    assert "interval" not in out["status"]
    with_interval = score_file(FRUIT, ["rouge1"], "none")
    assert with_interval["labels"]["summary"].endswith("F1 with its bootstrap interval at the level its header states")


def _jsonl(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_a_file_without_a_word_is_not_told_to_choose_a_language(tmp_path):
    punctuation = _jsonl(
        tmp_path / "marks.jsonl", [{"source": "", "reference": "!!! ???", "prediction": "... ,,,"}] * 2
    )
    status = score_file(punctuation, ["rouge1"], "none")["status"]
    assert f"Warning: {render.NO_WORDS}" in status
    assert "language" not in status.replace("whatever the language", "")
    # Words the tokenizer drops (Chinese) still get the advice: a language helps there.
    chinese = _jsonl(tmp_path / "zh.jsonl", [{"source": "", "reference": "天气很好。", "prediction": "天气不错。"}] * 2)
    assert render.NO_TOKENS_ADVICE in score_file(chinese, ["rouge1"], "none")["status"]


def test_a_file_of_one_example_is_counted_in_the_singular(tmp_path):
    one = _jsonl(tmp_path / "one.jsonl", [{"source": "a.", "reference": "a. b.", "prediction": "a. c."}])
    assert score_file(one, ["rouge1"], "none")["status"].splitlines() == [
        "Scored 1 example from one.jsonl; one side or both add something.",
        "Warning: the bootstrap intervals rest on 1 example, fewer than 30: with so few, such an interval misses "
        "the true mean more often than its level says; read it as a rough range.",
    ]
    empty = _jsonl(tmp_path / "same.jsonl", [{"source": "a.", "reference": "a.", "prediction": "a."}])
    status = score_file(empty, ["rouge1"], "none", confidence_level="none")["status"]
    assert status == "Scored 1 example from same.jsonl; neither side adds anything, so it scores 1.0."


def test_the_reproduce_code_outside_a_space_says_what_namespace_is():
    local = reproduce.reproduce(ScreenOptions.of(), environ={})
    hint = "# <namespace>: the Hugging Face account the UpdateROUGE Space is published under"
    assert f"{hint} (https://huggingface.co/spaces/<namespace>/update_rouge).\nupdate_rouge = evaluate.load(" in local
    assert "<namespace>" not in reproduce.reproduce(ScreenOptions.of(), environ={"SPACE_ID": "someone/update_rouge"})
    # The one-example tab's code too.
    one = reproduce.reproduce_example(ScreenOptions.of(), ("a.", "a. b.", "a. c."), environ={})
    assert f"{hint} (https://huggingface.co/spaces/<namespace>/update_rouge).\nupdate_rouge = evaluate.load(" in one
