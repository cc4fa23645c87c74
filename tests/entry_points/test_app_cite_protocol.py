"""The file tab's "Cite this result" box and its published-protocol control, called directly.

Expected values come from outside the demo: ROUGE-1.5.5's per-example values in
tests/data/rouge155_golden.jsonl and the published scripts' values in
tests/data/published_protocols_golden.json.
"""

import json

from app_calls import DEFAULT_TYPES, FRUIT, pct, score_file, table_rows
from conftest import DATA_DIR, read_jsonl

from demo import page as demo_page
from demo.options import ScreenOptions
from demo.reproduce import reproduce

# The published FRUIT script's corpus values for fruit_triples.jsonl with the default seed (12345),
# 1000 resamples and a 95% interval, on its x 100 scale.
FRUIT_GOLDEN = next(
    run["values"]
    for case in json.loads((DATA_DIR / "published_protocols_golden.json").read_text(encoding="utf-8"))["cases"]
    if case["case"]["file"] == "fruit_triples.jsonl"
    for run in case["corpus"]
    if run["protocol"] == "fruit" and run["seed"] == 12345 and run["n_bootstrap"] == 1000
)


def _block(elem_id):
    (block,) = [b for b in demo_page.build_demo().blocks.values() if getattr(b, "elem_id", None) == elem_id]
    return block


def test_the_cite_box_holds_the_scores_with_their_interval_the_signature_and_the_bibtex(golden):
    out = score_file(FRUIT, DEFAULT_TYPES, "none")
    lines = out["cite"].splitlines()
    assert lines[0] == "UpdateROUGE (macro average (the mean of the examples' scores), in percent):"
    # Three examples: a resample of one example drawn three times has probability 1/27 > 2.5%, so
    # the 95% interval runs from the lowest example's F1 to the highest's (ROUGE-1.5.5's values).
    f1s = [row["rouge155"]["rouge1"][2] for row in golden]
    precision = sum(row["rouge155"]["rouge1"][0] for row in golden) / 3
    recall = sum(row["rouge155"]["rouge1"][1] for row in golden) / 3
    assert lines[1] == (
        f"rouge1: F1 [95% interval] {pct(sum(f1s) / 3)} [{pct(min(f1s))}, {pct(max(f1s))}], "
        f"P {pct(precision)}, R {pct(recall)}"
    )
    assert lines[1] == "rouge1: F1 [95% interval] 52.4 [44.6, 59.9], P 76.5, R 42.5"
    assert [line.split(":")[0] for line in lines[1:4]] == ["rouge1", "rouge2", "rougeLsum"]
    assert lines[4] == f"Signature: {out['signature']}" and out["signature"].startswith("refs:1|")
    bibtex = "\n".join(lines[6:])
    assert bibtex.startswith("@inproceedings{iv-etal-2022-fruit,") and "@inproceedings{lin-2004-rouge," in bibtex
    assert 'doi = "10.18653/v1/2022.naacl-main.269"' in bibtex


def test_the_cite_box_is_one_read_only_text_with_one_copy_button():
    cite = _block("cite")
    assert cite.buttons == ["copy"] and cite.interactive is False
    assert cite.label.startswith("Cite this result")


def test_the_protocol_menu_offers_none_and_the_tables_protocols_with_fruits_scale():
    menu = _block("protocol")
    assert menu.choices == [
        ("none", "none"),
        ("fruit (x 100 scale)", "fruit"),
        ("editeval", "editeval"),
        ("autometrics", "autometrics"),
    ]
    assert menu.value == "none" and "x 100 scale" in menu.info


def test_a_file_scored_under_fruit_gives_the_published_scripts_numbers():
    out = score_file(FRUIT, DEFAULT_TYPES, "none", protocol="fruit")
    assert out["status"].startswith("Scored 3 examples")
    with open(out["download_json"], encoding="utf-8") as handle:
        result = json.load(handle)
    # The JSON keeps FRUIT's scale (52.4 for 0.524); the table shows percent, as for any protocol.
    for key in ("update_rouge1", "update_rougeLsum", "update_rougeLsum_low", "update_rougeLsum_high"):
        assert abs(result[key] - FRUIT_GOLDEN[key]) < 1e-9, key
    assert table_rows(out["summary"])[2] == ["rougeLsum", "48.2 [44.6, 50.8]", "71.5", "38.8"]
    assert "|protocol:fruit@865fae6|" in out["signature"]
    assert out["cite"].startswith("UpdateROUGE (fruit's bootstrap median of the examples' scores, in percent):\n")


def test_editeval_is_on_the_unit_scale_and_autometrics_gives_the_mean():
    editeval = score_file(FRUIT, DEFAULT_TYPES, "none", protocol="editeval")
    assert table_rows(editeval["summary"])[2][:2] == ["rougeLsum", "48.2 [44.6, 50.8]"]
    assert editeval["labels"]["summary"].startswith(
        "Corpus scores: editeval's bootstrap median of the examples' scores"
    )
    autometrics = score_file(FRUIT, DEFAULT_TYPES, "none", "none", protocol="autometrics")
    assert table_rows(autometrics["summary"])[0] == ["rouge1", "52.4", "76.5", "42.5"]
    assert "|protocol:autometrics@0e97645|" in autometrics["signature"]


def test_fruit_and_editeval_refuse_a_baseline_column_in_one_line(tmp_path):
    path = tmp_path / "paired.jsonl"
    rows = read_jsonl("fruit_triples.jsonl")
    path.write_text("".join(json.dumps({**row, "baseline": row["source"]}) + "\n" for row in rows), encoding="utf-8")
    for protocol in ("fruit", "editeval"):
        out = score_file(path, DEFAULT_TYPES, "none", baseline_column="baseline", protocol=protocol)
        assert out["status"] == (
            f'Error: protocol "{protocol}" has no paired test: its corpus value is a bootstrap median, not a mean; '
            'instead: set protocol back to "none", or choose protocol "autometrics"'
        )
        assert out["download_json"] is None and out["cite"] is None
    paired = score_file(path, DEFAULT_TYPES, "none", baseline_column="baseline", protocol="autometrics")
    assert table_rows(paired["paired"])[0][:2] == ["rouge1", "0.0"]


def test_a_protocol_with_another_option_is_named_in_one_line():
    out = score_file(FRUIT, DEFAULT_TYPES, "porter", protocol="fruit")
    assert out["status"] == (
        'Error: protocol "fruit" reproduces a published script, which has no stemmer option; '
        'instead: set stemmer back to "none", or set protocol back to "none"'
    )


def test_the_reproduce_code_passes_the_protocol_to_compute_and_the_command_line():
    code = reproduce(ScreenOptions.of(protocol="fruit"), file_name="fruit_triples.jsonl")
    assert "    protocol='fruit',\n" in code
    assert code.rstrip().endswith("# update-rouge fruit_triples.jsonl --protocol fruit")
    assert "protocol" not in reproduce(ScreenOptions.of(protocol="none"))
