""" "Score deletions too" in a headless Chromium (tests/served_app.py serves the Space from its
generated folder): the stale sentence the prediction keeps and the reference drops is struck
through in the source view, and the deletion scores show in the example's table.
"""

import re

from playwright.sync_api import expect
from served_app import AS_SHIPPED, UI_TIMEOUT_MS, fill, grid_rows, note, score, settle

# The fixtures: served, trap, client, browser, page.
pytest_plugins = ["served_app"]
pytestmark = AS_SHIPPED

# The museum now opens on Mondays and charges: the reference drops both stale sentences; the
# prediction adds the price and drops "Entry is free.", but keeps "It is closed on Mondays.".
SOURCE = "The museum opens at 9. It is closed on Mondays. Entry is free."
REFERENCE = "The museum opens at 9. It is open every day. Entry costs 5 euros."
PREDICTION = "The museum opens at 9. It is closed on Mondays. Entry costs 5 euros."
# Hand counts of rouge1 over the deletions: the prediction's "entry is free" (3 tokens) all among
# the reference's "it is closed on mondays" + "entry is free" (8): P 3/3, R 3/8, F1 6/11.
DEL_ROUGE1 = ["del_rouge1", "1.0000", "0.3750", "0.5455"]


def test_browser_strikes_through_the_stale_sentence_the_prediction_keeps(page):
    page.get_by_text("Advanced options").click()
    page.get_by_label("Score deletions too").check()
    settle(page)
    fill(page, SOURCE, REFERENCE, PREDICTION)
    score(page)
    expect(note(page)).to_have_value(
        re.compile("The reference drops 2 segment\\(s\\) of the source, the prediction 1."), timeout=UI_TIMEOUT_MS
    )
    stale = page.locator("#source-view .source del.deleted-reference")
    expect(stale).to_have_text("It is closed on Mondays.", timeout=UI_TIMEOUT_MS)
    expect(stale).to_have_css("text-decoration-line", "line-through")
    expect(page.locator("#source-view .source del.deleted-both")).to_have_text("Entry is free.")
    expect(page.locator("#source-view .source del.deleted-prediction")).to_have_count(0)
    expect(page.locator("#source-view .deletions-legend")).to_contain_text("dropped by the reference only")
    rows = grid_rows(page.locator("#scores"), 6)
    assert [row[0] for row in rows] == ["rouge1", "rouge2", "rougeLsum", "del_rouge1", "del_rouge2", "del_rougeLsum"]
    assert rows[3] == DEL_ROUGE1
    # Unticked, the scores are stale: the view is cleared with them.
    page.get_by_label("Score deletions too").uncheck()
    expect(note(page)).to_have_value("Options changed: press Score again.")
    expect(page.locator("#source-view del")).to_have_count(0)
    score(page)
    expect(note(page)).to_have_value(re.compile("^The reference adds 2 segment"), timeout=UI_TIMEOUT_MS)
    grid_rows(page.locator("#scores"), 3)
    expect(page.locator("#source-view del")).to_have_count(0)
    assert page.outside_requests == [] and page.console_errors == []
