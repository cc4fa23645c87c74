"""The demo as `python app.py` serves it: its address, gradio_client calls, a real headless browser.

Every test runs twice: against the checkout's app.py, and (slow) as a Space runs it: from
inside the folder `python -m update_rouge.space` writes, with a fresh virtual environment
holding only what the folder's requirements.txt lists (installed from PyPI; pip's cache makes
repeats fast). The app runs in a subprocess on a free loopback port. Its HTTP(S) proxy is a
local trap that records every connection, so a request that gradio or a library it uses sends to any other
host at start or while serving is seen; the browser records every request to a non-loopback
host. The browser is Debian's chromium driven by Playwright (tests/run.sh installs both).
Expected scores are hand counts and ROUGE-1.5.5's values in tests/data/rouge155_golden.jsonl.
"""

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest
from conftest import DATA_DIR, read_histogram, read_jsonl
from gradio_client import Client, handle_file
from playwright.sync_api import expect, sync_playwright
from sandbox import ConnectionTrap, clean_env, make_venv, proxy_variables

from update_rouge.space import write_space

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
START_TIMEOUT = 180
UI_TIMEOUT_MS = 60_000
DAN = (
    "Dan is a baker.",
    "Dan is a baker. Dan loves chocolate cakes.",
    "Dan is a baker. Dan loves chocolate chip cookies.",
)
# Hand counts: 3 of the prediction's 5 words match 3 of the reference's 4; 2 of 4 bigrams match 2 of 3.
SCORE_HEADERS = ["rouge type", "P", "R", "F1"]
DAN_SCORES = [
    ["rouge1", "0.6000", "0.7500", "0.6667"],
    ["rouge2", "0.5000", "0.6667", "0.5714"],
    ["rougeLsum", "0.6000", "0.7500", "0.6667"],
]
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def trap():
    trap = ConnectionTrap()
    yield trap
    trap.close()


def space_app(tmp_path_factory):
    """Write the Space folder and a venv with its requirements; return (python, folder, env)."""
    space = tmp_path_factory.mktemp("space") / "update_rouge"
    write_space(space)
    python = make_venv(tmp_path_factory.mktemp("venv"), ["-r", str(space / "requirements.txt")])
    return python, space, clean_env(HF_HOME=str(tmp_path_factory.mktemp("hf")))


@pytest.fixture(scope="module", params=["checkout", pytest.param("space", marks=pytest.mark.slow)])
def served(request, trap, tmp_path_factory):
    """Run `python app.py` until the module's tests are done; yield its URL and port."""
    port = free_port()
    if request.param == "checkout":
        python, cwd = sys.executable, REPO
        env = {key: value for key, value in os.environ.items() if not key.upper().startswith(("GRADIO_", "HF_"))}
    else:
        python, cwd, env = space_app(tmp_path_factory)
    env.update(
        GRADIO_SERVER_PORT=str(port),
        PYTHONUNBUFFERED="1",
        **proxy_variables(trap.port, "127.0.0.1,localhost"),
    )
    app_tmp = tmp_path_factory.mktemp("app_tmp")
    env.update(TMPDIR=str(app_tmp))
    log_path = tmp_path_factory.mktemp("app") / "app.log"
    with open(log_path, "w", encoding="utf-8") as log:
        process = subprocess.Popen([str(python), "app.py"], cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        url = None
        deadline = time.monotonic() + START_TIMEOUT
        while url is None:
            match = re.search(r"Running on local URL:\s+(\S+)", log_path.read_text(encoding="utf-8"))
            if match:
                url = match.group(1).rstrip("/")
            elif process.poll() is not None:
                pytest.fail(f"app.py exited with {process.returncode}:\n{log_path.read_text(encoding='utf-8')}")
            elif time.monotonic() > deadline:
                pytest.fail(f"app.py did not start in {START_TIMEOUT} s:\n{log_path.read_text(encoding='utf-8')}")
            else:
                time.sleep(0.5)
        yield {"url": url, "port": port}
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)
    # What the app wrote under its temporary folder (its downloads) is gone once it stopped.
    assert sorted(path.name for path in app_tmp.glob("update_rouge_*")) == []


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, served):
    """A fresh page on the app; ``page.outside_requests`` lists requests to non-loopback hosts,
    ``page.console_errors`` the console's errors and the page's uncaught exceptions."""
    page = open_page(browser, served, {"width": 1280, "height": 800})
    yield page
    page.close()


def open_page(browser, served, viewport):
    page = browser.new_page(viewport=viewport)
    page.console_errors = []
    page.on("console", lambda message: page.console_errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    page.set_default_timeout(UI_TIMEOUT_MS)
    page.outside_requests = []
    page.on(
        "request",
        lambda request: (
            page.outside_requests.append(request.url)
            if urlparse(request.url).scheme in ("http", "https", "ws", "wss")
            and urlparse(request.url).hostname not in LOOPBACK
            else None
        ),
    )
    page.goto(served["url"], timeout=UI_TIMEOUT_MS)
    return page


@pytest.fixture(scope="module")
def client(served):
    return Client(served["url"], verbose=False)


@pytest.fixture(scope="module")
def golden():
    """ROUGE-1.5.5's additions and [P, R, F1] for each FRUIT sample, in file order."""
    return [row for row in read_jsonl("rouge155_golden.jsonl") if row["file"] == "fruit_triples.jsonl"]


def grid_rows(locator, count):
    """The cell texts of a gradio Dataframe's body rows, once it shows ``count`` of them."""
    rows = locator.locator('[role="row"]:has([role="gridcell"])')
    expect(rows).to_have_count(count, timeout=UI_TIMEOUT_MS)
    return [[cell.strip() for cell in rows.nth(i).locator('[role="gridcell"]').all_inner_texts()] for i in range(count)]


def test_serves_on_loopback_at_the_port_from_the_environment(served):
    assert served["url"] == f"http://127.0.0.1:{served['port']}"


def test_client_scores_one_example(client):
    reference_view, prediction_view, scores, note = client.predict(
        *DAN, ["rouge2", "rouge1", "rougeLsum"], "none", api_name="/score_one"
    )
    assert prediction_view == [
        {"token": "Dan is a baker.", "class_or_confidence": "in the source"},
        {"token": " ", "class_or_confidence": None},
        {"token": "Dan loves chocolate chip cookies.", "class_or_confidence": "added"},
    ]
    assert [piece["token"] for piece in reference_view if piece["class_or_confidence"] == "added"] == [
        "Dan loves chocolate cakes."
    ]
    assert scores["headers"] == SCORE_HEADERS
    assert scores["data"] == DAN_SCORES
    assert note == "The reference adds 1 segment(s) to the source, the prediction 1."


# Hand counts (as in tests/unit/test_languages.py): zh, ja and th need the word segmenters of the
# multilingual extra, which the Space's requirements.txt must carry; hi needs none.
LANGUAGE_UPDATES = {
    # 上海 是 中国 最大 的 城市 against 上海 是 最大 的 城市: 5 of 5 and of 6; bigrams 3 of 4 and of 5.
    "zh": (
        ("北京是中国的首都。", "北京是中国的首都。上海是中国最大的城市。", "北京是中国的首都。上海是最大的城市。"),
        [["1.0000", "0.8333", "0.9091"], ["0.7500", "0.6000", "0.6667"]],
    ),
    # 大阪 は 日本 で 二 番 目 に 大きな 都市 です (11) against 大阪 は 日本 の 大きな 都市 です (7): 6 match;
    # bigrams 大阪は は日本 大きな都市 都市です: 4 of 6 and of 10.
    "ja": (
        (
            "東京は日本の首都です。",
            "東京は日本の首都です。大阪は日本で二番目に大きな都市です。",
            "東京は日本の首都です。大阪は日本の大きな都市です。",
        ),
        [["0.8571", "0.5455", "0.6667"], ["0.6667", "0.4000", "0.5000"]],
    ),
    # Empty source: ผม รัก ภาษาไทย มาก against ผม รัก ภาษาไทย: 3 of 3 and of 4; bigrams 2 of 2 and of 3.
    "th": (("", "ผมรักภาษาไทยมาก", "ผมรักภาษาไทย"), [["1.0000", "0.7500", "0.8571"], ["1.0000", "0.6667", "0.8000"]]),
    # दिल्ली भारत की राजधानी है (5) against दिल्ली भारत की राजधानी नहीं है (6): 5 match; bigrams 3 of 5 and of 4.
    "hi": (
        (
            "भारत एक विशाल देश है।",
            "भारत एक विशाल देश है। दिल्ली भारत की राजधानी है।",
            "भारत एक विशाल देश है। दिल्ली भारत की राजधानी नहीं है।",
        ),
        [["0.8333", "1.0000", "0.9091"], ["0.6000", "0.7500", "0.6667"]],
    ),
}


@pytest.mark.parametrize("language", sorted(LANGUAGE_UPDATES))
def test_client_scores_each_language_that_needs_a_segmenter_or_none(client, language):
    texts, (rouge1, rouge2) = LANGUAGE_UPDATES[language]
    _, _, scores, note = client.predict(*texts, ["rouge1", "rouge2"], "none", language, api_name="/score_one")
    assert note.startswith("The reference adds 1 segment(s) to the source, the prediction 1."), note
    assert scores["data"] == [["rouge1", *rouge1], ["rouge2", *rouge2]]


@pytest.mark.parametrize("value, got", [(None, "null"), (3, "int"), (0.5, "float")])
def test_client_gets_an_error_for_a_text_that_is_not_a_string(client, value, got):
    with pytest.raises(Exception, match=f"^prediction must be a string, got {got}$"):
        client.predict(DAN[0], DAN[1], value, ["rouge1"], "none", api_name="/score_one")


def call_raw(url, endpoint, body):
    """gradio's HTTP API called with the JSON text ``body`` as is (NaN and Infinity, which JSON
    clients refuse to send, included): the text of the event stream of the call."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback, never a proxy
    request = urllib.request.Request(
        f"{url}/gradio_api/call/{endpoint}", data=body.encode(), headers={"Content-Type": "application/json"}
    )
    with opener.open(request, timeout=30) as response:
        event_id = json.load(response)["event_id"]
    with opener.open(f"{url}/gradio_api/call/{endpoint}/{event_id}", timeout=60) as response:
        return response.read().decode()


@pytest.mark.parametrize("value, shown", [("NaN", "nan"), ("Infinity", "inf"), ('"many"', "'many'")])
def test_the_http_api_names_max_words_when_it_is_not_a_number(served, value, shown):
    body = json.dumps({"data": [*DAN, ["rouge1"], "none", "none (rouge-score's tokens)", False, 0, 0, 0.5]})
    stream = call_raw(served["url"], "score_one", body.replace(", 0, 0, 0.5]", f", {value}, 0, 0.5]"))
    assert f"Error: max_words must be a whole number >= 0 (0: no limit), got {shown}" in stream, stream


def test_the_client_gets_alpha_named_when_it_is_not_a_number(client):
    fruit = handle_file(str(DATA_DIR / "fruit_triples.jsonl"))
    options = ["none (rouge-score's tokens)", False, 0, 0, "half"]
    with pytest.raises(Exception, match=r"^alpha must be a number in \[0, 1\], got 'half'$"):
        client.predict(fruit, ["rouge1"], "none", "0.95", *options, "", api_name="/score_file")
    note = client.predict(*DAN, ["rouge1"], "none", *options, api_name="/score_one")[3]
    assert note == "Error: alpha must be a number in [0, 1], got 'half'"


def test_the_api_documents_two_named_endpoints_with_the_demos_own_examples(client):
    info = client.view_api(print_info=False, return_format="dict")
    assert sorted(info["named_endpoints"]) == ["/score_file", "/score_one"]
    assert info["unnamed_endpoints"] == {}
    one = {p["parameter_name"]: p for p in info["named_endpoints"]["/score_one"]["parameters"]}
    assert [one[name]["example_input"] for name in ("source", "reference", "prediction")] == list(DAN)
    upload = info["named_endpoints"]["/score_file"]["parameters"][0]
    assert upload["parameter_name"] == "path" and upload["example_input"]["path"] == "examples.jsonl"
    assert "http" not in str(info)


def test_client_scores_a_file_with_summary_signature_and_downloads(client, golden):
    status, summary, signature, per_example, histogram, _, json_path, csv_path, paired = client.predict(
        handle_file(str(DATA_DIR / "fruit_triples.jsonl")), ["rouge1"], "none", "0.95", api_name="/score_file"
    )
    assert status.startswith("Scored 3 examples from fruit_triples.jsonl; in 0 of them neither side adds")
    assert summary["headers"] == ["rouge type", "F1 [low, high]", "P", "R"]
    # 0.5243 (README) as a percentage, then its interval.
    assert summary["data"][0][0] == "rouge1" and summary["data"][0][1].startswith("52.4 [")
    assert signature.startswith("refs:1|") and "types:rouge1|" in signature
    assert [row[1] for row in per_example["data"]] == [f"{row['rouge155']['rouge1'][2]:.4f}" for row in golden]
    assert {k: v for k, v in read_histogram(histogram)["bars"].items() if v} == {"0.4-0.5": 1, "0.5-0.6": 2}
    result = json.loads(Path(json_path).read_text(encoding="utf-8"))
    assert result["signature"] == signature
    assert round(result["update_rouge1"], 4) == 0.5243 and result["_both_empty"] == 0
    assert paired is None or paired["data"] in ([], [[None, None, None]], [["", "", ""]])
    lines = Path(csv_path).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("line,update_rouge1,update_rouge1_precision,update_rouge1_recall")
    assert [float(line.split(",")[1]) for line in lines[1:]] == pytest.approx(
        [row["rouge155"]["rouge1"][2] for row in golden], abs=1e-9
    )


def test_client_gets_the_paired_test_for_a_baseline_column(client, tmp_path, golden):
    rows = read_jsonl("fruit_triples.jsonl")
    path = tmp_path / "paired.jsonl"
    # The baseline predicts the source unchanged: it adds nothing, so its F1 is 0 on each example.
    path.write_text("".join(json.dumps({**row, "baseline": row["source"]}) + "\n" for row in rows), encoding="utf-8")
    *_, paired = client.predict(
        handle_file(str(path)),
        ["rouge1"],
        "none",
        "0.95",
        "none (rouge-score's tokens)",
        False,
        0,
        0,
        0.5,
        "baseline",
        api_name="/score_file",
    )
    mean_f1 = sum(row["rouge155"]["rouge1"][2] for row in golden) / 3
    assert paired["headers"] == ["rouge type", "delta F1 (points) [interval]", "p-value"]
    # The baseline scores 0 on every example: the delta and its interval are the system's own.
    assert paired["data"][0][1].startswith(f"{100 * mean_f1:+.1f} [+")
    assert float(paired["data"][0][2]) < 0.01


def test_client_gets_the_line_of_a_malformed_file_and_no_downloads(client, tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"source": "a.", "reference": "a. b.", "prediction": "a. c."}\n{"source": \n', encoding="utf-8")
    status, *_, json_path, csv_path, _ = client.predict(
        handle_file(str(path)), ["rouge1"], "none", "0.95", api_name="/score_file"
    )
    assert re.fullmatch(r"Error: broken\.jsonl:2: not valid JSON \(.*\)", status)
    assert json_path is None and csv_path is None


def highlighted(page, elem_id):
    view = page.locator(f"#{elem_id}")
    return [
        [text.strip() for text in view.locator(selector).all_inner_texts()]
        for selector in (".token.highlighted .text", ".text.unlabeled")
    ]


def fill(page, source, reference, prediction):
    page.get_by_label("Source").fill(source)
    page.get_by_label("Reference").fill(reference)
    page.get_by_label("Prediction").fill(prediction)


def score(page):
    page.get_by_role("button", name="Score", exact=True).click()


def note(page):
    return page.locator("#note textarea")


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
    # Matched tokens, then the others (the spaces between tokens are unlabelled pieces too).
    assert [[t for t in texts if t] for texts in highlighted(page, "reference-matches")] == [
        ["dan", "loves", "chocolate"],
        ["cakes"],
    ]
    assert [[t for t in texts if t] for texts in highlighted(page, "prediction-matches")] == [
        ["dan", "loves", "chocolate"],
        ["chip", "cookies"],
    ]
    page.locator("#matches-of").get_by_label("rouge2").check()
    expect(match_note).to_have_value(re.compile(r"^rouge2 counts 2 matched 2-grams.* Precision 2/4 .* recall 2/3 "))
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
    score(page)
    expect(note(page)).to_have_value(re.compile("Warning: 1 of 1 examples have additions in which the tokenizer"))
    page.get_by_text("Advanced options").click()
    page.get_by_label("Max words (-l, 0: no limit)").fill("3")
    page.get_by_label("Max bytes (-b, 0: no limit)").fill("5")
    page.get_by_label("Source").fill("s. <d> kept")
    score(page)
    expect(note(page)).to_have_value(re.compile("^Error: .*max_words.*max_bytes"), timeout=UI_TIMEOUT_MS)
    page.get_by_label("Max bytes (-b, 0: no limit)").fill("0")
    # Errors are shown as text: markup from the input stays visible.
    page.get_by_role("tab", name="A file of examples").click()
    page.locator("#batch-file input[type=file]").set_input_files(
        {"name": "twice.jsonl", "mimeType": "text/plain", "buffer": b'{"<d>": 1, "<d>": 2}\n'}
    )
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
    page.get_by_text("fruit-sample-1", exact=True).click()
    expect(page.get_by_label("Source")).to_have_value(row["source"])
    expect(page.get_by_label("Reference")).to_have_value(row["reference"])
    expect(page.get_by_label("Prediction")).to_have_value(row["prediction"])
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
    assert lines[0].split(",")[:2] == ["line", "update_rouge1"]
    assert [float(line.split(",")[1]) for line in lines[1:]] == pytest.approx(
        [row["rouge155"]["rouge1"][2] for row in golden], abs=1e-9
    )
    json_link = page.locator("#download-json").get_by_role("link")
    result = json.loads(page.request.get(json_link.get_attribute("href")).text())
    assert result["signature"] == page.locator("#signature textarea").input_value()
    expect(page.locator("#histogram svg")).to_be_visible()
    expect(page.locator("#histogram")).to_contain_text("corpus mean 0.5243")
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
    assert rouge1[:2] == ["rouge1", f"+{f1} [+{low}, +{high}]"]
    assert float(rouge1[2]) < 0.3
    assert page.console_errors == []


def test_browser_reproduce_box_follows_the_options(page):
    code = page.locator("#reproduce")
    expect(code).to_contain_text("# update-rouge examples.jsonl")
    page.locator("#rouge-types").get_by_label("rougeL", exact=True).check()
    page.get_by_label("rouge155").check()
    expect(code).to_contain_text("rouge_types=['rouge1', 'rouge2', 'rougeL', 'rougeLsum'], stemmer='rouge155'")
    expect(code).to_contain_text("--rouge-types rouge1 rouge2 rougeL rougeLsum --stemmer rouge155")
    expect(code).to_contain_text("evaluate.load('<namespace>/update_rouge', revision='v0.1.0')")
    page.get_by_role("tab", name="A file of examples").click()
    page.locator("#baseline-column textarea, #baseline-column input").fill("baseline")
    expect(code).to_contain_text("baseline_predictions=[row['baseline'] for row in rows]")
    expect(code).to_contain_text("update-rouge compare examples.jsonl --system prediction --system baseline")
    assert page.console_errors == []


def test_browser_quick_edits_of_a_number_field_settle_and_score_still_works(page):
    joins = []
    page.on("request", lambda request: joins.append(time.monotonic()) if "/queue/join" in request.url else None)
    fill(page, *DAN)
    page.get_by_text("Advanced options").click()
    alpha = page.get_by_label("alpha (-p, weight of precision)")
    for value in ("0.3", "0.4", "0.6"):
        alpha.fill(value)
        page.keyboard.press("Tab")
        page.wait_for_timeout(100)
    expect(page.locator("#reproduce")).to_contain_text("alpha=0.6")
    page.wait_for_timeout(2000)
    settled = len(joins)
    page.wait_for_timeout(2000)
    # No event triggers itself: once the edits are handled, nothing more is sent.
    assert len(joins) == settled
    score(page)
    expect(note(page)).to_have_value(re.compile("^The reference adds 1 segment"), timeout=UI_TIMEOUT_MS)
    assert grid_rows(page.locator("#scores"), 3)[0][0] == "rouge1"
    assert page.console_errors == []


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
