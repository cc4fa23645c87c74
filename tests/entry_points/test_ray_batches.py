"""Ray's per-example transform (integrations/ray_batches.py), without a cluster: the columns it
adds, the options it passes on or refuses, and the rows ``score_jsonl``'s tasks read from their
chunks of lines. Its scores on a cluster are tests/entry_points/test_ray.py's (equal to compute's)."""

import json
import pickle

import pyarrow as pa
import pytest

from update_rouge import InputFileError, OptionError, compute
from update_rouge.files import open_reader
from update_rouge.integrations.ray_batches import _scoring_options, chunk_texts, output_columns, score_dataset

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


def _chunks(path, size):
    """``score_jsonl``'s items for the chunks of ``size`` lines of ``path``."""
    chunks = open_reader(str(path), "jsonl").chunks(lambda _: None, size)
    return pa.Table.from_pylist([{"chunk": pickle.dumps(chunk)} for chunk in chunks])


def test_a_chunk_task_reads_its_lines_with_row_their_line_in_the_file(tmp_path):
    lines = [
        {"id": "x", "source": "s0.", "prediction": "p0.", "reference": "r0."},
        {"source": "s1.", "prediction": "p1.", "reference": ["r1.", "q1."]},
        {"id": "z", "source": "s2.", "prediction": "p2.", "reference": "r2."},
    ]
    path = tmp_path / "examples.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" + ("\n" if i == 0 else "") for i, line in enumerate(lines)))
    texts = chunk_texts(_chunks(path, 2))
    assert texts.to_pydict() == {
        "row": [1, 3, 4],
        "id": ["x", None, "z"],
        "source": ["s0.", "s1.", "s2."],
        "prediction": ["p0.", "p1.", "p2."],
        "reference": [["r0."], ["r1.", "q1."], ["r2."]],
    }
    assert texts.schema.field("row").type == pa.int64()


def test_a_bad_line_is_named_by_its_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    good = json.dumps({"source": "s.", "prediction": "p.", "reference": "r."}) + "\n"
    path.write_text(good + good + "{not json\n", encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        chunk_texts(_chunks(path, 2))
    assert str(caught.value).startswith(f"{path}:3: not valid JSON")
