"""The demo's handlers of one example (``demo.handlers``) called directly: scores, highlights,
notes, matched tokens, the note when the options change (the drawing itself is in test_demo_render.py).

Expected scores come from outside the package: hand counts, ROUGE-1.5.5's values and additions
in tests/data/rouge155_golden.jsonl, and rouge-score run here on those additions.
"""

import json
import re
from pathlib import Path

import gradio
import pytest
from app_calls import DAN, DEFAULT_TYPES, GOOD_LINE, KEPT, score_file, score_one, show_matches, table_rows
from conftest import read_jsonl

import update_rouge.metric
from demo import handlers, render
from demo import options as demo_options

REPO = Path(__file__).resolve().parents[2]
# score_one's options between the stemmer and additions, at their defaults.
EDIT_DEFAULTS = (demo_options.NO_LANGUAGE, False, 0, 0, 0.5)


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
    assert views == [None, None, None] and note == "Error: rouge_types: tick at least one type"


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
        (" cakes", None),  # the text between two matches is one piece
    ]
    assert [token for token, label in prediction_pieces if label] == ["dan", "loves", "chocolate"]
    assert note.startswith("rouge1 counts 3 matched tokens: ") and "Precision 3/5 " in note and "recall 3/4 " in note
    _, _, note = show_matches(source, reference, prediction, "rouge2", "none")
    assert "Precision 2/4 of the prediction's 2-grams, recall 2/3 of the reference's" in note


def test_show_matches_puts_each_addition_on_a_line_for_rougelsum_and_handles_no_additions():
    pieces, _, note = show_matches("S.", "S. A cat sat. The dog ran.", "S. The cat ran.", "rougeLsum", "none")
    assert pieces == [("a ", None), ("cat", "matched"), (" sat\n", None), ("the", "matched"), (" dog ", None)] + [
        ("ran", "matched")
    ]
    assert "counts 3 matched tokens" in note  # cat from the first line; the, ran from the second
    assert show_matches("S.", "S.", "S.", "rouge1", "none") == (
        None,
        None,
        "Neither side adds anything: there is nothing to match.",
    )
    assert show_matches("S.", "S. A.", "S. B.", "rougeW", "none")[2].startswith("Error: the matches of rougeW")


def test_the_tokenless_warning_is_shown_for_one_example_and_for_a_file(tmp_path):
    *_, note = score_one("s.", "s. 中文。", "s. 中文。", ["rouge1"], "none")
    assert "Warning: 1 of 1 example has additions in which the tokenizer finds no token" in note
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


def test_the_advanced_options_reach_the_scorer():
    # max_words=2 keeps "dan loves" of each addition: 2 of 2 unigrams match.
    _, _, scores, _ = score_one(*DAN, ["rouge1"], "none", demo_options.NO_LANGUAGE, False, 2, 0, 0.5)
    assert table_rows(scores) == [["rouge1", "1.0000", "1.0000", "1.0000"]]
    *_, note = score_one(*DAN, ["rouge1"], "none", demo_options.NO_LANGUAGE, False, 2, 5, 0.5)
    assert note.startswith("Error: ") and "max_words" in note and "max_bytes" in note


def test_score_one_scores_the_example_once(monkeypatch):
    scorer_module = update_rouge.metric
    score_checked = scorer_module.score_checked
    scored = []

    def counted(settings, sources, predictions, references):
        scored.append(len(sources))
        return score_checked(settings, sources, predictions, references)

    monkeypatch.setattr(scorer_module, "score_checked", counted)
    _, _, scores, note = score_one(*DAN, DEFAULT_TYPES, "none")
    assert scored == [1], f"score_one scored {scored} examples per call, expected one call of one example"
    assert table_rows(scores)[0] == ["rouge1", "0.6000", "0.7500", "0.6667"]
    # The no-token warning comes from the same scoring.
    scored.clear()
    *_, note = score_one("s.", "s. 中文。", "s. 中文。", ["rouge1"], "none")
    assert scored == [1] and "Warning: 1 of 1 example has additions in which the tokenizer finds no token" in note


def test_a_text_change_clears_the_view_unless_the_texts_are_those_scored():
    texts, other = handlers.Texts(*DAN), handlers.Texts(*DAN[:2], "other")
    assert handlers.clear_unless_scored(texts, texts) == {}
    cleared = handlers.clear_unless_scored(other, texts)
    assert cleared == handlers.cleared_example()
    assert cleared["scored_texts"] is None and cleared["matches_box"] == {"__type__": "update", "visible": False}
    options = demo_options.ScreenOptions.of()
    assert handlers.matches_if_scored(other, "rouge1", options, texts) == {}
    assert handlers.matches_if_scored(texts, "rouge1", options, texts)["match_note"].startswith("rouge1 counts 3")


# The worked example of additions="edits" (docs): a changed number adds that number.
EDITS = (
    "The team won 3 games in 2020. The coach is Smith.",
    "The team won 5 games in 2021. The coach is Smith.",
    "The team won 3 games in 2021. The coach is Smith.",
)


def test_edit_additions_highlight_the_changed_numbers_and_score_them():
    reference_view, prediction_view, scores, note = score_one(*EDITS, ["rouge1"], "none", *EDIT_DEFAULTS, "edits")
    assert reference_view == [
        ("The team won ", KEPT),
        ("5", "added"),
        (" games in ", KEPT),
        ("2021", "added"),
        (". The coach is Smith.", KEPT),
    ]
    assert prediction_view == [("The team won 3 games in ", KEPT), ("2021", "added"), (". The coach is Smith.", KEPT)]
    # Hand count: the prediction adds "2021", the reference "5" and "2021": P 1/1, R 1/2, F1 2/3.
    assert table_rows(scores) == [["rouge1", "1.0000", "0.5000", "0.6667"]]
    assert render.UNPLACED_EDITS not in note
    reference, prediction, match_note = show_matches(*EDITS, "rouge1", "none", additions="edits")
    assert reference == [("5 ", None), ("2021", "matched")]
    assert prediction == [("2021", "matched")]
    assert "Precision 1/1" in match_note and "recall 1/2" in match_note


def test_edit_additions_that_cannot_be_placed_in_the_text_are_said_so_not_guessed():
    # Porter stems "happy" to "happi", which the text does not show: no highlight, and the note says why.
    source, reference, prediction = "We are here.", "We are happy here.", "We are happy here."
    reference_view, prediction_view, scores, note = score_one(
        source, reference, prediction, ["rouge1"], "porter", *EDIT_DEFAULTS, "edits"
    )
    assert reference_view == [(reference, None)] and prediction_view == [(prediction, None)]
    assert note.endswith(render.UNPLACED_EDITS)
    assert table_rows(scores) == [["rouge1", "1.0000", "1.0000", "1.0000"]]


def test_edit_highlights_cover_a_stem_to_its_word_end_and_keep_the_text():
    # "games" stems to "game": the highlight runs to the end of the word.
    source, reference = "They won 3 games.", "They won 3 games and 2 cups."
    view, _, _, _ = score_one(source, reference, reference, ["rouge1"], "porter", *EDIT_DEFAULTS, "edits")
    assert view == [("They won 3 games ", KEPT), ("and 2 cups", "added"), (".", KEPT)]
    source, reference = "They won 3.", "They won 3 games."
    view, _, _, _ = score_one(source, reference, reference, ["rouge1"], "porter", *EDIT_DEFAULTS, "edits")
    assert view == [("They won 3 ", KEPT), ("games", "added"), (".", KEPT)]


def test_punctuation_alone_is_said_to_hold_no_word_not_to_need_a_language():
    *_, note = score_one("s.", "s. !!! ...", "s. ?? --", ["rouge1"], "none")
    assert note.endswith(
        "Warning: the additions hold only punctuation or symbols, no word: every tokenizer finds no token "
        "in them, whatever the language, so their scores count nothing."
    )
    assert "language" not in note.split("Warning:")[1].split("whatever the language")[0]


def test_the_snowball_stemmer_stems_the_chosen_language_and_english_stemmers_say_what_to_choose():
    # German: "Kinder" and "Kind" share the Snowball stem "kind"; unstemmed, no word matches.
    texts = ("S.", "S. Die Kinder.", "S. Das Kind.")
    _, _, plain, _ = score_one(*texts, ["rouge1"], "none", "de")
    _, _, stemmed, note = score_one(*texts, ["rouge1"], "snowball", "de")
    assert table_rows(plain)[0][3] == "0.0000"
    assert table_rows(stemmed)[0][1:] == ["0.5000", "0.5000", "0.5000"], note  # "kind" of 2 words each
    *_, note = score_one(*texts, ["rouge1"], "porter", "de")
    assert note == (
        'Error: stemmer "porter" stems rouge-score\'s English tokens and cannot be combined with language '
        '"German (de)"; instead: set stemmer back to "none", or choose stemmer "snowball", or set language back '
        'to "none (rouge-score\'s tokens)"'
    )
    *_, note = score_one(*texts, ["rouge1"], "snowball")
    assert note == (
        'Error: stemmer "snowball" stems the words of a language with its Snowball stemmer: it needs language; '
        'instead: set stemmer back to "none", or choose stemmer "porter"'
    )


def test_an_option_change_leaves_a_note_where_the_example_was_scored_until_it_is_scored_again():
    scored = handlers.score_one(*DAN, ["rouge1"], "none")
    assert scored["note"] == "The reference adds 1 segment(s) to the source, the prediction 1."
    defaults = demo_options.ScreenOptions.of()
    changed = handlers.options_changed(handlers.Texts(*DAN), defaults)
    assert changed["note"] == "Options changed: press Score again."
    assert changed["scores"] is None and changed["reference_view"] is None and changed["scored_texts"] is None
    assert changed["matches_box"] == {"__type__": "update", "visible": False}
    # Nothing scored (or already cleared): the view, with its note, stays as it is.
    assert handlers.options_changed(None, defaults) == {}
    # An unusable option is named in the notes at once, scored or not (once: not as a pop-up).
    bad = handlers.options_changed(None, demo_options.ScreenOptions.of(alpha=1.5))
    assert bad["note"] == 'Error: alpha must be a number in [0, 1], got 1.5; instead: set alpha back to "0.5"'
    assert bad["scores"] is None
    again = handlers.score_one(*DAN, ["rouge1"], "porter")
    assert again["note"] == scored["note"] and "changed" not in again["note"]
