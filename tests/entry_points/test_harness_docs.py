"""docs/harnesses.md: its examples run as written (the ones that need no model or network)."""

import ast
import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from update_rouge import compute

DOC = Path(__file__).resolve().parents[2] / "docs" / "harnesses.md"


def code_blocks(language):
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def block_containing(text, language="python"):
    (block,) = [block for block in code_blocks(language) if text in block]
    return block


@pytest.mark.needs_torch
def test_the_torchmetrics_example_prints_computes_micro_scores():
    pytest.importorskip("torchmetrics", reason="needs the torchmetrics extra: pip install 'update-rouge[torchmetrics]'")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(block_containing("UpdateRougeMetric("), {})
    expected = compute(
        sources=["The cat sat."],
        predictions=["The cat sat. It purred."],
        references=["The cat sat. It purred loudly."],
        rouge_types=["rouge1", "rougeL"],
        average="micro",
        confidence_level=None,
    )
    shown = ast.literal_eval(printed.getvalue().strip())
    assert shown == {key: value for key, value in expected.items() if key.startswith("update_")}


def test_the_lm_eval_include_path_holds_the_shipped_task():
    pytest.importorskip("lm_eval", reason="needs the lm-eval extra: pip install 'update-rouge[lm-eval]'")
    assert '--include_path "$(python -m update_rouge.integrations.lm_eval)"' in block_containing("lm_eval", "bash")
    folder = subprocess.run(
        [sys.executable, "-m", "update_rouge.integrations.lm_eval"], capture_output=True, text=True, check=True
    ).stdout.strip()
    task = (Path(folder) / "update_rouge_fruit.yaml").read_text(encoding="utf-8")
    assert re.search(r"^task: update_rouge_fruit$", task, flags=re.M), task


@pytest.mark.needs_torch
def test_the_lighteval_custom_task_file_builds_its_table(tmp_path):
    pytest.importorskip("lighteval", reason="needs the lighteval extra: pip install 'update-rouge[lighteval]'")
    (tmp_path / "test.jsonl").write_text('{"source": "a.", "reference": "a. b."}\n', encoding="utf-8")
    code = block_containing("TASKS_TABLE").replace("/path/to/folder_with_test_jsonl", str(tmp_path))
    namespace: dict = {}
    exec(code, namespace)
    (task,) = namespace["TASKS_TABLE"]
    assert task.name == "update_rouge_fruit"
