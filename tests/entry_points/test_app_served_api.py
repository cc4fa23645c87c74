"""The demo served by `python app.py` (checkout, and slow: as a Space), called over HTTP:
its address, the gradio_client endpoints, raw calls with values JSON clients refuse to send.
"""

import json
import re
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import DATA_DIR, read_histogram, read_jsonl
from gradio_client import handle_file
from served_app import DAN, DAN_SCORES, SCORE_HEADERS

# The fixtures: served, trap, client, browser, page (golden is conftest's).
pytest_plugins = ["served_app"]


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
    # gradio's raw HTTP API takes every input of score_one (its client fills in the defaults).
    data = [*DAN, ["rouge1"], "none", "none (rouge-score's tokens)", False, 0, 0, 0.5, "sentences", False]
    body = json.dumps({"data": data})
    stream = call_raw(served["url"], "score_one", body.replace(", 0, 0, 0.5,", f", {value}, 0, 0.5,"))
    assert f"Error: max_words must be a whole number >= 0 (0: no limit), got {shown}" in stream, stream


def test_the_client_gets_alpha_named_when_it_is_not_a_number(client):
    fruit = handle_file(str(DATA_DIR / "fruit_triples.jsonl"))
    options = ["none (rouge-score's tokens)", False, 0, 0, "half"]
    status = client.predict(fruit, ["rouge1"], "none", "0.95", *options, "", api_name="/score_file")[0]
    assert status == "Error: alpha must be a number in [0, 1], got 'half'"
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
    status, summary, signature, cite, per_example, histogram, _, json_path, csv_path, paired = client.predict(
        handle_file(str(DATA_DIR / "fruit_triples.jsonl")), ["rouge1"], "none", "0.95", api_name="/score_file"
    )
    assert status.startswith("Scored 3 examples from fruit_triples.jsonl; in 0 of them neither side adds")
    # The tables come as updates with their labels, which state the average and the scale.
    assert summary["label"].startswith("Corpus scores: macro average (the mean of the examples' scores), in percent")
    summary = summary["value"]
    assert summary["headers"] == ["rouge type", "F1 [95% interval]", "P", "R"]
    # 0.5243 (README) as a percentage, then its interval.
    assert summary["data"][0][0] == "rouge1" and summary["data"][0][1].startswith("52.4 [")
    assert signature.startswith("refs:1|") and "types:rouge1|" in signature
    assert cite.splitlines()[1:3] == [
        f"rouge1: {summary['headers'][1]} {summary['data'][0][1]}, P 76.5, R 42.5",
        f"Signature: {signature}",
    ]
    # The per-example table too, its label saying how many of its rows it shows (all 3 here).
    assert per_example["label"] == 'Per-example F1, 0 to 1 (click a row to open it under "One example")'
    per_example = per_example["value"]
    assert per_example["headers"] == ["line", "id", "rouge1"]
    assert [row[1] for row in per_example["data"]] == [f"fruit-sample-{i}" for i in range(3)]
    assert [row[2] for row in per_example["data"]] == [f"{row['rouge155']['rouge1'][2]:.4f}" for row in golden]
    assert {k: v for k, v in read_histogram(histogram)["bars"].items() if v} == {"0.4-0.5": 1, "0.5-0.6": 2}
    result = json.loads(Path(json_path).read_text(encoding="utf-8"))
    assert result["signature"] == signature
    assert round(result["update_rouge1"], 4) == 0.5243 and result["_both_empty"] == 0
    # No baseline column: the paired table is empty.
    assert paired["value"]["data"] == []
    lines = Path(csv_path).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("line,id,update_rouge1,update_rouge1_precision,update_rouge1_recall")
    assert [line.split(",")[1] for line in lines[1:]] == [f"fruit-sample-{i}" for i in range(3)]
    assert [float(line.split(",")[2]) for line in lines[1:]] == pytest.approx(
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
    assert paired["label"].startswith(
        "Paired test against the baseline: the baseline's macro mean F1 and the difference"
    )
    paired = paired["value"]
    assert paired["headers"] == ["rouge type", "baseline F1", "delta F1 (points) [interval]", "p-value"]
    # The baseline scores 0 on every example: its F1 is 0.0, the delta and its interval the system's own.
    assert paired["data"][0][:2] == ["rouge1", "0.0"]
    assert paired["data"][0][2].startswith(f"{100 * mean_f1:+.1f} [+")
    assert float(paired["data"][0][3]) < 0.01


def test_client_gets_the_line_of_a_malformed_file_and_no_downloads(client, tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"source": "a.", "reference": "a. b.", "prediction": "a. c."}\n{"source": \n', encoding="utf-8")
    status, *_, json_path, csv_path, _ = client.predict(
        handle_file(str(path)), ["rouge1"], "none", "0.95", api_name="/score_file"
    )
    assert re.fullmatch(r"Error: broken\.jsonl:2: not valid JSON \(.*\)", status)
    assert json_path is None and csv_path is None


def test_client_gets_the_line_of_an_example_editeval_cannot_average_and_the_log_no_traceback(client, tmp_path):
    # The module's fixture fails a test whose call logged a traceback (served_app.failures_logged).
    path = tmp_path / "refs.jsonl"
    path.write_text(
        '{"source": "a.", "reference": "a. b.", "prediction": "a. b. c."}\n'
        '{"source": "a.", "reference": ["a. b.", "a. c."], "prediction": "a. b."}\n',
        encoding="utf-8",
    )
    options = ["0.95", "none (rouge-score's tokens)", False, 0, 0, 0.5, "", "max_f1", 1000, 12345, "sentences", "macro"]
    status, *_, json_path, csv_path, _ = client.predict(
        handle_file(str(path)), ["rouge1", "rouge2", "rougeLsum"], "none", *options, "editeval", api_name="/score_file"
    )
    assert status == (
        'Error: refs.jsonl:2: 2 references, but line 1 has 1 reference: protocol "editeval" needs the same number '
        "of references in every example (its corpus value averages reference slots); instead: set protocol back "
        'to "none"'
    )
    assert json_path is None and csv_path is None


def test_the_http_api_takes_additions_and_average_as_trailing_arguments(client, served):
    texts = (
        "The team won 3 games in 2020. The coach is Smith.",
        "The team won 5 games in 2021. The coach is Smith.",
        "The team won 3 games in 2021. The coach is Smith.",
    )
    options = ["none (rouge-score's tokens)", False, 0, 0, 0.5]
    # additions="edits": the prediction adds "2021", the reference "5" and "2021" (P 1/1, R 1/2).
    *_, scores, _ = client.predict(*texts, ["rouge1"], "none", *options, "edits", api_name="/score_one")
    assert scores["data"] == [["rouge1", "1.0000", "0.5000", "0.6667"]]
    # A client call without them (as written before they existed) gets the defaults: sentences.
    *_, scores, note = client.predict(*texts, ["rouge1"], "none", *options, api_name="/score_one")
    assert (
        scores["data"][0][0] == "rouge1" and note == "The reference adds 1 segment(s) to the source, the prediction 1."
    )
    fruit = handle_file(str(DATA_DIR / "fruit_triples.jsonl"))
    statistics = ["max_f1", 200, 12345]
    signature = client.predict(
        fruit, ["rouge1"], "none", "0.95", *options, "", *statistics, "sentences", "micro", api_name="/score_file"
    )[2]
    assert "|agg:micro|" in signature
    assert "|agg:micro|" not in client.predict(fruit, ["rouge1"], "none", api_name="/score_file")[2]


def test_served_demo_refuses_ten_thousand_one_word_sentences_of_rouge_w_in_seconds(client):
    # Issue 39: this held the server 223 s; served, the demo lowers the LCS limit to its own.
    lines = "\n".join(["w."] * 10_000)
    started = time.monotonic()
    _, _, scores, note = client.predict("", lines, lines, ["rougeW-1.2"], "none", api_name="/score_one")
    assert time.monotonic() - started < 30
    assert scores is None or scores.get("data") in (None, [])
    assert note.startswith(
        "Error: rougeW-1.2 of 10,000 x 10,000 tokens with their line pairs (a cost of 3,100,100,000,000 cells) is "
        "more than this demo's LCS limit of 20,000,000,000 cells (about 9 s of computing)."
    ), note
