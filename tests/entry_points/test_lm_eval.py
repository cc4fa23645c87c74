"""lm-evaluation-harness: the shipped tasks update_rouge_fruit and update_rouge_fruit_deletions run
by lm_eval.simple_evaluate with a registered test LM whose generations are known report compute's
means and interval ends, bit for bit; process_results and the aggregations refuse what they cannot score."""

import json

import pytest
from conftest import read_jsonl

from update_rouge import compute

pytest.importorskip("lm_eval", reason="needs the lm-eval extra: pip install 'update-rouge[lm-eval]'")

from lm_eval import simple_evaluate  # noqa: E402
from lm_eval.api.model import LM  # noqa: E402
from lm_eval.api.registry import get_aggregation, register_model  # noqa: E402
from lm_eval.tasks import TaskManager  # noqa: E402

from update_rouge.integrations import lm_eval as integration  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeLsum"]


@register_model("update-rouge-known-outputs")
class KnownOutputs(LM):
    """A model whose generation for a document is the prediction given for its id."""

    def __init__(self, predictions=None):
        super().__init__()
        self.predictions = predictions or {}
        self.contexts = []

    @classmethod
    def create_from_arg_string(cls, arg_string, additional_config=None):
        return cls(json.loads(arg_string))

    def generate_until(self, requests, disable_tqdm=False):
        self.contexts += [request.args[0] for request in requests]
        return [self.predictions[request.doc["id"]] for request in requests]

    def loglikelihood(self, requests, disable_tqdm=False):
        raise NotImplementedError("generation only")

    def loglikelihood_rolling(self, requests, disable_tqdm=False):
        raise NotImplementedError("generation only")


def fruit_style(tmp_path):
    """The IteraTeR and FRUIT triples as a FRUIT-style JSONL (no prediction), every fourth with two
    references; and the known prediction of each id."""
    rows = read_jsonl("iterater_triples.jsonl") + read_jsonl("fruit_triples.jsonl")
    path = tmp_path / "updates.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        for index, row in enumerate(rows):
            reference = [row["reference"], row["source"] + " More was said."] if index % 4 == 0 else row["reference"]
            out.write(json.dumps({"id": row["id"], "source": row["source"], "reference": reference}) + "\n")
            row["reference"] = reference if isinstance(reference, list) else [reference]
    return path, rows


def run(path, predictions, task="update_rouge_fruit", **options):
    manager = TaskManager(include_path=integration.TASK_DIR, include_defaults=False, metadata={"data_files": str(path)})
    model = KnownOutputs(predictions)
    results = simple_evaluate(model=model, tasks=[task], task_manager=manager, bootstrap_iters=0, **options)
    return results, model


def test_simple_evaluate_reports_compute_bit_for_bit(tmp_path):
    path, rows = fruit_style(tmp_path)
    results, model = run(path, {row["id"]: row["prediction"] for row in rows})
    reported = results["results"]["update_rouge_fruit"]
    want = compute(
        [row["source"] for row in rows],
        [row["prediction"] for row in rows],
        [row["reference"] for row in rows],
        rouge_types=TYPES,
    )
    keys = [f"update_{t}{end}" for t in TYPES for end in ("", "_low", "_high")]
    assert {key: reported[f"{key},none"] for key in keys} == {key: want[key] for key in keys}
    assert want["update_rouge1_low"] < want["update_rouge1"] < want["update_rouge1_high"]
    # the model saw the prompt with each source, once per document
    assert len(model.contexts) == len(rows)
    assert all(row["source"] in context for row, context in zip(rows, model.contexts))
    assert results["n-samples"]["update_rouge_fruit"]["effective"] == len(rows)


def test_the_deletions_task_reports_compute_with_deletions_bit_for_bit(tmp_path):
    """update_rouge_fruit_deletions (update_rouge_fruit.yaml included, deletions=True): the
    additions' and the deletions' means and interval ends, and nothing else, as compute's."""
    path, rows = fruit_style(tmp_path)
    results, model = run(path, {row["id"]: row["prediction"] for row in rows}, task="update_rouge_fruit_deletions")
    reported = results["results"]["update_rouge_fruit_deletions"]
    columns = ([row[field] for row in rows] for field in ("source", "prediction", "reference"))
    want = compute(*columns, rouge_types=TYPES, deletions=True)
    keys = [f"update_{part}{t}{end}" for part in ("", "del_") for t in TYPES for end in ("", "_low", "_high")]
    values = {key.removesuffix(",none"): value for key, value in reported.items() if key.endswith(",none")}
    values = {key: value for key, value in values.items() if not (key.endswith("_stderr") and value == "N/A")}
    assert values == {key: want[key] for key in keys}
    assert want["update_del_rouge1_low"] < want["update_del_rouge1"] < want["update_del_rouge1_high"]
    assert want["update_del_rouge2"] != want["update_rouge2"]
    # the included file's prompt, one request per document
    assert len(model.contexts) == len(rows)
    assert all(f"Text: {row['source']}" in context for row, context in zip(rows, model.contexts))
    assert "del:sentences" in results["samples"]["update_rouge_fruit_deletions"][0]["update_del_rouge1"][0]


def test_the_sample_log_carries_the_triple_and_the_settings_name(tmp_path):
    path, rows = fruit_style(tmp_path)
    results, _ = run(path, {row["id"]: "copied: " + row["prediction"] for row in rows}, limit=2)
    samples = results["samples"]["update_rouge_fruit"]
    name, source, prediction, references = samples[0]["update_rouge1"]
    assert (source, prediction, list(references)) == (
        rows[0]["source"],
        "copied: " + rows[0]["prediction"],
        rows[0]["reference"],
    )
    assert name.startswith("refs:unknown|seg:") and "types:rouge1,rouge2,rougeLsum" in name


def test_aggregations_are_registered_under_the_keys():
    for key in ("update_rouge1", "update_rougeLsum_high"):
        assert get_aggregation(key) is integration.aggregation(key)


def test_process_results_with_other_settings_and_fields():
    process = integration.make_process_results(
        source_field="before", reference_field="after", rouge_types=["rougeL"], confidence_level=None
    )
    doc = {"before": "A cat sat.", "after": ["A cat sat. It purred."]}
    values = process(doc, ["A cat sat. It purred loudly."])
    assert list(values) == ["update_rougeL"]
    items = [values["update_rougeL"]]
    want = compute(
        ["A cat sat."], ["A cat sat. It purred loudly."], [["A cat sat. It purred."]], rouge_types=["rougeL"]
    )
    assert integration.aggregation("update_rougeL")(items) == want["update_rougeL"] == 0.8


def names(text):
    """An entity extractor whose entities can be counted by hand: the names of a short list in the text."""
    return [name for name in ("Dan", "Eve", "Bob", "Rome") if name in text]


def test_entities_report_update_ent_and_its_interval_counted_by_hand():
    process = integration.make_process_results(rouge_types=["rouge1"], entities=names, n_bootstrap=50)
    docs = [
        ({"source": "Dan is here.", "reference": "Dan is here. Eve came.", "id": "a"}, "Dan is here. Eve came."),
        (
            {"source": "Dan is here.", "reference": "Dan is here. Bob came.", "id": "b"},
            "Dan is here. Eve and Bob came.",
        ),
        ({"source": "Eve is here.", "reference": "Eve is here. Rome.", "id": "c"}, "Eve is here."),
    ]
    items = [process(doc, [prediction]) for doc, prediction in docs]
    assert list(items[0]) == ["update_rouge1", "update_ent", "update_rouge1_low", "update_rouge1_high"] + [
        "update_ent_low",
        "update_ent_high",
    ]
    got = {key: integration.aggregation(key)([item[key] for item in items]) for key in items[0]}
    # F: 1 (eve of eve), 2/3 (bob of eve and bob: P 1/2, R 1), 0 (adds nothing, rome missed).
    assert got["update_ent"] == (1 + 2 / 3 + 0) / 3
    sources, predictions = [doc["source"] for doc, _ in docs], [prediction for _, prediction in docs]
    want = compute(
        sources,
        predictions,
        [doc["reference"] for doc, _ in docs],
        rouge_types=["rouge1"],
        entities=names,
        n_bootstrap=50,
    )
    assert got == {key: want[key] for key in got}
    with pytest.raises(
        ValueError, match="^evidence cannot be set for an evaluation harness: a harness's sample carries"
    ):
        integration.make_process_results(entities=names, evidence=["Eve"] * 3)


def test_bad_documents_and_files_are_named(tmp_path):
    with pytest.raises(ValueError, match=r"document 'x7': the reference must be a reference string"):
        integration.process_results({"id": "x7", "source": "A.", "reference": 3}, ["A. B."])
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"source": "A.", "reference": "A. B."}\n{"reference": "A. B."}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.jsonl:2: each line is an object with a 'source' string$"):
        integration.load_jsonl(str(bad), version=1.0)
    with pytest.raises(ValueError, match="pass --metadata"):
        integration.load_jsonl(version=1.0)
    with pytest.raises(ValueError, match="use_aggregator cannot be set"):
        integration.make_process_results(use_aggregator=False)


def test_load_jsonl_names_the_file_and_line_of_bad_json(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"source": "A.", "reference": "A. B."}\n\n{"source": "A.", "reference"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"^\S*bad\.jsonl:3: not valid JSON \(Expecting ':' delimiter\)$"):
        integration.load_jsonl(str(bad))
    bad.write_text('{"source": "A.", "reference": []}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.jsonl:1: 'reference' must be a reference string or a non-empty list"):
        integration.load_jsonl(str(bad))


def test_load_jsonl_takes_a_byte_order_mark_and_keeps_every_id_as_text(tmp_path):
    path = tmp_path / "updates.jsonl"
    lines = [
        {"id": 7, "source": "A.", "reference": "A. B."},
        {"source": "C.", "reference": ["C. D.", "C. E."]},
        {"id": "x", "source": "F.", "reference": "F. G."},
        {"id": None, "source": "H.", "reference": "H. I."},
    ]
    path.write_bytes(b"\xef\xbb\xbf" + "".join(json.dumps(line) + "\n" for line in lines).encode("utf-8"))
    test = integration.load_jsonl(str(path))["test"]
    assert test["id"] == ["7", "2", "x", "4"]
    assert test["source"] == ["A.", "C.", "F.", "H."]
    assert test["reference"] == [["A. B."], ["C. D.", "C. E."], ["F. G."], ["H. I."]]


def test_process_results_without_a_generation_says_so():
    with pytest.raises(ValueError, match=r"^document 'x7': process_results got no generation \(results is empty\): "):
        integration.process_results({"id": "x7", "source": "A.", "reference": "A. B."}, [])


def test_process_results_differing_in_engine_or_num_proc_only_are_both_taken():
    # the module's process_results has the default settings; a task's utils.py asks for workers
    process = integration.make_process_results(num_proc=2, engine="python")
    doc = {"id": "a", "source": "A cat sat.", "reference": "A cat sat. It purred."}
    items = [process(doc, ["A cat sat. It purred loudly."])["update_rouge1"]]
    assert items == [integration.process_results(doc, ["A cat sat. It purred loudly."])["update_rouge1"]]
    want = compute(["A cat sat."], ["A cat sat. It purred loudly."], ["A cat sat. It purred."])
    assert integration.aggregation("update_rouge1")(items) == want["update_rouge1"] == 0.8
    # settings that change a number with one signature (two custom tokenizers) are still refused
    integration.make_process_results(rouge_types=["rougeL"], tokenizer=str.split)
    with pytest.raises(ValueError, match="^tokenizer differs from that of other settings in use in this process"):
        integration.make_process_results(rouge_types=["rougeL"], tokenizer=lambda text: text.split())


@pytest.mark.parametrize("options", [{"n_bootstrap": 50, "seed": 3}, {"confidence_level": None, "stemmer": "porter"}])
def test_the_settings_name_is_compute_signature_and_the_values_honour_it(options):
    process = integration.make_process_results(**options)
    docs = [
        {"id": str(index), "source": row["source"], "reference": row["reference"]}
        for index, row in enumerate(read_jsonl("fruit_triples.jsonl")[:8])
    ]
    predictions = [row["prediction"] for row in read_jsonl("fruit_triples.jsonl")[:8]]
    items = [process(doc, [prediction])["update_rouge2"] for doc, prediction in zip(docs, predictions)]
    want = compute(
        [doc["source"] for doc in docs],
        predictions,
        [doc["reference"] for doc in docs],
        rouge_types=TYPES,
        return_signature=True,
        **options,
    )
    assert items[0][0] == want["signature"].replace("refs:1|", "refs:unknown|")
    keys = ["update_rouge2"] + (["update_rouge2_low", "update_rouge2_high"] if options.get("n_bootstrap") else [])
    assert {key: integration.aggregation(key)(items) for key in keys} == {key: want[key] for key in keys}
    assert ("|boot:50|seed:3|ci:0.95|" in items[0][0]) == ("n_bootstrap" in options)
