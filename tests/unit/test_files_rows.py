"""An example as the file readers yield it (``files.rows``): the checks of its fields that the
JSONL and CSV readers share, each refusal naming the file, the line and the field."""

import pytest

from update_rouge.files import InputFileError
from update_rouge.files.rows import Row, as_rows, reference_list, text_field


def test_a_reference_is_a_string_or_a_non_empty_array_of_strings():
    assert reference_list("A. B.", "d.jsonl", 3) == ["A. B."]
    assert reference_list(["A. B.", "A. D."], "d.jsonl", 3) == ["A. B.", "A. D."]


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
        reference_list(value, "d.jsonl", 3)
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


def test_records_of_one_prediction_column_become_rows_in_order():
    records = [(2, "A.", ["A. B."], ["A. C."], "7", None), (5, "X.", ["X. Y.", "X. Z."], ["X."], None, "g")]
    assert list(as_rows(records)) == [
        Row(2, "A.", ["A. B."], "A. C.", "7", None),
        Row(5, "X.", ["X. Y.", "X. Z."], "X.", None, "g"),
    ]
