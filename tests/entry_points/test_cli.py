"""The command line's commands and words (``update_rouge/cli/``): which command runs, a FILE named
like a command, one flag name per meaning in both commands (``--format`` the output's), FILE
after ``--rouge-types``, and errors that name the flag the user typed."""

import json
import subprocess
import sys

import pytest
from conftest import DATA_DIR, read_jsonl, run_main

from update_rouge import compare, compute
from update_rouge.cli.runner import in_flags

FRUIT = DATA_DIR / "fruit_triples.jsonl"


def fruit_compute(**options):
    rows = read_jsonl("fruit_triples.jsonl")
    return compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        **options,
    )


def test_score_is_the_default_command_and_can_be_named(capsys):
    expected = fruit_compute(rouge_types=["rouge1"], n_bootstrap=20)
    for argv in (
        [FRUIT, "--rouge-types", "rouge1", "--n-bootstrap", "20"],
        ["score", FRUIT, "--rouge-types", "rouge1", "--n-bootstrap", "20"],
    ):
        status, out, err = run_main(argv, capsys)
        assert (status, err) == (0, ""), argv
        assert json.loads(out) == expected, argv


@pytest.mark.parametrize("name", ["compare", "score"])
def test_a_file_named_like_a_command_is_written_with_its_directory(tmp_path, monkeypatch, capsys, name):
    (tmp_path / name).write_bytes(FRUIT.read_bytes())
    monkeypatch.chdir(tmp_path)
    status, out, err = run_main([f"./{name}", "--input-format", "jsonl", "--n-bootstrap", "20"], capsys)
    assert (status, err) == (0, "")
    assert json.loads(out) == fruit_compute(n_bootstrap=20)
    # Unprefixed, the first word is the command: compare then wants its --system.
    status, _, err = run_main(["compare", "--input-format", "jsonl"], capsys)
    assert status == 2 and "the following arguments are required: --system" in err


def test_format_is_the_output_format_in_both_commands_and_an_input_format_there_names_the_new_flag(tmp_path, capsys):
    copy = tmp_path / "fruit.txt"
    copy.write_bytes(FRUIT.read_bytes())
    # --format jsonl meant the input's format in score before 0.2: now a usage error naming --input-format.
    status, out, err = run_main([copy, "--format", "jsonl", "--n-bootstrap", "20"], capsys)
    assert (status, out) == (2, "")
    assert "jsonl is an input format: --format is the output format (json, text, markdown); " in err
    assert err.rstrip().endswith("give the input's with --input-format jsonl")
    status, out, err = run_main([copy, "--input-format", "jsonl", "-f", "json", "--n-bootstrap", "20"], capsys)
    assert (status, err) == (0, "")
    assert json.loads(out) == fruit_compute(n_bootstrap=20)

    systems = [FRUIT, "--system", "prediction", "--system", "copy=source", "--n-bootstrap", "20"]
    status, new, err = run_main(["compare", *systems, "--output-format", "csv"], capsys)
    assert (status, err) == (0, "")
    assert new.startswith("system,baseline,type,mean,")
    for spelling in ("--format", "-f"):
        status, old, err = run_main(["compare", *systems, spelling, "csv"], capsys)
        assert (status, err, old) == (0, "", new)


def test_rouge_types_then_file_reads_the_file(capsys):
    after = run_main(["--rouge-types", "rouge1", "rouge2", FRUIT, "--n-bootstrap", "20"], capsys)
    before = run_main([FRUIT, "--rouge-types", "rouge1", "rouge2", "--n-bootstrap", "20"], capsys)
    assert after[0] == before[0] == 0
    assert after[1] == before[1]
    assert json.loads(after[1]) == fruit_compute(rouge_types=["rouge1", "rouge2"], n_bootstrap=20)
    # Without a FILE, a last word that is no rouge type is the FILE, any other is refused.
    status, _, err = run_main(["--rouge-types", "rouge1", "rougeX", FRUIT], capsys)
    assert status == 2 and "unknown rouge type 'rougeX'" in err


@pytest.mark.parametrize(
    "options, message",
    [
        (["--alpha", "2"], "--alpha must be a number in [0, 1], got 2.0"),
        (["--seed", "-1"], "--seed must be a non-negative integer, got -1"),
        (["--max-words", "3", "--max-bytes", "9"], "--max-words and --max-bytes limit the length in words or in bytes"),
        (
            ["--remove-stopwords", "--language", "de"],
            "--remove-stopwords removes ROUGE-1.5.5's English stopwords: it cannot be combined with --language",
        ),
        (
            ["--stemmer", "porter", "--language", "de"],
            "--stemmer porter stems rouge-score's English tokens and cannot be combined with --language de; "
            "use --use-stemmer for the language's Snowball stemmer",
        ),
        (["--confidence-level", "1.5"], "--confidence-level must be a number strictly between 0 and 1"),
    ],
)
@pytest.mark.parametrize("command", [[], ["compare", "--system", "prediction"]])
def test_errors_name_the_flag_typed(capsys, options, message, command):
    status, out, err = run_main([*command, FRUIT, *options], capsys)
    prog = "update-rouge compare" if command else "update-rouge"
    assert (status, out) == (2, "")
    assert err.startswith(f"{prog}: error: {message}"), err
    assert err.count("\n") == 1


def test_in_flags_changes_option_names_only():
    flags = {"language": "--language", "use_stemmer": "--use-stemmer", "confidence_level": "--confidence-level"}
    assert in_flags("language must be None, got 'xx'", flags) == "--language must be None, got 'xx'"
    assert (
        in_flags("no stemmer for language='ta': stemming with a language; drop use_stemmer=True", flags)
        == "no stemmer for --language ta: stemming with a language; drop --use-stemmer"
    )
    assert in_flags("or confidence_level=None for none", flags) == "or --confidence-level none for none"
    assert in_flags("unknown rouge type 'rouge0'", flags) == "unknown rouge type 'rouge0'"
    assert in_flags("data.jsonl:3: reference must be a string", {"reference": "--reference"}) == (
        "data.jsonl:3: reference must be a string"
    )


def test_python_m_runs_both_commands():
    argv = [sys.executable, "-m", "update_rouge"]
    score = subprocess.run([*argv, str(FRUIT), "--n-bootstrap", "20"], capture_output=True, text=True)
    assert (score.returncode, score.stderr) == (0, "")
    assert json.loads(score.stdout) == fruit_compute(n_bootstrap=20)
    systems = ["--system", "prediction", "--system", "copy=source"]
    argv += ["compare", str(FRUIT), *systems, "--n-bootstrap", "20", "--output-format", "json"]
    compared = subprocess.run(argv, capture_output=True, text=True)
    assert (compared.returncode, compared.stderr) == (0, "")
    rows = read_jsonl("fruit_triples.jsonl")
    sources = [r["source"] for r in rows]
    predictions = {"prediction": [r["prediction"] for r in rows], "copy": sources}
    expected = compare(
        sources, [r["reference"] for r in rows], predictions, "prediction", n_bootstrap=20, return_signature=True
    )
    assert json.loads(compared.stdout) == expected
