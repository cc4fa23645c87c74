"""A big file and a long text in headless Chromium (tests/served_app.py serves the Space): the page
keeps answering once they are scored (demo.file_handlers' first rows, demo.long_texts)."""

import re
import time

import pytest
from conftest import DATA_DIR
from playwright.sync_api import expect
from served_app import AS_SHIPPED, UI_TIMEOUT_MS, grid_rows, score

# The fixtures: served, trap, client, browser, page.
pytest_plugins = ["served_app"]
pytestmark = AS_SHIPPED

# The page answers: page.evaluate("1") within QUICK_S, RUNNING times running (the bar).
QUICK_S, RUNNING = 0.15, 6


def answering_after(page, started, limit_s):
    """Seconds from ``started`` until the page has answered ``RUNNING`` times running within
    ``QUICK_S`` (``None`` if not within ``limit_s``), and the longest answer seen."""
    running, longest = 0, 0.0
    while time.monotonic() - started < limit_s:
        asked = time.monotonic()
        page.evaluate("1")
        took = time.monotonic() - asked
        longest = max(longest, took)
        running = running + 1 if took < QUICK_S else 0
        if running == RUNNING:
            return time.monotonic() - started, longest
        page.wait_for_timeout(50)
    return None, longest


def _loading(page):
    """Whether the page shows the file's progress ("Scored N examples" on an output)."""
    return page.evaluate("() => /Scored \\d+ examples/.test(document.body.innerText)")


@pytest.mark.slow
def test_a_7200_row_file_scored_again_leaves_the_page_answering(page, tmp_path):
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
    expect(page.locator("#per-example-scores")).to_contain_text(
        "the first 500 of 7200 examples; all are in the per-example CSV"
    )
    first = page.locator("#per-example-scores [role=row]:has([role=gridcell])").first.locator("[role=gridcell]")
    expect(first.first).to_have_text("1")
    # Scored again, nothing changed: the page answers while the file scores.
    button.click()
    page.wait_for_function("() => /Scored \\d+ examples/.test(document.body.innerText)", timeout=UI_TIMEOUT_MS)
    started = time.monotonic()
    answered, longest = answering_after(page, started, 15)
    print(f"scored again: the page answered {RUNNING} times running within {QUICK_S} s after {answered} s")
    assert answered is not None and answered < 15, longest
    # ... until the second scoring ends (its progress gone), with no answer slower than a second.
    while _loading(page):
        _, longest = answering_after(page, time.monotonic(), 1)
        assert longest < 1.0, longest
    expect(status).to_have_value(re.compile("^Scored 7200 examples"))
    assert page.console_errors == []


@pytest.mark.slow
def test_a_10000_line_reference_scored_leaves_the_page_answering(page):
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
    shown = time.monotonic()
    expect(page.locator("#note textarea")).to_have_value(
        re.compile("The reference is long: its view above shows its first 500 of 10001 segments"),
        timeout=UI_TIMEOUT_MS,
    )
    expect(page.locator("#match-note textarea")).to_have_value(
        re.compile("The reference's tokens below are its first 2000 of 30000"), timeout=UI_TIMEOUT_MS
    )
    answered, longest = answering_after(page, shown, 5)
    print(f"10,000-line reference: the page answered {RUNNING} times running after {answered} s (scores shown)")
    assert answered is not None and answered < 5, longest
    assert page.console_errors == []
