"""The page's layout in a headless Chromium (tests/served_app.py serves the demo): two screens
on a desktop, a 390 px phone, and nothing fetched from the network.
"""

import json
import re

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
    open_page,
    score,
    settle,
)

from demo.options import ROUGE_TYPE_CHOICES

# The fixtures: served, trap, client, browser, page (golden is conftest's).
pytest_plugins = ["served_app"]
pytestmark = AS_SHIPPED


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
    settle(phone)
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
    expect(note(page)).to_have_value(re.compile("The reference adds 1 segment"), timeout=UI_TIMEOUT_MS)
    assert page.outside_requests == []
    assert trap.connections == 0


# For every cell of the tables (gradio draws the header as a table, the body as rows of
# role=gridcell boxes that clip their text): its text's lines, the part of it outside the viewport,
# its table's scroll box or its own box, its type size, and whether a word of it is broken across lines.
CELLS = """(selector) => {
    const found = [];
    for (const cell of document.querySelectorAll(`${selector} th, ${selector} [role=gridcell]`)) {
        const text = cell.innerText.trim();
        if (!text) continue;
        let box = cell.parentElement;
        while (box && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
        const scroll = box ? box.getBoundingClientRect() : {left: 0, right: innerWidth};
        const own = cell.getBoundingClientRect();
        const clip = {left: Math.max(scroll.left, own.left), right: Math.min(scroll.right, own.right)};
        const range = document.createRange();
        range.selectNodeContents(cell);
        const rects = [...range.getClientRects()].filter(r => r.width > 0);
        const left = Math.min(...rects.map(r => r.left)), right = Math.max(...rects.map(r => r.right));
        const brokenWords = [];
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const word of node.textContent.matchAll(/\\S+/g)) {
                const part = document.createRange();
                part.setStart(node, word.index); part.setEnd(node, word.index + word[0].length);
                const tops = new Set([...part.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
                if (tops.size > 1) brokenWords.push(word[0]);
            }
        }
        const fontSize = getComputedStyle(cell.querySelector('span') || cell).fontSize;
        found.push({text, left, right, clipLeft: Math.max(0, clip.left), clipRight: Math.min(innerWidth, clip.right),
                    brokenWords, body: cell.getAttribute('role') === 'gridcell', fontSize});
    }
    return found;
}"""


def readable_cells(page, selector, body_font="12px"):
    """The problems of the table cells of ``selector``: cut off, a word broken mid-word, or a body
    cell not in ``body_font`` type (the size its columns were measured for); none if the table
    shows no body cell."""
    cells = page.evaluate(CELLS, selector)
    problems = [] if any(cell["body"] for cell in cells) else [f"{selector} shows no body cell"]
    for cell in cells:
        if cell["body"] and cell["fontSize"] != body_font:
            problems.append(f"{cell['text']!r} is set in {cell['fontSize']}, not {body_font}")
        if cell["left"] < cell["clipLeft"] - 1 or cell["right"] > cell["clipRight"] + 1:
            problems.append(f"{cell['text']!r} is clipped ({cell['left']:.0f}-{cell['right']:.0f})")
        if cell["brokenWords"]:
            problems.append(f"{cell['text']!r} breaks {cell['brokenWords']}")
    return problems


def test_browser_phone_shows_score_first_and_every_table_column_whole(browser, served, tmp_path):
    phone = open_page(browser, served, {"width": 390, "height": 844})
    score_button = phone.get_by_role("button", name="Score", exact=True)
    expect(score_button).to_be_visible()
    box = score_button.bounding_box()
    assert box["y"] + box["height"] <= 844, box
    fill(phone, *DAN)
    score(phone)
    expect(note(phone)).to_have_value(re.compile("^The reference adds 1"), timeout=UI_TIMEOUT_MS)
    grid_rows(phone.locator("#scores"), 3)
    assert readable_cells(phone, "#scores") == []
    rows = read_jsonl("fruit_triples.jsonl")
    path = tmp_path / "paired.jsonl"
    path.write_text("".join(json.dumps({**row, "baseline": row["source"]}) + "\n" for row in rows), encoding="utf-8")
    phone.get_by_role("tab", name="A file of examples").click()
    phone.locator("#batch-file input[type=file]").set_input_files(str(path))
    phone.locator("#baseline-column textarea, #baseline-column input").first.fill("baseline")
    phone.get_by_role("button", name="Score file", exact=True).click()
    grid_rows(phone.locator("#paired-test"), 3)
    grid_rows(phone.locator("#corpus-summary"), 3)
    for table, font in (("#corpus-summary", "12px"), ("#paired-test", "12px"), ("#per-example-scores", "10px")):
        assert readable_cells(phone, table, font) == [], table
    # Every row fits its table's box, about 324 px (issue 39: the per-example rows ran to 547 px).
    frame, widths = phone.evaluate(
        "[document.querySelector('#per-example-scores').clientWidth,"
        " [...document.querySelectorAll('#per-example-scores [role=row]')].map(row => row.scrollWidth)]"
    )
    assert 300 <= frame <= 390 and widths and max(widths) <= frame, (frame, widths)
    expect(phone.locator("#paired-test")).to_contain_text("p-value")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.console_errors == []
    phone.close()


def test_browser_opens_on_a_worked_example_already_scored_with_named_samples_and_a_hint(page):
    # Nothing is pressed: the page opens on the Dan example, its scores and highlights.
    expect(page.get_by_label("Reference")).to_have_value(DAN[1])
    expect(page.get_by_label("Prediction")).to_have_value(DAN[2])
    assert grid_rows(page.locator("#scores"), 3) == DAN_SCORES
    expect(note(page)).to_have_value("The reference adds 1 segment(s) to the source, the prediction 1.")
    assert highlighted(page, "prediction-view")[0] == ["Dan is a baker.", "Dan loves chocolate chip cookies."]
    expect(page.get_by_text("Below, an example scored: edit a text or pick a Wikipedia update")).to_be_visible()
    for name in ("The Lone Rider in Frontier Fury", "William Emmanuel Bevan", "Primearth EV Energy (PEVE)"):
        expect(page.get_by_text(name, exact=True)).to_be_visible()
    # No large empty pane: each highlight view shows text.
    for view in ("#reference-view", "#prediction-view"):
        expect(page.locator(f"{view} .textfield")).not_to_have_text("")
    assert page.console_errors == []


# For every header and body cell of a table: its text, the right edge of its box and of its text,
# and how its text's words fall on lines (the words of each line, as drawn); and for the table's
# boxes that scroll or clip (overflow other than visible), whether one holds more than it shows.
TABLE_GEOMETRY = """(selector) => {
    const root = document.querySelector(selector);
    const cells = [];
    for (const cell of root.querySelectorAll('th, [role=gridcell]')) {
        const shown = cell.querySelector('span') || cell;  // its text, not the header's menu button
        const text = shown.innerText.trim();
        if (!text) continue;
        const range = document.createRange();
        range.selectNodeContents(shown);
        const rects = [...range.getClientRects()].filter(r => r.width > 0);
        const lines = new Map();
        const walker = document.createTreeWalker(shown, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (let i = 0; i < node.textContent.length; i++) {
                const one = document.createRange();
                one.setStart(node, i); one.setEnd(node, i + 1);
                const box = [...one.getClientRects()].find(r => r.width > 0);
                if (!box) continue;
                const top = Math.round(box.top);
                lines.set(top, (lines.get(top) || '') + node.textContent[i]);
            }
        }
        cells.push({text, header: cell.tagName === 'TH', boxRight: cell.getBoundingClientRect().right,
                    textRight: Math.max(...rects.map(r => r.right)),
                    lines: [...lines.entries()].sort((a, b) => a[0] - b[0]).map(e => e[1].trim())});
    }
    const hidden = [];
    for (const box of [root, ...root.querySelectorAll('*')]) {
        if (getComputedStyle(box).overflowX !== 'visible' && box.scrollWidth > box.clientWidth + 1)
            hidden.push(`${box.tagName}.${box.className}: ${box.scrollWidth} > ${box.clientWidth}`);
    }
    return {cells, hidden, width: innerWidth};
}"""


def test_browser_phone_shows_the_per_example_table_whole_with_long_ids_and_six_types(browser, served):
    # Issue 52: with ids such as "r3-2104.02372-depth-1-ref0-pred0" and six types the columns ran
    # past a phone's edge (the table 607 px in its 324 px box).
    ids = [row["id"] for row in read_jsonl("iterater_triples.jsonl")]
    phone = open_page(browser, served, {"width": 390, "height": 844})
    types = phone.locator("#rouge-types")
    for name in ROUGE_TYPE_CHOICES:
        types.get_by_label(name, exact=True).check()
    phone.get_by_role("tab", name="A file of examples").click()
    phone.locator("#batch-file input[type=file]").set_input_files(str(DATA_DIR / "iterater_triples.jsonl"))
    settle(phone)
    phone.get_by_role("button", name="Score file", exact=True).click()
    expect(phone.locator("#batch-status textarea")).to_have_value(re.compile("^Scored 40"), timeout=UI_TIMEOUT_MS)
    rows = phone.locator('#per-example-scores [role="row"]:has([role="gridcell"])')
    expect(rows.nth(2)).to_be_visible()  # the table draws the rows its box shows, not all 40
    table = [rows.nth(i).locator('[role="gridcell"]').all_inner_texts() for i in range(3)]
    assert [row[:2] for row in table] == [["1", ids[0]], ["2", ids[1]], ["3", ids[2]]]
    assert len(table[0]) == 2 + 6 and all(re.fullmatch(r"[01]\.\d{4}", f1) for f1 in table[0][2:])
    geometry = phone.evaluate(TABLE_GEOMETRY, "#per-example-scores")
    headers = [cell["text"] for cell in geometry["cells"] if cell["header"]]
    assert headers == ["line", "id", *ROUGE_TYPE_CHOICES], headers
    assert geometry["width"] == 390 and geometry["hidden"] == [], geometry["hidden"]
    for cell in geometry["cells"]:
        # Inside the screen, its text inside its box: no column past the edge, no header cut.
        assert cell["boxRight"] <= 390 and cell["textRight"] <= cell["boxRight"] + 1, cell
        # An id wraps onto lines that hold it whole; a number or a type's name stays on one line.
        if cell["text"] in ids:
            assert "".join(cell["lines"]) == cell["text"] and len(cell["lines"]) <= 6, cell
        else:
            assert len(cell["lines"]) == 1, cell
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.console_errors == []
    phone.close()


@pytest.mark.slow
def test_browser_phone_draws_ids_and_deletion_columns_readably_with_six_types_and_deletions(browser, served, tmp_path):
    # Issue 58: with six types and deletions (14 columns) the ids of 45 characters took one letter a
    # line, and the corpus table cut "del_rougeLsum".
    rows = read_jsonl("iterater_triples.jsonl")[:3]
    ids = [f"{row['id']}-{'x' * 45}"[:45] for row in rows]
    path = tmp_path / "long_ids.jsonl"
    path.write_text("".join(json.dumps({**row, "id": i}) + "\n" for row, i in zip(rows, ids)), encoding="utf-8")
    phone = open_page(browser, served, {"width": 390, "height": 844})
    types = phone.locator("#rouge-types")
    for name in ROUGE_TYPE_CHOICES:
        types.get_by_label(name, exact=True).check()
    phone.get_by_text("Advanced options").click()
    phone.locator("#deletions input").check()
    phone.get_by_role("tab", name="A file of examples").click()
    phone.locator("#batch-file input[type=file]").set_input_files(str(path))
    settle(phone)
    phone.get_by_role("button", name="Score file", exact=True).click()
    expect(phone.locator("#batch-status textarea")).to_have_value(re.compile("^Scored 3"), timeout=UI_TIMEOUT_MS)
    grid_rows(phone.locator("#per-example-scores"), 3)
    grid_rows(phone.locator("#corpus-summary"), 12)
    # The corpus table: every cell whole, "del_rougeLsum" unbroken in its column.
    assert readable_cells(phone, "#corpus-summary") == []
    geometry = phone.evaluate(TABLE_GEOMETRY, "#per-example-scores")
    headers = [cell["text"] for cell in geometry["cells"] if cell["header"]]
    assert headers == ["line", "id", *ROUGE_TYPE_CHOICES, *(f"del_{name}" for name in ROUGE_TYPE_CHOICES)]
    # 14 columns outgrow the box: the table scrolls sideways inside it (the page does not), each
    # cell's text inside its own box, an id wrapped on lines of several letters, not one a line.
    assert len(geometry["hidden"]) == 1 and geometry["hidden"][0].startswith("DIV.virtual-table-viewport"), geometry
    for cell in geometry["cells"]:
        assert cell["textRight"] <= cell["boxRight"] + 1, cell
        if cell["text"] in ids:
            lines = cell["lines"]
            assert "".join(lines) == cell["text"] and len(lines) <= 12 and min(map(len, lines[:-1])) >= 2, cell
        else:
            assert len(cell["lines"]) == 1, cell
    assert sorted(cell["text"] for cell in geometry["cells"] if cell["text"] in ids) == sorted(ids)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.console_errors == []
    phone.close()
