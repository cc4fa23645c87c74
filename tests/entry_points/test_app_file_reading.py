"""The demo's reading of uploads and writing of downloads called directly: malformed files named
by line, the size cap, whole-or-nothing CSV, the downloads folder; and the page's build.
"""

import csv
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import gradio
import pandas as pd
import pytest
from app_calls import DAN, DEFAULT_TYPES, FRUIT, GOOD_LINE, ONE_EXAMPLE, score_file, table_rows
from conftest import DATA_DIR

from demo import downloads, events, file_handlers, handlers, render
from demo import options as demo_options
from demo import page as demo_page

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


def test_the_size_cap_comes_from_the_environment():
    assert demo_options.max_upload_mb({}) == 50
    assert demo_options.max_upload_mb({"UPDATE_ROUGE_DEMO_MAX_MB": "7.5"}) == 7.5
    for bad in ("0", "-1", "inf", "nan", "lots"):
        with pytest.raises(
            ValueError, match=f"UPDATE_ROUGE_DEMO_MAX_MB must be a number of megabytes > 0, got '{bad}'"
        ):
            demo_options.max_upload_mb({"UPDATE_ROUGE_DEMO_MAX_MB": bad})


def test_no_upload_asks_for_a_file():
    out = score_file(None, DEFAULT_TYPES, "none")
    assert out["status"] == "Upload a .jsonl or .csv file first."
    assert out["results"] == {"__type__": "update", "visible": False}


def test_csv_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    table = pd.DataFrame({"line": [1, 2], "update_rouge1": [0.1, 1 / 3]})
    path = downloads.write_csv_atomically(table, tmp_path)
    assert path.read_text(encoding="utf-8") == f"line,update_rouge1\n1,0.1\n2,{1 / 3!r}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [downloads.CSV_NAME]

    def write_half_then_fail(self, target, **kwargs):
        with open(target, "w", encoding="utf-8") as handle:
            handle.write("line,upd")
        raise OSError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_csv", write_half_then_fail)
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(OSError, match="disk full"):
        downloads.write_csv_atomically(table, other)
    assert not (other / downloads.CSV_NAME).exists()


@pytest.mark.slow
def test_the_downloads_folder_is_removed_when_the_process_exits(tmp_path):
    code = (
        "import sys; from demo import downloads, file_handlers; out = file_handlers.score_file(sys.argv[1], ['rouge1'], 'none'); "
        "print(downloads.downloads_root()); print(out['download_csv'])"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", code, str(FRUIT)], cwd=REPO, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    root, csv_file = run.stdout.split()
    assert (
        csv_file.endswith(downloads.CSV_NAME) and csv_file.startswith(root + os.sep) and Path(root).parent == tmp_path
    )
    assert not Path(root).exists()
    assert list(tmp_path.iterdir()) == []


def test_metric_card_is_the_readme_without_front_matter():
    card = render.metric_card((DATA_DIR.parent.parent / "README.md").read_text(encoding="utf-8"))
    assert card.startswith("# Metric Card for UpdateROUGE\n")
    assert "app_file:" not in card and "## Citation" in card
    assert render.metric_card("# No front matter\n") == "# No front matter\n"


def test_demo_builds_without_analytics():
    demo = demo_page.build_demo()
    assert isinstance(demo, gradio.Blocks)
    assert demo.analytics_enabled is False


def test_the_page_gives_gradio_a_handlers_results_keyed_by_component_and_keeps_its_signature():
    page = events.Page(**{name: gradio.Textbox() for name in ONE_EXAMPLE})
    keyed = page.keyed(handlers.score_one)
    out = keyed(*DAN, ["rouge1"], "none")
    assert list(out) == page(*ONE_EXAMPLE)
    assert out[page.note] == "The reference adds 1 segment(s) to the source, the prediction 1."
    assert table_rows(out[page.scores]) == [["rouge1", "0.6000", "0.7500", "0.6667"]]
    # gradio reads the API's parameters, the progress bar and the select event from the signature.
    assert inspect.signature(keyed) == inspect.signature(handlers.score_one)
    assert keyed.__doc__ == handlers.score_one.__doc__
