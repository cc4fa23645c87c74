"""UpdateRougeMetric (torchmetrics): its compute equals update_rouge.compute's means bit for bit,
macro and micro, in one process and under real two-process DDP (gloo on 127.0.0.1)."""

import json
import socket
import time
from datetime import timedelta
from pathlib import Path

import pytest
from conftest import read_jsonl

from update_rouge import InputError, OptionError, compute

torch = pytest.importorskip(
    "torch", reason="needs torch (tests/run.sh installs torch==2.13.0 where its CPU wheel fits)"
)
pytest.importorskip("torchmetrics", reason="needs the torchmetrics extra: pip install 'update-rouge[torchmetrics]'")

from update_rouge.integrations.torchmetrics import UpdateRougeMetric  # noqa: E402

pytestmark = pytest.mark.needs_torch
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
DDP_SECONDS = 120


def rows():
    """The IteraTeR and FRUIT triples, references as lists: every third example with a second one
    (the source with one sentence added), so that multi_ref matters."""
    triples = read_jsonl("iterater_triples.jsonl") + read_jsonl("fruit_triples.jsonl")
    for index, row in enumerate(triples):
        row["reference"] = [row["reference"]] + ([row["source"] + " It was added later."] if index % 3 == 0 else [])
    return triples


def expected(triples, **options):
    return compute(
        [r["source"] for r in triples],
        [r["prediction"] for r in triples],
        [r["reference"] for r in triples],
        rouge_types=TYPES,
        confidence_level=None,
        **options,
    )


def fed(metric, triples, batch=5):
    for start in range(0, len(triples), batch):
        part = triples[start : start + batch]
        metric.update([r["source"] for r in part], [r["prediction"] for r in part], [r["reference"] for r in part])
    return {key: value.item() for key, value in metric.compute().items()}


OPTIONS = [{}, {"average": "micro"}, {"average": "micro", "multi_ref": "pooled"}, {"multi_ref": "best_recall"}]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda options: "-".join(options.values()) or "macro")
def test_one_process_equals_compute_bit_for_bit(options):
    triples = rows()
    got = fed(UpdateRougeMetric(rouge_types=TYPES, **options), triples)
    want = expected(triples, **options)
    assert set(got) == {f"update_{t}{s}" for t in TYPES for s in ("", "_precision", "_recall")}
    assert {key: want[key] for key in got} == got
    assert 0.0 < got["update_rouge1"] < 1.0


def test_the_macro_mean_does_not_depend_on_the_order():
    triples = rows()
    assert fed(UpdateRougeMetric(rouge_types=TYPES), triples[::-1], batch=7) == fed(
        UpdateRougeMetric(rouge_types=TYPES), triples
    )


def test_options_compute_refuses_or_that_need_the_order_are_refused():
    with pytest.raises(ValueError, match="average must be one of"):
        UpdateRougeMetric(average="weighted")
    with pytest.raises(ValueError, match="confidence_level cannot be set"):
        UpdateRougeMetric(confidence_level=0.9)
    with pytest.raises(ValueError, match="nothing to compute"):
        UpdateRougeMetric().compute()


@pytest.mark.parametrize("average", ["macro", "micro"])
def test_compute_before_any_update_is_refused_under_both_averages(average):
    metric = UpdateRougeMetric(average=average)
    with pytest.raises(ValueError, match="^no examples were given to update: there is nothing to compute; call update"):
        metric.compute()


SIGNED = [
    {},
    {"average": "micro"},
    {"average": "micro", "multi_ref": "pooled", "rouge_types": ["rouge2", "rougeL"]},
    {"confidence_level": None, "stemmer": "porter", "rouge_types": ["rougeLsum"]},
    {"protocol": "autometrics"},
]


@pytest.mark.parametrize("options", SIGNED, ids=lambda options: "-".join(map(str, options.values())) or "default")
def test_the_signature_is_that_of_compute_without_an_interval(options):
    triples = rows()[:9]
    metric = UpdateRougeMetric(**options)
    fed(metric, triples)
    sources, predictions = [r["source"] for r in triples], [r["prediction"] for r in triples]
    references = [r["reference"] for r in triples]
    want = compute(sources, predictions, references, **{**options, "confidence_level": None}, return_signature=True)
    signature = metric.signature(references)
    assert signature == want["signature"]
    assert "|boot:none|ci:none|" in signature and "seed:" not in signature and signature.startswith("refs:1-2|")


def capitalised(text):
    """An entity extractor (``entities=``): the words that start with a capital letter."""
    return [word.strip(".,;()'") for word in text.split() if word[:1].isupper()]


@pytest.mark.parametrize("average", ["macro", "micro"])
def test_entities_equal_compute_bit_for_bit(average):
    triples = rows()
    evidence = [row["reference"][0] for row in triples]  # every entity a first reference adds is supported
    metric = UpdateRougeMetric(rouge_types=["rouge1"], average=average, entities=capitalised)
    for start in range(0, len(triples), 7):
        part = triples[start : start + 7]
        metric.update(
            *([r[field] for r in part] for field in ("source", "prediction", "reference")), evidence[start : start + 7]
        )
    got = {key: value.item() for key, value in metric.compute().items()}
    want = compute(
        [r["source"] for r in triples],
        [r["prediction"] for r in triples],
        [r["reference"] for r in triples],
        rouge_types=["rouge1"],
        average=average,
        entities=capitalised,
        evidence=evidence,
        confidence_level=None,
    )
    entity_keys = {"update_ent", "update_ent_precision", "update_ent_recall"}
    assert entity_keys | {"update_ent_outdated_kept", "update_ent_unsupported"} < set(got)
    assert {key: want[key] for key in got} == got
    assert 0 < got["update_ent"] < 1 and 0 < got["update_ent_outdated_kept"] < 1


@pytest.mark.parametrize("average", ["macro", "micro"])
def test_entity_values_counted_by_hand_nan_where_undefined(average):
    metric = UpdateRougeMetric(rouge_types=["rouge1"], average=average, entities=capitalised)
    # The source's Dan stays in the reference: no outdated entity; Eve is new on both sides, Bob in the prediction only.
    metric.update(["Dan ran."], ["Dan ran. Eve and Bob came."], ["Dan ran. Eve came."], evidence=[["Bob"]])
    got = {key: value.item() for key, value in metric.compute().items()}
    assert (got["update_ent_precision"], got["update_ent_recall"], got["update_ent_unsupported"]) == (0.5, 1.0, 1.0)
    assert got["update_ent"] == 2 * 0.5 / 1.5 and got["update_ent_outdated_kept"] != got["update_ent_outdated_kept"]


def test_evidence_goes_to_update_with_every_batch():
    with pytest.raises(
        OptionError, match=r"^evidence cannot be set for UpdateRougeMetric: each batch's evidence goes to update"
    ):
        UpdateRougeMetric(entities=capitalised, evidence=["Eve"])
    with pytest.raises(OptionError, match="^evidence is read only by the entity scores: it needs entities"):
        UpdateRougeMetric().update(["a."], ["a."], ["a."], evidence=["b."])
    metric = UpdateRougeMetric(entities=capitalised)
    metric.update(["a."], ["a. Eve."], ["a."], evidence=["Eve"])
    metric.update(["a."], ["a. Bob."], ["a."])
    with pytest.raises(InputError, match="^evidence was given for 1 of the 2 examples: give update") as refused:
        metric.compute()
    assert refused.value.field == "evidence"


REFUSED = [
    ("n_bootstrap", 50),
    ("seed", 3),
    ("confidence_level", 0.95),
    ("baseline_predictions", ["A cat."]),
    ("use_aggregator", False),
    ("return_signature", True),
    ("group_by", ["a"]),
]


@pytest.mark.parametrize(("name", "value"), REFUSED, ids=[name for name, _ in REFUSED])
def test_options_it_does_not_honour_are_refused_in_one_line_naming_them(name, value):
    with pytest.raises(ValueError, match=f"^{name} cannot be set") as error:
        UpdateRougeMetric(**{name: value})
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("protocol", ["fruit", "editeval"])
def test_a_bootstrap_median_protocol_is_refused_in_one_line(protocol):
    with pytest.raises(
        OptionError,
        match=f"^protocol='{protocol}' cannot be set for UpdateRougeMetric: its corpus value is a bootstrap",
    ) as error:
        UpdateRougeMetric(protocol=protocol)
    assert "\n" not in str(error.value)


def test_protocol_autometrics_equals_compute_bit_for_bit():
    triples = rows()
    types = ["rouge1", "rouge2", "rougeLsum"]
    metric = UpdateRougeMetric(protocol="autometrics")
    got = fed(metric, triples)
    want = compute(
        [r["source"] for r in triples],
        [r["prediction"] for r in triples],
        [r["reference"] for r in triples],
        protocol="autometrics",
    )
    assert got == {f"update_{t}{s}": want[f"update_{t}{s}"] for t in types for s in ("", "_precision", "_recall")}
    # The space join: rougeLsum differs from our default's (the first reference only, as autometrics).
    ours = compute(
        [r["source"] for r in triples], [r["prediction"] for r in triples], [r["reference"][0] for r in triples]
    )
    assert got["update_rouge1"] == ours["update_rouge1"] and got["update_rougeLsum"] != ours["update_rougeLsum"]
    assert "|protocol:autometrics@0e97645|" in metric.signature()


def _ddp_worker(rank, port, out_dir, options):
    """One DDP process: the examples rank, rank + 2, ... fed in batches; the synced result written."""
    import torch.distributed as dist

    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=2, timeout=timedelta(seconds=60)
    )
    try:
        results = {}
        for name, settings in options.items():
            metric = UpdateRougeMetric(rouge_types=TYPES, **settings)
            results[name] = {key: value.hex() for key, value in fed(metric, rows()[rank::2], batch=3).items()}
        Path(out_dir, f"rank{rank}.json").write_text(json.dumps(results))
    finally:
        dist.destroy_process_group()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
def test_two_process_ddp_equals_one_process_compute(tmp_path):
    options = {
        "macro": {},
        "micro": {"average": "micro"},
        "macro-deletions": {"deletions": True},
        "micro-deletions": {"average": "micro", "deletions": True},
    }
    context = torch.multiprocessing.start_processes(
        _ddp_worker, args=(free_port(), str(tmp_path), options), nprocs=2, join=False, start_method="spawn"
    )
    deadline = time.monotonic() + DDP_SECONDS
    try:
        while not context.join(timeout=1):
            assert time.monotonic() < deadline, f"DDP run not done in {DDP_SECONDS} s"
    finally:
        for process in context.processes:
            if process.is_alive():
                process.terminate()
                process.join(10)
    triples = rows()
    for rank in (0, 1):
        synced = json.loads((tmp_path / f"rank{rank}.json").read_text())
        for name, settings in options.items():
            want = expected(triples, **settings)
            got = {key: float.fromhex(value) for key, value in synced[name].items()}
            assert got == {key: want[key] for key in want if key.startswith("update_")}, (rank, name)
