"""Issue 18 for the Trainer helper (tests/reliability/test_reliability_api.py has the Python API's part):
logits, NaN, -100, indices over the evaluation, interrupted evaluations; a mistake gives one
ValueError naming the example. Needs torch (the fixtures of tests/trainer_helpers.py)."""

from unittest.mock import patch

import numpy as np
import pytest
from trainer_helpers import PREFIX, expected, ids, padded, seq2seq, tokenizer, trainer_with  # noqa: F401 (fixtures)
from transformers import EvalPrediction

from update_rouge.integrations.trainer import make_compute_metrics

pytestmark = pytest.mark.needs_torch


def test_logits_are_refused_with_the_two_ways_to_get_ids(tokenizer):
    logits = np.random.default_rng(0).normal(size=(2, 3, len(tokenizer))).astype(np.float32)
    eval_prediction = EvalPrediction(predictions=(logits,), label_ids=padded(ids(tokenizer, ["Dan .", "Dan ."])))
    with pytest.raises(ValueError) as caught:
        make_compute_metrics(tokenizer, sources=["a .", "b ."])(eval_prediction)
    assert str(caught.value) == (
        f"predictions are floats of shape (2, 3, {len(tokenizer)}), logits rather than token ids: set "
        "predict_with_generate=True in Seq2SeqTrainingArguments, or pass preprocess_logits_for_metrics=lambda "
        "logits, labels: logits.argmax(-1) to the Trainer"
    )


def test_nan_in_predictions_is_named_with_the_example(tokenizer):
    predictions = np.zeros((2, 3))
    predictions[1, 2] = np.nan
    eval_prediction = EvalPrediction(predictions=predictions, label_ids=padded(ids(tokenizer, ["Dan .", "Dan ."])))
    with pytest.raises(ValueError, match=r"^predictions\[1\] holds NaN"):
        make_compute_metrics(tokenizer, sources=["a .", "b ."])(eval_prediction)


def test_minus_100_in_predictions_is_padding_and_other_negative_ids_are_refused(tokenizer):
    texts = ["Dan is a baker . Dan loves chocolate cakes .", "The sky is blue ."]
    sources = ["Dan is a baker .", "The sky is blue ."]
    metrics = make_compute_metrics(tokenizer, sources=sources, rouge_types=["rouge1"])
    with_minus_100 = metrics(
        EvalPrediction(predictions=padded(ids(tokenizer, texts)), label_ids=padded(ids(tokenizer, texts)))
    )
    # Identical texts: rouge1 1.0 on both examples (the second adds nothing on either side).
    assert with_minus_100["update_rouge1"] == 1.0
    assert with_minus_100["_both_empty"] == 1.0
    bad = padded(ids(tokenizer, texts))
    bad[1, 1] = -5
    with pytest.raises(ValueError, match=r"^predictions\[1\] holds the id -5 at position 1: .*only -100"):
        metrics(EvalPrediction(predictions=bad, label_ids=padded(ids(tokenizer, texts))))


def fail_on_chip(text):
    if "chip" in text:
        raise ValueError("no chips")
    return text.split()


def test_batch_errors_name_the_example_in_the_evaluation(tokenizer):
    sources = ["Dan is a baker .", "The sky is blue .", "Paris is in France .", "Dan is a baker ."]
    predictions = [
        "Dan is a baker .",
        "The sky is blue .",
        "Paris is in France .",
        "Dan is a baker . Dan loves chip cookies .",
    ]
    metrics = make_compute_metrics(tokenizer, sources=sources, tokenizer=fail_on_chip, rouge_types=["rouge1"])
    batches = [(predictions[:2], sources[:2]), (predictions[2:], sources[2:])]
    assert (
        metrics(
            EvalPrediction(
                predictions=padded(ids(tokenizer, batches[0][0])), label_ids=padded(ids(tokenizer, batches[0][1]))
            ),
            compute_result=False,
        )
        == {}
    )
    with pytest.raises(
        ValueError, match=r"^tokenizer raised ValueError: no chips, on the additions of predictions\[3\]"
    ):
        metrics(
            EvalPrediction(
                predictions=padded(ids(tokenizer, batches[1][0])), label_ids=padded(ids(tokenizer, batches[1][1]))
            ),
            compute_result=True,
        )


@pytest.mark.slow
def test_an_interrupted_batched_evaluation_leaves_no_rows_in_the_next(seq2seq, tokenizer, expected):
    model = seq2seq[0]
    metrics = make_compute_metrics(tokenizer, task_prefix=PREFIX)
    trainer = trainer_with(seq2seq, tokenizer, metrics, include_for_metrics=["inputs"], batch_eval_metrics=True)
    assert metrics.attach(trainer) is trainer
    generate, calls = model.generate, []

    def interrupted_on_the_second_batch(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return generate(*args, **kwargs)

    with patch.object(model, "generate", interrupted_on_the_second_batch):
        with pytest.raises(KeyboardInterrupt):
            trainer.evaluate()
    assert metrics._offset == 2  # the first batch's rows are still held
    results = trainer.evaluate()
    for key, value in expected.items():
        assert results[f"eval_{key}"] == value


def test_an_id_the_tokenizer_cannot_decode_is_named_with_the_example(tokenizer):
    texts = ["Dan is a baker .", "The sky is blue ."]
    predictions = padded(ids(tokenizer, texts))
    predictions[1, 2] = 2**32  # a fast tokenizer's ids are 32-bit: it raised a bare OverflowError
    metrics = make_compute_metrics(tokenizer, sources=texts, rouge_types=["rouge1"])
    with pytest.raises(ValueError) as caught:
        metrics(EvalPrediction(predictions=predictions, label_ids=padded(ids(tokenizer, texts))))
    assert str(caught.value).startswith(
        "predictions[1] holds the id 4294967296 at position 2, which the tokenizer cannot decode (OverflowError: "
    )
    assert str(caught.value).endswith(f"its ids are 0 to {len(tokenizer) - 1}")
