"""The errors users catch (``update_rouge/errors.py``): exported, data that survives pickling (worker
processes), messages rendered from their parts in each door's words, and advice that works when
followed."""

import pickle

import pytest
from conftest import read_jsonl

import update_rouge
from update_rouge import InputError, InputFileError, LcsTableTooLarge, MissingExtra, OptionError, compute
from update_rouge.errors import LEFT_OUT, PYTHON, Field, Name, Setting, Spelling, UpdateRougeError, followed
from update_rouge.tokens import TokenizerError

ROWS = read_jsonl("fruit_triples.jsonl")
DATA = {
    "sources": [row["source"] for row in ROWS],
    "predictions": [row["prediction"] for row in ROWS],
    "references": [row["reference"] for row in ROWS],
}


def test_the_family_is_exported_and_keeps_the_builtin_types_callers_catch():
    for name in ("OptionError", "InputError", "InputFileError", "LcsTableTooLarge", "MissingExtra", "UpdateRougeError"):
        assert name in update_rouge.__all__, name
    assert issubclass(OptionError, ValueError) and issubclass(InputError, ValueError)
    assert issubclass(LcsTableTooLarge, ValueError) and issubclass(MissingExtra, ImportError)
    assert issubclass(TokenizerError, InputError)
    assert issubclass(InputFileError, InputError)


@pytest.mark.parametrize(
    "error",
    [
        OptionError("stemmer", "x", (Setting("stemmer", "x"), " is bad"), [[Setting("stemmer", LEFT_OUT)]]),
        InputError(Field("references", 3, 1), (Field("references", 3, 1), " must be a string")),
        TokenizerError("tokenizer raised KeyError: 'a'", "text", Field("predictions", 2)),
        InputFileError("data dir/x.jsonl", 7, "not valid JSON (Expecting value)"),
        InputFileError("-", 2, "missing field(s) prediction"),
        LcsTableTooLarge("rougeL of 10 x 10 tokens", 50, "time", 4, "example"),
        LcsTableTooLarge("an LCS table of 9 x 9 tokens for rougeL", 30, "table", 1, engine="rust"),
    ],
)
def test_errors_cross_processes_whole(error):
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error) and str(copy) == str(error) and copy.parts == error.parts
    assert str(copy) and "\n" not in str(copy)


def test_messages_are_rendered_from_their_parts_by_the_spelling():
    class Loud(Spelling):
        def name(self, option):
            return option.upper()

        def field(self, field):
            return f"row {field.index} of {field.field}"

    error = OptionError(
        "seed",
        -1,
        (Name("seed"), " must be >= 0, not for ", Field("sources", 2)),
        [[Setting("seed", 3)], [Setting("seed", LEFT_OUT), Setting("protocol", None)]],
    )
    assert (
        str(error)
        == error.render(PYTHON)
        == ("seed must be >= 0, not for sources[2]; instead: seed=3, or leave out seed and protocol=None")
    )
    assert error.render(Loud()) == (
        "SEED must be >= 0, not for row 2 of sources; instead: SEED=3, or leave out SEED and PROTOCOL=None"
    )


def test_an_input_error_moves_with_its_batch():
    error = InputError(Field("references", 1), (Field("references", 1), " is empty; see ", Field("sources", 1)))
    moved = error.shifted(40)
    assert str(moved) == "references[41] is empty; see sources[41]" and moved.index == 41
    assert LcsTableTooLarge("x", 5, "time", 2, "example").shifted(10).index == 12
    assert LcsTableTooLarge("x", 5, "time", 2, "pair").shifted(10).index == 2  # a pair of one batch's engine call


# Refusals of compute's options; each is an OptionError whose every advice, followed, is accepted.
REFUSED = [
    dict(protocol="fruit", use_stemmer=True),
    dict(protocol="editeval", deletions=True),
    dict(deletions="yes"),
    dict(protocol="fruit", use_stemmer=True, stemmer="porter"),
    dict(protocol="editeval", additions="edits", max_words=5),
    dict(protocol="fruit", seed=2**33),
    dict(average="micro", engine="rouge-score"),
    dict(multi_ref="pooled", engine="rouge-score"),
    dict(average="micro", multi_ref="mean"),
    dict(average="micro", rouge_types=["rouge1", "rougeW"]),
    dict(language="zh", stemmer="porter"),
    dict(language="de", stemmer="rouge155"),
    dict(language="zh", use_stemmer=True),
    dict(language="de", stemmer="none", use_stemmer=True),
    dict(stemmer="snowball"),
    dict(stemmer="lancaster"),
    dict(use_stemmer=True, stemmer="rouge155"),
    dict(use_stemmer="yes"),
    dict(tokenizer=str.split, stemmer="porter"),
    dict(tokenizer=str.split, language="de"),
    dict(tokenizer="split"),
    dict(remove_stopwords=True, language="de"),
    dict(max_words=3, max_bytes=9),
    dict(max_words=-3),
    dict(alpha=2),
    dict(confidence_level=1.5),
    dict(n_bootstrap=0),
    dict(seed=-1),
    dict(num_proc=0),
    dict(rouge_types=[]),
    dict(rouge_types=["rouge1", "rouge1"]),
    dict(rouge_types=["rouge1", "rougeX"]),
    dict(rouge_types="rouge1"),
    dict(multi_ref="A"),
    dict(average="median"),
    dict(additions="words"),
    dict(engine="fast"),
    dict(language="english"),
    dict(protocol="rouge"),
    dict(baseline_predictions=DATA["sources"], use_aggregator=False),
]


@pytest.mark.parametrize("options", REFUSED, ids=lambda options: ",".join(f"{k}={v!r:.12}" for k, v in options.items()))
def test_every_refusal_of_an_option_gives_advice_that_works_when_followed(options):
    with pytest.raises(OptionError) as raised:
        compute(**DATA, n_bootstrap=options.pop("n_bootstrap", 20), **options)
    error = raised.value
    assert error.instead, f"{error} gives no advice"
    assert str(error).endswith(
        "; instead: "
        + ", or ".join(" and ".join(PYTHON.change(change) for change in changes) for changes in error.instead)
    )
    for changes in error.instead:
        for change in changes:
            # An advice changes what was given, never leaves out what is already left out.
            assert change.value is not LEFT_OUT or change.option in {**options, "n_bootstrap": 0}, (error, change)
        made = followed(options, changes)
        made.setdefault("n_bootstrap", 20)
        result = compute(**DATA, **made)
        types = made.get("rouge_types") or ["rouge1"]
        assert f"update_{types[0]}" in result, f"following {changes} of {error}"


def test_every_error_of_the_family_is_one_line_whatever_the_spelling():
    assert all(isinstance(error, UpdateRougeError) for error in (OptionError("a", 1, ("x",)), InputError(None, ("y",))))
    assert str(InputError(None, ("the inputs", " are empty"))) == "the inputs are empty"


def test_an_input_file_error_is_an_input_error_with_its_file_and_line():
    error = InputFileError("data dir/x.jsonl", 7, "not valid UTF-8 (invalid start byte at byte 0)")
    assert (error.path, error.line, error.problem) == (
        "data dir/x.jsonl",
        7,
        "not valid UTF-8 (invalid start byte at byte 0)",
    )
    assert error.where is None and error.field is None and error.index is None
    assert str(error) == "'data dir/x.jsonl':7: not valid UTF-8 (invalid start byte at byte 0)"
    assert str(InputFileError("-", 3, "empty")) == "<stdin>:3: empty"

    class Loud(Spelling):
        def name(self, option):
            return option.upper()

    assert error.render(Loud()) == str(error)  # no option in it: every door shows the same words
    assert error.shifted(5) is error  # a file's line is no example index that a batch's offset moves


def test_a_file_is_named_as_each_door_shows_it():
    from update_rouge.files import InputFileError

    error = InputFileError("/tmp/gradio/abc123/upload.jsonl", 4, "not valid JSON (x)")

    class Uploads(Spelling):
        def input_file(self, file):
            return {"/tmp/gradio/abc123/upload.jsonl": "mine.jsonl"}.get(file.path, file.shown)

    assert error.render(Uploads()) == "mine.jsonl:4: not valid JSON (x)"
    assert str(error).endswith("upload.jsonl:4: not valid JSON (x)") and "mine" not in str(error)
