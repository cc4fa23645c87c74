"""The demo's reading of uploads called directly (``demo.file_handlers``): malformed files named
by line, the command line's reader, the size cap (the downloads are in test_demo_downloads.py).
"""

import csv
import json
from pathlib import Path

import pytest
from app_calls import DEFAULT_TYPES, GOOD_LINE, score_file

from demo import file_handlers

REPO = Path(__file__).resolve().parents[2]


# The command line's reader (update_rouge/files.py) gives these messages, as path:line: problem.
BAD_FILES = [
    ("bad.jsonl", GOOD_LINE + '{"source": "a.",\n', "bad.jsonl:2: not valid JSON"),
    (
        "bad.jsonl",
        GOOD_LINE + "\n" + '{"source": "a.", "prediction": "a."}\n',
        "bad.jsonl:3: missing field(s) reference",
    ),
    (
        "bad.jsonl",
        GOOD_LINE + '{"source": 3, "reference": "a", "prediction": "a"}\n',
        "bad.jsonl:2: source must be a string, got a number",
    ),
    (
        "bad.jsonl",
        GOOD_LINE + '{"source": "a", "reference": [], "prediction": "a"}\n',
        "bad.jsonl:2: reference must be",
    ),
    ("bad.jsonl", GOOD_LINE + '["a", "b", "c"]\n', "bad.jsonl:2: expected a JSON object"),
    (
        "bad.jsonl",
        GOOD_LINE + '{"source": "a", "source": "b", "reference": "c", "prediction": "d"}\n',
        "bad.jsonl:2: not usable JSON (the key 'source' appears more than once",
    ),
    ("bad.jsonl", "\n\n", "bad.jsonl: the file holds no examples"),
    ("bad.csv", "source,prediction\na.,b.\n", "bad.csv:1: the header row lacks the column(s) reference"),
    (
        "bad.csv",
        "source,reference,prediction,source\na.,b.,c.,d.\n",
        "bad.csv:1: the header row names the column(s) source more than once",
    ),
    ("bad.csv", 'source,reference,prediction\n"a\nb.",c.,d.\ne.,f.\n', "bad.csv:4: 2 cells, but the header has 3"),
    ("bad.csv", 'source,reference,prediction\na.,"[""x"", 1]",c.\n', "bad.csv:2: reference[1] must be a string"),
    ("bad.csv", 'source,reference,prediction\na.,"b.\n', "not valid CSV"),
    ("bad.txt", "whatever", "cannot tell the format of"),
    (
        "bad.jsonl",
        GOOD_LINE + '{"source": "a", "reference": "b", "prediction": "c \\ud800"}\n',
        "bad.jsonl:2: prediction contains a lone surrogate (U+D800) at character 2",
    ),
    (
        "bad.jsonl",
        '{"source": "a", "reference": ["b", "\\udfff"], "prediction": "c"}\n',
        "bad.jsonl:1: reference[1] contains",
    ),
]


@pytest.mark.parametrize("name, content, message", BAD_FILES)
def test_malformed_file_gives_a_message_naming_the_line_and_nothing_else(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    out = score_file(path, DEFAULT_TYPES, "none")
    assert out["status"].startswith("Error: ") and message in out["status"]
    assert out["results"] == {"__type__": "update", "visible": False}
    assert out["histogram_of"] == {"__type__": "update", "choices": [], "value": None}
    assert [
        out[name]
        for name in (
            "summary",
            "signature",
            "cite",
            "per_example",
            "per_example_state",
            "download_json",
            "download_csv",
            "paired",
        )
    ] == [None] * 8


def test_non_utf8_file_names_the_line(tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(GOOD_LINE.encode() + '{"source": "caf\u00e9"}\n'.encode("latin-1"))
    status = score_file(path, DEFAULT_TYPES, "none")["status"]
    assert status.startswith("Error: latin1.jsonl:2: not valid UTF-8")


def test_the_reader_is_the_command_lines_one_long_csv_fields_and_only_three_line_ends(tmp_path):
    # A 200,000-character field (beyond csv's default field limit); U+2028 and U+0085 stay
    # inside a JSONL line, a lone CR ends one.
    long_text = "word " * 40_000 + "end."
    csv_path = tmp_path / "long.csv"
    with open(csv_path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(
            [["source", "reference", "prediction"], ["s.", "s. " + long_text, "s. " + long_text]]
        )
    assert list(score_file(csv_path, ["rouge1"], "none")["per_example"]["rouge1"]) == ["1.0000"]
    jsonl = tmp_path / "ends.jsonl"
    first = json.dumps({"source": "s.", "reference": "s. a\u2028b.", "prediction": "s. a\u0085b."}, ensure_ascii=False)
    second = json.dumps({"source": "s.", "reference": "s. c.", "prediction": "s. c."})
    jsonl.write_bytes((first + "\r" + second + "\r").encode("utf-8"))
    out = score_file(jsonl, ["rouge1"], "none")
    assert list(out["per_example"]["line"]) == [1, 2]
    # rouge-score's tokens: "a", "b" on both sides (U+2028 and U+0085 are not a-z0-9).
    assert list(out["per_example"]["rouge1"]) == ["1.0000", "1.0000"]


def test_an_upload_over_the_size_cap_is_refused_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(file_handlers, "MAX_UPLOAD_MB", 0.001)
    path = tmp_path / "big.jsonl"
    path.write_text(GOOD_LINE * 20, encoding="utf-8")
    status = score_file(path, DEFAULT_TYPES, "none")["status"]
    assert status == (
        "Error: big.jsonl is 0.0 MB; this demo takes files up to 0.001 MB (UPDATE_ROUGE_DEMO_MAX_MB). "
        "Score larger files with the update-rouge command."
    )


def test_no_upload_asks_for_a_file():
    out = score_file(None, DEFAULT_TYPES, "none")
    assert out["status"] == "Upload a .jsonl or .csv file (at most 50 MB) first."
    assert out["results"] == {"__type__": "update", "visible": False}
