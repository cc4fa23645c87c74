"""The TRL reward with TRL's hooks: the parts it logs through ``log_metric`` and ``log_extra``
(counted by hand, and equal to ``compute``'s on a real GRPO run's completions), ``abstain``'s
``None``, and the documented example run as written."""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_doors import python_refusal

from update_rouge import compute
from update_rouge.integrations.rewards import update_rouge_reward

SOURCE = "Dan is a baker. He lives in Paris. He has a cat."
KEPT = "Dan is a baker. He has a cat. He loves cakes."  # deletes the stale sentence, adds one
# (prediction, reference), each of SOURCE. Counted by hand (rouge-score's tokens): the additions'
# rouge1 F1, the deletions' rouge1 recall, whether neither side adds (deletes) anything.
HAND = [
    ("Dan is a baker. He loves cakes.", KEPT),  # 1.0; 1.0 (both delete "he lives in paris")
    (SOURCE + " He loves cakes.", KEPT),  # 1.0; 0.0 (keeps what the reference deletes)
    (SOURCE, SOURCE),  # 1.0 and 1.0 by the rules: neither adds nor deletes anything
    # adds "he loves chocolate chip cookies" (5) for "he loves chocolate cakes" (4): 3 shared,
    # P 3/5, R 3/4, F1 2/3; 1.0 by the rule of no deletions
    (SOURCE + " He loves chocolate chip cookies.", SOURCE + " He loves chocolate cakes."),
    (SOURCE, SOURCE + " He loves cakes."),  # 0.0: it adds nothing where the reference adds; 1.0 by the rule
]
ROUGE1 = [1.0, 1.0, 1.0, 2 / 3, 0.0]
DEL_RECALL = [1.0, 0.0, 1.0, 1.0, 1.0]
MIX = {"rouge1": 1, "del_rouge1_recall": 1}
MIX_NAME = "update_rouge_rouge1_f1_del_rouge1_recall"


def call_with_hooks(reward, rows=HAND):
    """Call ``reward`` as TRL 1.16 does, with ``log_metric`` and ``log_extra`` recording what they get."""
    metrics, extra = {}, {}

    def log_metric(name, value):
        assert name not in metrics, name
        metrics[name] = value

    def log_extra(column, values):
        assert column not in extra, column
        extra[column] = values

    rewards = reward(
        prompts=["p"] * len(rows),
        completions=[prediction for prediction, _ in rows],
        source=[SOURCE] * len(rows),
        reference=[reference for _, reference in rows],
        trainer_state=object(),
        log_metric=log_metric,
        log_extra=log_extra,
    )
    return rewards, metrics, extra


def test_the_hooks_get_each_term_and_the_rules_shares_hand_counted():
    rewards, metrics, extra = call_with_hooks(update_rouge_reward(MIX))
    assert rewards == pytest.approx([1.0, 1 / 2, 1.0, 5 / 6, 1 / 2], abs=1e-15, rel=0)
    prefix = f"rewards/{MIX_NAME}/"
    assert metrics == {
        prefix + "rouge1_f1": pytest.approx(11 / 15, abs=1e-15, rel=0),
        prefix + "del_rouge1_recall": pytest.approx(4 / 5, abs=1e-15, rel=0),
        prefix + "both_empty_share": 1 / 5,
        prefix + "both_kept_share": 3 / 5,
    }
    assert extra == {}  # the additions' column is asked for with log_additions=True
    _, metrics, extra = call_with_hooks(update_rouge_reward("rouge1", name="edit", log_additions=True))
    # No deletions scored: no both_kept share.
    assert metrics == {
        "rewards/edit/rouge1_f1": pytest.approx(11 / 15, abs=1e-15, rel=0),
        "rewards/edit/both_empty_share": 1 / 5,
    }
    assert extra == {
        "edit/additions": ["He loves cakes.", "He loves cakes.", "", "He loves chocolate chip cookies.", ""]
    }
    two = (("Dan is a baker. A new one. And another.", SOURCE),)
    assert call_with_hooks(update_rouge_reward(log_additions=True, name="r"), two)[2] == {
        "r/additions": ["A new one.\nAnd another."]
    }


def test_the_logged_terms_are_computes_means():
    predictions = [prediction for prediction, _ in HAND]
    references = [reference for _, reference in HAND]
    want = compute([SOURCE] * 5, predictions, references, rouge_types=["rouge1"], deletions=True)
    _, metrics, _ = call_with_hooks(update_rouge_reward(MIX))
    prefix = f"rewards/{MIX_NAME}/"
    assert metrics[prefix + "rouge1_f1"] == want["update_rouge1"]
    assert metrics[prefix + "del_rouge1_recall"] == want["update_del_rouge1_recall"]
    assert metrics[prefix + "both_empty_share"] == want["_both_empty"] / 5
    assert metrics[prefix + "both_kept_share"] == want["_both_kept"] / 5


def test_without_the_hooks_nothing_is_logged_and_the_rewards_are_the_same():
    reward = update_rouge_reward(MIX, log_additions=True)
    plain = reward(completions=[p for p, _ in HAND], source=[SOURCE] * 5, reference=[r for _, r in HAND])
    older = reward(  # a TRL that passes the state but no hooks; a column that happens to be named log_metric
        completions=[p for p, _ in HAND],
        source=[SOURCE] * 5,
        reference=[r for _, r in HAND],
        trainer_state=object(),
        log_metric=["not", "a", "hook", "at", "all"],
    )
    assert plain == older == call_with_hooks(reward)[0]


def test_abstain_returns_none_where_the_rules_decide_every_term():
    # The additions' rule decides example 2 only: example 4 adds nothing where its reference adds (0.0).
    rewards, metrics, _ = call_with_hooks(update_rouge_reward("rouge1", abstain=True, name="a"))
    assert rewards == [1.0, 1.0, None, pytest.approx(2 / 3, abs=1e-15, rel=0), 0.0]
    # The logged mean is over the examples the reward scored (TRL's mean of the reward leaves None out).
    assert metrics == {
        "rewards/a/rouge1_f1": pytest.approx(2 / 3, abs=1e-15, rel=0),
        "rewards/a/both_empty_share": 1 / 5,
    }
    assert call_with_hooks(update_rouge_reward("del_rouge1_recall", abstain=True))[0] == [1.0, 0.0, None, None, None]
    rewards, metrics, _ = call_with_hooks(update_rouge_reward(MIX, abstain=True))
    assert rewards == [1.0, 1 / 2, None, pytest.approx(5 / 6, abs=1e-15, rel=0), 1 / 2]
    prefix = f"rewards/{MIX_NAME}/"
    assert metrics[prefix + "rouge1_f1"] == pytest.approx(2 / 3, abs=1e-15, rel=0)
    assert metrics[prefix + "del_rouge1_recall"] == pytest.approx(3 / 4, abs=1e-15, rel=0)
    # Where the rules decide every example, no term has a mean: only the shares are logged.
    rewards, metrics, _ = call_with_hooks(update_rouge_reward(abstain=True, name="b"), [(SOURCE, SOURCE)])
    assert rewards == [None] and metrics == {"rewards/b/both_empty_share": 1.0}


@pytest.mark.parametrize("option", ["abstain", "log_additions"])
def test_the_reward_switches_refuse_what_is_no_switch(option):
    for value in (1, "yes", None):
        python_refusal(update_rouge_reward, option, value)


# FRUIT-style update prompts (an article and the facts to add), in the word-level tokenizer's
# spacing so that completions decode to words separated by spaces.
GRPO_ROWS = [
    ("Dan is a baker .", "He opened a shop in 1990 .", "Dan is a baker . He opened a shop in 1990 ."),
    ("Paris is in France .", "Paris is the capital .", "Paris is in France . Paris is the capital ."),
    ("The sky is blue .", "Nothing new .", "The sky is blue ."),
    ("Ann plays the piano .", "Ann won a prize in 2001 .", "Ann plays the piano . Ann won a prize in 2001 ."),
]


@pytest.mark.slow
@pytest.mark.needs_torch
def test_grpo_trainer_calls_the_reward_with_the_columns_and_logs_its_parts(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("WANDB_MODE", "disabled")
    import torch
    import trl
    from datasets import Dataset
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    rows = [
        {
            "id": index,
            "prompt": f"Update the article . Article : {source} New facts : {facts} Updated article :",
            "source": source,
            "reference": reference,
        }
        for index, (source, facts, reference) in enumerate(GRPO_ROWS)
    ]
    words = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    words.pre_tokenizer = pre_tokenizers.Whitespace()
    words.train_from_iterator(
        [row["prompt"] + " " + row["reference"] for row in rows],
        trainer=trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[EOS]"]),
    )
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=words, pad_token="[PAD]", unk_token="[UNK]", eos_token="[EOS]")
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=128,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
    )
    reward = update_rouge_reward(MIX, log_additions=True)
    calls, columns = [], []

    def recorded(**kwargs):
        trl_log_extra = kwargs["log_extra"]

        def log_extra(column, values):
            columns.append((column, values))
            trl_log_extra(column, values)

        rewards = reward(**dict(kwargs, log_extra=log_extra))
        calls.append((kwargs, rewards))
        return rewards

    recorded.__name__ = reward.__name__
    args = trl.GRPOConfig(
        output_dir=str(tmp_path),
        per_device_train_batch_size=4,
        num_generations=2,
        max_completion_length=12,
        max_steps=3,
        logging_steps=1,
        learning_rate=1e-3,
        report_to="none",
        use_cpu=True,
        save_strategy="no",
        seed=0,
    )
    trainer = trl.GRPOTrainer(
        model=LlamaForCausalLM(config),
        reward_funcs=recorded,
        args=args,
        train_dataset=Dataset.from_list(rows),
        processing_class=tokenizer,
    )
    trainer.train()

    by_prompt = {row["prompt"]: row for row in rows}
    prefix = f"rewards/{MIX_NAME}/"
    logged = [entry for entry in trainer.state.log_history if prefix + "mean" in entry]
    assert len(calls) == len(logged) == len(columns) == 3
    for (kwargs, rewards), entry, (column, additions) in zip(calls, logged, columns):
        assert {"prompts", "completions", "source", "reference", "id"} <= set(kwargs)
        assert len(kwargs["completions"]) == 4 and all(isinstance(text, str) for text in kwargs["completions"])
        for name in ("source", "reference", "id"):
            assert kwargs[name] == [by_prompt[prompt][name] for prompt in kwargs["prompts"]]
        options = {"rouge_types": ["rouge1"], "deletions": True}
        scored = (kwargs["source"], kwargs["completions"], kwargs["reference"])
        each = compute(*scored, use_aggregator=False, **options)
        assert rewards == [0.5 * a + 0.5 * d for a, d in zip(each["update_rouge1"], each["update_del_rouge1_recall"])]
        assert entry[prefix + "mean"] == pytest.approx(math.fsum(rewards) / 4, rel=1e-6)
        # TRL logs the parts beside its own mean (in float32: rel=1e-6): compute's means of the same completions.
        means = compute(*scored, **options)
        assert entry[prefix + "rouge1_f1"] == pytest.approx(means["update_rouge1"], rel=1e-6)
        assert entry[prefix + "del_rouge1_recall"] == pytest.approx(means["update_del_rouge1_recall"], rel=1e-6)
        assert entry[prefix + "both_empty_share"] == pytest.approx(means["_both_empty"] / 4, rel=1e-6)
        assert entry[prefix + "both_kept_share"] == pytest.approx(means["_both_kept"] / 4, rel=1e-6)
        # The additions' column: each completion's additions, parts of it.
        assert column == f"{MIX_NAME}/additions" and len(additions) == 4
        assert all(line in text for lines, text in zip(additions, kwargs["completions"]) for line in lines.split("\n"))
    # TRL keeps the last batch's column in its completions table.
    assert list(trainer._logs["extra"][f"{MIX_NAME}/additions"]) == columns[-1][1]
    # Some completion got a reward other than 0, and some term moved: the logged values are not all a constant.
    assert any(value > 0 for _, rewards in calls for value in rewards)
    assert (
        len(
            {entry[prefix + "rouge1_f1"] for entry in logged}
            | {entry[prefix + "del_rouge1_recall"] for entry in logged}
        )
        > 1
    )


@pytest.mark.slow
@pytest.mark.needs_torch
def test_the_documented_example_runs(tmp_path):
    text = (Path(__file__).resolve().parents[2] / "docs" / "training-with-a-reward.md").read_text(encoding="utf-8")
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    environment = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]), HF_HUB_OFFLINE="1")
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-3000:]
    means = json.loads(run.stdout.strip().splitlines()[-1])
    assert len(means) == 3 and all(0.0 <= mean <= 1.0 for mean in means)
    # The run's output folder is a temporary one: nothing is left where the example ran.
    assert sorted(path.name for path in tmp_path.iterdir()) == []
