"""The Trainer tests' shared model and data (tests/entry_points/test_trainer.py and
tests/reliability/test_reliability_trainer.py): a word-level tokenizer, a tiny T5, the texts, and
the scores ``compute`` gives the texts the model generates. Imported by name (tests/ is on the
path: pyproject.toml's pythonpath), so that either test file runs alone. Needs torch."""

import numpy as np
import pytest
import torch  # tests/run.sh installs torch==2.13.0 (CPU), transformers and accelerate
from datasets import Dataset
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import (
    DataCollatorForSeq2Seq,
    PreTrainedTokenizerFast,
    Seq2SeqTrainer,
    Seq2SeqTrainingArguments,
    T5Config,
    T5ForConditionalGeneration,
)

from update_rouge import compute

# Texts already in the word-level tokenizer's spacing, so that decoding gives them back unchanged.
SOURCES = [
    "Dan is a baker .",
    "Paris is in France .",
    "The sky is blue .",
    "Ann plays the piano .",
    "The river is long . It runs north .",
]
REFERENCES = [
    "Dan is a baker . Dan loves chocolate cakes .",
    "Paris is in France . It is the capital .",
    "The sky is blue .",
    "Ann plays the piano . She plays every day .",
    "The river is long . It runs north . Fish live in it .",
]
PREFIX = "update: "


@pytest.fixture(scope="module")
def tokenizer():
    words = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    words.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[EOS]"])
    words.train_from_iterator(SOURCES + REFERENCES + [PREFIX, "chip cookies"], trainer=trainer)
    return PreTrainedTokenizerFast(tokenizer_object=words, pad_token="[PAD]", unk_token="[UNK]", eos_token="[EOS]")


def padded(rows, value=-100):
    width = max(len(row) for row in rows)
    return np.array([row + [value] * (width - len(row)) for row in rows])


def ids(tokenizer, texts):
    return [tokenizer(text, add_special_tokens=False)["input_ids"] for text in texts]


@pytest.fixture(scope="module")
def seq2seq(tokenizer, tmp_path_factory):
    torch.manual_seed(0)
    config = T5Config(
        vocab_size=len(tokenizer),
        d_model=16,
        d_ff=32,
        d_kv=8,
        num_layers=1,
        num_decoder_layers=1,
        num_heads=2,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        decoder_start_token_id=tokenizer.pad_token_id,
    )
    model = T5ForConditionalGeneration(config).eval()
    features = {
        "input_ids": ids(tokenizer, [PREFIX + source for source in SOURCES]),
        "labels": ids(tokenizer, REFERENCES),
    }
    features["attention_mask"] = [[1] * len(row) for row in features["input_ids"]]
    return model, Dataset.from_dict(features), tmp_path_factory.mktemp("trainer")


def trainer_with(seq2seq, tokenizer, compute_metrics, **arguments):
    """A ``Seq2SeqTrainer`` of the tiny model on the examples, generating, on the CPU, with ``arguments``."""
    model, dataset, output_dir = seq2seq
    args = Seq2SeqTrainingArguments(
        output_dir=str(output_dir),
        per_device_eval_batch_size=2,
        predict_with_generate=True,
        generation_max_length=10,
        report_to=[],
        use_cpu=True,
        **arguments,
    )
    trainer = Seq2SeqTrainer(
        model=model,
        args=args,
        eval_dataset=dataset,
        processing_class=tokenizer,
        data_collator=DataCollatorForSeq2Seq(tokenizer, model=model),
        compute_metrics=compute_metrics,
    )
    return trainer


def evaluate_with(seq2seq, tokenizer, compute_metrics, **arguments):
    trainer = trainer_with(seq2seq, tokenizer, compute_metrics, **arguments)
    return trainer, trainer.evaluate()


@pytest.fixture(scope="module")
def expected(seq2seq, tokenizer):
    """UpdateROUGE of the texts the model generates, decoded here one row at a time."""
    trainer, _ = evaluate_with(seq2seq, tokenizer, None)
    generated = trainer.predict(seq2seq[1]).predictions
    predictions = [tokenizer.decode([i for i in row if i >= 0], skip_special_tokens=True) for row in generated]
    return compute(sources=SOURCES, predictions=predictions, references=REFERENCES)
