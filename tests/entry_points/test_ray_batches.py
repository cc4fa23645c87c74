"""Ray's per-example transform (integrations/ray_batches.py), without a cluster: the columns it
adds, the options it passes on or refuses, and the rows ``score_jsonl`` hands to Ray. Its scores on a cluster are tests/entry_points/test_ray.py's (equal to compute's)."""

import json

import pyarrow as pa
import pytest

from update_rouge import OptionError, compute
from update_rouge.files import open_examples
from update_rouge.integrations.ray_batches import _scoring_options, example_table, output_columns, score_dataset

HAND = (["a."], ["a. b c."], ["a. b d."])


def test_the_output_columns_are_computes_per_example_keys_in_order():
    expected = ["update_rouge1", "update_rouge1_precision", "update_rouge1_recall"]
    expected += ["update_rougeL", "update_rougeL_precision", "update_rougeL_recall"]
    expected += ["_target_diff_len", "_prediction_diff_len", "_both_empty"]
    assert output_columns(["rouge1", "rougeL"]) == expected
    assert list(compute(*HAND, rouge_types=["rouge1", "rougeL"], use_aggregator=False)) == expected
    with_deletions = output_columns(["rouge1"], deletions=True)
    assert with_deletions[3:6] == ["update_del_rouge1", "update_del_rouge1_precision", "update_del_rouge1_recall"]
    assert with_deletions[-1] == "_both_kept"
    assert list(compute(*HAND, rouge_types=["rouge1"], deletions=True, use_aggregator=False)) == with_deletions


def test_the_scoring_options_leave_out_what_only_the_corpus_result_takes():
    corpus_only = {"confidence_level": 0.9, "n_bootstrap": 10, "seed": 3, "return_signature": True}
    assert _scoring_options({"rouge_types": ["rouge1"], "stemmer": "porter", **corpus_only}) == {
        "rouge_types": ["rouge1"],
        "stemmer": "porter",
    }


@pytest.mark.parametrize(
    "option, value", [("group_by", "topic"), ("use_aggregator", False), ("baseline_predictions", [])]
)
def test_an_option_without_per_example_columns_is_refused_by_name_before_any_work(option, value):
    with pytest.raises(OptionError) as caught:
        score_dataset(None, **{option: value})  # no dataset: refused before it is looked at
    assert caught.value.option == option


def test_score_jsonls_rows_are_the_readers_examples_with_row_their_line(tmp_path):
    lines = [
        {"id": "x", "source": "s0.", "prediction": "p0.", "reference": "r0."},
        {"source": "s1.", "prediction": "p1.", "reference": ["r1.", "q1."]},
        {"id": 3, "source": "s2.", "prediction": "p2.", "reference": "r2."},
    ]
    path = tmp_path / "examples.jsonl"
    path.write_text(json.dumps(lines[0]) + "\n\n" + "".join(json.dumps(line) + "\n" for line in lines[1:]))
    _, read = open_examples(str(path), "jsonl")
    texts = example_table(list(read()))
    assert texts.to_pydict() == {
        "row": [1, 3, 4],
        "id": ["x", None, "3"],
        "source": ["s0.", "s1.", "s2."],
        "prediction": ["p0.", "p1.", "p2."],
        "reference": [["r0."], ["r1.", "q1."], ["r2."]],
    }
    assert texts.schema.field("row").type == pa.int64()
    assert example_table([]).num_rows == 0
