"""The "One example" tab and the options in a headless Chromium (tests/served_app.py serves
the demo): scoring, clearing, highlights, matched tokens, errors, samples, Reproduce.
"""

import collections
import json
import re
import time

import pytest
from conftest import DATA_DIR, read_jsonl
from playwright.sync_api import expect
from served_app import (
    AS_SHIPPED,
    DAN,
    DAN_SCORES,
    UI_TIMEOUT_MS,
    fill,
    grid_rows,
    highlighted,
    note,
    score,
    settle,
)

# The fixtures: served, trap, client, browser, page (golden is conftest's).
pytest_plugins = ["served_app"]
pytestmark = AS_SHIPPED


def test_browser_scores_a_typed_example_and_clears_it_when_an_input_changes(page, tmp_path):
    fill(page, *DAN)
    score(page)
    expect(note(page)).to_have_value(re.compile("^The reference adds 1 segment"), timeout=UI_TIMEOUT_MS)
    assert grid_rows(page.locator("#scores"), 3) == DAN_SCORES
    assert highlighted(page, "reference-view")[0] == ["Dan is a baker.", "Dan loves chocolate cakes."]
    screenshot = tmp_path / "update_rouge_demo.png"
    page.screenshot(path=str(screenshot))
    print(f"screenshot: {screenshot}")
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page.get_by_label("Prediction").fill(DAN[2] + " More.")
    expect(note(page)).to_have_value("")
    expect(page.locator("#scores [role=gridcell]")).to_have_count(0)
    score(page)
    expect(note(page)).to_have_value(re.compile("the prediction 2"), timeout=UI_TIMEOUT_MS)
    page.get_by_label("porter").check()
    expect(note(page)).to_have_value("Options changed: press Score again.")
    expect(page.locator("#scores [role=gridcell]")).to_have_count(0)
    assert page.outside_requests == [] and page.console_errors == []


def test_browser_highlights_whole_words(page):
    fill(page, "Old.", "Old. " + "Supercalifragilistic " * 12 + "end.", "Old. New words here.")
    score(page)
    expect(note(page)).to_have_value(re.compile("^The reference adds 1"), timeout=UI_TIMEOUT_MS)
    # The view is another output of the same event: under load the page may draw it a moment
    # after the note.
    expect(page.locator("#reference-view .token.highlighted .text").first).to_be_attached(timeout=UI_TIMEOUT_MS)
    # Each word of the addition starts on the same line as it ends: no line break inside a word.
    broken = page.evaluate(
        """() => {
            const text = document.querySelector('#reference-view .token.highlighted .text').firstChild;
            let broken = 0, start = 0;
            for (const word of text.textContent.split(' ')) {
                const range = document.createRange();
                range.setStart(text, start); range.setEnd(text, start + word.length);
                if (range.getClientRects().length > 1) broken++;
                start += word.length + 1;
            }
            return broken;
        }"""
    )
    assert broken == 0


def test_browser_shows_the_matched_tokens_of_the_chosen_type(page):
    fill(page, *DAN)
    score(page)
    match_note = page.locator("#match-note textarea")
    expect(match_note).to_have_value(re.compile(r"Precision 3/5 .* recall 3/4 "), timeout=UI_TIMEOUT_MS)
    # Matched tokens, then the others (the text between two matched tokens is one unlabelled piece).
    assert [[t for t in texts if t] for texts in highlighted(page, "reference-matches")] == [
        ["dan", "loves", "chocolate"],
        ["cakes"],
    ]
    assert [[t for t in texts if t] for texts in highlighted(page, "prediction-matches")] == [
        ["dan", "loves", "chocolate"],
        ["chip cookies"],
    ]
    page.locator("#matches-of").get_by_label("rouge2").check()
    expect(match_note).to_have_value(re.compile(r"^rouge2 counts 2 matched 2-grams.* Precision 2/4 .* recall 2/3 "))
    # Each matched bigram is one mark: "dan loves" and "loves chocolate", not three single tokens.
    assert highlighted(page, "reference-matches")[0] == ["dan loves", "loves chocolate"]
    assert highlighted(page, "prediction-matches")[0] == ["dan loves", "loves chocolate"]
    page.locator("#matches-of").get_by_label("rougeLsum").check()
    expect(match_note).to_have_value(re.compile(r"^rougeLsum counts 3 matched tokens"))
    # An edited text clears and hides the matches with the scores; scoring shows them again.
    page.get_by_label("Reference").fill(DAN[1] + " Dan sells bread.")
    expect(page.locator("#matches-of")).to_be_hidden()
    expect(page.locator("#reference-matches")).to_be_hidden()
    score(page)
    # "dan" of the new line is in its LCS with the prediction, but the prediction's one "dan" is used up.
    expect(match_note).to_have_value(
        re.compile(r"^rougeLsum counts 3 matched tokens.* recall 3/7 "), timeout=UI_TIMEOUT_MS
    )
    assert page.console_errors == []


@pytest.mark.slow
def test_browser_shows_errors_and_warnings_as_text(page):
    fill(page, "s.", "s. 中文。", "s. 中文。")
    settle(page)  # the edits' clearings answered: a click that follows cannot be overtaken by one
    score(page)
    expect(note(page)).to_have_value(re.compile("Warning: 1 of 1 example has additions in which the tokenizer"))
    page.get_by_text("Advanced options").click()
    page.get_by_label("max_words", exact=True).fill("3")
    page.get_by_label("max_bytes", exact=True).fill("5")
    page.get_by_label("Source").fill("s. <d> kept")
    score(page)
    expect(note(page)).to_have_value(re.compile("^Error: .*max_words.*max_bytes"), timeout=UI_TIMEOUT_MS)
    page.get_by_label("max_bytes", exact=True).fill("0")
    # Errors are shown as text: markup from the input stays visible.
    page.get_by_role("tab", name="A file of examples").click()
    page.locator("#batch-file input[type=file]").set_input_files(
        {"name": "twice.jsonl", "mimeType": "text/plain", "buffer": b'{"<d>": 1, "<d>": 2}\n'}
    )
    settle(page)
    page.get_by_role("button", name="Score file", exact=True).click()
    status = page.locator("#batch-status textarea")
    expect(status).to_have_value(
        "Error: twice.jsonl:1: not usable JSON (the key '<d>' appears more than once in an object)",
        timeout=UI_TIMEOUT_MS,
    )
    assert page.console_errors == []


@pytest.mark.slow
def test_browser_fruit_example_button_fills_the_fields_and_highlights_rouge155_additions(page, golden):
    row = read_jsonl("fruit_triples.jsonl")[1]
    page.get_by_text("William Emmanuel Bevan", exact=True).click()
    expect(page.get_by_label("Source")).to_have_value(row["source"])
    expect(page.get_by_label("Reference")).to_have_value(row["reference"])
    expect(page.get_by_label("Prediction")).to_have_value(row["prediction"])
    # The first screen's scores (the Dan example) go once the texts change, before Score is pressed:
    # read later, its note and table would pass for this example's.
    expect(page.locator("#scores [role=gridcell]")).to_have_count(0, timeout=UI_TIMEOUT_MS)
    score(page)
    expect(note(page)).to_have_value(re.compile("^The reference adds"), timeout=UI_TIMEOUT_MS)
    expected = golden[1]
    assert grid_rows(page.locator("#scores"), 3) == [
        [rouge_type, *(f"{value:.4f}" for value in expected["rouge155"][rouge_type])]
        for rouge_type in ("rouge1", "rouge2", "rougeLsum")
    ]
    views = page.locator("#reference-view .token.highlighted")
    labels = [view.evaluate("e => getComputedStyle(e).backgroundColor") for view in views.all()]
    added_color = page.locator("#reference-view .legend-item", has_text="added").evaluate(
        "e => getComputedStyle(e).backgroundColor"
    )
    shown_added = [text.strip() for text, color in zip(views.all_inner_texts(), labels) if color == added_color]
    assert shown_added == expected["reference_additions"]
    assert page.outside_requests == [] and page.console_errors == []


def line_numbers_off_their_lines(code):
    """The largest distance in px between a Reproduce box's line number and its line."""
    return code.evaluate(
        """(box) => {
            const numbers = [...box.querySelectorAll('.cm-lineNumbers .cm-gutterElement')]
                .filter(e => e.style.visibility !== 'hidden' && e.textContent);
            const lines = [...box.querySelectorAll('.cm-line')];
            return Math.max(...lines.map((line, i) => Math.abs(line.getBoundingClientRect().top
                - numbers[i].getBoundingClientRect().top)));
        }"""
    )


def settled_line_offset(page, code, limit_s=60):
    """``line_numbers_off_their_lines(code)`` as a reader sees the box: scrolled into view, once its
    layout is done: measured again every 0.2 s while it is 2 px or more, for at most ``limit_s``
    (a box just opened is still being laid out on a busy machine); the last measure.

    CodeMirror measures its lines once the box enters the viewport: a box opened below the fold
    kept its default 14 px line spacing for its numbers, 42 px off by its last line, until then."""
    code.scroll_into_view_if_needed()
    deadline = time.monotonic() + limit_s
    offset = line_numbers_off_their_lines(code)
    while offset >= 2 and time.monotonic() < deadline:
        page.wait_for_timeout(200)
        offset = line_numbers_off_their_lines(code)
    return offset


def test_browser_reproduce_box_follows_the_options(page):
    page.get_by_text("Reproduce (Python and the command line)").first.click()
    code = page.locator("#reproduce-one")
    # One example's code holds its texts (no file), without an interval; its lines sit by their numbers.
    expect(code).to_contain_text("prediction = 'Dan is a baker. Dan loves chocolate chip cookies.'")
    expect(code).to_contain_text("confidence_level=None")
    assert "examples.jsonl" not in code.inner_text()
    assert settled_line_offset(page, code) < 2
    page.locator("#rouge-types").get_by_label("rougeL", exact=True).check()
    page.get_by_label("rouge155").check()
    expect(code).to_contain_text("rouge_types=['rouge1', 'rouge2', 'rougeL', 'rougeLsum'], stemmer='rouge155'")
    expect(code).to_contain_text("evaluate.load('<namespace>/update_rouge', revision='v0.2.0')")
    page.get_by_label("Prediction").fill("Dan is a baker. Dan bakes bread.")
    expect(code).to_contain_text("prediction = 'Dan is a baker. Dan bakes bread.'")
    # Every answer to the edits has landed (a loaded CI run downloaded the code of the edit before
    # the last while the box already showed the last), and the box still shows the last edit's code.
    settle(page)
    expect(code).to_contain_text("prediction = 'Dan is a baker. Dan bakes bread.'")
    # Saved under its own name, not gradio's "file.py".
    with page.expect_download() as download:
        page.locator("#reproduce-one-download").click()
    assert download.value.suggested_filename == "reproduce_update_rouge.py"
    assert "prediction = 'Dan is a baker. Dan bakes bread.'" in open(download.value.path(), encoding="utf-8").read()
    page.get_by_role("tab", name="A file of examples").click()
    page.get_by_text("Reproduce (Python and the command line)").last.click()
    code = page.locator("#reproduce")
    expect(code).to_contain_text("--rouge-types rouge1 rouge2 rougeL rougeLsum --stemmer rouge155")
    expect(code).to_contain_text("# update-rouge examples.jsonl")
    page.locator("#baseline-column textarea, #baseline-column input").fill("baseline")
    expect(code).to_contain_text("baseline_predictions=[row['baseline'] for row in rows]")
    expect(code).to_contain_text("update-rouge compare examples.jsonl --system prediction --system baseline")
    assert settled_line_offset(page, code) < 2
    # After an upload the code reads that file.
    page.locator("#batch-file input[type=file]").set_input_files(str(DATA_DIR / "fruit_triples.jsonl"))
    expect(code).to_contain_text("with open('fruit_triples.jsonl', encoding='utf-8-sig')")
    expect(code).to_contain_text("update-rouge compare fruit_triples.jsonl --system prediction")
    assert page.console_errors == []


def test_browser_one_example_shows_its_signature_and_the_language_menu_its_whole_entry(page):
    signature = page.locator("#example-signature textarea")
    expect(signature).to_have_value(re.compile(r"^refs:1\|.*\|types:rouge1,rouge2,rougeLsum\|.*\|ci:none\|"))
    page.get_by_label("porter").check()
    fill(page, *DAN)
    score(page)
    expect(note(page)).to_have_value(re.compile("^The reference adds 1"), timeout=UI_TIMEOUT_MS)
    expect(signature).to_have_value(re.compile(r"\|stem:porter\|"), timeout=UI_TIMEOUT_MS)
    page.get_by_label("Source").fill("Dan is a cook.")
    expect(signature).to_have_value("", timeout=UI_TIMEOUT_MS)  # cleared with the scores
    page.get_by_text("Advanced options").click()
    menu = page.locator("#language input")
    expect(menu).to_have_value("none (rouge-score's tokens)")
    # The entry is whole: nothing of it runs under the menu's arrow or past the box.
    assert menu.evaluate("(input) => input.scrollWidth <= input.clientWidth")
    assert page.console_errors == []


def test_browser_quick_edits_of_a_number_field_settle_and_score_still_works(page):
    joins = []
    page.on(
        "request",
        lambda request: (
            joins.append(json.loads(request.post_data).get("fn_index")) if "/queue/join" in request.url else None
        ),
    )
    fill(page, *DAN)
    page.get_by_text("Reproduce (Python and the command line)").first.click()
    page.get_by_text("Advanced options").click()
    alpha = page.get_by_label("alpha", exact=True)
    for value in ("0.3", "0.4", "0.6"):
        alpha.fill(value)
        page.keyboard.press("Tab")
        page.wait_for_timeout(100)
    expect(page.locator("#reproduce-one")).to_contain_text("alpha=0.6")
    # No event triggers itself: once the edits are handled (slowly on a busy machine: each edit
    # runs its four events, one at a time where they share the one-example view), nothing more
    # is sent for 3 s; an event that triggered itself would keep sending.
    deadline = time.monotonic() + 60
    settled = -1
    while settled != len(joins) and time.monotonic() < deadline:
        settled = len(joins)
        page.wait_for_timeout(3000)
    assert len(joins) == settled, f"still sending after 60 s: {collections.Counter(joins)} joins by event"
    # The three texts' fills and at most the five events of each of the three edits.
    assert settled <= 3 + 3 * 5, settled
    score(page)
    expect(note(page)).to_have_value(re.compile("^The reference adds 1 segment"), timeout=UI_TIMEOUT_MS)
    assert grid_rows(page.locator("#scores"), 3)[0][0] == "rouge1"
    assert page.console_errors == []
