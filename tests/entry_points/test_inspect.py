"""inspect_ai: update_rouge_scorer run by inspect_ai.eval on a small task, with mockllm/model giving
known outputs, reports compute's corpus means and bootstrap interval; the per-sample values,
the signature in the log (the file inspect wrote, read back), and the sample errors."""

import pytest
from conftest import read_jsonl

from update_rouge import compute

pytest.importorskip("inspect_ai", reason="needs the inspect extra: pip install 'update-rouge[inspect]'")

from inspect_ai import Task, eval  # noqa: E402
from inspect_ai.dataset import MemoryDataset, Sample  # noqa: E402
from inspect_ai.log import read_eval_log  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402
from inspect_ai.solver import generate  # noqa: E402

from update_rouge.integrations.inspect import update_rouge_scorer  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeLsum"]


def rows():
    """The IteraTeR and FRUIT triples, every fourth with a second reference."""
    triples = read_jsonl("iterater_triples.jsonl") + read_jsonl("fruit_triples.jsonl")
    for index, row in enumerate(triples):
        row["reference"] = [row["reference"]] + ([row["source"] + " More was said."] if index % 4 == 0 else [])
    return triples


def known_outputs(triples):
    """mockllm's outputs: the prediction of the sample whose prompt it is given (samples run
    concurrently, so outputs are matched by prompt, not by order), with a usage (else mockllm
    counts tokens with a tokenizer it downloads)."""
    by_prompt = {prompt(row): row["prediction"] for row in triples}

    def output(messages, tools, tool_choice, config):
        completion = by_prompt[messages[-1].text]
        out = ModelOutput.from_content(model="mockllm/model", content=completion)
        out.usage = ModelUsage(input_tokens=10, output_tokens=10, total_tokens=20)
        return out

    return get_model("mockllm/model", custom_outputs=output)


def prompt(row):
    return f"Update this text ({row['id']}):\n{row['source']}"


def run(triples, scorer, tmp_path, source_key="source"):
    """inspect_ai.eval of a task with one sample per triple, its source under ``source_key``."""
    dataset = MemoryDataset(
        [
            Sample(id=row["id"], input=prompt(row), target=row["reference"], metadata={source_key: row["source"]})
            for row in triples
        ]
    )
    task = Task(dataset=dataset, solver=generate(), scorer=scorer)
    [log] = eval(task, model=known_outputs(triples), log_dir=str(tmp_path), display="none", log_format="json")
    return log


def test_eval_reports_compute_means_and_interval(tmp_path):
    triples = rows()
    log = run(triples, update_rouge_scorer(), tmp_path)
    assert log.status == "success", log.error
    want = compute(
        [row["source"] for row in triples],
        [row["prediction"] for row in triples],
        [row["reference"] for row in triples],
        rouge_types=TYPES,
        return_signature=True,
    )
    [score] = log.results.scores
    metrics = {name: value.value for name, value in score.metrics.items()}
    keys = [f"update_{t}{end}" for t in TYPES for end in ("", "_low", "_high")]
    assert set(metrics) == set(keys)
    for key in keys:
        assert metrics[key] == pytest.approx(want[key], abs=1e-12, rel=0), key
    assert want["update_rouge2_low"] < want["update_rouge2"] < want["update_rouge2_high"]
    # per sample: a dict of the chosen types, compute's per-example values; the signature in the log
    per_example = compute(
        [row["source"] for row in triples],
        [row["prediction"] for row in triples],
        [row["reference"] for row in triples],
        rouge_types=TYPES,
        use_aggregator=False,
    )
    by_id = {sample.id: sample.scores["update_rouge"] for sample in log.samples}
    for index, row in enumerate(triples):
        value = by_id[row["id"]].value
        assert value == {f"update_{t}": per_example[f"update_{t}"][index] for t in TYPES}, row["id"]
    signature = by_id[triples[0]["id"]].metadata["signature"]
    assert signature == want["signature"].replace("refs:1-2", "refs:unknown")
    # the log file inspect wrote holds the same metrics and each sample's signature
    saved = read_eval_log(log.location)
    assert {name: value.value for name, value in saved.results.scores[0].metrics.items()} == metrics
    assert {sample.scores["update_rouge"].metadata["signature"] for sample in saved.samples} == {signature}


def test_options_and_source_key(tmp_path):
    triples = rows()[:12]
    scorer = update_rouge_scorer(source_key="original", rouge_types=["rougeL"], stemmer="porter", confidence_level=None)
    log = run(triples, scorer, tmp_path / "wrong-key")
    assert (
        log.status == "error"
        and "Sample.metadata['original'] must hold the source text: put it there, or name its key with source_key"
        in log.error.traceback
    )
    log = run(triples, scorer, tmp_path / "key", source_key="original")
    assert log.status == "success", log.error
    want = compute(
        [row["source"] for row in triples],
        [row["prediction"] for row in triples],
        [row["reference"] for row in triples],
        rouge_types=["rougeL"],
        stemmer="porter",
    )
    [score] = log.results.scores
    assert {name: m.value for name, m in score.metrics.items()} == pytest.approx(
        {"update_rougeL": want["update_rougeL"]}, abs=1e-12, rel=0
    )


def test_options_compute_refuses_are_refused_when_the_scorer_is_made():
    with pytest.raises(ValueError, match="stemmer"):
        update_rouge_scorer(stemmer="snowball-xx")
    with pytest.raises(ValueError, match="use_aggregator cannot be set"):
        update_rouge_scorer(use_aggregator=False)


def test_scorers_differing_in_engine_or_num_proc_only_are_both_taken(tmp_path):
    update_rouge_scorer()
    triples = rows()[:6]
    log = run(triples, update_rouge_scorer(engine="python", num_proc=2), tmp_path)
    assert log.status == "success", log.error
    want = compute(
        [row["source"] for row in triples],
        [row["prediction"] for row in triples],
        [row["reference"] for row in triples],
        rouge_types=TYPES,
    )
    [score] = log.results.scores
    assert score.metrics["update_rouge1"].value == pytest.approx(want["update_rouge1"], abs=1e-12, rel=0)
    # settings that change a number with one signature (two custom tokenizers) are still refused
    update_rouge_scorer(rouge_types=["rougeL"], tokenizer=str.split)
    with pytest.raises(ValueError, match="^tokenizer differs from that of other settings in use in this process"):
        update_rouge_scorer(rouge_types=["rougeL"], tokenizer=lambda text: text.split())
