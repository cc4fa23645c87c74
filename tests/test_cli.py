import json
import subprocess
import sys

from conftest import DATA_DIR

from update_rouge import compute
from update_rouge.cli import main


def test_main_job_prints_the_same_scores_as_compute():
    completed = subprocess.run(
        [sys.executable, "-m", "update_rouge", str(DATA_DIR / "fruit_triples.jsonl")],
        capture_output=True, text=True, timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    rows = [json.loads(line) for line in open(DATA_DIR / "fruit_triples.jsonl", encoding="utf-8")]
    expected = compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
    )
    assert json.loads(completed.stdout) == expected


def test_malformed_line_names_file_and_line(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"source": "a", "reference": "b", "prediction": "c"}\n{"source": "a"}\n', encoding="utf-8")
    assert main([str(path)]) == 2
    assert f"{path}:2: missing field(s) reference, prediction" in capsys.readouterr().err


def test_invalid_json_exits_2(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text("{not json\n", encoding="utf-8")
    assert main([str(path)]) == 2
    assert f"{path}:1: not valid JSON" in capsys.readouterr().err


def test_rouge155_options_reach_compute(tmp_path, capsys):
    path = tmp_path / "two_references.jsonl"
    path.write_text('{"source": "s.", "reference": ["s. a b c.", "s. a d."], "prediction": "s. a b d."}\n', encoding="utf-8")
    assert main([str(path), "--rouge-types", "rouge1", "rougeSU4", "--multi-ref", "pooled"]) == 0
    expected = compute(
        sources=["s."], predictions=["s. a b d."], references=[["s. a b c.", "s. a d."]],
        rouge_types=["rouge1", "rougeSU4"], multi_ref="pooled",
    )
    printed = json.loads(capsys.readouterr().out)
    assert printed == expected
    # Pooled ROUGE-1: hits 2 + 2 of 3 + 2 reference tokens; 3 prediction tokens counted twice.
    assert printed["update_rouge1_recall"] == 4 / 5
    assert printed["update_rouge1_precision"] == 4 / 6
