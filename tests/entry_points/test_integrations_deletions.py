"""``deletions=True`` at the integration doors (issue 53): the TRL reward's ``del_`` terms,
torchmetrics' states, Ray's columns and corpus result (the micro counts too, and ``--ray``) and
the harnesses' per-sample and corpus values give the scores of what each text deletes: counted by
hand on three examples, and equal to ``compute``'s on the bundled triples."""

import asyncio
import json

import pytest
from conftest import DATA_DIR, read_jsonl, run_main
from test_doors import python_refusal

from update_rouge import compute
from update_rouge.integrations.rewards import update_rouge_reward

SOURCE = "Dan is a baker. He lives in Paris. He has a cat."
KEPT = "Dan is a baker. He has a cat. He loves cakes."  # the reference deletes the stale sentence
HAND = [
    {"id": "0", "source": SOURCE, "reference": KEPT, "prediction": "Dan is a baker. He loves cakes."},
    {"id": "1", "source": SOURCE, "reference": KEPT, "prediction": SOURCE + " He loves cakes."},
    {"id": "2", "source": SOURCE, "reference": SOURCE + " He loves cakes.", "prediction": SOURCE + " He loves cakes."},
]
# Counted by hand (rouge-score's tokens: lower-cased, punctuation dropped). Every text adds
# "He loves cakes.", so the additions score 1.0 each and cannot tell these apart. Deletions:
# 0: the reference deletes "He lives in Paris." (he lives in paris), the prediction that and
#    "He has a cat." (8 tokens): 4 shared unigrams, P 4/8, R 4/4, F 2/3; bigrams 3 of 7 (the joined
#    deletions are one text to rouge2) and of 3: P 3/7, R 1, F 3/5.
# 1: the prediction keeps the stale sentence the reference deletes: 0.
# 2: neither deletes anything: 1.0, counted in _both_kept.
TYPES = ["rouge1", "rouge2"]
HAND_DELETIONS = {
    "update_del_rouge1": [2 / 3, 0.0, 1.0],
    "update_del_rouge1_precision": [1 / 2, 0.0, 1.0],
    "update_del_rouge1_recall": [1.0, 0.0, 1.0],
    "update_del_rouge2": [3 / 5, 0.0, 1.0],
    "update_del_rouge2_precision": [3 / 7, 0.0, 1.0],
    "update_del_rouge2_recall": [1.0, 0.0, 1.0],
}
HAND_MEANS = {key: sum(values) / 3 for key, values in HAND_DELETIONS.items()}
# The micro average: hits 4 (rouge1) and 3 (rouge2) of 8 and 7 predicted, 4 + 4 and 3 + 3 deleted
# by the references (example 2 counts nothing).
HAND_MICRO = {
    "update_del_rouge1": 1 / 2,
    "update_del_rouge1_precision": 1 / 2,
    "update_del_rouge1_recall": 1 / 2,
    "update_del_rouge2": 6 / 13,
    "update_del_rouge2_precision": 3 / 7,
    "update_del_rouge2_recall": 1 / 2,
}


def columns(rows, prediction="prediction"):
    return [row["source"] for row in rows], [row[prediction] for row in rows], [row["reference"] for row in rows]


def bundled():
    """The IteraTeR and FRUIT triples, every third with a second reference (the source with a sentence added)."""
    rows = read_jsonl("iterater_triples.jsonl") + read_jsonl("fruit_triples.jsonl")
    for index, row in enumerate(rows):
        row["reference"] = [row["reference"]] + ([row["source"] + " It was added later."] if index % 3 == 0 else [])
    return rows


def reward_of(term, rows, **options):
    sources, predictions, references = columns(rows)
    return update_rouge_reward(term, **options)(completions=predictions, source=sources, reference=references)


# The TRL reward.


def test_del_terms_pay_the_deletions_hand_counted():
    for key, values in HAND_DELETIONS.items():
        term = key.removeprefix("update_")
        assert reward_of(term, HAND) == pytest.approx(values, abs=1e-15, rel=0), term
    assert reward_of("del_rouge2_f1", HAND) == reward_of("del_rouge2", HAND)
    assert reward_of("rouge1", HAND) == [1.0, 1.0, 1.0]  # the additions' reward is blind to the stale sentence
    # A mix that penalises the kept stale sentence: half the additions' F1, half the deletions'.
    assert reward_of({"rouge1": 1, "del_rouge1": 1}, HAND) == pytest.approx([5 / 6, 1 / 2, 1.0], abs=1e-15, rel=0)


@pytest.mark.parametrize("options", [{}, {"additions": "edits"}, {"multi_ref": "pooled", "stemmer": "porter"}])
def test_del_terms_equal_compute_per_example(options):
    rows = bundled()
    want = compute(*columns(rows), rouge_types=["rouge1", "rougeLsum"], deletions=True, use_aggregator=False, **options)
    for rouge_type in ("rouge1", "rougeLsum"):
        for measure, suffix in (("f1", ""), ("precision", "_precision"), ("recall", "_recall")):
            got = reward_of(f"del_{rouge_type}_{measure}", rows, **options)
            assert got == want[f"update_del_{rouge_type}{suffix}"], (rouge_type, measure)
    assert want["update_del_rouge1"] != want["update_rouge1"]
    mixed = reward_of({"rougeLsum": 3, "del_rougeLsum_recall": 1}, rows, **options)
    assert mixed == pytest.approx(
        [0.75 * a + 0.25 * d for a, d in zip(want["update_rougeLsum"], want["update_del_rougeLsum_recall"])],
        abs=1e-15,
        rel=0,
    )


def test_a_del_term_names_itself_and_refuses_deletions_false_by_name():
    assert update_rouge_reward("del_rouge1_recall").__name__ == "update_rouge_del_rouge1_recall"
    assert update_rouge_reward({"rouge1": 1, "del_rouge1": 1}).__name__ == "update_rouge_rouge1_f1_del_rouge1_f1"
    assert reward_of("del_rouge1", HAND, deletions=True) == reward_of("del_rouge1", HAND)
    for value in (False, "yes"):  # "yes" is no switch: refused, not overridden by the del_ term
        python_refusal(lambda **options: update_rouge_reward("del_rouge1", **options), "deletions", value)
    with pytest.raises(ValueError, match="must end in one of _f1, _precision, _recall"):
        update_rouge_reward("del_rouge1_f2")
    with pytest.raises(ValueError, match="more than once"):
        update_rouge_reward({"del_rouge1": 1, "del_rouge1_f1": 2})


# torchmetrics.


def fed(metric, rows, batch):
    for start in range(0, len(rows), batch):
        metric.update(*columns(rows[start : start + batch]))
    return {key: value.item() for key, value in metric.compute().items()}


@pytest.mark.needs_torch
@pytest.mark.parametrize("average", ["macro", "micro"])
def test_torchmetrics_gives_the_deletions_hand_counted(average):
    pytest.importorskip("torchmetrics")
    from update_rouge.integrations.torchmetrics import UpdateRougeMetric

    got = fed(UpdateRougeMetric(rouge_types=TYPES, deletions=True, average=average), HAND, batch=2)
    want = HAND_MEANS if average == "macro" else HAND_MICRO
    assert {key: got[key] for key in want} == pytest.approx(want, abs=1e-15, rel=0)
    assert got["update_rouge1"] == 1.0 and "update_del_rouge1" not in fed(UpdateRougeMetric(), HAND, batch=2)


@pytest.mark.needs_torch
@pytest.mark.parametrize(
    "options", [{}, {"average": "micro"}, {"average": "micro", "multi_ref": "pooled"}, {"additions": "edits"}]
)
def test_torchmetrics_deletions_equal_compute_bit_for_bit(options):
    pytest.importorskip("torchmetrics")
    from update_rouge.integrations.torchmetrics import UpdateRougeMetric

    rows = bundled()
    metric = UpdateRougeMetric(rouge_types=["rouge1", "rougeLsum"], deletions=True, **options)
    got = fed(metric, rows, batch=5)
    want = compute(
        *columns(rows), rouge_types=["rouge1", "rougeLsum"], deletions=True, confidence_level=None, **options
    )
    assert got == {key: value for key, value in want.items() if key.startswith("update_")}
    assert "update_del_rougeLsum_recall" in got
    references = columns(rows)[2]
    signed = compute(*columns(rows), rouge_types=["rouge1", "rougeLsum"], deletions=True, confidence_level=None,
                     return_signature=True, **options)  # fmt: skip
    assert metric.signature(references) == signed["signature"] and "|del:" in signed["signature"]


# The harnesses: inspect, lm_eval, lighteval.


def test_lm_eval_gives_each_sample_and_the_corpus_the_deletions():
    pytest.importorskip("lm_eval")
    from update_rouge.integrations.lm_eval import aggregation, make_process_results

    process_results = make_process_results(rouge_types=TYPES, deletions=True, confidence_level=None)
    items = [process_results(row, [row["prediction"]]) for row in HAND]
    assert list(items[0]) == ["update_rouge1", "update_rouge2", "update_del_rouge1", "update_del_rouge2"]
    for key in ("update_del_rouge1", "update_del_rouge2"):
        assert aggregation(key)([item[key] for item in items]) == pytest.approx(HAND_MEANS[key], abs=1e-15, rel=0)


async def _inspect_values(scorer, rows):
    from inspect_ai.scorer import Target

    values = []
    for row in rows:
        state = type("State", (), {})()
        state.sample_id, state.metadata = row["id"], {"source": row["source"]}
        state.output = type("Output", (), {"completion": row["prediction"]})()
        values.append(await scorer(state, Target([row["reference"]])))
    return values


@pytest.mark.slow
def test_inspect_gives_each_sample_and_the_corpus_the_deletions():
    pytest.importorskip("inspect_ai")
    from inspect_ai.scorer import SampleScore

    from update_rouge.integrations.inspect import update_rouge_corpus, update_rouge_scorer

    scores = asyncio.run(_inspect_values(update_rouge_scorer(rouge_types=TYPES, deletions=True), HAND))
    for key in ("update_del_rouge1", "update_del_rouge2"):
        assert [score.value[key] for score in scores] == pytest.approx(HAND_DELETIONS[key], abs=1e-15, rel=0)
    corpus = update_rouge_corpus()([SampleScore(score=score, sample_id=i) for i, score in enumerate(scores)])
    want = compute(*columns(HAND), rouge_types=TYPES, deletions=True)
    assert corpus["update_del_rouge1"] == pytest.approx(5 / 9, abs=1e-15, rel=0)
    keys = [f"update_{part}{t}{end}" for part in ("", "del_") for t in TYPES for end in ("", "_low", "_high")]
    assert corpus == {key: want[key] for key in keys}


@pytest.mark.slow
def test_an_inspect_eval_logs_the_deletions_metrics(tmp_path):
    pytest.importorskip("inspect_ai")
    from test_inspect import run

    from update_rouge.integrations.inspect import update_rouge_scorer

    log = run(HAND, update_rouge_scorer(rouge_types=TYPES, deletions=True, confidence_level=None), tmp_path)
    assert log.status == "success", log.error
    metrics = {name: metric.value for name, metric in log.results.scores[0].metrics.items()}
    want = {f"update_{t}": 1.0 for t in TYPES} | {f"update_del_{t}": HAND_MEANS[f"update_del_{t}"] for t in TYPES}
    assert metrics == pytest.approx(want, abs=1e-12, rel=0)
    by_id = {sample.id: sample.scores["update_rouge"] for sample in log.samples}
    assert [by_id[row["id"]].value["update_del_rouge1"] for row in HAND] == pytest.approx(
        HAND_DELETIONS["update_del_rouge1"], abs=1e-15, rel=0
    )
    assert "|del:sentences|" in by_id["0"].metadata["signature"]


@pytest.mark.slow
def test_lighteval_gives_each_sample_and_the_corpus_the_deletions():
    pytest.importorskip("lighteval")
    from lighteval.models.model_output import ModelResponse

    from update_rouge.integrations.lighteval import (
        UpdateRougeComputation,
        corpus_values,
        fruit_doc,
        update_rouge_metric,
    )

    options = {"rouge_types": TYPES, "deletions": True, "confidence_level": None}
    names = ["update_rouge1", "update_rouge2", "update_del_rouge1", "update_del_rouge2"]
    assert update_rouge_metric(**options).metric_name == names
    computation = UpdateRougeComputation(**options)
    samples = []
    for row in HAND:
        doc = fruit_doc(row)
        doc.id = row["id"]
        samples.append(computation.compute(doc, ModelResponse(text=[row["prediction"]])))
    assert list(samples[0]) == names
    for key in ("update_del_rouge1", "update_del_rouge2"):
        assert [sample[key] for sample in samples] == pytest.approx(HAND_DELETIONS[key], abs=1e-15, rel=0)
    corpus = corpus_values([sample["update_del_rouge2"] for sample in samples])
    assert corpus["update_del_rouge2"] == pytest.approx(HAND_MEANS["update_del_rouge2"], abs=1e-15, rel=0)


# Ray: score_dataset's columns, corpus_scores (macro, micro, a paired baseline), the command line's --ray.


@pytest.fixture(scope="module")
def ray_cluster():
    import ray
    from ray_helpers import local_cluster

    with local_cluster():
        yield ray


@pytest.mark.slow
def test_ray_columns_and_corpus_results_with_deletions_equal_compute(ray_cluster):
    from update_rouge.integrations.ray_batches import output_columns, score_dataset
    from update_rouge.integrations.ray_counts import count_column_names
    from update_rouge.integrations.ray_scoring import corpus_scores

    hand = [dict(row, reference=[row["reference"]]) for row in HAND]  # a column of lists, as bundled()'s
    rows = [dict(row, row=i, baseline=row["source"]) for i, row in enumerate(hand + bundled())]
    ds = ray_cluster.data.from_items(rows, override_num_blocks=3).materialize()
    keys = output_columns(TYPES, deletions=True)
    assert keys[6:12] == list(HAND_DELETIONS) and keys[-1] == "_both_kept"
    for average in ("macro", "micro"):
        options = {"rouge_types": TYPES, "deletions": True, "average": average, "n_bootstrap": 200}
        scored = score_dataset(ds, **options).materialize()
        baseline = score_dataset(ds, prediction_column="baseline", **options)
        table = {key: [row[key] for row in sorted(scored.take_all(), key=lambda row: row["row"])] for key in keys}
        assert table == compute(*columns(rows), use_aggregator=False, **options)
        for key, values in HAND_DELETIONS.items():
            assert table[key][:3] == pytest.approx(values, abs=1e-15, rel=0), key
        assert table["_both_kept"][:3] == [False, False, True]
        paired = compute(*columns(rows), baseline_predictions=[row["baseline"] for row in rows], **options)
        assert corpus_scores(scored, baseline=baseline, **options) == paired
        assert 0 < paired["update_del_rouge1_p_value"] < 1 and "update_del_rouge2_delta_low" in paired
    names = count_column_names(TYPES, deletions=True)
    fields = ("hits", "target", "prediction")
    assert names[6:9] == [f"_counts_update_del_rouge1_{field}" for field in fields]
    assert set(names) <= set(scored.columns())
    # A batch without rows gets the same columns, empty (the last options: micro).
    import pyarrow as pa

    from update_rouge.integrations.ray_batches import BatchScorer

    texts = {name: pa.array([], pa.string()) for name in ("source", "prediction")}
    empty = pa.table({"row": pa.array([], pa.int64()), **texts, "reference": pa.array([], pa.list_(pa.string()))})
    assert BatchScorer(**options)(empty).column_names == ["row", "source", "prediction", "reference", *keys, *names]
    hand = [row for row in scored.take_all() if row["row"] < 3]
    assert sum(row["_counts_update_del_rouge1_hits"] for row in hand) == 4
    assert sum(row["_counts_update_del_rouge2_prediction"] for row in hand) == 7


@pytest.mark.slow
def test_cli_with_ray_and_deletions_prints_what_it_prints_without(ray_cluster, capsys):
    argv = [DATA_DIR / "iterater_triples.jsonl", "--deletions", "--average", "micro", "--signature"]
    plain = run_main(argv, capsys)
    on_ray = run_main([*argv, "--ray"], capsys)
    assert on_ray[:2] == plain[:2] and plain[0] == 0
    result = json.loads(on_ray[1])
    assert "|del:sentences|" in result["signature"] and result["update_del_rougeLsum"] != result["update_rougeLsum"]
