"""A big file and a long text in headless Chromium (tests/served_app.py serves the Space): what the
page draws of them (demo.file_handlers' first rows, hidden while a file scores; demo.long_texts)."""

import re

import pytest
from conftest import DATA_DIR
from playwright.sync_api import expect
from served_app import AS_SHIPPED, UI_TIMEOUT_MS, grid_rows, score

# The fixtures: served, trap, client, browser, page.
pytest_plugins = ["served_app"]
pytestmark = AS_SHIPPED

# Records, on every change of the page, [N, whether the file's per-example table is drawn] while
# its progress shows "Scored N examples", N short of the file's 7200: gradio redraws an output on
# each progress update.
WATCH_TABLE_JS = """() => {
    window.tableWhileScoring = [];
    const record = () => {
        const progress = /Scored (\\d+) examples/.exec(document.body.innerText);
        if (!progress || Number(progress[1]) >= 7200) return;
        const table = document.querySelector("#per-example-scores");
        window.tableWhileScoring.push([Number(progress[1]), Boolean(table && table.offsetParent !== null)]);
    };
    new MutationObserver(record).observe(document.body, {childList: true, subtree: true, characterData: true});
}"""


@pytest.mark.slow
def test_a_7200_row_file_scored_again_is_not_redrawn_while_it_scores(page, tmp_path):
    lines = (DATA_DIR / "iterater_triples.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "iterater_7200.jsonl"
    path.write_text("\n".join(lines * (7200 // len(lines))) + "\n", encoding="utf-8")
    page.get_by_role("tab", name="A file of examples").click()
    page.locator("#batch-file input[type=file]").set_input_files(str(path))
    status = page.locator("#batch-status textarea")
    button = page.get_by_role("button", name="Score file", exact=True)
    button.click()
    expect(status).to_have_value(re.compile("^Scored 7200 examples from iterater_7200.jsonl"), timeout=150_000)
    # What the table shows: its first 500 rows, and its label says where the rest are.
    table = page.locator("#per-example-scores")
    expect(table).to_contain_text("the first 500 of 7200 examples; all are in the per-example CSV")
    first = table.locator("[role=row]:has([role=gridcell])").first.locator("[role=gridcell]")
    expect(first.first).to_have_text("1")
    # Scored again, nothing changed: the results it replaces are hidden while it scores, so no
    # progress update redraws the 500 rows (they froze the tab for longer than the first scoring).
    page.evaluate(WATCH_TABLE_JS)
    button.click()
    page.wait_for_function("() => window.tableWhileScoring.length > 0", timeout=UI_TIMEOUT_MS)
    expect(table).to_be_visible(timeout=150_000)
    expect(status).to_have_value(re.compile("^Scored 7200 examples"))
    expect(first.first).to_have_text("1")
    seen = page.evaluate("() => window.tableWhileScoring")
    # The table is drawn again with the scores (the page may change it before it removes the last
    # progress line, on a loaded machine): never while an earlier progress line shows.
    last = max(scored for scored, _ in seen)
    drawn = sorted({scored for scored, shown in seen if shown})
    assert drawn in ([], [last]), f"the table was drawn while progress read {drawn} of 7200 (the last: {last})"
    assert page.console_errors == []


@pytest.mark.slow
def test_a_10000_line_reference_scored_draws_its_first_part(page):
    reference = "Kept.\n" + "\n".join(f"Line {i} added." for i in range(10_000))
    # Set as a paste sets it (Playwright's fill types a 10,000-line value for minutes).
    page.get_by_label("Reference").evaluate(
        "(box, text) => { box.value = text; box.dispatchEvent(new Event('input', {bubbles: true})); }", reference
    )
    page.get_by_label("Prediction").fill("Kept. Line 1 added.")
    page.get_by_label("Source").fill("Kept.")
    page.wait_for_timeout(2000)  # the edits' own events answered
    score(page)
    grid_rows(page.locator("#scores"), 3)
    expect(page.locator("#note textarea")).to_have_value(
        re.compile("The reference is long: its view above shows its first 500 of 10001 segments"),
        timeout=UI_TIMEOUT_MS,
    )
    expect(page.locator("#match-note textarea")).to_have_value(
        re.compile("The reference's tokens below are its first 2000 of 30000"), timeout=UI_TIMEOUT_MS
    )
    # What is drawn: the first 500 added lines, and the 2,000 tokens as the 3 matched ones and the
    # text between them, 3 pieces (a piece per token was 4,000 and drew for seconds).
    expect(page.locator("#reference-view .token")).to_have_count(501)  # and "Kept.", in the source
    matches = page.locator("#reference-matches")
    expect(matches.locator(".token.highlighted")).to_have_count(3)
    expect(matches.locator(".text.unlabeled")).to_have_count(3)
    assert page.console_errors == []
