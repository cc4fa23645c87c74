"""The UPDATE_ROUGE_* limits read from the environment: unset gives the default, a positive
number is taken, anything else is one error that names the variable and repeats its text."""

import pytest

from update_rouge.environment import positive_integer, positive_number

VARIABLE = "UPDATE_ROUGE_TEST_LIMIT"


@pytest.mark.parametrize("environ, expected", [({}, 7), ({VARIABLE: "12"}, 12), ({VARIABLE: " 3 "}, 3)])
def test_an_integer_limit_is_the_default_or_the_number_set(environ, expected):
    assert positive_integer(VARIABLE, 7, "bytes", environ) == expected


@pytest.mark.parametrize("text", ["0", "-4", "2.5", "lots", "", "1e3"])
def test_an_integer_limit_refuses_anything_but_a_positive_integer(text):
    with pytest.raises(ValueError) as caught:
        positive_integer(VARIABLE, 7, "bytes", {VARIABLE: text})
    assert str(caught.value) == f"{VARIABLE}={text!r}: expected a positive integer (bytes)"


@pytest.mark.parametrize("environ, expected", [({}, 30.0), ({VARIABLE: "2.5"}, 2.5), ({VARIABLE: "1e-3"}, 0.001)])
def test_a_number_limit_is_the_default_or_the_number_set(environ, expected):
    assert positive_number(VARIABLE, 30.0, "seconds", environ) == expected


@pytest.mark.parametrize("text", ["0", "-1", "soon", "nan", "inf", "-inf", ""])
def test_a_number_limit_refuses_anything_but_a_finite_positive_number(text):
    with pytest.raises(ValueError) as caught:
        positive_number(VARIABLE, 30.0, "seconds", {VARIABLE: text})
    assert str(caught.value) == f"{VARIABLE}={text!r}: expected a number of seconds > 0"


def test_the_process_environment_is_read_when_none_is_given(monkeypatch):
    monkeypatch.setenv(VARIABLE, "5")
    assert (positive_integer(VARIABLE, 1, "bytes"), positive_number(VARIABLE, 1.0, "seconds")) == (5, 5.0)
    monkeypatch.delenv(VARIABLE)
    assert (positive_integer(VARIABLE, 1, "bytes"), positive_number(VARIABLE, 1.0, "seconds")) == (1, 1.0)
