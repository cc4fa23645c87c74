"""The same inputs and options give the same output in every process, whatever PYTHONHASHSEED is.

Set iteration order and ``hash`` of strings change with PYTHONHASHSEED; a result that depended on
them would differ between these subprocesses. Outputs are compared as exact JSON text.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json
from conftest import read_jsonl
from update_rouge import compute

rows = read_jsonl("iterater_triples.jsonl") + read_jsonl("fruit_triples.jsonl")
columns = dict(
    sources=[r["source"] for r in rows],
    predictions=[r["prediction"] for r in rows],
    references=[r["reference"] for r in rows],
)
types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
outputs = {
    "corpus": compute(**columns, rouge_types=types, baseline_predictions=columns["sources"], n_bootstrap=200,
                      return_signature=True),
    "per_example": compute(**columns, rouge_types=types, use_aggregator=False),
    "porter": compute(**columns, use_stemmer=True, confidence_level=0.9, n_bootstrap=100),
    "rouge155": compute(**columns, stemmer="rouge155", use_aggregator=False),
    "custom_tokenizer": compute(**columns, tokenizer=str.split, engine="python", use_aggregator=False),
    "two_processes": compute(**columns, num_proc=2, n_bootstrap=100),
}
print(json.dumps(outputs, sort_keys=True))
"""


def run_with_hash_seed(seed):
    env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=os.pathsep.join([str(REPO), str(REPO / "tests")]))
    completed = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300, env=env, cwd=REPO
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


@pytest.mark.slow
def test_output_is_identical_across_processes_and_hash_seeds():
    outputs = {seed: run_with_hash_seed(seed) for seed in ["0", "1", "12345", "random"]}
    assert len(outputs["0"]) > 10_000
    assert '"update_rouge1_low"' in outputs["0"] and '"update_rougeLsum_p_value"' in outputs["0"]
    for seed, output in outputs.items():
        assert output == outputs["0"], f"PYTHONHASHSEED={seed} changed the output"
