"""What the commands share (``update_rouge/cli/runner.py``): the options of the table reaching the
settings, ``--format`` as the output's format, FILE after ``--rouge-types``, and errors in the
flags the user typed (``Flags``)."""

import json

import pytest
from conftest import DATA_DIR, columns, read_jsonl, run_main
from test_cli import FRUIT, fruit_compute

from update_rouge import compute
from update_rouge.cli import main
from update_rouge.cli.runner import Flags
from update_rouge.errors import LEFT_OUT, Setting


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
        (["--alpha", "2"], "--alpha must be a number in [0, 1], got 2.0; instead: leave out --alpha"),
        (["--seed", "-1"], "--seed must be a non-negative integer, got -1; instead: --seed 12345"),
        (
            ["--max-words", "3", "--max-bytes", "9"],
            "--max-words and --max-bytes limit the length in words or in bytes, not both (as in ROUGE-1.5.5); "
            "instead: leave out --max-bytes, or leave out --max-words",
        ),
        (
            ["--remove-stopwords", "--language", "de"],
            "--remove-stopwords removes ROUGE-1.5.5's English stopwords: it cannot be combined with --language de; "
            "instead: leave out --remove-stopwords, or leave out --language",
        ),
        (
            ["--stemmer", "porter", "--language", "de"],
            "--stemmer porter stems rouge-score's English tokens and cannot be combined with --language de; "
            "instead: leave out --stemmer, or --stemmer snowball, or leave out --language",
        ),
        (
            ["--confidence-level", "1.5"],
            "--confidence-level must be a number strictly between 0 and 1, got 1.5; "
            "instead: --confidence-level 0.95, or --confidence-level none",
        ),
        (
            ["--protocol", "autometrics", "--use-stemmer"],
            "--protocol autometrics reproduces a published script, which has no --use-stemmer option; "
            "instead: leave out --use-stemmer, or leave out --protocol",
        ),
        (
            ["--average", "micro", "--engine", "rouge-score"],
            "--engine rouge-score gives no raw counts, which --average micro needs; "
            "instead: leave out --engine, or --engine python",
        ),
    ],
)
@pytest.mark.parametrize("command", [[], ["compare", "--system", "prediction", "--system", "copy=source"]])
def test_errors_name_the_flag_typed(capsys, options, message, command):
    status, out, err = run_main([*command, FRUIT, *options], capsys)
    prog = "update-rouge compare" if command else "update-rouge"
    assert (status, out) == (2, "")
    assert err == f"{prog}: error: {message}\n"


def test_flags_spell_options_as_typed_and_others_as_keywords():
    flags = Flags(
        {
            "language": "--language",
            "use_stemmer": "--use-stemmer",
            "confidence_level": "--confidence-level",
            "rouge_types": "--rouge-types",
        }
    )
    assert flags.setting("language", "de") == "--language de"
    assert flags.setting("use_stemmer", True) == "--use-stemmer"
    assert flags.setting("confidence_level", None) == "--confidence-level none"
    assert flags.setting("rouge_types", ["rouge1", "rouge2"]) == "--rouge-types rouge1 rouge2"
    assert flags.change(Setting("language", LEFT_OUT)) == "leave out --language"
    assert flags.setting("use_aggregator", True) == "use_aggregator=True"  # not a flag of the command


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


REFUSED_FLAGS = [
    ["--protocol", "fruit", "--use-stemmer"],
    ["--protocol", "autometrics", "--deletions"],
    ["--protocol", "editeval", "--additions", "edits", "--stemmer", "porter"],
    ["--average", "micro", "--engine", "rouge-score"],
    ["--multi-ref", "pooled", "--engine", "rouge-score"],
    ["--language", "zh", "--stemmer", "porter"],
    ["--language", "zh", "--use-stemmer"],
    ["--language", "de", "--stemmer", "rouge155"],
    ["--stemmer", "snowball"],
    ["--use-stemmer", "--stemmer", "rouge155"],
    ["--confidence-level", "1.5"],
    ["--max-words", "-3"],
    ["--max-words", "3", "--max-bytes", "9"],
    ["--remove-stopwords", "--language", "de"],
    ["--multi-ref", "mean", "--average", "micro"],
    ["--rouge-types", "rouge1", "rougeW", "--average", "micro"],
    ["--rouge-types", "rouge1", "rouge1"],
    ["--protocol", "fruit", "--seed", "5000000000"],
    ["--alpha", "2"],
    ["--n-bootstrap", "0"],
    ["--num-proc", "0"],
]


def _follow(argv, advice):
    """``argv`` with one alternative of an error's advice made, as a user would type it:
    "leave out --flag" drops the flag and its values, "--flag VALUES" sets them."""
    argv = list(argv)
    for change in advice.split(" and "):
        words = change.split()
        flag = words[-1] if words[:2] == ["leave", "out"] else words[0]
        assert flag.startswith("--"), f"{change!r} of {advice!r} names no flag"
        if flag in argv:
            start = argv.index(flag)
            end = start + 1
            while end < len(argv) and not argv[end].startswith("--"):
                end += 1
            del argv[start:end]
        if words[:2] != ["leave", "out"]:
            argv += words
    return argv


@pytest.mark.parametrize("options", REFUSED_FLAGS, ids=" ".join)
def test_every_refusal_at_the_command_line_gives_advice_that_works_when_followed(capsys, options):
    status, out, err = run_main(
        [FRUIT, *options, "--n-bootstrap", "20"] if "--n-bootstrap" not in options else [FRUIT, *options], capsys
    )
    assert (status, out) == (2, "") and err.count("\n") == 1, err
    assert "=" not in err.split("; instead: ")[0].replace("2**32", ""), f"a keyword in a command-line error: {err}"
    message, _, advice = err.rstrip("\n").partition("; instead: ")
    assert advice, f"no advice in {err!r}"
    for alternative in advice.split(", or "):
        followed = _follow([*options, "--n-bootstrap", "20"], alternative)
        status, out, err = run_main([FRUIT, *followed], capsys)
        assert status == 0, f"following {alternative!r} ({followed}) of {message!r}: {err}"
        assert json.loads(out)


@pytest.mark.parametrize(
    "argv, prog, unrecognized",
    [
        (
            [FRUIT, "--rogue-types", "rouge1"],
            "update-rouge score",
            "--rogue-types (did you mean --rouge-types?) rouge1",
        ),
        ([FRUIT, "--stemer=porter"], "update-rouge score", "--stemer=porter (did you mean --stemmer?)"),
        ([FRUIT, "--zzz"], "update-rouge score", "--zzz"),
        (
            ["compare", FRUIT, "--system", "prediction", "--system", "source", "--sistem", "x"],
            "update-rouge compare",
            "--sistem (did you mean --system?) x",
        ),
    ],
)
def test_a_misspelt_flag_gets_the_commands_usage_and_the_flag_meant(capsys, argv, prog, unrecognized):
    # Issue 58: the top level's usage named a COMMAND the user never typed, and no flag was suggested.
    status, out, err = run_main(argv, capsys)
    assert (status, out) == (2, "")
    *usage, last = err.splitlines()
    assert usage[0].startswith(f"usage: {prog} [-h]") and "COMMAND" not in err
    assert last == f"{prog}: error: unrecognized arguments: {unrecognized}"
