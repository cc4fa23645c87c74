"""Issue 26 in the demo: options named in every error of the HTTP API's handlers, a time limit per
file, the LCS limit lowered when served (the limits read from the environment are in
test_demo_options.py, the bounded number of download folders in test_demo_downloads.py)."""

import json

import gradio as gr
import pytest
from conftest import DATA_DIR

from demo import file_handlers, handlers
from demo import options as demo_options
from demo import page as demo_page
from update_rouge import lcs, wlcs
from update_rouge import matches as token_matches

FRUIT = DATA_DIR / "fruit_triples.jsonl"
TEXTS = ("S.", "S. A cat sat.", "S. A cat ran.")


@pytest.mark.parametrize(
    "position, value, message",
    [
        ("max_words", float("nan"), "max_words must be a whole number >= 0 (0: no limit), got nan"),
        ("max_words", float("inf"), "max_words must be a whole number >= 0 (0: no limit), got inf"),
        ("max_bytes", "many", "max_bytes must be a whole number >= 0 (0: no limit), got 'many'"),
        ("max_bytes", 2.5, "max_bytes must be a whole number >= 0 (0: no limit), got 2.5"),
        ("max_words", True, "max_words must be a whole number >= 0 (0: no limit), got True"),
        ("alpha", "half", "alpha must be a number in [0, 1], got 'half'"),
        ("alpha", float("nan"), 'alpha must be a number in [0, 1], got nan; instead: set alpha back to "0.5"'),
        ("alpha", [0.5], "alpha must be a number in [0, 1], got [0.5]"),
    ],
)
def test_the_api_names_the_option_of_an_unusable_value(position, value, message):
    options = {"max_words": None, "max_bytes": None, "alpha": 0.5, position: value}
    arguments = (
        ["rouge1"],
        "none",
        demo_options.NO_LANGUAGE,
        False,
        options["max_words"],
        options["max_bytes"],
        options["alpha"],
    )
    note = handlers.score_one(*TEXTS, *arguments)["note"]
    assert note == f"Error: {message}"
    status = file_handlers.score_file(str(FRUIT), arguments[0], "none", "none", *arguments[2:])["status"]
    assert status == f"Error: {message}"


def test_the_api_takes_numbers_as_text_and_a_weight_too_large_is_named():
    by_text = handlers.score_one(*TEXTS, ["rouge1"], "none", demo_options.NO_LANGUAGE, False, "2", None, "0.5")
    by_number = handlers.score_one(*TEXTS, ["rouge1"], "none", demo_options.NO_LANGUAGE, False, 2, None, 0.5)
    assert by_text["scores"].equals(by_number["scores"]) and by_text["note"] == by_number["note"]
    note = handlers.score_one(*TEXTS, ["rougeW-2000"], "none")["note"]
    assert note.startswith("Error: rouge type 'rougeW-2000': the ROUGE-W weight must be greater than 1 and at most 5")


def test_scoring_a_file_stops_at_the_time_limit(monkeypatch):
    monkeypatch.setattr(file_handlers, "MAX_REQUEST_SECONDS", 1e-9)
    status = file_handlers.score_file(str(FRUIT), ["rouge1"], "none", "none")["status"]
    assert status == (
        "Error: fruit_triples.jsonl: stopped at line 1 after 1e-09 s, this demo's limit per file "
        "(UPDATE_ROUGE_DEMO_MAX_SECONDS). Score larger files with the update-rouge command."
    )
    monkeypatch.setattr(file_handlers, "MAX_REQUEST_SECONDS", 60)
    assert file_handlers.score_file(str(FRUIT), ["rouge1"], "none", "none")["status"].startswith("Scored 3 examples")


def test_one_example_beyond_the_lcs_limit_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv("UPDATE_ROUGE_MAX_PYTHON_LCS_CELLS", "399")
    long = " ".join(["w"] * 20)
    note = handlers.score_one("", long, long, ["rougeL"], "none")["note"]
    assert note.startswith(
        "Error: rougeL of 20 x 20 tokens is more than this demo's LCS limit of 399 cells (about 1.8e-07 s"
    )
    # A Space's visitor cannot set an environment variable: the note says what they can do.
    assert "UPDATE_ROUGE" not in note and note.endswith(
        "score it with the update-rouge command (pip install update-rouge), whose limits can be raised."
    )
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps({"source": "", "reference": long, "prediction": long}) + "\n", encoding="utf-8")
    status = file_handlers.score_file(str(path), ["rougeL"], "none")["status"]
    assert status.startswith("Error: long.jsonl:1: rougeL of 20 x 20 tokens is more than this demo's LCS limit"), status
    assert "UPDATE_ROUGE" not in status


# Issue 39: 10,000 one-word sentences a side are 100,000,000 line pairs; ROUGE-W held the server 223 s.
ONE_WORD_LINES = "\n".join(["w."] * 10_000)


def test_the_served_lcs_limit_refuses_ten_thousand_one_word_sentences_before_any_lcs(monkeypatch):
    rouge_type = "rougeW-1.2"
    variable = "UPDATE_ROUGE_MAX_PYTHON_LCS_CELLS"
    monkeypatch.setenv(variable, "1")
    monkeypatch.delenv(variable)  # restored (unset) after the test
    demo_options.serve_limits()

    # "Before any LCS is computed" is proven by the work done, not by a clock: every function that
    # fills an LCS table (ROUGE-W's two, the bit-parallel rows, the demo's matched pairs) refuses to.
    class LcsComputed(Exception):
        pass

    def counted(name):
        def refuse(*arguments, **keywords):
            raise LcsComputed(f"{name} filled an LCS table before the refusal")

        return refuse

    for module, name in (
        (wlcs, "_mark_small"),
        (wlcs, "_mark_large"),
        (lcs, "_advance"),
        (token_matches, "_lcs_pairs"),
        (token_matches, "_summary_marks"),
    ):
        monkeypatch.setattr(module, name, counted(name))
    note = handlers.score_one("", ONE_WORD_LINES, ONE_WORD_LINES, [rouge_type], "none")["note"]
    matches = handlers.show_matches(
        handlers.Texts("", ONE_WORD_LINES, ONE_WORD_LINES), rouge_type, demo_options.ScreenOptions.of(stemmer="none")
    )["match_note"]
    # 10,000 x 10,000 one-token lines: 10**8 cells and 10**8 line pairs of 9,000 cells each, and their
    # 1 x 1 ROUGE-W tables of 2,000 + 10,000 x 2 cells each.
    assert (
        note
        == matches
        == (
            f"Error: {rouge_type} of 10,000 x 10,000 tokens with their line pairs (a cost of 3,100,100,000,000 cells) is more "
            "than this demo's LCS limit of 20,000,000,000 cells (about 9 s of computing). This demo keeps one example "
            "to seconds; score it with the update-rouge command (pip install update-rouge), whose limits can be raised."
        )
    )


def test_the_number_fields_pass_what_gradio_cannot_convert_on_for_the_handlers_to_name_once():
    # gradio's own refusal is a pop-up per event that reads the field (several), with its own
    # words; the field passes the value on, and the options name it once, with the demo's rule.
    demo = demo_page.build_demo()
    numbers = {block.option: block for block in demo.blocks.values() if isinstance(block, gr.Number)}
    assert sorted(numbers) == ["alpha", "max_bytes", "max_words", "n_bootstrap", "seed"]
    assert {type(block) for block in numbers.values()} == {gr.Number}  # gradio's own field
    for name in ("max_words", "max_bytes"):
        for value in (float("nan"), "many", -1):
            assert numbers[name].preprocess(value) == value or value != value
        assert numbers[name].preprocess(3.0) == 3 and numbers[name].preprocess(None) is None
    assert numbers["alpha"].preprocess("half") == "half" and numbers["alpha"].preprocess(0.25) == 0.25
    assert numbers["n_bootstrap"].preprocess(100000) == 100000
    checked = {
        "max_words": (float("inf"), "max_words must be a whole number >= 0 (0: no limit), got inf"),
        "alpha": ("half", "alpha must be a number in [0, 1], got 'half'"),
        "n_bootstrap": (
            100000,
            "n_bootstrap must be a whole number from 1 to 10,000 (this demo's limit; the update-rouge command "
            "takes more), got 100000",
        ),
        "seed": (float("nan"), "seed must be a whole number >= 0, got nan"),
    }
    for name, (value, message) in checked.items():
        with pytest.raises(demo_options.DemoError) as caught:
            demo_options.ScreenOptions.of({name: numbers[name].preprocess(value)}).settings()
        assert str(caught.value) == message
