"""Exact running sums: chunked corpus means equal the one-shot means bit for bit."""

import math
from fractions import Fraction

import pytest
from conftest import read_jsonl
from hypothesis import given
from hypothesis import strategies as st

from update_rouge import compute
from update_rouge.example_tables import RunningTotals, exact_terms


def test_a_sum_that_rounding_each_chunk_gets_wrong():
    # 1 + 2**-53 rounds to 1 (ties to even) in each chunk; the exact total is 1 + 2**-52.
    assert math.fsum([math.fsum([1.0, 2**-53]), math.fsum([2**-53])]) == 1.0
    totals = RunningTotals()
    totals.add({"x": [1.0, 2**-53], "_both_empty": [False, False]})
    totals.add({"x": [2**-53], "_both_empty": [True]})
    assert totals.result() == {"x": (1.0 + 2**-52) / 3, "_both_empty": 1}


def test_exact_terms_keep_what_the_rounded_sum_drops():
    assert exact_terms([1.0, 2**-60]) == [1.0, 2**-60]
    assert exact_terms([0.5, -0.5]) == []
    terms = exact_terms([0.1, 0.2])
    assert terms[0] == 0.30000000000000004 and len(terms) == 2
    assert sum(map(Fraction, terms)) == Fraction(0.1) + Fraction(0.2)


@given(st.lists(st.floats(-1e300, 1e300), max_size=40))
def test_exact_terms_sum_exactly(values):
    assert sum(map(Fraction, exact_terms(values)), Fraction(0)) == sum(map(Fraction, values), Fraction(0))


@given(st.lists(st.floats(0, 1), min_size=1, max_size=60), st.lists(st.integers(1, 60), min_size=1))
def test_any_chunking_gives_fsum(values, sizes):
    totals, start = RunningTotals(), 0
    for size in sizes * len(values):
        if start >= len(values):
            break
        chunk = values[start : start + size]
        totals.add({"x": chunk, "_both_empty": [False] * len(chunk)})
        start += size
    assert totals.result()["x"] == math.fsum(values) / len(values)


@pytest.mark.parametrize("size", [1, 7, 40])
def test_chunked_bundled_data_equals_compute(size):
    rows = read_jsonl("iterater_triples.jsonl") + read_jsonl("fruit_triples.jsonl")
    columns = {
        "sources": [r["source"] for r in rows],
        "predictions": [r["prediction"] for r in rows],
        "references": [r["reference"] for r in rows],
    }
    table = compute(**columns, use_aggregator=False)
    totals = RunningTotals()
    for start in range(0, len(rows), size):
        totals.add({key: values[start : start + size] for key, values in table.items()})
    assert totals.count == 43
    assert totals.result() == compute(**columns, confidence_level=None)


def test_nothing_added_is_an_error():
    with pytest.raises(ValueError, match="no examples"):
        RunningTotals().result()
