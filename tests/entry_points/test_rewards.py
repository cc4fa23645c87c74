"""The TRL reward: equal to compute's per-example values, completions as text or conversations,
several references, weighted mixes, errors naming the column and row (TRL's hooks and a real
GRPO run: test_rewards_trl.py)."""

import json
import math
import pickle
from pathlib import Path

import pytest

from update_rouge import compute
from update_rouge.integrations.rewards import update_rouge_reward

DATA = Path(__file__).resolve().parents[1] / "data"
MEASURE_KEYS = {"f1": "", "precision": "_precision", "recall": "_recall"}


def triples(name):
    with open(DATA / f"{name}_triples.jsonl", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def call(reward, rows, completions=None):
    """Call the reward as TRL does: prompts, completions and every other column as keyword lists."""
    return reward(
        prompts=["update: " + row["source"] for row in rows],
        completions=[row["prediction"] for row in rows] if completions is None else completions,
        source=[row["source"] for row in rows],
        reference=[row["reference"] for row in rows],
        id=[row["id"] for row in rows],
        completion_ids=[[1, 2, 3] for _ in rows],
        trainer_state=object(),
    )


def per_example(rows, **options):
    return compute(
        sources=[row["source"] for row in rows],
        predictions=[row["prediction"] for row in rows],
        references=[row["reference"] for row in rows],
        use_aggregator=False,
        **options,
    )


@pytest.mark.parametrize("name", ["fruit", "iterater"])
def test_every_type_and_measure_equals_compute_per_example(name):
    rows = triples(name)
    expected = per_example(rows, rouge_types=["rouge1", "rouge2", "rougeLsum"])
    for rouge_type in ("rouge1", "rouge2", "rougeLsum"):
        for measure, suffix in MEASURE_KEYS.items():
            rewards = call(update_rouge_reward(f"{rouge_type}_{measure}"), rows)
            assert rewards == expected[f"update_{rouge_type}{suffix}"], (rouge_type, measure)
    assert call(update_rouge_reward(), rows) == expected["update_rougeLsum"]


@pytest.mark.slow
def test_wiki_triples_equal_compute_per_example_on_both_engines():
    rows = triples("wiki")
    expected = per_example(rows, rouge_types=["rougeLsum", "rouge2"])
    for engine in ("python", "rust"):
        assert call(update_rouge_reward(engine=engine), rows) == expected["update_rougeLsum"]
        assert call(update_rouge_reward("rouge2_recall", engine=engine), rows) == expected["update_rouge2_recall"]


def test_hand_counted_example():
    # The reference adds "Dan loves chocolate cakes." (4 words), the completion "Dan loves chocolate chip
    # cookies." (5 words): 3 shared unigrams, 2 shared bigrams of 4 and 3.
    rows = [
        {
            "id": 0,
            "source": "Dan is a baker.",
            "reference": "Dan is a baker. Dan loves chocolate cakes.",
            "prediction": "Dan is a baker. Dan loves chocolate chip cookies.",
        }
    ]
    assert call(update_rouge_reward("rouge1_precision"), rows) == [pytest.approx(3 / 5, abs=1e-15)]
    assert call(update_rouge_reward("rouge1_recall"), rows) == [pytest.approx(3 / 4, abs=1e-15)]
    assert call(update_rouge_reward("rouge1"), rows) == [pytest.approx(2 / 3, abs=1e-15)]
    assert call(update_rouge_reward("rouge2_recall"), rows) == [pytest.approx(2 / 3, abs=1e-15)]


def test_no_additions_rule():
    source = "Dan is a baker. He lives in Paris."
    rows = [
        {"id": 0, "source": source, "reference": source, "prediction": source},
        {"id": 1, "source": source, "reference": source + " He loves cakes.", "prediction": source},
        {"id": 2, "source": source, "reference": source, "prediction": source + " He loves cakes."},
        {"id": 3, "source": source, "reference": "He lives in Paris.", "prediction": "Dan is a baker."},
    ]
    assert call(update_rouge_reward(), rows) == [1.0, 0.0, 0.0, 1.0]


def test_conversational_completions_score_the_last_assistant_message():
    rows = triples("fruit")
    plain = call(update_rouge_reward(), rows)
    assert len(set(plain)) == 3 and all(0 < value < 1 for value in plain)
    single = [[{"role": "assistant", "content": row["prediction"]}] for row in rows]
    assert call(update_rouge_reward(), rows, single) == plain
    with_tools = [
        [
            {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "search"}}]},
            {"role": "tool", "content": "Some retrieved evidence that is not the answer."},
            {"role": "assistant", "content": "A first draft that is not the answer."},
            {"role": "user", "content": "Go on."},
            {"role": "assistant", "content": row["prediction"]},
        ]
        for row in rows
    ]
    assert call(update_rouge_reward(), rows, with_tools) == plain
    middle = len(rows[0]["prediction"]) // 2
    blocks = [
        [
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": row["prediction"][:middle]},
                    {"type": "text", "text": row["prediction"][middle:]},
                ],
            }
        ]
        for row in rows
    ]
    assert call(update_rouge_reward(), rows, blocks) == plain


def test_an_assistant_message_without_text_adds_nothing():
    source = "Dan is a baker."
    rows = [
        {"id": 0, "source": source, "reference": source},
        {"id": 1, "source": source, "reference": source + " He loves cakes."},
    ]
    tool_call_only = [{"role": "assistant", "content": None, "tool_calls": [{"function": {"name": "search"}}]}]
    assert call(update_rouge_reward(), rows, [tool_call_only, tool_call_only]) == [1.0, 0.0]


def test_several_references_equal_compute_in_every_mode():
    rows = triples("iterater")
    several = [
        dict(row, reference=[row["reference"], rows[(index + 1) % len(rows)]["reference"], row["source"]])
        for index, row in enumerate(rows)
    ]
    for multi_ref in ("max_f1", "pooled", "best_recall"):
        expected = per_example(several, rouge_types=["rouge1", "rougeLsum"], multi_ref=multi_ref)
        assert call(update_rouge_reward(multi_ref=multi_ref), several) == expected["update_rougeLsum"]
        rewards = call(update_rouge_reward("rouge1_recall", multi_ref=multi_ref), several)
        assert rewards == expected["update_rouge1_recall"]


def test_pooled_references_hand_counted():
    # docs/agreement.md: pooled ROUGE-1 recall of "The quick brown fox jumps over the lazy dog" against the two
    # references is 12/17, while the best single reference gives 7/8.
    rows = [
        {
            "id": 0,
            "source": "",
            "reference": ["A fast brown dog jumps over a sleeping fox", "A quick brown dog jumps over the fox"],
            "prediction": "The quick brown fox jumps over the lazy dog",
        }
    ]
    assert call(update_rouge_reward("rouge1_recall", multi_ref="pooled"), rows) == [pytest.approx(12 / 17, abs=1e-15)]
    best = call(update_rouge_reward("rouge1_recall", multi_ref="best_recall"), rows)
    assert best == [pytest.approx(7 / 8, abs=1e-15)]


def test_a_reference_that_adds_nothing_among_several():
    source = "Dan is a baker."
    rows = [{"id": 0, "source": source, "reference": [source + " He loves cakes.", source], "prediction": source}]
    assert call(update_rouge_reward(), rows) == [1.0]
    assert call(update_rouge_reward(multi_ref="pooled"), rows) == [0.0]


def test_weighted_mix_is_the_weighted_mean_of_compute_values():
    rows = triples("iterater")
    expected = per_example(rows, rouge_types=["rouge1", "rouge2", "rougeLsum"])
    reward = update_rouge_reward({"rouge1": 1, "rougeLsum_recall": 3})
    assert reward.__name__ == "update_rouge_rouge1_f1_rougeLsum_recall"
    want = [
        0.25 * f1 + 0.75 * recall for f1, recall in zip(expected["update_rouge1"], expected["update_rougeLsum_recall"])
    ]
    got = call(reward, rows)
    assert got == pytest.approx(want, abs=1e-15)
    assert got != expected["update_rouge1"] and got != expected["update_rougeLsum_recall"]
    three = call(update_rouge_reward({"rouge1_precision": 0.5, "rouge2": 0.25, "rougeLsum": 0.25}), rows)
    assert three == pytest.approx(
        [
            0.5 * p + 0.25 * f2 + 0.25 * fl
            for p, f2, fl in zip(
                expected["update_rouge1_precision"], expected["update_rouge2"], expected["update_rougeLsum"]
            )
        ],
        abs=1e-15,
    )
    assert all(0.0 <= value <= 1.0 for value in three)


def test_scoring_options_pass_through_to_compute():
    rows = triples("fruit")
    for options in ({"stemmer": "rouge155"}, {"use_stemmer": True}, {"engine": "python"}, {"tokenizer": str.split}):
        expected = per_example(rows, rouge_types=["rougeLsum"], **options)["update_rougeLsum"]
        assert call(update_rouge_reward(**options), rows) == expected, options
    skip = per_example(rows, rouge_types=["rougeSU4"])["update_rougeSU4"]
    assert call(update_rouge_reward("rougeSU4"), rows) == skip
    iterater = triples("iterater")
    assert call(update_rouge_reward(stemmer="rouge155"), iterater) != call(update_rouge_reward(), iterater)


def test_names_trl_logs():
    # TRL logs a callable under its __name__ (trl.trainer.utils.get_callable_name; the GRPO run below
    # checks the logged key).
    assert update_rouge_reward().__name__ == "update_rouge_rougeLsum_f1"
    assert update_rouge_reward("rouge2_recall").__name__ == "update_rouge_rouge2_recall"
    assert update_rouge_reward(name="update_rouge").__name__ == "update_rouge"


def test_picklable_and_empty_batches():
    rows = triples("fruit")
    reward = update_rouge_reward({"rouge1": 1, "rougeLsum": 1}, stemmer="rouge155")
    copy = pickle.loads(pickle.dumps(reward))
    assert copy.__name__ == reward.__name__ and call(copy, rows) == call(reward, rows)
    assert reward(prompts=[], completions=[], source=[], reference=[]) == []


def test_configurable_columns():
    rows = triples("fruit")
    reward = update_rouge_reward(source_column="original", reference_column="updated")
    got = reward(
        prompts=["p"] * 3,
        completions=[row["prediction"] for row in rows],
        original=[row["source"] for row in rows],
        updated=[row["reference"] for row in rows],
        source=["unrelated"] * 3,
    )
    assert got == per_example(rows, rouge_types=["rougeLsum"])["update_rougeLsum"]


@pytest.mark.parametrize(
    "options, message",
    [
        ({"rouge_types": ["rouge1"]}, "rouge_types cannot be set"),
        ({"use_aggregator": False}, "use_aggregator cannot be set"),
        ({"confidence_level": 0.9}, "confidence_level cannot be set"),
        ({"average": "micro"}, "average cannot be set for a reward: a reward is one score per example"),
        ({"average": "macro"}, "average cannot be set"),
        ({"n_bootstrap": 10}, "n_bootstrap cannot be set"),
        ({"seed": 1}, "seed cannot be set"),
        ({"group_by": ["a"]}, "group_by cannot be set"),
        ({"return_signature": True}, "return_signature cannot be set"),
        ({"baseline_predictions": ["a"]}, "baseline_predictions cannot be set"),
        ({"protocol": "fruit"}, "^protocol cannot be set for a reward: a protocol reproduces a published evaluation"),
        ({"protocol": None}, "^protocol cannot be set for a reward"),
        ({"reward": "rouge7x"}, "unknown rouge type 'rouge7x'"),
        ({"reward": "rouge1_f2"}, "must end in one of _f1, _precision, _recall"),
        ({"reward": {}}, "non-empty mapping"),
        ({"reward": {"rouge1": 0}}, "weight of reward term 'rouge1' must be a positive finite number"),
        ({"reward": {"rouge1": math.nan}}, "positive finite number"),
        ({"reward": {"rouge1": True}}, "positive finite number"),
        ({"reward": {"rouge1": 1, "rouge1_f1": 1}}, "more than once"),
        ({"engine": "gpu"}, "engine"),
        ({"stemmer": "snowball"}, "stemmer"),
        ({"multi_ref": "median"}, "multi_ref"),
        ({"source_column": ""}, "source_column must be the name of a dataset column"),
    ],
)
def test_bad_options_fail_when_the_reward_is_built(options, message):
    with pytest.raises(ValueError, match=message):
        update_rouge_reward(**options)


def test_every_option_of_the_table_is_honoured_or_refused_by_the_reward():
    from update_rouge.integrations.rewards import REFUSED_OPTIONS, REWARD_OPTIONS
    from update_rouge.settings import OPTIONS

    assert set(REWARD_OPTIONS) | set(REFUSED_OPTIONS) == {option.name for option in OPTIONS}
    assert set(REFUSED_OPTIONS) == {
        "rouge_types",
        "use_aggregator",
        "confidence_level",
        "n_bootstrap",
        "seed",
        "baseline_predictions",
        "group_by",
        "return_signature",
        "average",
        "protocol",
        "evidence",
    }
    # An honoured option changes the reward: additions="edits" scores what a word diff marks.
    columns = {"source": ["Alpha beta gamma."], "reference": ["Alpha beta delta."]}
    sentences = update_rouge_reward("rouge1")(completions=["Alpha beta delta."], **columns)
    edits = update_rouge_reward("rouge1", additions="edits")(completions=["Alpha beta delta."], **columns)
    assert sentences == [1.0] and edits == [1.0]
    edits_wrong = update_rouge_reward("rouge1", additions="edits")(completions=["Alpha zeta gamma."], **columns)
    assert edits_wrong == [0.0]


def _columns(**overrides):
    columns = {
        "prompts": ["p0", "p1", "p2"],
        "completions": ["Dan is a baker. He bakes.", "Ann sings.", "Bob runs."],
        "source": ["Dan is a baker.", "Ann plays.", "Bob walks."],
        "reference": ["Dan is a baker. He bakes bread.", "Ann plays. Ann sings.", "Bob runs."],
    }
    columns.update(overrides)
    return {key: value for key, value in columns.items() if value is not None}


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"source": None}, r"no column 'source' \(columns given to the reward: reference\)"),
        ({"reference": None, "updated": ["a", "b", "c"]}, r"no column 'reference' \(columns given .*updated"),
        ({"source": ["a", "b"]}, "column 'source' has 2 values for 3 completions"),
        ({"source": "Dan is a baker."}, "column 'source' must be a list"),
        ({"source": ["a", None, "c"]}, r"column 'source'\[1\] must be a string, got None"),
        ({"source": ["a", "b", b"c"]}, r"column 'source'\[2\] must be a string, got bytes"),
        ({"reference": ["a", [], "c"]}, r"column 'reference'\[1\] is an empty list"),
        ({"reference": ["a", 7, "c"]}, r"column 'reference'\[1\] must be a string or a list of strings"),
        ({"reference": ["a", ["b", None], "c"]}, r"column 'reference'\[1\]\[1\] must be a string, got None"),
        ({"completions": ["a", None, "c"]}, r"completions\[1\] must be a string or a list of messages"),
        ({"completions": ["a", "b", "c\ud800"]}, r"completions\[2\] contains a lone surrogate"),
        ({"completions": ["a", [{"role": "user", "content": "b"}], "c"]}, r"completions\[1\] is a conversation"),
        ({"completions": ["a", [{"role": "assistant", "content": 5}], "c"]}, r"completions\[1\]: the last assistant"),
        ({"completions": "abc"}, "completions must be a list"),
    ],
)
def test_bad_columns_name_the_column_and_the_row(overrides, message):
    reward = update_rouge_reward()
    with pytest.raises(ValueError, match=r"^update_rouge_rougeLsum_f1: .*" + message):
        reward(**_columns(**overrides))


@pytest.mark.parametrize(
    "term, advised", [("del_rougeX", "del_rougeLsum"), ("del_", "del_rougeLsum"), ("rouge1_f2", "rouge1_f1")]
)
def test_a_bad_term_is_named_with_what_works(term, advised):
    # Issue 58: the advice named rouge_types, which the user never gave.
    from update_rouge import OptionError

    with pytest.raises(OptionError) as refused:
        update_rouge_reward(term)
    message = str(refused.value)
    assert f"term {term!r}" in message and "rouge_types" not in message and f"reward={advised!r}" in message
    update_rouge_reward(advised)
