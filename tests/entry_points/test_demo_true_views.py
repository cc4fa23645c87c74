"""Every view true to what was computed (issue 52 item 4): a file's row opens scored as the table
was (its protocol too), and the labels name the statistic shown (a bootstrap median, no interval)."""

from app_calls import DEFAULT_TYPES, FRUIT, score_file
from conftest import read_histogram

from demo import events, render
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
    again = render.histogram_svg(fruit["per_example_state"], "rouge1", "macro", "fruit")
    assert "fruit's bootstrap median x 100" in again


def test_no_interval_wording_without_an_interval():
    out = score_file(FRUIT, ["rouge1"], "none", confidence_level="none")
    assert list(out["summary"].columns)[1] == "F1"
    assert "interval" not in out["labels"]["summary"]
    assert "interval" not in out["status"]
    with_interval = score_file(FRUIT, ["rouge1"], "none")
    assert with_interval["labels"]["summary"].endswith("F1 with its bootstrap interval at the level its header states")
