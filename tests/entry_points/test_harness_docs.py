"""docs/harnesses.md: its examples run as written, the model they name swapped for one whose outputs
are known where it would be downloaded or called over the network (inspect's mockllm, a registered
lm_eval model): the inspect example and the lm_eval command report compute's numbers, the
torchmetrics example prints them, the lighteval custom-task file builds its table. The lighteval
command itself (``lighteval accelerate`` with a Hub model) is not run: test_lighteval.py runs
lighteval's Pipeline on the same task config."""

import ast
import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import read_jsonl

from update_rouge import compute

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "harnesses.md"


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
    assert "`--tasks update_rouge_fruit_deletions`" in DOC.read_text(encoding="utf-8")
    task = (Path(folder) / "update_rouge_fruit_deletions.yaml").read_text(encoding="utf-8")
    assert re.search(r"^task: update_rouge_fruit_deletions$", task, flags=re.M), task


@pytest.mark.needs_torch
def test_the_lighteval_custom_task_file_builds_its_table(tmp_path):
    pytest.importorskip("lighteval", reason="needs the lighteval extra: pip install 'update-rouge[lighteval]'")
    (tmp_path / "test.jsonl").write_text('{"source": "a.", "reference": "a. b."}\n', encoding="utf-8")
    code = block_containing("TASKS_TABLE").replace("/path/to/folder_with_test_jsonl", str(tmp_path))
    namespace: dict = {}
    exec(code, namespace)
    (task,) = namespace["TASKS_TABLE"]
    assert task.name == "update_rouge_fruit"


def test_the_inspect_example_reports_computes_numbers(tmp_path, monkeypatch, capsys):
    pytest.importorskip("inspect_ai", reason="needs the inspect extra: pip install 'update-rouge[inspect]'")
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    def output(messages, tools, tool_choice, config):
        out = ModelOutput.from_content(model="mockllm/model", content="The cat sat. It purred loudly.")
        out.usage = ModelUsage(input_tokens=10, output_tokens=10, total_tokens=20)  # else a tokenizer is downloaded
        return out

    monkeypatch.setenv("INSPECT_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.setenv("INSPECT_DISPLAY", "none")
    block = block_containing("update_rouge_scorer(")
    assert 'model="openai/gpt-4o-mini"' in block
    namespace = {"MODEL": get_model("mockllm/model", custom_outputs=output)}
    exec(block.replace('model="openai/gpt-4o-mini"', "model=MODEL"), namespace)
    log = namespace["log"]
    assert log.status == "success", log.error
    want = compute(
        ["The cat sat."],
        ["The cat sat. It purred loudly."],
        ["The cat sat. It purred."],
        rouge_types=["rouge1", "rouge2", "rougeLsum"],
        stemmer="porter",
    )
    metrics = {name: value.value for name, value in log.results.scores[0].metrics.items()}
    assert metrics == pytest.approx({key: want[key] for key in metrics}, abs=1e-12, rel=0)
    assert len(metrics) == 9 and metrics["update_rouge1"] == pytest.approx(0.8, abs=1e-12)  # added: it purred (loudly)
    assert "update_rouge1_low" in capsys.readouterr().out


KNOWN_OUTPUTS_LM = """
import json
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model


@register_model("update-rouge-known-outputs")
class KnownOutputs(LM):
    def __init__(self, predictions, **config):  # config: the command line's batch_size, device, ...
        super().__init__()
        with open(predictions, encoding="utf-8") as file:
            self.predictions = json.load(file)

    def generate_until(self, requests, disable_tqdm=False):
        return [self.predictions[request.doc["id"]] for request in requests]

    def loglikelihood(self, requests, disable_tqdm=False):
        raise NotImplementedError

    def loglikelihood_rolling(self, requests, disable_tqdm=False):
        raise NotImplementedError
"""


@pytest.mark.slow
@pytest.mark.parametrize("task", ["update_rouge_fruit", "update_rouge_fruit_deletions"])
def test_the_lm_eval_command_reports_computes_numbers(tmp_path, task):
    """The documented command run by bash as written (``$(python -m ...)`` included), lm_eval's own
    command line with ``--model hf --model_args pretrained=...`` swapped for a registered model whose
    generations are known, and ``--output_path`` added to read the results back; with ``--tasks``
    the deletions' task the page names too, which reports ``compute(..., deletions=True)``'s."""
    pytest.importorskip("lm_eval", reason="needs the lm-eval extra: pip install 'update-rouge[lm-eval]'")
    rows = read_jsonl("fruit_triples.jsonl") + read_jsonl("iterater_triples.jsonl")[:12]
    with open(tmp_path / "my_updates.jsonl", "w", encoding="utf-8") as out:
        out.writelines(json.dumps({k: row[k] for k in ("id", "source", "reference")}) + "\n" for row in rows)
    (tmp_path / "predictions.json").write_text(json.dumps({row["id"]: row["prediction"] for row in rows}))
    (tmp_path / "known_outputs_lm.py").write_text(KNOWN_OUTPUTS_LM)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # this interpreter as `python` (a script: a symlink out of the venv's folder loses the venv) and
    # `lm_eval` as lm_eval's own entry point after the model's registration
    start = "import known_outputs_lm; from lm_eval.__main__ import cli_evaluate; cli_evaluate()"
    for name, run in (("python", ""), ("lm_eval", f"-c '{start}' ")):
        (bin_dir / name).write_text(f"#!/bin/sh\nexec '{sys.executable}' {run}\"$@\"\n")
        (bin_dir / name).chmod(0o755)
    block = block_containing("--include_path", "bash")
    model = "--model hf --model_args pretrained=HuggingFaceTB/SmolLM2-135M-Instruct"
    assert model in block
    command = block.replace(model, "--model update-rouge-known-outputs --model_args predictions=predictions.json")
    command = command.replace("--tasks update_rouge_fruit ", f"--tasks {task} ")
    assert f"--tasks {task} " in command
    env = dict(
        os.environ,
        PATH=os.pathsep.join([str(bin_dir), os.environ["PATH"]]),
        PYTHONPATH=os.pathsep.join([str(tmp_path), str(REPO)]),
        HF_DATASETS_CACHE=str(tmp_path / "datasets-cache"),
    )
    done = subprocess.run(
        ["bash", "-c", command.strip() + " --output_path out"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (results_file,) = (tmp_path / "out").rglob("results_*.json")
    reported = json.loads(results_file.read_text())["results"][task]
    types, deletions = ["rouge1", "rouge2", "rougeLsum"], task.endswith("_deletions")
    sources, predictions = [row["source"] for row in rows], [row["prediction"] for row in rows]
    want = compute(sources, predictions, [row["reference"] for row in rows], rouge_types=types, deletions=deletions)
    parts = ("", "del_") if deletions else ("",)
    keys = [f"update_{part}{t}{end}" for part in parts for t in types for end in ("", "_low", "_high")]
    assert {key: reported[f"{key},none"] for key in keys} == {key: want[key] for key in keys}
    assert {key for key in reported if key.endswith(",none") and "_stderr" not in key} == {f"{k},none" for k in keys}
    assert "update_rouge1" in done.stdout  # lm_eval's results table
