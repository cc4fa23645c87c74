"""Every user mistake at an integration's door (the Trainer helper, the evaluation harnesses,
torchmetrics) is an ``UpdateRougeError`` naming its option or field (and example where there is
one), and the call its advice describes succeeds (tests/reliability/test_user_mistakes.py has
the other doors')."""

import json
from types import SimpleNamespace

import numpy as np
import pytest
from test_user_mistakes import PREDICTIONS, REFERENCES, SOURCES

from update_rouge import InputError, OptionError, compute
from update_rouge.errors import Setting, UpdateRougeError, followed


# The Trainer helper (it needs only numpy: a tokenizer of these words and an EvalPrediction's fields).
class _Words:
    """A word-level tokenizer of the texts above, as the Trainer helper calls one (id 0 pads)."""

    pad_token_id = 0
    model_input_names = ["input_ids"]
    vocab = [
        "[PAD]",
        "update:",
        *sorted({word for text in SOURCES + PREDICTIONS + REFERENCES for word in text.split()}),
    ]

    def __len__(self):
        return len(self.vocab)

    def __call__(self, text, add_special_tokens=False):
        return {"input_ids": [self.vocab.index(word) for word in text.split()]}

    def decode(self, ids, skip_special_tokens=True):
        return " ".join(self.vocab[i] for i in ids if i != self.pad_token_id)

    def batch_decode(self, rows, skip_special_tokens=True):
        return [self.decode(row) for row in rows]


def _ids(texts, put=None):
    """The texts' ids padded with -100, with ``put`` (row, column, value) written in, if given."""
    rows = [_Words()(text)["input_ids"] for text in texts]
    ids = np.array([row + [-100] * (12 - len(row)) for row in rows], dtype=float if put and put[2] != put[2] else int)
    if put:
        ids[put[0], put[1]] = put[2]
    return ids


def _evaluated(call, **fields):
    """``make_compute_metrics(tokenizer, **call)`` on an EvalPrediction of ``fields`` (by default
    the predictions' ids, the references' as labels, the sources' after ``update: `` as inputs)."""
    from update_rouge.integrations.trainer import make_compute_metrics

    given = {"predictions": _ids(PREDICTIONS), "label_ids": _ids(REFERENCES), "inputs": _ids(PREFIXED), **fields}
    return make_compute_metrics(_Words(), n_bootstrap=20, **call)(SimpleNamespace(**given))


PREFIXED = [f"update: {source}" for source in SOURCES]
PREFIX = {"task_prefix": "update: "}
ONE_HOT = np.eye(len(_Words()))[np.maximum(_ids(PREDICTIONS), 0)]  # logits whose argmax(-1) is each id

# (the call, the EvalPrediction's fields, the field and example the error names, the call and fields its advice mends)
TRAINER_MISTAKES = [
    (PREFIX, {"predictions": ONE_HOT}, ("predictions", None), (PREFIX, {"predictions": ONE_HOT.argmax(-1)})),
    (PREFIX, {"predictions": _ids(PREDICTIONS, (1, 2, np.nan))}, ("predictions", 1), (PREFIX, {})),
    (
        PREFIX,
        {"predictions": _ids(PREDICTIONS, (1, 2, -5))},
        ("predictions", 1),
        (PREFIX, {"predictions": _ids(PREDICTIONS, (1, 2, -100))}),
    ),
    (PREFIX, {"predictions": _ids(PREDICTIONS, (1, 2, len(_Words())))}, ("predictions", 1), (PREFIX, {})),
    (PREFIX, {"inputs": _ids(SOURCES)}, ("inputs", 0), ({}, {"inputs": _ids(SOURCES)})),
    ({"sources": SOURCES[:2]}, {}, ("sources", None), ({"sources": SOURCES}, {})),
    ({}, {"inputs": None}, ("inputs", None), ({"sources": SOURCES}, {"inputs": None})),
]


@pytest.mark.parametrize(
    "call, fields, where, mended",
    TRAINER_MISTAKES,
    ids=["logits", "nan", "negative", "undecodable", "prefix", "sources", "none"],
)
def test_a_trainer_input_mistake_names_its_field_and_example_and_the_mended_input_is_scored(
    call, fields, where, mended
):
    with pytest.raises(InputError) as raised:
        _evaluated(call, **fields)
    assert isinstance(raised.value, UpdateRougeError) and (raised.value.field, raised.value.index) == where
    mended_call, mended_fields = mended
    assert _evaluated(mended_call, **mended_fields)["update_rouge1"] > 0


def test_the_trainers_sources_and_task_prefix_together_are_refused_and_either_alone_works():
    call = {"sources": SOURCES, "task_prefix": "update: "}
    with pytest.raises(OptionError) as raised:
        _evaluated(call)
    assert raised.value.option == "task_prefix"
    assert str(raised.value).endswith("; instead: leave out task_prefix, or leave out sources")
    for changes in raised.value.instead:
        assert _evaluated(followed(call, changes))["update_rouge1"] > 0


def _split(text):
    return text.split()


def test_a_harness_sample_mistake_names_its_field_and_the_mended_sample_is_scored():
    lm_eval = pytest.importorskip("update_rouge.integrations.lm_eval", exc_type=ImportError)
    doc = {"id": "x7", "source": "A cat sat.", "reference": "A cat sat. It purred."}
    for bad_doc, results, field in [
        ({**doc, "reference": 3}, ["A cat sat. It slept."], "reference"),
        ({**doc, "source": None}, ["A cat sat. It slept."], "source"),
        (doc, [], "results"),
    ]:
        with pytest.raises(InputError) as raised:
            lm_eval.process_results(bad_doc, results)
        assert raised.value.field == field and str(raised.value).startswith("document 'x7': ")
    item = lm_eval.process_results(doc, ["A cat sat. It slept."])["update_rouge1"]
    assert lm_eval.aggregation("update_rouge1")([item]) == 0.5


def test_the_inspect_scorer_without_the_source_names_it_and_naming_its_key_works():
    import asyncio

    inspect = pytest.importorskip("update_rouge.integrations.inspect", exc_type=ImportError)
    from inspect_ai.scorer import Target

    state = SimpleNamespace(
        sample_id="s1", metadata={"original": SOURCES[0]}, output=SimpleNamespace(completion=PREDICTIONS[0])
    )
    with pytest.raises(
        InputError, match=r"must hold the source text: put it there, or name its key with source_key$"
    ) as raised:
        asyncio.run(inspect.update_rouge_scorer(n_bootstrap=20)(state, Target([REFERENCES[0]])))
    assert raised.value.field == "source"
    score = asyncio.run(
        inspect.update_rouge_scorer(source_key="original", n_bootstrap=20)(state, Target([REFERENCES[0]]))
    )
    assert score.value["update_rouge1"] > 0


def test_two_settings_one_signature_at_a_harness_name_the_option_and_its_advice_works():
    lm_eval = pytest.importorskip("update_rouge.integrations.lm_eval", exc_type=ImportError)
    call = {"rouge_types": ["rouge7"], "tokenizer": _split}
    lm_eval.make_process_results(**call)
    with pytest.raises(OptionError) as raised:
        lm_eval.make_process_results(**{**call, "tokenizer": lambda text: text.split()})
    assert raised.value.option == "tokenizer" and raised.value.instead == ((Setting("tokenizer", _split),),)
    lm_eval.make_process_results(**followed(call, raised.value.instead[0]))


def test_a_harness_aggregation_of_no_mixed_or_unknown_samples_is_refused_and_each_advice_works():
    lm_eval = pytest.importorskip("update_rouge.integrations.lm_eval", exc_type=ImportError)
    from update_rouge import Settings, UpdateRougeScorer

    doc = {"source": SOURCES[0], "reference": REFERENCES[0]}
    ours = lm_eval.make_process_results(rouge_types=["rouge1"])(doc, [PREDICTIONS[0]])["update_rouge1"]
    other = lm_eval.make_process_results(rouge_types=["rouge1"], seed=57)(doc, [PREDICTIONS[0]])["update_rouge1"]
    unknown = (UpdateRougeScorer(Settings(rouge_types=("rouge2",), seed=58)).signature(), *ours[1:])
    aggregate = lm_eval.aggregation("update_rouge1")
    for items, problem in [
        ([], "no samples were scored"),
        ([ours, other], "2 different settings"),
        ([unknown], "were not created in this process"),
    ]:
        with pytest.raises(InputError, match=f"^update_rouge1: .*{problem}") as raised:
            aggregate(items)
        assert raised.value.where is None
    assert aggregate([ours]) == aggregate([other]) > 0  # one sample; the settings of each aggregated apart
    lm_eval.make_process_results(rouge_types=["rouge2"], seed=58)  # the scorer created in this process
    want = compute(SOURCES[:1], PREDICTIONS[:1], REFERENCES[:1], rouge_types=["rouge2"], seed=58)
    assert lm_eval.aggregation("update_rouge2")([unknown]) == want["update_rouge2"] > 0


def test_the_lm_eval_task_without_its_file_names_data_files_and_giving_it_works(tmp_path):
    lm_eval = pytest.importorskip("update_rouge.integrations.lm_eval", exc_type=ImportError)
    with pytest.raises(OptionError, match="^update_rouge_fruit reads a local JSONL file") as raised:
        lm_eval.load_jsonl(version=1.0)
    assert raised.value.option == "data_files"
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps({"source": SOURCES[0], "reference": REFERENCES[0]}) + "\n", encoding="utf-8")
    assert len(lm_eval.load_jsonl(data_files=str(path), version=1.0)["test"]) == 1


@pytest.mark.needs_torch
@pytest.mark.filterwarnings("ignore:The ``compute`` method of metric UpdateRougeMetric was called before")
def test_torchmetrics_compute_before_update_is_refused_and_updating_first_works():
    torchmetrics = pytest.importorskip("update_rouge.integrations.torchmetrics", exc_type=ImportError)
    metric = torchmetrics.UpdateRougeMetric(rouge_types=["rouge1"])
    with pytest.raises(
        InputError, match=r"call update\(sources, predictions, references\) with at least one example first$"
    ) as raised:
        metric.compute()
    assert raised.value.where is None
    metric.update(SOURCES, PREDICTIONS, REFERENCES)
    assert float(metric.compute()["update_rouge1"]) > 0


@pytest.mark.needs_torch
@pytest.mark.slow  # importing lighteval takes about 13 CPU seconds
def test_the_lighteval_metric_without_the_source_names_it_and_naming_its_key_works():
    lighteval = pytest.importorskip("update_rouge.integrations.lighteval", exc_type=ImportError)
    doc = SimpleNamespace(
        task_name="t", query="q", specific={"original": SOURCES[0]}, gold_index=0, choices=[REFERENCES[0]], id="0"
    )
    response = SimpleNamespace(final_text=[PREDICTIONS[0]])
    with pytest.raises(InputError, match=r"Doc.specific\['source'\] must hold the source text: put it there") as raised:
        lighteval.UpdateRougeComputation(rouge_types=["rouge1"]).compute(doc, response)
    assert raised.value.field == "source"
    assert (
        lighteval.UpdateRougeComputation("original", rouge_types=["rouge1"]).compute(doc, response)["update_rouge1"] > 0
    )
