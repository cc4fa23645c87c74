"""The "A file of examples" tab in a headless Chromium (tests/served_app.py serves the demo):
scoring an upload, downloads, the histogram, opening a row, progress, the paired test.
"""

import json
import re

import pytest
from conftest import DATA_DIR, read_jsonl
from playwright.sync_api import expect
from served_app import (
    AS_SHIPPED,
    UI_TIMEOUT_MS,
    grid_rows,
    note,
    open_page,
    settle,
)

# The fixtures: served, trap, client, browser, page (golden is conftest's).
pytest_plugins = ["served_app"]
pytestmark = AS_SHIPPED


@pytest.mark.slow
def test_browser_scores_an_uploaded_file_and_rejects_a_malformed_one(page, browser, served, golden):
    page.get_by_role("tab", name="A file of examples").click()
    page.locator("#batch-file input[type=file]").set_input_files(str(DATA_DIR / "fruit_triples.jsonl"))
    page.get_by_role("button", name="Score file", exact=True).click()
    expect(page.locator("#batch-status textarea")).to_have_value(
        re.compile("^Scored 3 examples from fruit_triples.jsonl; in 0 of them"), timeout=UI_TIMEOUT_MS
    )
    summary = grid_rows(page.locator("#corpus-summary"), 3)
    assert [row[0] for row in summary] == ["rouge1", "rouge2", "rougeLsum"]
    assert [row[1].split(" [")[0] for row in summary] == ["52.4", "45.7", "52.0"]
    expect(page.locator("#signature textarea")).to_have_value(re.compile(r"^refs:1\|"))
    expect(page.locator("#signature").get_by_role("button", name=re.compile("Copy", re.I))).to_be_visible()
    link = page.locator("#download").get_by_role("link")
    expect(link).to_have_attribute("href", re.compile(r"/update_rouge_per_example\.csv$"))
    lines = page.request.get(link.get_attribute("href")).text().splitlines()
    # Each example's id (the file's "id" field) follows its line, in the CSV and in the table.
    ids = [row["id"] for row in read_jsonl("fruit_triples.jsonl")]
    assert lines[0].split(",")[:3] == ["line", "id", "update_rouge1"]
    assert [line.split(",")[1] for line in lines[1:]] == ids
    assert [float(line.split(",")[2]) for line in lines[1:]] == pytest.approx(
        [row["rouge155"]["rouge1"][2] for row in golden], abs=1e-9
    )
    table = grid_rows(page.locator("#per-example-scores"), 3)
    assert [row[:3] for row in table] == [
        [str(line), example_id, f"{row['rouge155']['rouge1'][2]:.4f}"]
        for line, example_id, row in zip((1, 2, 3), ids, golden)
    ]
    json_link = page.locator("#download-json").get_by_role("link")
    result = json.loads(page.request.get(json_link.get_attribute("href")).text())
    assert result["signature"] == page.locator("#signature textarea").input_value()
    expect(page.locator("#histogram svg")).to_be_visible()
    expect(page.locator("#histogram")).to_contain_text("corpus score (macro mean) 0.5243")
    # As drawn: the mean's line stands inside the 0.5-0.6 bar, the tallest bar is twice the other.
    mean_box = page.locator("#histogram line.mean").bounding_box()
    bar_box = page.locator('#histogram rect[data-bin="0.5-0.6"]').bounding_box()
    other_box = page.locator('#histogram rect[data-bin="0.4-0.5"]').bounding_box()
    assert bar_box["x"] < mean_box["x"] < bar_box["x"] + bar_box["width"]
    assert bar_box["height"] == pytest.approx(2 * other_box["height"], rel=0.02)
    # Changing an option clears the results, which no longer match it, and says so.
    page.get_by_label("0.99").check()
    expect(page.locator("#corpus-summary")).to_be_hidden()
    expect(page.locator("#batch-status textarea")).to_have_value("Options changed: press Score file again.")
    assert page.console_errors == []

    other = open_page(browser, served, {"width": 1280, "height": 800})
    other.get_by_role("tab", name="A file of examples").click()
    other.locator("#batch-file input[type=file]").set_input_files(
        {
            "name": "broken.csv",
            "mimeType": "text/csv",
            "buffer": b"source,reference,prediction\na.,a. <d> b.,a. c.\nx.,y.\n",
        }
    )
    other.get_by_role("button", name="Score file", exact=True).click()
    expect(other.locator("#batch-status textarea")).to_have_value(
        re.compile(r"^Error: broken\.csv:3: 2 cells, but the header has 3$"), timeout=UI_TIMEOUT_MS
    )
    expect(other.locator("#download")).to_be_hidden()
    expect(other.locator("#corpus-summary")).to_be_hidden()
    other.close()
    assert page.outside_requests == []


@pytest.mark.slow
def test_browser_opens_a_per_example_row_in_the_one_example_view(page, golden):
    rows = read_jsonl("fruit_triples.jsonl")
    page.get_by_role("tab", name="A file of examples").click()
    page.locator("#batch-file input[type=file]").set_input_files(str(DATA_DIR / "fruit_triples.jsonl"))
    page.get_by_role("button", name="Score file", exact=True).click()
    grid_rows(page.locator("#per-example-scores"), 3)
    page.locator("#per-example-scores [role=row]:has([role=gridcell])").nth(2).locator("[role=gridcell]").nth(1).click()
    expect(page.get_by_role("tab", name="One example")).to_have_attribute(
        "aria-selected", "true", timeout=UI_TIMEOUT_MS
    )
    expect(page.get_by_label("Source")).to_have_value(rows[2]["source"])
    expect(page.get_by_label("Prediction")).to_have_value(rows[2]["prediction"])
    expect(note(page)).to_have_value(
        re.compile("^Line 3 of fruit_triples.jsonl.\nThe reference adds"), timeout=UI_TIMEOUT_MS
    )
    assert grid_rows(page.locator("#scores"), 3)[0] == [
        "rouge1",
        *(f"{v:.4f}" for v in golden[2]["rouge155"]["rouge1"]),
    ]
    expect(page.locator("#match-note textarea")).to_have_value(re.compile("^rouge1 counts "), timeout=UI_TIMEOUT_MS)
    assert page.console_errors == []


@pytest.mark.slow
def test_browser_shows_the_progress_of_a_file_of_thousands_of_examples(page, tmp_path):
    lines = (DATA_DIR / "wiki_triples.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join((lines * 4)[:2500]) + "\n", encoding="utf-8")  # 35 MB, three chunks
    page.get_by_role("tab", name="A file of examples").click()
    page.locator("#batch-file input[type=file]").set_input_files(str(path))
    # Every progress text the page shows, however briefly, is recorded as it appears.
    page.evaluate(
        """() => {
            window.progressTexts = new Set();
            const record = () => {
                for (const found of document.body.innerText.matchAll(/Scored \\d+ examples/g)) {
                    window.progressTexts.add(found[0]);
                }
            };
            new MutationObserver(record).observe(document.body, {childList: true, subtree: true, characterData: true});
        }"""
    )
    page.get_by_role("button", name="Score file", exact=True).click()
    expect(page.locator("#batch-status textarea")).to_have_value(
        re.compile("^Scored 2500 examples from many.jsonl"), timeout=UI_TIMEOUT_MS
    )
    shown = page.evaluate("() => [...window.progressTexts]")
    assert {"Scored 1000 examples", "Scored 2000 examples"} <= set(shown)
    assert page.console_errors == []


@pytest.mark.slow
def test_an_option_picked_while_the_first_file_scores_leaves_no_result_shown_as_current(page, tmp_path):
    # Three copies of the triples: after the first progress line ("Scored 50 examples"), seconds
    # of scoring are left to pick the option in (745 rows left under one: on a loaded machine the
    # answer could come before the click).
    path = tmp_path / "wiki_2235.jsonl"
    path.write_text((DATA_DIR / "wiki_triples.jsonl").read_text(encoding="utf-8") * 3, encoding="utf-8")
    status = page.locator("#batch-status textarea")
    page.get_by_role("tab", name="A file of examples").click()
    page.locator("#batch-file input[type=file]").set_input_files(str(path))
    settle(page)
    page.get_by_role("button", name="Score file", exact=True).click()
    page.wait_for_function("() => /Scored \\d+ examples/.test(document.body.innerText)", timeout=UI_TIMEOUT_MS)
    # Picked while the session's first file scores: the status shows nothing yet (read in the
    # script that clicks, so no answer lands between the two).
    porter = page.locator("#stemmer").get_by_label("porter", exact=True)
    shown = porter.evaluate("(radio) => [document.querySelector('#batch-status textarea').value, radio.click()][0]")
    assert shown == ""
    # The numbers scored without a stemmer are not shown as those of the porter stemmer picked.
    expect(status).to_have_value("Options changed: press Score file again.", timeout=UI_TIMEOUT_MS)
    expect(page.locator("#corpus-summary")).to_be_hidden()
    expect(page.locator("#signature")).to_be_hidden()
    # Scored again, the results are porter's.
    settle(page)
    page.get_by_role("button", name="Score file", exact=True).click()
    expect(status).to_have_value(re.compile("^Scored 2235 examples from wiki_2235.jsonl"), timeout=UI_TIMEOUT_MS)
    expect(page.locator("#signature textarea")).to_have_value(re.compile(r"\|stem:porter\|"))
    settle(page)
    expect(status).to_have_value(re.compile("^Scored 2235 examples"))
    assert page.console_errors == []


@pytest.mark.slow
def test_browser_gives_the_paired_test_for_a_baseline_column(page, tmp_path, golden):
    path = tmp_path / "paired.jsonl"
    # The baseline predicts the source unchanged: its F1 is 0, so the delta is the system's own F1.
    rows = read_jsonl("fruit_triples.jsonl")
    path.write_text("".join(json.dumps({**row, "baseline": row["source"]}) + "\n" for row in rows), encoding="utf-8")
    page.get_by_role("tab", name="A file of examples").click()
    page.locator("#batch-file input[type=file]").set_input_files(str(path))
    page.locator("#baseline-column textarea, #baseline-column input").first.fill("baseline")
    page.get_by_role("button", name="Score file", exact=True).click()
    (rouge1, *_) = grid_rows(page.locator("#paired-test"), 3)
    summary = grid_rows(page.locator("#corpus-summary"), 3)
    # delta [interval] in points: the system's F1 and interval from the summary, signed.
    f1, interval = summary[0][1].split(" ", 1)
    low, high = interval.strip("[]").split(", ")
    assert rouge1[:3] == ["rouge1", "0.0", f"+{f1} [+{low}, +{high}]"]
    assert float(rouge1[3]) < 0.3
    # The signature is that of the `update-rouge compare` command the Reproduce box suggests.
    expect(page.locator("#signature textarea")).to_have_value(
        re.compile(r"^refs:1\|.*\|test:paired-bs\|correction:none\|comparisons:1$")
    )
    assert page.console_errors == []


def test_browser_shows_a_rows_whole_note_without_scrolling_inside_the_box(page, tmp_path):
    path = tmp_path / "two_references.jsonl"
    rows = [
        {"source": "Old.", "reference": "Old. New one.", "prediction": "Old. New."},
        {"source": "Old.", "reference": ["Old. New two.", "Old. Other."], "prediction": "Old. New."},
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    page.get_by_role("tab", name="A file of examples").click()
    page.locator("#batch-file input[type=file]").set_input_files(str(path))
    page.get_by_role("button", name="Score file", exact=True).click()
    grid_rows(page.locator("#per-example-scores"), 2)
    page.locator("#per-example-scores [role=row]:has([role=gridcell])").nth(1).locator("[role=gridcell]").nth(1).click()
    last = "This example has 2 references; the first is shown and scored here."
    expect(note(page)).to_have_value(re.compile(f"{re.escape(last)}$"), timeout=UI_TIMEOUT_MS)
    page.wait_for_timeout(500)
    # The box is as tall as its text: nothing is scrolled out of it, the last line included.
    heights = note(page).evaluate("e => [e.scrollHeight, e.clientHeight, e.scrollTop]")
    assert heights[0] <= heights[1] + 1 and heights[2] == 0, heights
    box = note(page).bounding_box()
    assert box["height"] >= 3 * 16, box
    assert page.console_errors == []


def test_browser_statistics_controls_reach_reproduce_and_the_summary_states_its_level(page):
    page.get_by_role("tab", name="A file of examples").click()
    page.get_by_text("Several references, resamples, seed").click()
    page.get_by_label("pooled").check()
    seed = page.get_by_label("seed", exact=True)
    seed.fill("7")
    page.keyboard.press("Tab")
    page.get_by_text("Reproduce (Python and the command line)").last.click()
    code = page.locator("#reproduce")
    expect(code).to_contain_text("multi_ref='pooled'")
    expect(code).to_contain_text("seed=7")
    expect(code).to_contain_text("--multi-ref pooled --seed 7")
    page.locator("#batch-file input[type=file]").set_input_files(str(DATA_DIR / "fruit_triples.jsonl"))
    settle(page)
    page.get_by_role("button", name="Score file", exact=True).click()
    grid_rows(page.locator("#corpus-summary"), 3)
    expect(page.locator("#corpus-summary")).to_contain_text("F1 [95% interval]")
    expect(page.locator("#signature textarea")).to_have_value(re.compile(r"\|multiref:pooled\|.*\|seed:7"))
    expect(page.locator("#batch-status textarea")).to_have_value(re.compile("rest on 3 examples, fewer than 30"))
    assert page.console_errors == []


def test_browser_status_draws_an_error_in_red_and_a_scored_file_not(page):
    status = page.locator("#batch-status textarea")
    page.get_by_role("tab", name="A file of examples").click()
    page.locator("#batch-file input[type=file]").set_input_files(str(DATA_DIR / "fruit_triples.jsonl"))
    page.get_by_role("button", name="Score file", exact=True).click()
    expect(status).to_have_value(re.compile("^Scored 3 examples"), timeout=UI_TIMEOUT_MS)
    # The class follows the text (a chained event): wait for it.
    expect(status).to_have_css("border-left-color", "rgb(22, 163, 74)", timeout=UI_TIMEOUT_MS)
    scored = status.evaluate("e => [getComputedStyle(e).color, getComputedStyle(e).borderLeftColor]")
    settle(page)
    assert page.console_errors == []
    # A reload aborts what the old page still has in flight (an open request or stream), and the old
    # page logs an AbortError and "Connection errored out" for it while it unloads, more often on
    # a loaded machine: what the page logs from the reload on is checked on the new page alone.
    page.reload()
    page.console_errors.clear()
    page.get_by_role("tab", name="A file of examples").click()
    page.locator("#batch-file input[type=file]").set_input_files(
        {"name": "broken.jsonl", "mimeType": "text/plain", "buffer": b'{"source": \n'}
    )
    page.get_by_role("button", name="Score file", exact=True).click()
    expect(status).to_have_value(re.compile("^Error: broken.jsonl:1"), timeout=UI_TIMEOUT_MS)
    expect(status).to_have_css("color", "rgb(185, 28, 28)", timeout=UI_TIMEOUT_MS)
    failed = status.evaluate("e => [getComputedStyle(e).color, getComputedStyle(e).borderLeftColor]")
    assert failed == ["rgb(185, 28, 28)", "rgb(220, 38, 38)"]
    assert scored[0] != failed[0] and scored[1] == "rgb(22, 163, 74)", scored
    assert page.console_errors == []
