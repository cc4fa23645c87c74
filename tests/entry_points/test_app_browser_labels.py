"""Issue 39's labels, languages, limits and "Cite this result" box, driven in Chromium (against
the checkout and the generated Space folder, tests/served_app.py): the micro average named as
such in every table, the histogram and the Cite box, with the scale of each; a language's Snowball
stemmer chosen on the page; punctuation-only texts and one-example files named as they are; ROUGE-W
on 10,000 one-word sentences refused at once, in one example and in a file (by file and line);
the Cite box, the histogram's menu and the protocol menu; stopwords and edits. No traceback in
the served app's log (``served_app.served`` fails its teardown on one). Expected values are hand
counts, ROUGE-1.5.5's values (tests/data/rouge155_golden.jsonl) and the published FRUIT script's
(tests/data/published_protocols_golden.json).
"""

import json
import re
import time

import pytest
from conftest import DATA_DIR
from playwright.sync_api import expect
from served_app import AS_SHIPPED, DAN, UI_TIMEOUT_MS, fill, grid_rows, highlighted, note, open_page, score, settle

# The fixtures: served, trap, client, browser, page (golden is conftest's).
pytest_plugins = ["served_app"]
pytestmark = [pytest.mark.slow, AS_SHIPPED]

# DAN (rouge1: 3 of 5 prediction words match 3 of 4 reference words; F1 0.6667) and a second
# example whose reference adds "new one" and prediction "new two three" (1 of 3 match 1 of 2; F1
# 0.4). Macro F1 (0.6667 + 0.4) / 2 = 0.5333; micro P 4/8, R 4/6, F1 2 * 0.5 * 0.6667 / 1.1667 = 0.5714.
TWO = [
    {"source": DAN[0], "reference": DAN[1], "prediction": DAN[2]},
    {"source": "Old.", "reference": "Old. New one.", "prediction": "Old. New two three."},
]
MICRO = "micro average (P, R and F from the counts summed over the examples), in percent"
# 10,000 one-word sentences a side: 10**8 line pairs (ROUGE-W held the server 223 s in issue 39).
# On one line: Playwright's fill of the same sentences one per line into the Reference box did not
# end within 60 s (the page was busy; not yet explained), and the sentences, not the lines, count.
ONE_WORD_LINES = " ".join(["w."] * 10_000)
# 10**8 cells, 10**8 line pairs of 9,000 cells and their 1 x 1 ROUGE-W tables of 2,000 + 10,000 x 2 cells.
TOO_LONG = (
    "rougeW of 10,000 x 10,000 tokens with their line pairs (a cost of 3,100,100,000,000 cells) is more than "
    "this demo's LCS limit of 20,000,000,000 cells (about 9 s of computing). This demo keeps one example to "
    "seconds; score it with the update-rouge command (pip install update-rouge), whose limits can be raised."
)


def pct(value):
    return f"{100 * value:.1f}"


def upload(page, path):
    page.get_by_role("tab", name="A file of examples").click()
    page.locator("#batch-file input[type=file]").set_input_files(str(path))


def score_file(page):
    settle(page)  # a late option or upload answer cannot overtake the click
    page.get_by_role("button", name="Score file", exact=True).click()


def cleared(page):
    """Wait until the scores shown go with the texts' edit (the opening example's note reads like
    a new one's: read before this, the old table would pass for the new)."""
    expect(page.locator("#scores [role=gridcell]")).to_have_count(0, timeout=UI_TIMEOUT_MS)
    settle(page)


def choose(page, menu, typed, entry):
    """Pick ``entry`` of the dropdown ``menu`` (an elem_id) after typing ``typed`` in it."""
    page.locator(f"#{menu} input").fill(typed)
    page.get_by_role("option", name=entry).click()


def test_micro_is_named_with_its_scale_in_every_table_the_histogram_and_the_cite_box(page, tmp_path):
    path = tmp_path / "two.jsonl"
    path.write_text("".join(json.dumps({**row, "baseline": row["source"]}) + "\n" for row in TWO), encoding="utf-8")
    upload(page, path)
    page.get_by_text("Several references, resamples, seed, micro average").click()
    page.get_by_label("micro", exact=True).check()
    page.locator("#baseline-column textarea, #baseline-column input").first.fill("baseline")
    score_file(page)
    # Two examples: a resample of one of them drawn twice has probability 1/4 > 2.5%, so the 95%
    # interval runs from the one's micro F1 (0.4) to the other's (0.6667).
    assert grid_rows(page.locator("#corpus-summary"), 3)[0] == ["rouge1", "57.1 [40.0, 66.7]", "50.0", "66.7"]
    expect(page.locator("#corpus-summary")).to_contain_text(f"Corpus scores: {MICRO} (0 to 100)")
    # The baseline predicts the source unchanged: its micro F1 is 0, the difference the system's.
    assert grid_rows(page.locator("#paired-test"), 3)[0][:3] == ["rouge1", "0.0", "+57.1 [+40.0, +66.7]"]
    expect(page.locator("#paired-test")).to_contain_text("the baseline's micro F1")
    expect(page.locator("#paired-test")).to_contain_text("in points (0 to 100)")
    # The histogram's line is the examples' mean, and says it is not the micro score.
    expect(page.locator("#histogram")).to_contain_text("mean of the examples (not the micro score) 0.5333")
    expect(page.locator("#histogram")).to_contain_text("F1 of rouge1 per example, 0 to 1")
    expect(page.locator("#histogram")).not_to_contain_text("corpus")
    assert [row[:3] for row in grid_rows(page.locator("#per-example-scores"), 2)] == [
        ["1", "0.6667", "0.5714"],
        ["2", "0.4000", "0.0000"],
    ]
    expect(page.locator("#per-example-scores")).to_contain_text("Per-example F1, 0 to 1")
    cite = page.locator("#cite textarea")
    expect(cite).to_have_value(re.compile(rf"^UpdateROUGE \({re.escape(MICRO)}\):\nrouge1: F1 \[95% interval\] 57\.1 "))
    expect(cite).to_have_value(re.compile(r"\|agg:micro\|"))
    page.get_by_role("tab", name="One example").click()
    expect(page.locator("#scores")).to_contain_text("Scores of this example (P, R and F1 from 0 to 1)")
    assert page.console_errors == []


def test_a_language_is_stemmed_with_its_snowball_stemmer_chosen_on_the_page(page):
    page.get_by_text("Advanced options").click()
    expect(page.locator("#language")).to_contain_text('and stemmer "snowball" is its Snowball stemmer')
    choose(page, "language", "German", "German (de)")
    page.locator("#stemmer").get_by_label("snowball", exact=True).check()
    # German: "Kinder" and "Kind" share the Snowball stem "kind": 1 of 2 words each side; no bigram.
    fill(page, "S.", "S. Die Kinder.", "S. Das Kind.")
    cleared(page)
    score(page)
    expect(note(page)).to_have_value(re.compile("^The reference adds 1 segment"), timeout=UI_TIMEOUT_MS)
    assert grid_rows(page.locator("#scores"), 3) == [
        ["rouge1", "0.5000", "0.5000", "0.5000"],
        ["rouge2", "0.0000", "0.0000", "0.0000"],
        ["rougeLsum", "0.5000", "0.5000", "0.5000"],
    ]
    expect(page.locator("#example-signature textarea")).to_have_value(re.compile(r"\|stem:snowball"))
    # An English stemmer with a language names what to choose on this page.
    page.locator("#stemmer").get_by_label("porter", exact=True).check()
    expect(note(page)).to_have_value(
        'Error: stemmer "porter" stems rouge-score\'s English tokens and cannot be combined with language '
        '"German (de)"; instead: set stemmer back to "none", or choose stemmer "snowball", or set language back '
        'to "none (rouge-score\'s tokens)"',
        timeout=UI_TIMEOUT_MS,
    )
    expect(page.locator("#scores [role=gridcell]")).to_have_count(0)
    assert page.console_errors == []


def test_punctuation_alone_one_example_files_and_the_interval_help_say_what_they_are(page, tmp_path):
    fill(page, "s.", "s. !!! ...", "s. ?? --")
    score(page)
    expect(note(page)).to_have_value(
        re.compile(
            r"\nWarning: the additions hold only punctuation or symbols, no word: every tokenizer finds no token "
            r"in them, whatever the language, so their scores count nothing\.$"
        ),
        timeout=UI_TIMEOUT_MS,
    )
    assert "choose" not in note(page).input_value()
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(TWO[1]) + "\n", encoding="utf-8")
    upload(page, path)
    score_file(page)
    expect(page.locator("#batch-status textarea")).to_have_value(
        re.compile(r"^Scored 1 example from one\.jsonl; one side or both add something\.\n"),
        timeout=UI_TIMEOUT_MS,
    )
    # The interval's help names the control as this page does, not as the command line or Python would.
    expect(page.get_by_text('confidence_level "none" for none.')).to_be_visible()
    expect(page.get_by_text("--confidence-level")).to_have_count(0)
    expect(page.get_by_text("confidence_level=None")).to_have_count(0)
    assert page.console_errors == []


def test_rouge_w_of_ten_thousand_one_word_sentences_is_refused_at_once_by_example_and_by_file(
    page, browser, served, tmp_path
):
    types = page.locator("#rouge-types")
    types.get_by_label("rougeLsum", exact=True).uncheck()
    types.get_by_label("rougeW", exact=True).check()
    fill(page, "", ONE_WORD_LINES, ONE_WORD_LINES)
    settle(page)
    started = time.monotonic()
    score(page)
    expect(note(page)).to_have_value(f"Error: {TOO_LONG}", timeout=UI_TIMEOUT_MS)
    # Refused before any LCS is computed (the ten seconds the docs promise; 223 s before the limit).
    assert time.monotonic() - started < 10 + 20, "slower than the demo's promise plus the page's own time"
    assert page.console_errors == []
    # The file on a page of its own: the page above, holding the long texts, stayed busy for over
    # 60 s after the refusal (a click was not performed; not yet explained).
    other = open_page(browser, served, {"width": 1280, "height": 800})
    other.locator("#rouge-types").get_by_label("rougeLsum", exact=True).uncheck()
    other.locator("#rouge-types").get_by_label("rougeW", exact=True).check()
    path = tmp_path / "long.jsonl"
    path.write_text(
        json.dumps({"source": "", "reference": ONE_WORD_LINES, "prediction": ONE_WORD_LINES}) + "\n", encoding="utf-8"
    )
    upload(other, path)
    score_file(other)
    # Named by file and line; nothing a Space's visitor cannot do (no environment variable).
    expect(other.locator("#batch-status textarea")).to_have_value(
        f"Error: long.jsonl:1: {TOO_LONG}", timeout=UI_TIMEOUT_MS
    )
    assert other.console_errors == []
    other.close()


def test_the_cite_box_the_histogram_menu_and_the_protocol_menu(page, golden):
    upload(page, DATA_DIR / "fruit_triples.jsonl")
    score_file(page)
    grid_rows(page.locator("#corpus-summary"), 3)
    # Three examples: the 95% interval runs from the lowest example's F1 to the highest's.
    f1s = [row["rouge155"]["rouge1"][2] for row in golden]
    precision, recall = (sum(row["rouge155"]["rouge1"][k] for row in golden) / 3 for k in (0, 1))
    lines = page.locator("#cite textarea").input_value().splitlines()
    assert lines[0] == "UpdateROUGE (macro average (the mean of the examples' scores), in percent):"
    assert lines[1] == (
        f"rouge1: F1 [95% interval] {pct(sum(f1s) / 3)} [{pct(min(f1s))}, {pct(max(f1s))}], "
        f"P {pct(precision)}, R {pct(recall)}"
    )
    assert lines[4] == "Signature: " + page.locator("#signature textarea").input_value()
    assert lines[6].startswith("@inproceedings{")
    assert "@inproceedings{lin-2004-rouge," in "\n".join(lines[6:])
    expect(page.locator("#cite").get_by_role("button")).to_have_count(1)
    # The histogram of another type: its own examples' mean.
    choose(page, "histogram-of", "rouge2", "rouge2")
    rouge2_mean = sum(row["rouge155"]["rouge2"][2] for row in golden) / 3
    expect(page.locator("#histogram")).to_contain_text(f"corpus score (macro mean) {rouge2_mean:.4f}")
    expect(page.locator("#histogram")).to_contain_text("F1 of rouge2 per example, 0 to 1")
    # FRUIT's published script: its bootstrap median, named in the label and the Cite box.
    page.get_by_text("Several references, resamples, seed, micro average").click()
    choose(page, "protocol", "fruit", "fruit (x 100 scale)")
    expect(page.locator("#batch-status textarea")).to_have_value("Options changed: press Score file again.")
    score_file(page)
    fruit = next(
        run["values"]
        for case in json.loads((DATA_DIR / "published_protocols_golden.json").read_text(encoding="utf-8"))["cases"]
        if case["case"]["file"] == "fruit_triples.jsonl"
        for run in case["corpus"]
        if run["protocol"] == "fruit" and run["seed"] == 12345 and run["n_bootstrap"] == 1000
    )
    row = grid_rows(page.locator("#corpus-summary"), 3)[2]
    interval = (
        f"{fruit['update_rougeLsum']:.1f} [{fruit['update_rougeLsum_low']:.1f}, {fruit['update_rougeLsum_high']:.1f}]"
    )
    assert row[:2] == ["rougeLsum", interval]
    expect(page.locator("#corpus-summary")).to_contain_text("fruit's bootstrap median of the examples' scores")
    expect(page.locator("#signature textarea")).to_have_value(re.compile(r"\|protocol:fruit@"))
    expect(page.locator("#cite textarea")).to_have_value(re.compile(r"^UpdateROUGE \(fruit's bootstrap median"))
    # The file tab's Reproduce code passes the protocol on and saves under its own name.
    page.get_by_text("Reproduce (Python and the command line)").last.click()
    with page.expect_download() as download:
        page.locator("#reproduce-download").click()
    assert download.value.suggested_filename == "reproduce_update_rouge.py"
    code = open(download.value.path(), encoding="utf-8").read()
    assert "    protocol='fruit',\n" in code and "update-rouge fruit_triples.jsonl --protocol fruit" in code
    assert page.console_errors == []


def test_stopwords_and_edits_change_what_is_scored(page):
    page.get_by_text("Advanced options").click()
    # "the" is a SMART stopword: 1 of 3 words match with it, none of 2 without it.
    fill(page, "S.", "S. The cat sat.", "S. The dog ran.")
    cleared(page)
    score(page)
    expect(note(page)).to_have_value(re.compile("^The reference adds 1"), timeout=UI_TIMEOUT_MS)
    assert grid_rows(page.locator("#scores"), 3)[0] == ["rouge1", "0.3333", "0.3333", "0.3333"]
    page.get_by_label("remove_stopwords").check()
    expect(note(page)).to_have_value("Options changed: press Score again.", timeout=UI_TIMEOUT_MS)
    score(page)
    expect(note(page)).to_have_value(re.compile("^The reference adds 1"), timeout=UI_TIMEOUT_MS)
    assert grid_rows(page.locator("#scores"), 3)[0] == ["rouge1", "0.0000", "0.0000", "0.0000"]
    page.get_by_label("remove_stopwords").uncheck()
    # Edits: what a word-level diff marks inserted ("and 2 cups"), not the whole changed sentence.
    page.get_by_label("edits", exact=True).check()
    fill(page, "They won 3 games.", "They won 3 games and 2 cups.", "They won 3 games and 2 cups.")
    cleared(page)
    score(page)
    expect(note(page)).to_have_value(re.compile("^The reference adds"), timeout=UI_TIMEOUT_MS)
    assert highlighted(page, "reference-view")[0] == ["They won 3 games", "and 2 cups", "."]
    assert grid_rows(page.locator("#scores"), 3)[0] == ["rouge1", "1.0000", "1.0000", "1.0000"]
    assert page.console_errors == []
