"""What the commands share (``update_rouge/cli/runner.py``): the options of the table reaching the
settings, ``--format`` as the output's format, FILE after ``--rouge-types``, and errors in the
flags the user typed (``in_flags``)."""

import json

import pytest
from conftest import DATA_DIR, columns, read_jsonl, run_main
from test_cli import FRUIT, fruit_compute

from update_rouge import compute
from update_rouge.cli import main
from update_rouge.cli.runner import in_flags


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


def test_every_command_line_option_of_the_table_reaches_the_settings(capsys):
    path = DATA_DIR / "fruit_triples.jsonl"
    argv = [
        str(path),
        "--rouge-types",
        "rouge1",
        "--stemmer",
        "rouge155",
        "--multi-ref",
        "pooled",
        "--engine",
        "python",
        "--average",
        "micro",
    ]
    argv += ["--confidence-level", "0.9", "--n-bootstrap", "50", "--seed", "3", "--signature"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    expected = compute(
        **columns(read_jsonl("fruit_triples.jsonl")),
        rouge_types=["rouge1"],
        stemmer="rouge155",
        multi_ref="pooled",
        engine="python",
        average="micro",
        confidence_level=0.9,
        n_bootstrap=50,
        seed=3,
        return_signature=True,
    )
    assert result == expected
