"""The score command's output (``update_rouge/cli/score_report.py``): ``-f json|text|markdown``,
``--score-only`` and ``--width``, every number the JSON's; with ``--group-by`` in
test_cli_output.py."""

import json

import pytest

from conftest import read_jsonl, run_main
from test_cli_output import FAST, FAST_OPTIONS, ITERATER, columns

from update_rouge import compute


def test_text_and_markdown_tables_hold_the_json_numbers_rounded_and_the_signature(capsys):
    _, out, _ = run_main([ITERATER, *FAST, "--signature"], capsys)
    result = json.loads(out)
    status, text, err = run_main([ITERATER, *FAST, "-f", "text"], capsys)
    assert (status, err) == (0, "")
    lines = text.splitlines()
    assert lines[0] == (
        "UpdateROUGE of 40 examples: mean F, precision and recall; "
        "95% percentile bootstrap intervals of F (50 resamples)."
    )
    assert lines[2].split() == ["type", "F", "95%", "interval", "P", "R"]
    r1 = result
    assert lines[3].split() == [
        "rouge1",
        f"{r1['update_rouge1']:.4f}",
        f"[{r1['update_rouge1_low']:.4f},",
        f"{r1['update_rouge1_high']:.4f}]",
        f"{r1['update_rouge1_precision']:.4f}",
        f"{r1['update_rouge1_recall']:.4f}",
    ]
    assert lines[-1] == result["signature"] and lines[-2] == ""
    status, markdown, _ = run_main([ITERATER, *FAST, "--format", "markdown", "-w", "2"], capsys)
    rows = markdown.splitlines()
    assert rows[2] == "| type | F | 95% interval | P | R |" and rows[3] == "|---|---|---|---|---|"
    assert rows[5].startswith(f"| rougeL | {result['update_rougeL']:.2f} | [{result['update_rougeL_low']:.2f}, ")
    assert rows[-1] == f"`{result['signature']}`"


def test_score_only_prints_one_number_per_type_with_the_width_asked(capsys):
    _, out, _ = run_main([ITERATER, *FAST], capsys)
    result = json.loads(out)
    status, only, err = run_main([ITERATER, *FAST, "-b", "-w", "6"], capsys)
    assert (status, err) == (0, "")
    assert only == f"{result['update_rouge1']:.6f}\n{result['update_rougeL']:.6f}\n"
    status, _, err = run_main([ITERATER, "-w", "18"], capsys)
    assert status == 2 and "expected a number of decimals from 0 to 17, got '18'" in err


def test_default_json_output_is_unchanged_by_the_new_flags_defaults(capsys):
    status, out, _ = run_main([ITERATER, *FAST], capsys)
    explicit = run_main([ITERATER, *FAST, "-f", "json", "-w", "2"], capsys)
    assert explicit[:2] == (status, out)
    assert out == json.dumps(compute(**columns(read_jsonl("iterater_triples.jsonl")), **FAST_OPTIONS), indent=2) + "\n"


@pytest.mark.parametrize(
    "flags, message",
    [
        (
            ["-b", "--signature"],
            "update-rouge: error: -b/--score-only prints the F values alone, without the signature: "
            "give -b or --signature, not both (-f text prints the signature under the table)\n",
        ),
        (
            ["-b", "-f", "markdown"],
            "update-rouge: error: -b/--score-only prints the F values alone, in no format: "
            "give -b or -f/--format markdown, not both\n",
        ),
        (
            ["--format", "json", "--score-only"],
            "update-rouge: error: -b/--score-only prints the F values alone, in no format: "
            "give -b or -f/--format json, not both\n",
        ),
    ],
)
def test_score_only_refuses_a_format_or_a_signature_before_reading_anything(tmp_path, capsys, flags, message):
    # The input does not exist: the refusal comes before any file is opened.
    assert run_main([tmp_path / "absent.jsonl", *flags], capsys) == (2, "", message)
