"""``test_doors.DOORS``' claims at the doors that need torch, Ray or a harness: torchmetrics'
``UpdateRougeMetric``, Ray's ``score_dataset`` and ``corpus_scores``, inspect's scorer and
lighteval's metric (lm_eval's are in test_doors.py). Each honoured option gives compute's
numbers there; each refused one is an ``OptionError`` naming it before any work (a Ray dataset
of ``None``: any work would fail otherwise), whose advice works when followed.
"""

import asyncio
import types
from pathlib import Path

import pytest
from test_doors import DOORS, HOW, H, R, door_options, expected, inputs, python_refusal, same_numbers, slow_if_workers

from update_rouge.integrations.harness_corpus import HARNESS_TYPES

TESTS = Path(__file__).resolve().parents[1]


def harness_expected(option):
    return expected(option, **({} if option == "rouge_types" else {"rouge_types": list(HARNESS_TYPES)}))


@pytest.mark.needs_torch
@pytest.mark.parametrize("option", slow_if_workers(door_options("torchmetrics", H)))
def test_torchmetrics_honours_the_options_of_corpus_means(option):
    from update_rouge.integrations.torchmetrics import UpdateRougeMetric

    sources, predictions, references, options = inputs(option)
    evidence = options.pop("evidence", None)  # each batch's, given to update
    metric = UpdateRougeMetric(**options)
    metric.update(sources, predictions, references, evidence=evidence)
    got = {key: value.item() for key, value in metric.compute().items()}
    same_numbers(got, expected(option, confidence_level=None))


@pytest.mark.needs_torch
@pytest.mark.parametrize("option", door_options("torchmetrics", R))
def test_torchmetrics_refuses_the_options_of_a_bootstrap_by_name(option):
    from update_rouge.integrations.torchmetrics import UpdateRougeMetric

    python_refusal(UpdateRougeMetric, option, inputs(option)[3][option])


@pytest.mark.needs_torch
@pytest.mark.parametrize("protocol", ["fruit", "editeval"])
def test_torchmetrics_refuses_a_bootstrap_median_protocol_by_name(protocol):
    from update_rouge.integrations.torchmetrics import UpdateRougeMetric

    python_refusal(UpdateRougeMetric, "protocol", protocol)


@pytest.mark.parametrize("option", door_options("ray", R))
def test_ray_refuses_what_it_does_not_compute_before_any_work(option):
    from update_rouge.integrations import ray_batches, ray_scoring

    value = False if option == "use_aggregator" else inputs(option)[3][option]
    python_refusal(lambda **options: ray_scoring._check_corpus_options(options), option, value)
    if option != "use_aggregator":
        python_refusal(lambda **options: ray_scoring.corpus_scores(None, **options) if options else None, option, value)
    python_refusal(lambda **options: ray_batches.score_dataset(None, **options) if options else None, option, value)


def test_ray_refuses_a_keyword_that_is_no_option():
    from update_rouge.integrations.ray_scoring import corpus_scores

    with pytest.raises(
        TypeError, match="^corpus_scores\\(\\) got an unexpected keyword argument 'stemer'; instead: stemmer='porter'"
    ):
        corpus_scores(None, stemer="porter")


@pytest.fixture(scope="module")
def ray_cluster():
    """A local Ray cluster of this module's (``ray_helpers.local_cluster``) whose workers also import
    tests/entry_points (for the tokenizer)."""
    import ray
    from ray_helpers import local_cluster

    with local_cluster([TESTS / "entry_points"]):
        yield ray


@pytest.mark.slow
@pytest.mark.parametrize("option", [name for name in door_options("ray", H) if name not in HOW] + list(HOW))
def test_ray_honours_the_options_of_compute(option, ray_cluster):
    from update_rouge.integrations.ray_batches import score_dataset
    from update_rouge.integrations.ray_scoring import corpus_scores

    sources, predictions, references, options = inputs(option)
    rows = [
        {"row": index, "source": s, "prediction": p, "reference": r}
        for index, (s, p, r) in enumerate(zip(sources, predictions, references))
    ]
    scored = score_dataset(ray_cluster.data.from_items(rows, override_num_blocks=2), **options)
    got = corpus_scores(scored, **options)
    assert got == expected(option)


async def _inspect_scores(scorer, sources, predictions, references):
    from inspect_ai.scorer import SampleScore, Target

    scores = []
    for index, (source, prediction, reference) in enumerate(zip(sources, predictions, references)):
        state = types.SimpleNamespace(
            sample_id=index, metadata={"source": source}, output=types.SimpleNamespace(completion=prediction)
        )
        targets = Target([reference] if isinstance(reference, str) else reference)
        scores.append(SampleScore(score=await scorer(state, targets), sample_id=index))
    return scores


@pytest.mark.slow
@pytest.mark.parametrize("option", door_options("inspect", H))
def test_inspect_honours_the_corpus_options(option):
    from update_rouge.integrations.inspect import update_rouge_corpus, update_rouge_scorer

    sources, predictions, references, options = inputs(option)
    scores = asyncio.run(_inspect_scores(update_rouge_scorer(**options), sources, predictions, references))
    same_numbers(update_rouge_corpus()(scores), harness_expected(option))


@pytest.mark.slow
@pytest.mark.parametrize("option", door_options("inspect", R))
def test_inspect_refuses_what_is_not_one_value_per_key(option):
    from update_rouge.integrations.inspect import update_rouge_scorer

    python_refusal(update_rouge_scorer, option, inputs(option)[3][option])


@pytest.mark.slow
@pytest.mark.parametrize("option", door_options("lighteval", H))
def test_lighteval_honours_the_corpus_options(option):
    from lighteval.models.model_output import ModelResponse

    from update_rouge.integrations.lighteval import UpdateRougeComputation, corpus_values, fruit_doc

    sources, predictions, references, options = inputs(option)
    computation = UpdateRougeComputation(**options)
    values = []
    for index, (source, prediction, reference) in enumerate(zip(sources, predictions, references)):
        doc = fruit_doc({"source": source, "reference": reference, "id": str(index)})
        doc.id = str(index)
        values.append(next(iter(computation.compute(doc, ModelResponse(text=[prediction])).values())))
    same_numbers(corpus_values(values), harness_expected(option))


@pytest.mark.slow
@pytest.mark.parametrize("option", door_options("lighteval", R))
def test_lighteval_refuses_what_is_not_one_value_per_key(option):
    from update_rouge.integrations.lighteval import update_rouge_metric

    python_refusal(update_rouge_metric, option, inputs(option)[3][option])


def test_the_harnesses_share_one_decision():
    assert DOORS["inspect"] == DOORS["lighteval"] == DOORS["lm_eval"]
