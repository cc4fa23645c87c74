"""compute_metrics for Seq2SeqTrainer: decoding, prefixes, sources, batches, and a real evaluate()."""

import ast
import contextlib
import io
import math

import numpy as np
import pytest
from trainer_helpers import (  # noqa: F401 (fixtures)
    PREFIX,
    REFERENCES,
    SOURCES,
    evaluate_with,
    expected,
    ids,
    padded,
    seq2seq,
    tokenizer,
)
from transformers import EvalPrediction

from update_rouge import compute
from update_rouge.integrations.trainer import make_compute_metrics

pytestmark = pytest.mark.needs_torch


def test_decodes_minus_100_padding_tuples_and_prefixes(tokenizer):
    predictions = ["Dan is a baker . Dan loves chocolate chip cookies .", "The sky is blue ."]
    references = ["Dan is a baker . Dan loves chocolate cakes .", "The sky is blue ."]
    inputs = [PREFIX + "Dan is a baker .", PREFIX + "The sky is blue ."]
    eval_prediction = EvalPrediction(
        predictions=(padded(ids(tokenizer, predictions)), np.zeros((2, 3, 4))),
        label_ids=padded(ids(tokenizer, references)),
        inputs=padded(ids(tokenizer, inputs)),
    )
    metrics = make_compute_metrics(tokenizer, task_prefix=PREFIX, rouge_types=["rouge1"])(eval_prediction)
    # Example 1 adds 5 words against 4 with 3 shared (P 3/5, R 3/4); example 2 adds nothing: 1.0.
    assert metrics["update_rouge1_precision"] == (3 / 5 + 1.0) / 2
    assert metrics["update_rouge1_recall"] == (3 / 4 + 1.0) / 2
    assert metrics["_both_empty"] == 1.0
    assert metrics["_prediction_diff_len"] == len("Dan loves chocolate chip cookies .") / 2
    assert all(type(value) is float for value in metrics.values())


def test_micro_average_sums_the_counts_of_every_batch(tokenizer):
    predictions = ["Dan is a baker . Dan loves chocolate chip cookies .", "The sky is blue ."]
    references = ["Dan is a baker . Dan loves chocolate cakes .", "The sky is blue ."]
    inputs = [PREFIX + "Dan is a baker .", PREFIX + "The sky is blue ."]
    metrics = make_compute_metrics(tokenizer, task_prefix=PREFIX, rouge_types=["rouge1"], average="micro")
    batches = [
        EvalPrediction(
            predictions=padded(ids(tokenizer, predictions[i : i + 1])),
            label_ids=padded(ids(tokenizer, references[i : i + 1])),
            inputs=padded(ids(tokenizer, inputs[i : i + 1])),
        )
        for i in range(2)
    ]
    assert metrics(batches[0], compute_result=False) == {}
    result = metrics(batches[1], compute_result=True)
    # Example 1: 3 hits of 5 added prediction words and 4 reference words; example 2 adds nothing,
    # so no counts (its macro score would be 1.0).
    assert (result["update_rouge1_precision"], result["update_rouge1_recall"]) == (3 / 5, 3 / 4)


def batches_of_two(tokenizer, predictions):
    """The five examples (``SOURCES``, ``predictions``, ``REFERENCES``) in batches of two, as
    ``batch_eval_metrics`` gives them: the last of one example."""
    return [
        EvalPrediction(
            predictions=padded(ids(tokenizer, predictions[i : i + 2])),
            label_ids=padded(ids(tokenizer, REFERENCES[i : i + 2])),
            inputs=padded(ids(tokenizer, [PREFIX + source for source in SOURCES[i : i + 2]])),
        )
        for i in (0, 2, 4)
    ]


@pytest.mark.parametrize("protocol", ["fruit", "editeval", "autometrics"])
def test_a_published_protocol_over_batches_equals_compute(tokenizer, protocol):
    predictions = [
        "Dan is a baker . Dan loves chocolate chip cookies .",
        "Paris is in France .",
        "The sky is blue . It is the capital .",
        "Ann plays the piano . She plays every day .",
        "The river is long . It runs north .",
    ]
    metrics = make_compute_metrics(tokenizer, task_prefix=PREFIX, protocol=protocol, seed=7, n_bootstrap=300)
    batches = batches_of_two(tokenizer, predictions)
    assert metrics(batches[0], compute_result=False) == metrics(batches[1], compute_result=False) == {}
    result = metrics(batches[2], compute_result=True)
    computed = compute(SOURCES, predictions, REFERENCES, protocol=protocol, seed=7, n_bootstrap=300)
    assert result == {key: float(value) for key, value in computed.items()}
    # FRUIT's corpus values are in its x 100 scale; the others in [0, 1].
    assert (result["update_rouge1"] > 1.0) == (protocol == "fruit")


def test_the_deletions_over_batches_equal_compute(tokenizer):
    predictions = [
        "Dan loves chocolate cakes .",  # drops the sentence the reference keeps: 0.0
        "Paris is in France . It is the capital .",  # the reference itself: nothing deleted, 1.0
        "The sky is blue .",  # nothing deleted on either side: 1.0
        "She plays every day .",  # 0.0
        "The river is long . Fish live in it .",  # 0.0
    ]
    metrics = make_compute_metrics(tokenizer, task_prefix=PREFIX, deletions=True, seed=7, n_bootstrap=300)
    batches = batches_of_two(tokenizer, predictions)
    assert metrics(batches[0], compute_result=False) == metrics(batches[1], compute_result=False) == {}
    result = metrics(batches[2], compute_result=True)
    computed = compute(SOURCES, predictions, REFERENCES, deletions=True, seed=7, n_bootstrap=300)
    assert result == {key: float(value) for key, value in computed.items()}
    assert (result["update_del_rouge1"], result["_both_kept"]) == (2 / 5, 2.0)
    assert all(type(value) is float for value in result.values())


def capitalised(text):
    """An entity extractor (``entities=``): the words that start with a capital letter."""
    return [word for word in text.split() if word[:1].isupper()]


@pytest.mark.parametrize("average", ["macro", "micro"])
def test_entities_and_evidence_over_batches_equal_compute(tokenizer, average):
    # The capitalised words: no entity new on either side; It new on both, in no evidence; Ann new
    # in the prediction only, in no evidence; She, Fish new on both, in the evidence.
    predictions = [
        "Dan is a baker . Dan loves chocolate cakes .",
        "It is the capital .",
        "The sky is blue . Ann plays .",
        "She plays every day .",
        "The river is long . It runs north . Fish live in it .",
    ]
    evidence = ["Dan", [], "The sky", ["She", "It"], "Fish"]
    options = {"rouge_types": ["rouge1"], "average": average, "entities": capitalised, "seed": 7, "n_bootstrap": 300}
    metrics = make_compute_metrics(tokenizer, task_prefix=PREFIX, evidence=evidence, **options)
    batches = batches_of_two(tokenizer, predictions)
    assert metrics(batches[0], compute_result=False) == metrics(batches[1], compute_result=False) == {}
    result = metrics(batches[2], compute_result=True)
    computed = compute(SOURCES, predictions, REFERENCES, evidence=evidence, **options)
    # No reference drops an entity: compute's None is NaN here (a Trainer logs floats).
    assert computed.pop("update_ent_outdated_kept") is None and math.isnan(result.pop("update_ent_outdated_kept"))
    assert result == {key: float(value) for key, value in computed.items()}
    # macro: F 1, 1, 0, 1, 1; micro: 3 matched of 3 new in the references and 4 in the predictions.
    assert result["update_ent"] == (0.8 if average == "macro" else 2 * 0.75 / 1.75)
    assert (result["update_ent_unsupported"], result["_ent_outdated_defined"]) == (2 / 5, 0.0)


def test_evidence_must_match_the_eval_set_and_needs_entities(tokenizer):
    eval_prediction = EvalPrediction(
        predictions=padded(ids(tokenizer, ["Dan is a baker . Ann plays ."])),
        label_ids=padded(ids(tokenizer, ["Dan is a baker . Ann plays ."])),
    )
    metrics = make_compute_metrics(tokenizer, sources=["Dan is a baker ."], entities=capitalised, evidence=["a", "b"])
    with pytest.raises(ValueError, match="^evidence has 2 entries but the evaluation has 1 examples"):
        metrics(eval_prediction)
    with pytest.raises(ValueError, match="^evidence is read only by the entity scores: it needs entities"):
        make_compute_metrics(tokenizer, evidence=["a"])


def test_a_protocol_with_an_option_it_never_had_is_refused_in_one_line(tokenizer):
    with pytest.raises(
        ValueError, match="^protocol='fruit' reproduces a published script, which has no stemmer"
    ) as error:
        make_compute_metrics(tokenizer, protocol="fruit", stemmer="porter")
    assert "\n" not in str(error.value)


def test_inputs_without_the_prefix_are_an_error(tokenizer):
    eval_prediction = EvalPrediction(
        predictions=padded(ids(tokenizer, ["Dan is a baker ."])),
        label_ids=padded(ids(tokenizer, ["Dan is a baker ."])),
        inputs=padded(ids(tokenizer, ["Dan is a baker ."])),
    )
    with pytest.raises(
        ValueError, match=r"^inputs\[0\] decodes to .*, which does not start with task_prefix='update: '"
    ):
        make_compute_metrics(tokenizer, task_prefix=PREFIX)(eval_prediction)


def test_no_inputs_and_no_sources_is_an_error(tokenizer):
    eval_prediction = EvalPrediction(
        predictions=padded(ids(tokenizer, ["Dan ."])), label_ids=padded(ids(tokenizer, ["Dan ."]))
    )
    with pytest.raises(ValueError, match=r'include_for_metrics=\["inputs"\]'):
        make_compute_metrics(tokenizer)(eval_prediction)


@pytest.mark.parametrize("sources", [["a ."], ["a .", "b .", "c ."]])
def test_sources_must_match_the_eval_set(tokenizer, sources):
    eval_prediction = EvalPrediction(
        predictions=padded(ids(tokenizer, ["Dan .", "Dan ."])), label_ids=padded(ids(tokenizer, ["Dan .", "Dan ."]))
    )
    with pytest.raises(ValueError, match=f"sources has {len(sources)} entries but the evaluation has 2 examples"):
        make_compute_metrics(tokenizer, sources=sources)(eval_prediction)


def test_use_aggregator_cannot_be_passed(tokenizer):
    with pytest.raises(ValueError, match="use_aggregator cannot be set"):
        make_compute_metrics(tokenizer, use_aggregator=False)


def test_evaluate_reports_update_rouge(seq2seq, tokenizer, expected):
    metrics = make_compute_metrics(tokenizer, task_prefix=PREFIX)
    _, results = evaluate_with(seq2seq, tokenizer, metrics, include_for_metrics=["inputs"])
    for key, value in expected.items():
        assert results[f"eval_{key}"] == value
    assert 0.0 < results["eval_update_rouge1_recall"] < 1.0
    assert all(type(results[f"eval_{key}"]) is float for key in expected)


def test_batch_eval_metrics_give_the_same_scores(seq2seq, tokenizer, expected):
    metrics = make_compute_metrics(tokenizer, task_prefix=PREFIX)
    _, results = evaluate_with(seq2seq, tokenizer, metrics, include_for_metrics=["inputs"], batch_eval_metrics=True)
    for key, value in expected.items():
        assert results[f"eval_{key}"] == value


def test_raw_sources_instead_of_inputs(seq2seq, tokenizer, expected):
    metrics = make_compute_metrics(tokenizer, sources=SOURCES)
    _, results = evaluate_with(seq2seq, tokenizer, metrics, batch_eval_metrics=True)
    for key, value in expected.items():
        assert results[f"eval_{key}"] == value


def test_the_helper_imports_neither_torch_nor_transformers():
    import subprocess
    import sys
    from pathlib import Path

    code = "import sys, update_rouge.integrations.trainer; print(sorted({'torch', 'transformers'} & set(sys.modules)))"
    repo = Path(__file__).resolve().parents[2]
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=repo)
    assert completed.stdout.strip() == "[]", completed.stderr


def test_the_documented_example_runs_as_written_with_labels_of_varying_length(seq2seq, tokenizer, expected, tmp_path):
    # docs/trainer.md's example, as written (its output folder in tmp_path, on the CPU), on
    # labels of 5 to 12 tokens: without its data_collator the default collator cannot batch them.
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "trainer.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", doc, flags=re.S)
    assert 'output_dir="out",' in code
    # The generation settings of ``expected`` (trainer_helpers.trainer_with), so that the texts match.
    settings = "use_cpu=True, report_to=[], per_device_eval_batch_size=2, generation_max_length=10,"
    code = code.replace('output_dir="out",', f"output_dir={str(tmp_path)!r}, {settings}")
    model, dataset, _ = seq2seq
    assert len({len(row) for row in dataset["labels"]}) > 1
    printed = io.StringIO()
    names = {"model": model, "tokenizer": tokenizer, "train_dataset": dataset, "eval_dataset": dataset}
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "docs/trainer.md", "exec"), names)
    shown = ast.literal_eval(printed.getvalue().strip())
    for key in ("update_rouge1", "update_rouge2", "update_rougeLsum"):
        assert shown[f"eval_{key}"] == pytest.approx(expected[key], abs=1e-12), key
