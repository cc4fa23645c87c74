"""lighteval 0.13: the FRUIT-style JSONL task run by lighteval's own Pipeline with a model whose
outputs are known reports compute's means and interval; the same task config on lighteval's
inspect backend (its get_inspect_ai_task, run by inspect_ai.eval with mockllm) too.

Two things of lighteval 0.13 do not run offline with today's dependencies, so the Pipeline test
loads only the custom task (``Registry.load_all_task_configs`` limited to lighteval's own
custom-task loading): on start, the Pipeline imports every built-in task module, and
``tasks/tiny_benchmarks.py`` downloads a file at import while ``tasks/mt_bench/main.py`` calls
``HfApi.list_models(model_name=...)``, which huggingface_hub 1.x and later refuse.
"""

import json
import types

import pytest
from conftest import read_jsonl

from update_rouge import compute

pytest.importorskip("lighteval", reason="needs the lighteval extra: pip install 'update-rouge[lighteval]'")

pytestmark = [pytest.mark.needs_torch, pytest.mark.slow]
TYPES = ["rouge1", "rouge2", "rougeLsum"]
KEYS = [f"update_{t}{end}" for t in TYPES for end in ("", "_low", "_high")]


@pytest.fixture(scope="module")
def lighteval_api():
    """lighteval's pipeline, its task registry, a known-output model class and our task maker,
    imported when this module's tests run, not at collection: with torch, transformers and
    lighteval's metrics they take about 13 CPU seconds, which every pytest-xdist worker would
    otherwise pay, whichever files it runs."""
    from lighteval.logging.evaluation_tracker import EvaluationTracker
    from lighteval.models.dummy.dummy_model import DummyModel, DummyModelConfig
    from lighteval.models.model_output import ModelResponse
    from lighteval.pipeline import ParallelismManager, Pipeline, PipelineParameters
    from lighteval.tasks.registry import Registry

    from update_rouge.integrations.lighteval import PROMPT, fruit_jsonl_task

    class KnownOutputs(DummyModel):
        """lighteval's dummy model, generating the prediction given for each document's id."""

        def __init__(self, predictions, cache_dir):
            super().__init__(DummyModelConfig(model_name="known-outputs", cache_dir=str(cache_dir)))
            self.predictions = predictions

        @property
        def tokenizer(self):
            return None  # the dummy's is gpt2's, downloaded; nothing here tokenizes

        def greedy_until(self, docs):
            return [ModelResponse(text=[self.predictions[doc.specific["id"]]]) for doc in docs]

    return types.SimpleNamespace(
        EvaluationTracker=EvaluationTracker,
        KnownOutputs=KnownOutputs,
        ParallelismManager=ParallelismManager,
        Pipeline=Pipeline,
        PipelineParameters=PipelineParameters,
        Registry=Registry,
        PROMPT=PROMPT,
        fruit_jsonl_task=fruit_jsonl_task,
    )


@pytest.fixture(autouse=True)
def gradients_stay_on(lighteval_api):
    """lighteval's transformers model module, imported by its pipeline, turns torch's gradients
    off for the whole process when it is imported (torch.set_grad_enabled(False) at its top
    level), so that every later test of the process (the GRPO run's backward pass) would find
    them off: they are turned back on before and after each test of this module."""
    import torch

    torch.set_grad_enabled(True)
    yield
    torch.set_grad_enabled(True)


def fruit_folder(tmp_path, one_per_source=False):
    """A folder with test.jsonl: the IteraTeR and FRUIT triples, FRUIT-style (no prediction),
    every fourth with two references; with ``one_per_source``, only the first of each source
    (the inspect backend's prompt is the source alone, so mockllm tells samples apart by it)."""
    rows = read_jsonl("iterater_triples.jsonl")[:20] + read_jsonl("fruit_triples.jsonl")
    if one_per_source:
        rows = [row for index, row in enumerate(rows) if all(row["source"] != r["source"] for r in rows[:index])]
    folder = tmp_path / "fruit"
    folder.mkdir()
    with open(folder / "test.jsonl", "w", encoding="utf-8") as out:
        for index, row in enumerate(rows):
            row["reference"] = [row["reference"]] + ([row["source"] + " More was said."] if index % 4 == 0 else [])
            out.write(json.dumps({"id": row["id"], "source": row["source"], "reference": row["reference"]}) + "\n")
    return folder, rows


def expected(rows):
    return compute(
        [row["source"] for row in rows],
        [row["prediction"] for row in rows],
        [row["reference"] for row in rows],
        rouge_types=TYPES,
    )


@pytest.fixture
def custom_tasks_only(monkeypatch, lighteval_api):
    registry = lighteval_api.Registry

    def load(custom_tasks=None, load_multilingual=False):
        return registry._extract_configs(registry.create_custom_tasks_module(custom_tasks))

    monkeypatch.setattr(registry, "load_all_task_configs", staticmethod(load))


def test_the_pipeline_reports_compute_bit_for_bit(tmp_path, custom_tasks_only, monkeypatch, lighteval_api):
    api = lighteval_api
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "datasets-cache"))
    folder, rows = fruit_folder(tmp_path)
    tasks = types.ModuleType("fruit_tasks")
    tasks.TASKS_TABLE = [api.fruit_jsonl_task("update_rouge_fruit", str(folder))]
    pipeline = api.Pipeline(
        tasks="update_rouge_fruit|0",
        pipeline_parameters=api.PipelineParameters(
            launcher_type=api.ParallelismManager.CUSTOM, custom_tasks_directory=tasks
        ),
        evaluation_tracker=api.EvaluationTracker(output_dir=str(tmp_path / "out"), save_details=False),
        model=api.KnownOutputs({row["id"]: row["prediction"] for row in rows}, tmp_path / "cache"),
    )
    pipeline.evaluate()
    reported = pipeline.get_results()["results"]["update_rouge_fruit:0"]
    want = expected(rows)
    assert {key: reported[key] for key in KEYS} == {key: want[key] for key in KEYS}
    assert want["update_rouge1_low"] < want["update_rouge1"] < want["update_rouge1_high"]


def test_the_inspect_backend_reports_compute(tmp_path, monkeypatch, lighteval_api):
    from inspect_ai import eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from lighteval.main_inspect import get_inspect_ai_task

    # lighteval's solver is generate(cache=True): inspect's cache of model outputs goes here, not
    # into the home folder (where an earlier run's outputs for the same prompt would be reused)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "datasets-cache"))
    folder, rows = fruit_folder(tmp_path, one_per_source=True)
    by_prompt = {lighteval_api.PROMPT.format(source=row["source"]): row["prediction"] for row in rows}

    def output(messages, tools, tool_choice, config):
        out = ModelOutput.from_content(model="mockllm/model", content=by_prompt[messages[-1].text])
        out.usage = ModelUsage(input_tokens=10, output_tokens=10, total_tokens=20)
        return out

    task = get_inspect_ai_task(lighteval_api.fruit_jsonl_task("update_rouge_fruit", str(folder)))
    model = get_model("mockllm/model", custom_outputs=output)
    [log] = eval(task, model=model, log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    [score] = log.results.scores
    want = expected(rows)
    for key in KEYS:
        assert score.metrics[key].value == pytest.approx(want[key], abs=1e-12, rel=0), key


def fruit_docs(lighteval_api, ids):
    from lighteval.tasks.requests import Doc

    rows = read_jsonl("fruit_triples.jsonl")[: len(ids)]
    docs = [
        Doc(query=row["source"], choices=[row["reference"]], gold_index=0, specific={"source": row["source"]}, id=id_)
        for row, id_ in zip(rows, ids)
    ]
    return docs, rows


def test_a_doc_id_of_digits_int_refuses_is_no_position(lighteval_api):
    from lighteval.models.model_output import ModelResponse

    from update_rouge.integrations.lighteval import UpdateRougeComputation

    docs, rows = fruit_docs(lighteval_api, ["\u00b2", "12", "\u0663"])  # superscript two; Arabic-Indic three
    computation = UpdateRougeComputation()
    values = [
        computation.compute(doc, ModelResponse(text=[row["prediction"]]))["update_rouge1"]
        for doc, row in zip(docs, rows)
    ]
    assert [value.position for value in values] == [-1, 12, 3]


def test_metrics_differing_in_engine_or_num_proc_only_are_both_taken(lighteval_api):
    from lighteval.models.model_output import ModelResponse

    from update_rouge.integrations.lighteval import corpus_values, update_rouge_metric

    first = update_rouge_metric(confidence_level=None)
    second = update_rouge_metric(confidence_level=None, engine="python", num_proc=2)
    docs, rows = fruit_docs(lighteval_api, [str(index) for index in range(6)])
    for metric in (first, second):
        values = [
            metric.sample_level_fn.compute(doc, ModelResponse(text=[row["prediction"]]))["update_rouge2"]
            for doc, row in zip(docs, rows)
        ]
        want = compute(
            [row["source"] for row in rows],
            [row["prediction"] for row in rows],
            [row["reference"] for row in rows],
            rouge_types=TYPES,
            confidence_level=None,
        )
        assert corpus_values(values)["update_rouge2"] == want["update_rouge2"]
    # settings that change a number with one signature (two custom tokenizers) are still refused
    update_rouge_metric(confidence_level=None, rouge_types=["rougeL"], tokenizer=str.split)
    with pytest.raises(ValueError, match="^tokenizer differs from that of other settings in use in this process"):
        update_rouge_metric(confidence_level=None, rouge_types=["rougeL"], tokenizer=lambda text: text.split())
