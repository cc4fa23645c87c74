"""What the options accept as a number (option_numbers): every integral or real number type (NumPy's
scalars, ``Fraction``) gives the numbers of the Python number it equals; bools and strings are
refused when the Settings are built."""

import re
from fractions import Fraction

import numpy as np
import pytest

from update_rouge.settings import Settings


@pytest.mark.parametrize(
    "name, value, same_as",
    [
        ("alpha", np.float32(0.5), 0.5),
        ("alpha", np.float32(0.3), float(np.float32(0.3))),
        ("alpha", Fraction(1, 4), 0.25),
        ("alpha", np.int64(1), 1.0),
        ("max_words", np.int64(3), 3),
        ("max_bytes", np.uint16(9), 9),
        ("seed", np.int32(7), 7),
        ("n_bootstrap", np.int64(50), 50),
        ("confidence_level", np.float64(0.9), 0.9),
        ("num_proc", np.int8(1), 1),
    ],
)
def test_numpy_and_other_number_types_give_the_same_numbers(compute, name, value, same_as):
    texts = dict(
        sources=["Dan is a baker.", "Ann is a nurse."],
        predictions=["Dan is a baker. He bakes bread daily.", "Ann is a nurse. She works."],
        references=["Dan is a baker. He bakes cakes.", "Ann is a nurse. She works at night."],
        rouge_types=["rouge1", "rougeL"],
    )
    assert compute(**texts, **{name: value}) == compute(**texts, **{name: same_as})
    settings = Settings(**{name: value})
    assert type(getattr(settings, name)) is type(same_as), f"{name} kept as {type(getattr(settings, name))}"


@pytest.mark.parametrize(
    "name, value",
    [
        ("alpha", "0.5"),
        ("alpha", np.bool_(True)),
        ("alpha", True),
        ("max_words", "3"),
        ("max_words", True),
        ("seed", np.float64(3.0)),
        ("n_bootstrap", np.bool_(True)),
        ("num_proc", "2"),
        ("confidence_level", "0.9"),
    ],
)
def test_bools_and_strings_are_not_numbers(name, value):
    with pytest.raises(ValueError, match=f"^{name} must be .*got {re.escape(repr(value))}; instead: "):
        Settings(**{name: value})
