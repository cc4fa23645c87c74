"""What the page is sent for a big file or a long text (``demo.long_texts``, ``demo.file_handlers``):
the first rows of the per-example table, the first segments and tokens of a long text's views,
each with a line saying so; the downloads, scores and counts stay whole."""

import csv
import json

from app_calls import FRUIT, score_file

from demo import file_handlers, handlers, long_texts
from demo.options import ScreenOptions

# A 10,000-line reference: the source's sentence, then 10,000 added lines of 3 tokens each.
SOURCE = "Kept."
LONG_REFERENCE = SOURCE + "\n" + "\n".join(f"Line {i} added." for i in range(10_000))
PREDICTION = "Kept. Line 1 added."


def test_a_big_files_table_shows_its_first_rows_and_says_the_csv_has_them_all(monkeypatch):
    whole = score_file(FRUIT, ["rouge1"], "none")
    assert list(whole["per_example"]["line"]) == [1, 2, 3]
    assert whole["labels"]["per_example"] == 'Per-example F1, 0 to 1 (click a row to open it under "One example")'
    monkeypatch.setattr(file_handlers, "SHOWN_ROWS", 2)
    out = score_file(FRUIT, ["rouge1"], "none")
    assert list(out["per_example"]["line"]) == [1, 2]
    assert list(out["per_example"]["rouge1"]) == list(whole["per_example"]["rouge1"][:2])
    assert out["labels"]["per_example"].endswith(": the first 2 of 3 examples; all are in the per-example CSV")
    # What a row opens, the histogram and the download are the whole file's.
    assert list(out["per_example_state"]["line"]) == [1, 2, 3]
    with open(out["download_csv"], encoding="utf-8") as handle:
        assert [row["line"] for row in csv.DictReader(handle)] == ["1", "2", "3"]
    assert out["histogram"] == whole["histogram"]


def test_the_label_of_a_file_of_7200_examples():
    assert file_handlers.per_example_label(7200).endswith(
        ": the first 500 of 7200 examples; all are in the per-example CSV"
    )
    assert file_handlers.per_example_label(500) == file_handlers.PER_EXAMPLE_LABEL


def test_a_long_references_highlights_are_its_first_segments_with_a_note():
    out = handlers.score_one(SOURCE, LONG_REFERENCE, PREDICTION, ["rouge1"], "none")
    view = out["reference_view"]
    marked = [text for text, label in view if label is not None]
    assert marked[:3] == ["Kept.", "Line 0 added.", "Line 1 added."]
    assert len(marked) == long_texts.MAX_MARKED and marked[-1] == "Line 498 added."
    assert view[-1] == (long_texts.CUT, None)
    assert len(json.dumps(view)) < 30_000  # it was ~390 KB
    assert "The reference is long: its view above shows its first 500 of 10001 segments" in out["note"]
    assert "prediction is long" not in out["note"]
    # The scores are the whole text's: 3 of the reference's 30,000 added tokens are matched.
    assert out["scores"].values.tolist()[0][2] == "0.0001"
    assert handlers.score_one(SOURCE, "Kept. New.", PREDICTION, ["rouge1"], "none")["reference_view"][-1] != (
        long_texts.CUT,
        None,
    )


def test_a_long_references_matched_tokens_are_its_first_tokens_with_a_note():
    texts = handlers.Texts(SOURCE, LONG_REFERENCE, PREDICTION)
    out = handlers.show_matches(texts, "rouge1", ScreenOptions.of(stemmer="none"))
    shown = "".join(text for text, _ in out["reference_matches"]).split()
    assert shown[:4] == ["line", "0", "added", "line"] and shown[-1] == "…"
    assert len(shown) == long_texts.MAX_UNITS + 1
    # What the page is sent: the 3 matched tokens, each a piece, and the text between them in 3
    # (a piece per token sent 170 KB and drew the view for seconds).
    assert [label for _, label in out["reference_matches"]] == ["matched", None, "matched", None, "matched", None]
    assert "The reference's tokens below are its first 2000 of 30000" in out["match_note"]
    # The counts are the whole text's: recall 3/30000.
    assert "recall 3/30000 of the reference's" in out["match_note"]
    assert out["prediction_matches"] == [("line", "matched"), (" ", None), ("1", "matched"), (" ", None)] + [
        ("added", "matched")
    ]
