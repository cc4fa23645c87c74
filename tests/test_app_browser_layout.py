"""The page's layout in a headless Chromium (tests/served_app.py serves the demo): two screens
on a desktop, a 390 px phone, and nothing fetched from the network.
"""

import re

import pytest
from conftest import DATA_DIR
from playwright.sync_api import expect
from served_app import (
    DAN,
    UI_TIMEOUT_MS,
    fill,
    grid_rows,
    note,
    open_page,
    score,
)

# The fixtures: served, trap, client, browser, page, golden.
pytest_plugins = ["served_app"]


@pytest.mark.slow
def test_browser_page_fits_two_screens_and_a_phone(browser, served):
    desktop = open_page(browser, served, {"width": 1280, "height": 800})
    expect(desktop.get_by_role("button", name="Score", exact=True)).to_be_visible()
    assert desktop.evaluate("document.documentElement.scrollHeight") <= 2 * 800
    expect(desktop.get_by_text("Metric Card for UpdateROUGE")).to_be_hidden()
    desktop.get_by_text("About UpdateROUGE").click()
    expect(desktop.get_by_text("Metric Card for UpdateROUGE").first).to_be_visible()
    assert desktop.console_errors == []
    desktop.close()

    phone = open_page(browser, served, {"width": 390, "height": 844})
    fill(phone, *DAN)
    score(phone)
    expect(note(phone)).to_have_value(re.compile("^The reference adds 1"), timeout=UI_TIMEOUT_MS)
    phone.get_by_role("tab", name="A file of examples").click()
    phone.locator("#batch-file input[type=file]").set_input_files(str(DATA_DIR / "fruit_triples.jsonl"))
    phone.get_by_role("button", name="Score file", exact=True).click()
    expect(phone.locator("#batch-status textarea")).to_have_value(re.compile("^Scored 3"), timeout=UI_TIMEOUT_MS)
    grid_rows(phone.locator("#corpus-summary"), 3)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    histogram = phone.locator("#histogram svg").bounding_box()
    assert histogram["x"] >= 0 and histogram["x"] + histogram["width"] <= 390
    # Every table shows all its columns: nothing is scrolled out of its box.
    for table in ("#corpus-summary", "#per-example-scores"):
        box = phone.locator(f"{table} table").first.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, table
    phone.get_by_role("tab", name="One example").click()
    box = phone.locator("#scores table").first.bounding_box()
    assert box["x"] + box["width"] <= 390
    assert phone.console_errors == [] and phone.outside_requests == []
    phone.close()


def test_nothing_was_fetched_from_the_network(page, served, trap):
    # The page, its assets and its API calls were served above; the app's proxy saw nothing.
    score(page)
    expect(note(page)).to_have_value(re.compile("The reference adds 0 segment"), timeout=UI_TIMEOUT_MS)
    assert page.outside_requests == []
    assert trap.connections == 0
