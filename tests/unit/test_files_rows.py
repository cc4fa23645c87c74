"""An example as the file readers yield it (``files.rows``): the checks of its fields that the
JSONL and CSV readers share, each refusal naming the file, the line and the field."""

import pytest

from update_rouge.files import InputFileError
from update_rouge.files.rows import Fields, Row, as_rows, check_present, in_other_format, text_field, text_list


def test_a_reference_is_a_string_or_a_non_empty_array_of_strings():
    assert text_list("A. B.", "d.jsonl", 3, "reference") == ["A. B."]
    assert text_list(["A. B.", "A. D."], "d.jsonl", 3, "reference") == ["A. B.", "A. D."]


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ([], "reference must be a string or a non-empty array of strings, got an empty array"),
        (None, "reference must be a string or a non-empty array of strings, got null"),
        ({"a": "b"}, "reference must be a string or a non-empty array of strings, got an object"),
        (7, "reference must be a string or a non-empty array of strings, got a number"),
        (["A.", True], "reference[1] must be a string, got a boolean"),
        (["A.", ["B."]], "reference[1] must be a string, got an array"),
    ],
)
def test_any_other_reference_is_refused_naming_file_line_and_item(value, problem):
    with pytest.raises(InputFileError) as error:
        text_list(value, "d.jsonl", 3, "reference")
    assert str(error.value) == f"d.jsonl:3: {problem}"
    assert (error.value.path, error.value.line) == ("d.jsonl", 3)


def test_a_text_field_is_a_string_without_a_lone_surrogate():
    assert text_field("日本.", "d.csv", 2, "source") == "日本."
    with pytest.raises(InputFileError) as error:
        text_field(2.5, "d.csv", 2, "prediction")
    assert str(error.value) == "d.csv:2: prediction must be a string, got a number"
    with pytest.raises(InputFileError) as error:
        text_field("ab\ud800", "d.csv", 2, "source")
    assert str(error.value).startswith("d.csv:2: source contains a lone surrogate (U+D800) at character 2,")


def test_evidence_is_a_string_or_an_array_of_strings_empty_too():
    assert text_list([], "d.jsonl", 3, "ev", empty=True) == []
    assert text_list("Paris.", "d.jsonl", 3, "ev", empty=True) == ["Paris."]
    with pytest.raises(InputFileError) as error:
        text_list(None, "d.jsonl", 3, "ev", empty=True)
    assert str(error.value) == "d.jsonl:3: ev must be a string or an array of strings, got null"


def test_records_of_one_prediction_column_become_rows_in_order():
    records = [
        (2, "A.", ["A. B."], ["A. C."], "7", None, None),
        (5, "X.", ["X. Y.", "X. Z."], ["X."], None, "g", ["Y."]),
    ]
    assert list(as_rows(records)) == [
        Row(2, "A.", ["A. B."], "A. C.", "7", None),
        Row(5, "X.", ["X. Y.", "X. Z."], "X.", None, "g", ["Y."]),
    ]


def test_missing_fields_are_named_beside_those_present_with_the_options_that_name_them():
    fields = Fields(source="src", evidence="ev")
    with pytest.raises(InputFileError) as error:
        check_present(fields, ["src", "text", "prediction"], "d.jsonl", 4, "missing field(s)", "the line has")
    assert str(error.value) == "d.jsonl:4: missing field(s) reference, ev (the line has src, text, prediction)"
    assert error.value.missing == ("reference_field", "evidence_field")
    many = [f"f{number}" for number in range(20)] + ["a\tb"]
    with pytest.raises(InputFileError, match=r"\(it names f0, f1, .*, f11, \.\.\.\)$"):
        check_present(Fields(), many, "d.csv", 1, "the header row lacks the column(s)", "it names")
    check_present(fields, ["src", "reference", "prediction", "ev"], "d.jsonl", 4, "", "")  # nothing missing


@pytest.mark.parametrize(
    ("line", "other", "said"),
    [
        (
            "source,reference,prediction,id\n",
            "csv",
            "not JSON but a CSV header row naming source, reference, prediction",
        ),
        ('{"prediction": "a", "source": "b", "reference": "c"}\n', "jsonl", "not a CSV header row but a JSON object"),
    ],
)
def test_a_line_1_in_the_other_format_is_said_to_be_with_the_flag_that_reads_it(line, other, said):
    error = InputFileError("d.x", 1, "not valid JSON (Expecting value)")
    found = in_other_format(error, line, Fields(), other)
    assert str(found).startswith(f"d.x:1: {said}") and str(found).endswith(f": give --input-format {other}")
    # Not where the line lacks a field read, is of another line, or is neither format.
    assert in_other_format(error, line, Fields(source="src"), other) is error
    assert in_other_format(InputFileError("d.x", 2, "x"), line, Fields(), other).line == 2
    assert in_other_format(error, "[1, 2]", Fields(), "jsonl") is error
