"""The UPDATE_ROUGE_* limits read from the environment: unset gives the default, a positive
number is taken, anything else is one OptionError that names the variable, repeats its text and
advises the default."""

import pytest

from update_rouge.environment import positive_integer, positive_number
from update_rouge.errors import OptionError, Setting

VARIABLE = "UPDATE_ROUGE_TEST_LIMIT"


@pytest.mark.parametrize("environ, expected", [({}, 7), ({VARIABLE: "12"}, 12), ({VARIABLE: " 3 "}, 3)])
def test_an_integer_limit_is_the_default_or_the_number_set(environ, expected):
    assert positive_integer(VARIABLE, 7, "bytes", environ) == expected


@pytest.mark.parametrize("text", ["0", "-4", "2.5", "lots", "", "1e3"])
def test_an_integer_limit_refuses_anything_but_a_positive_integer(text):
    with pytest.raises(OptionError) as caught:
        positive_integer(VARIABLE, 7, "bytes", {VARIABLE: text})
    assert str(caught.value) == f"{VARIABLE}={text!r}: expected a positive integer (bytes); instead: {VARIABLE}=7"
    assert (caught.value.option, caught.value.value, caught.value.instead) == (
        VARIABLE,
        text,
        ((Setting(VARIABLE, 7),),),
    )


@pytest.mark.parametrize("environ, expected", [({}, 30.0), ({VARIABLE: "2.5"}, 2.5), ({VARIABLE: "1e-3"}, 0.001)])
def test_a_number_limit_is_the_default_or_the_number_set(environ, expected):
    assert positive_number(VARIABLE, 30.0, "seconds", environ) == expected


@pytest.mark.parametrize("text", ["0", "-1", "soon", "nan", "inf", "-inf", ""])
def test_a_number_limit_refuses_anything_but_a_finite_positive_number(text):
    with pytest.raises(OptionError) as caught:
        positive_number(VARIABLE, 30.0, "seconds", {VARIABLE: text})
    assert str(caught.value) == f"{VARIABLE}={text!r}: expected a number of seconds > 0; instead: {VARIABLE}=30.0"


def test_the_process_environment_is_read_when_none_is_given(monkeypatch):
    monkeypatch.setenv(VARIABLE, "5")
    assert (positive_integer(VARIABLE, 1, "bytes"), positive_number(VARIABLE, 1.0, "seconds")) == (5, 5.0)
    monkeypatch.delenv(VARIABLE)
    assert (positive_integer(VARIABLE, 1, "bytes"), positive_number(VARIABLE, 1.0, "seconds")) == (1, 1.0)
