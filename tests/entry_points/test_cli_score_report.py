"""The score command's output (``update_rouge/cli/score_report.py``): ``-f json|text|markdown``,
``--score-only`` and ``--width``, every number the JSON's; with ``--group-by`` in
test_cli_output.py."""

import json

import pytest
from conftest import DATA_DIR, read_jsonl, run_main
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
            "update-rouge: error: -b/--score-only prints the F values alone, without the signature (-f text prints "
            "the signature under the table); instead: leave out --signature, or leave out -b/--score-only\n",
        ),
        (
            ["-b", "-f", "markdown"],
            "update-rouge: error: -b/--score-only prints the F values alone, in no format; "
            "instead: leave out -f/--format, or leave out -b/--score-only\n",
        ),
        (
            ["--format", "json", "--score-only", "--signature"],
            "update-rouge: error: -b/--score-only prints the F values alone, in no format; "
            "instead: leave out -b/--score-only, or leave out -f/--format and leave out --signature\n",
        ),
    ],
)
def test_score_only_refuses_a_format_or_a_signature_before_reading_anything(tmp_path, capsys, flags, message):
    # The input does not exist: the refusal comes before any file is opened.
    assert run_main([tmp_path / "absent.jsonl", *flags], capsys) == (2, "", message)


FRUIT = DATA_DIR / "fruit_triples.jsonl"
MEAN_INTERVALS = "95% percentile bootstrap intervals of F (1000 resamples)"
MEDIANS = "medians over 1000 bootstrap resamples of the mean F, precision and recall"


@pytest.mark.parametrize(
    "flags, heading, columns, rougelsum_f",
    [
        # FRUIT's corpus value is the bootstrap median x 100: rougeLsum 48.19 (ours 52.02), as in
        # docs/published-protocols.md.
        (
            ["--protocol", "fruit"],
            f"UpdateROUGE of 3 examples (FRUIT's protocol): {MEDIANS}; 95% percentile intervals of F "
            "from the same resamples; every value x 100.",
            ["type", "F", "95%", "interval", "P", "R"],
            "48.1851",
        ),
        (
            ["--protocol", "fruit", "--confidence-level", "none"],
            f"UpdateROUGE of 3 examples (FRUIT's protocol): {MEDIANS}; every value x 100.",
            ["type", "F", "P", "R"],
            "48.1851",
        ),
        (
            ["--protocol", "editeval", "--confidence-level", "none"],
            f"UpdateROUGE of 3 examples (EditEval's protocol): {MEDIANS}.",
            ["type", "F", "P", "R"],
            "0.4819",
        ),
        (
            ["--protocol", "autometrics"],
            f"UpdateROUGE of 3 examples (autometrics' protocol): mean F, precision and recall; {MEAN_INTERVALS}.",
            ["type", "F", "95%", "interval", "P", "R"],
            "0.4819",
        ),
        (
            ["--average", "micro", "--confidence-level", "0.975"],
            "UpdateROUGE of 3 examples: micro F, precision and recall (from the counts summed over the "
            "examples); 97.5% percentile bootstrap intervals of F (1000 resamples).",
            ["type", "F", "97.5%", "interval", "P", "R"],
            "0.5120",
        ),
        (
            ["--confidence-level", "none"],
            "UpdateROUGE of 3 examples: mean F, precision and recall.",
            ["type", "F", "P", "R"],
            "0.5202",
        ),
    ],
)
def test_the_heading_names_the_statistic_its_intervals_and_scale(capsys, flags, heading, columns, rougelsum_f):
    status, text, err = run_main([FRUIT, "-f", "text", *flags], capsys)
    assert (status, err) == (0, "")
    lines = text.splitlines()
    assert lines[0] == heading
    assert lines[2].split() == columns
    assert lines[5].split()[:2] == ["rougeLsum", rougelsum_f]
    _, markdown, _ = run_main([FRUIT, "-f", "markdown", *flags], capsys)
    assert markdown.splitlines()[0] == heading


def test_an_editeval_heading_says_its_values_average_the_reference_slots(tmp_path, capsys):
    path = tmp_path / "two.jsonl"
    path.write_text(
        '{"source": "A b.", "reference": ["A b. C d.", "A b. E f."], "prediction": "A b. C d."}\n'
        '{"source": "A b.", "reference": ["A b. C d.", "A b."], "prediction": "A b. C e."}\n',
        encoding="utf-8",
    )
    status, text, _ = run_main([path, "-f", "text", "--protocol", "editeval", "--n-bootstrap", "20"], capsys)
    assert status == 0
    assert text.splitlines()[0] == (
        "UpdateROUGE of 2 examples (EditEval's protocol): medians over 20 bootstrap resamples of the mean F, "
        "precision and recall; 95% percentile intervals of F from the same resamples; each averaged over the 2 "
        "reference slots."
    )


def test_a_group_label_holding_html_is_shown_not_rendered_in_markdown(tmp_path, capsys):
    # Issue 58: a label pasted into a page as a Markdown table must not become an element there.
    rows = [json.loads(line) for line in FRUIT.read_text(encoding="utf-8").splitlines()]
    path = tmp_path / "labelled.jsonl"
    label = "<img src=x onerror=alert(1)> & co|x"
    path.write_text("".join(json.dumps({**row, "g": label}) + "\n" for row in rows), encoding="utf-8")
    status, markdown, err = run_main([str(path), *FAST, "-f", "markdown", "--group-by", "g"], capsys)
    assert (status, err) == (0, "")
    cells = [line for line in markdown.splitlines() if line.startswith("| &lt;img")]
    assert cells and all(line.startswith("| &lt;img src=x onerror=alert(1)&gt; &amp; co\\|x | 3 | ") for line in cells)
    assert "<img" not in markdown


def test_the_note_under_the_table_says_what_no_additions_do_to_the_statistic(tmp_path, capsys):
    # Issue 58: under micro an example without additions adds no counts; it does not "score 1.0".
    path = tmp_path / "kept.jsonl"
    rows = [{"source": "A b.", "reference": "A b.", "prediction": "A b."}]
    rows.append({"source": "A b.", "reference": "A b. C d.", "prediction": "A b. C e."})
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    for average, note in [
        ("macro", "(each such example scores 1.0)."),
        ("micro", "(such an example adds no counts to the micro values)."),
    ]:
        argv = [str(path), *FAST, "-f", "text", "--average", average, "--confidence-level", "none"]
        status, text, err = run_main(argv, capsys)
        assert (status, err) == (0, ""), err
        assert f"Neither side adds anything in 1 of the 2 examples {note}" in text.splitlines(), text
