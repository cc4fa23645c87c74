"""One rule for a text that starts with a byte order mark (U+FEFF), at every entry point: it is
scored without it (``inputs.BOM``), as a UTF-8 file's BOM is dropped; elsewhere in a text it stays.
Under a published protocol it stays at the start too (the scripts score it), and a file's BOM is
still dropped by the reader."""

import io
import json
import sys
import warnings

import pytest
from conftest import run_main

from update_rouge import compare, compute
from update_rouge.integrations.rewards import update_rouge_reward
from update_rouge.metric import UpdateRougeScorer

SOURCE, REFERENCE, PREDICTION = (
    "Alpha beta. Gamma delta.",
    "Alpha beta. Gamma delta. New words here.",
    "Alpha beta. Gamma delta. New words.",
)
ONE = {"rouge_types": ["rouge1"], "confidence_level": None}


def with_bom(text):
    return "\ufeff" + text


def test_without_the_rule_the_first_sentence_would_be_an_addition():
    # What the rule prevents: the marked first sentence is not a substring of the source.
    plain = compute([SOURCE], [PREDICTION], [REFERENCE], **ONE)
    assert plain["update_rouge1"] == pytest.approx(2 * 1.0 * (2 / 3) / (1 + 2 / 3))
    marked_inside = compute([SOURCE], ["Alpha\ufeff beta. Gamma delta. New words."], [REFERENCE], **ONE)
    assert marked_inside["_prediction_diff_len"] > plain["_prediction_diff_len"]  # inside a text it stays


@pytest.mark.parametrize("field", ["sources", "predictions", "references"])
def test_compute_scores_a_text_with_a_leading_bom_as_the_text(field):
    texts = {"sources": [SOURCE], "predictions": [PREDICTION], "references": [REFERENCE]}
    plain = compute(**texts, **ONE)
    texts[field] = [with_bom(texts[field][0])]
    assert compute(**texts, **ONE) == plain
    assert plain["_prediction_diff_len"] == len("New words.")


def test_the_scorer_the_reward_and_compare_drop_it_too():
    plain = UpdateRougeScorer(rouge_types=["rouge1"]).score(SOURCE, PREDICTION, REFERENCE)
    assert (
        UpdateRougeScorer(rouge_types=["rouge1"]).score(with_bom(SOURCE), with_bom(PREDICTION), [with_bom(REFERENCE)])
        == plain
    )
    reward = update_rouge_reward("rouge1")
    assert reward(completions=[with_bom(PREDICTION)], source=[SOURCE], reference=[REFERENCE]) == [
        pytest.approx(plain.scores["rouge1"].fmeasure)
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compared = compare(
            [SOURCE] * 2,
            [REFERENCE] * 2,
            {"a": [PREDICTION] * 2, "b": [with_bom(PREDICTION)] * 2},
            "a",
            n_bootstrap=20,
            rouge_types=["rouge1"],
        )
    assert compared["a"]["update_rouge1"] == compared["b"]["update_rouge1"]


def test_the_command_line_drops_a_file_bom_and_a_fields_bom_alike(tmp_path, capsys):
    row = {"source": SOURCE, "reference": REFERENCE, "prediction": PREDICTION}
    plain = tmp_path / "plain.jsonl"
    plain.write_text(json.dumps(row) + "\n", encoding="utf-8")
    file_bom = tmp_path / "file_bom.jsonl"
    file_bom.write_text(json.dumps(row) + "\n", encoding="utf-8-sig")
    field_bom = tmp_path / "field_bom.jsonl"
    field_bom.write_text(json.dumps({key: with_bom(value) for key, value in row.items()}) + "\n", encoding="utf-8")
    outputs = [
        run_main([path, "--rouge-types", "rouge1", "--confidence-level", "none"], capsys)
        for path in (plain, file_bom, field_bom)
    ]
    assert outputs[0][0] == 0 and outputs[1] == outputs[0] == outputs[2]
    assert json.loads(outputs[0][1])["_prediction_diff_len"] == len("New words.")


def test_csv_text_files_standard_input_and_two_workers_drop_a_fields_bom_too(tmp_path, capsys, monkeypatch):
    # A marked prediction, then a marked reference (one field alone: marked alike, they would
    # cancel out): a CSV cell, a line of the three text files (not the first: a first line's BOM
    # is the file's), standard input and two worker processes.
    rows = [
        (SOURCE, REFERENCE, PREDICTION),
        (SOURCE, REFERENCE, with_bom(PREDICTION)),
        (SOURCE, with_bom(REFERENCE), PREDICTION),
    ]
    csv_file = tmp_path / "d.csv"
    csv_file.write_text(
        "source,reference,prediction\n" + "".join(",".join(f'"{text}"' for text in row) + "\n" for row in rows),
        encoding="utf-8",
    )
    texts = {}
    for column, name in enumerate(("sources", "references", "predictions")):
        texts[name] = tmp_path / f"{name}.txt"
        texts[name].write_text("".join(row[column] + "\n" for row in rows), encoding="utf-8")
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text(
        "".join(json.dumps(dict(zip(("source", "reference", "prediction"), row))) + "\n" for row in rows),
        encoding="utf-8",
    )
    options = ["--rouge-types", "rouge1", "--confidence-level", "none"]
    runs = [
        [csv_file, *options],
        [csv_file, *options, "--num-proc", "2"],
        ["--sources", texts["sources"], "--references", texts["references"], "--predictions", texts["predictions"]]
        + options,
        [jsonl, *options, "--num-proc", "2"],
    ]
    outputs = [run_main(argv, capsys) for argv in runs]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(jsonl.read_bytes()), encoding="utf-8"))
    outputs.append(run_main(["-", *options], capsys))
    for status, out, err in outputs:
        assert status == 0, err
        assert json.loads(out)["_prediction_diff_len"] == len("New words.")
        assert json.loads(out)["update_rouge1"] == pytest.approx(2 * 1.0 * (2 / 3) / (1 + 2 / 3))


def test_under_a_protocol_a_texts_u_feff_is_kept_and_a_files_bom_is_dropped(tmp_path, capsys):
    row = {"source": SOURCE, "reference": REFERENCE, "prediction": PREDICTION}
    marked = {**row, "prediction": with_bom(PREDICTION)}
    plain, file_bom, field_bom = (tmp_path / f"{name}.jsonl" for name in ("plain", "file_bom", "field_bom"))
    plain.write_text(json.dumps(row) + "\n", encoding="utf-8")
    file_bom.write_text(json.dumps(row) + "\n", encoding="utf-8-sig")
    field_bom.write_text(json.dumps(marked) + "\n", encoding="utf-8")
    options = ["--rouge-types", "rouge1", "rouge2", "rougeLsum", "--protocol", "fruit"]
    outputs = [run_main([path, *options], capsys) for path in (plain, file_bom, field_bom)]
    assert all(status == 0 for status, _, _ in outputs)
    results = [json.loads(out) for _, out, _ in outputs]
    assert results[1] == results[0] and results[0]["_prediction_diff_len"] == len("New words.")
    # The marked first sentence is added: "\ufeffAlpha beta. New words." against "New words here.".
    assert results[2]["_prediction_diff_len"] == len("\ufeffAlpha beta. New words.")
    assert results[2] == compute([SOURCE], [with_bom(PREDICTION)], [REFERENCE], protocol="fruit")
    # rouge1: P 2/4, R 2/3, F 4/7 (x 100 under "fruit"), against 80 without the mark.
    assert results[2]["update_rouge1"] == pytest.approx(400 / 7) and results[0]["update_rouge1"] == pytest.approx(80)
    scorer = UpdateRougeScorer(protocol="editeval")
    assert scorer.score(SOURCE, with_bom(PREDICTION), REFERENCE).scores["rouge1"].fmeasure == pytest.approx(4 / 7)
