"""Cost of the UpdateROUGE reward at a GRPO step, next to the cost of the step itself, in one run.

The reward (``update_rouge.integrations.rewards.update_rouge_reward()``: F1 of rougeLsum) is timed on a batch
of 64 completions of about 300 words against their sources, built from the bundled Wikipedia
triples (``tests/data/wiki_triples.jsonl``, rows whose texts have at least 300 words):

- *realistic*: each completion is the first ~300 words of a later version of the article (cut
  at the first sentence end from word 300 on) and the reference the first ~300 words of the next
  version, against the whole earlier version as source: the additions are the real edits;
- *worst case*: completion and reference are ~300 words of two other articles, so that every
  sentence on both sides is an addition and rougeLsum compares ~300 words with ~300 words.

Each figure is the median of ``--repeats`` calls, for ``engine="python"`` and ``engine="rust"``
(the rouge-score-rs accelerator, if installed), in milliseconds.

Then a GRPO step: ``trl.GRPOTrainer`` on CPU trains a small Llama built in-process (random
weights; ``--hidden`` wide, ``--layers`` deep, a word-level vocabulary of the texts) on 8
prompts (the first ~300 words of a source) x 8 generations = 64 completions of exactly
``--completion-tokens`` tokens per step, with our reward; ``--steps`` steps, the first one
counted as warm-up and left out. The step time is TRL's logged ``step_time``; the reward's time
inside the step is measured by wrapping the reward. Nothing is downloaded.

Usage: python benchmarks/reward.py [--repeats 7] [--steps 3] [--hidden 256] [--layers 4]
       [--completion-tokens 400] [--no-grpo]
"""

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from update_rouge.extraction import split_segments
from update_rouge.integrations.rewards import update_rouge_reward
from update_rouge.rust_engine import rust_available

DATA = Path(__file__).parent.parent / "tests" / "data"
BATCH = 64
WORDS = 300
GENERATIONS = 8


def first_words(text, words=WORDS):
    """The text's sentences (UpdateROUGE's segments) up to the first one that reaches ``words`` words."""
    kept, count = [], 0
    for segment in split_segments(text):
        kept.append(segment)
        count += len(segment.split())
        if count >= words:
            break
    return " ".join(kept)


def batches():
    """The realistic and the worst-case batch: lists of {source, reference, completion} of 64 rows."""
    with open(DATA / "wiki_triples.jsonl", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    rows = [row for row in rows if min(len(row[key].split()) for key in ("source", "reference", "prediction")) >= WORDS]
    rows = rows[:BATCH]
    assert len(rows) == BATCH, f"only {len(rows)} wiki triples have {WORDS} words on every side"
    realistic = [
        {
            "source": row["source"],
            "reference": first_words(row["reference"]),
            "completion": first_words(row["prediction"]),
        }
        for row in rows
    ]
    worst = [
        {
            "source": row["source"],
            "reference": first_words(rows[(index + 1) % BATCH]["reference"]),
            "completion": first_words(rows[(index + 2) % BATCH]["prediction"]),
        }
        for index, row in enumerate(rows)
    ]
    return {"realistic": realistic, "worst case": worst}


def time_reward(reward, batch, repeats):
    """Median wall time of one call on the batch, in milliseconds."""
    columns = {
        "prompts": [row["source"] for row in batch],
        "completions": [row["completion"] for row in batch],
        "source": [row["source"] for row in batch],
        "reference": [row["reference"] for row in batch],
    }
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        reward(**columns)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def grpo_step_times(realistic, args):
    """Median step time (s) of GRPO steps after the first, and the median time (s) of the reward in them."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    import torch
    from datasets import Dataset
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast
    from trl import GRPOConfig, GRPOTrainer

    prompts = [
        {
            "prompt": "Update the article . Article : " + first_words(row["source"]) + " Updated article :",
            "source": row["source"],
            "reference": row["reference"],
        }
        for row in realistic[: BATCH // GENERATIONS]
    ]
    words = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    words.pre_tokenizer = pre_tokenizers.Whitespace()
    texts = [text for row in realistic for text in (row["source"], row["reference"], row["completion"])]
    words.train_from_iterator(texts, trainer=trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[EOS]"]))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=words, pad_token="[PAD]", unk_token="[UNK]", eos_token="[EOS]")
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=args.hidden,
        intermediate_size=4 * args.hidden,
        num_hidden_layers=args.layers,
        num_attention_heads=args.hidden // 64,
        num_key_value_heads=args.hidden // 64,
        max_position_embeddings=2048,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
    )
    model = LlamaForCausalLM(config)
    parameters = sum(p.numel() for p in model.parameters())
    reward = update_rouge_reward(engine=args.engine)
    reward_times = []

    def timed(**kwargs):
        start = time.perf_counter()
        rewards = reward(**kwargs)
        reward_times.append(time.perf_counter() - start)
        return rewards

    timed.__name__ = reward.__name__
    config = GRPOConfig(
        output_dir="/tmp/update_rouge_reward_benchmark",
        per_device_train_batch_size=BATCH,
        num_generations=GENERATIONS,
        max_completion_length=args.completion_tokens,
        generation_kwargs={"min_new_tokens": args.completion_tokens},
        max_steps=args.steps,
        logging_steps=1,
        report_to="none",
        use_cpu=True,
        save_strategy="no",
        seed=0,
    )
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=timed,
        args=config,
        train_dataset=Dataset.from_list(prompts),
        processing_class=tokenizer,
    )
    trainer.train()
    steps = [entry["step_time"] for entry in trainer.state.log_history if "step_time" in entry]
    lengths = [entry["completions/mean_length"] for entry in trainer.state.log_history if "step_time" in entry]
    return parameters, statistics.median(steps[1:]), statistics.median(reward_times[1:]), lengths


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--completion-tokens", type=int, default=400)
    parser.add_argument("--engine", default="auto", help="engine of the reward inside the GRPO run")
    parser.add_argument("--no-grpo", action="store_true", help="time the reward only")
    args = parser.parse_args()

    engines = ["python"] + (["rust"] if rust_available() else [])
    data = batches()
    realistic = data["realistic"]
    words = statistics.mean(len(row["completion"].split()) for row in realistic)
    print(f"batch of {BATCH} completions, {words:.0f} words on average; median of {args.repeats} calls")
    reward_ms = {}
    for name, batch in data.items():
        for engine in engines:
            reward_ms[name, engine] = time_reward(update_rouge_reward(engine=engine), batch, args.repeats)
            print(f"reward, {name:10} engine={engine:6}: {reward_ms[name, engine]:8.1f} ms")
    if args.no_grpo:
        return
    parameters, step, in_step, lengths = grpo_step_times(realistic, args)
    print(
        f"GRPO step: Llama {args.layers} layers x {args.hidden} wide, {parameters / 1e6:.1f} M parameters, "
        f"{BATCH} completions of {args.completion_tokens} tokens (logged mean lengths {lengths}): "
        f"median {step:.2f} s over steps 2-{args.steps}"
    )
    print(f"reward inside those steps (random-word completions, engine={args.engine}): {1000 * in_step:.1f} ms")
    for (name, engine), milliseconds in reward_ms.items():
        print(f"reward / step, {name:10} engine={engine:6}: {100 * milliseconds / 1000 / step:.2f} %")


if __name__ == "__main__":
    main()
