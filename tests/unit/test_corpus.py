"""corpus: the one path of corpus statistics (``corpus_statistics`` and ``Corpus``)."""

from fractions import Fraction

import numpy as np
import pytest
from conftest import read_jsonl

from update_rouge import compare, compute
from update_rouge.corpus import Corpus, corpus_statistics
from update_rouge.metric import UpdateRougeScorer
from update_rouge.settings import Settings


def _columns(name="iterater_triples.jsonl"):
    rows = read_jsonl(name)
    return {
        "sources": [r["source"] for r in rows],
        "predictions": [r["prediction"] for r in rows],
        "references": [r["reference"] for r in rows],
    }


def test_the_macro_value_is_the_exact_mean_and_the_interval_holds_it():
    values = [0.1, 0.2, 0.7, 1.0, 0.0, 1 / 3]
    result = corpus_statistics({"update_rouge1": values}, None, Settings(rouge_types=["rouge1"], n_bootstrap=200))
    exact = sum(map(Fraction, values)) / len(values)
    assert abs(Fraction(result["update_rouge1"]) - exact) <= Fraction(1, 2**53)
    assert result["update_rouge1_low"] <= result["update_rouge1"] <= result["update_rouge1_high"]
    assert set(result) == {"update_rouge1", "update_rouge1_low", "update_rouge1_high"}


def test_the_micro_value_is_f_of_the_summed_counts():
    # hits, reference tokens, prediction tokens: summed 5, 10, 8 -> P 5/8, R 5/10, F 2PR/(P+R) = 5/9.
    counts = {"update_rouge1": [(1, 4, 2), (4, 6, 6)]}
    settings = Settings(rouge_types=["rouge1"], average="micro", confidence_level=None)
    result = corpus_statistics(counts, None, settings)
    assert result == pytest.approx(
        {"update_rouge1": 5 / 9, "update_rouge1_precision": 5 / 8, "update_rouge1_recall": 0.5}
    )


def _cut(table, part):
    return None if table is None else {key: values[part] for key, values in table.items()}


@pytest.mark.parametrize("average", ["macro", "micro"])
@pytest.mark.parametrize("size", [1, 7])
def test_a_corpus_fed_in_chunks_equals_compute(average, size):
    columns = _columns()
    baseline = columns["sources"]
    settings = Settings(average=average, n_bootstrap=300, use_aggregator=False)
    scorer_table = compute(**columns, average=average, use_aggregator=False)
    baseline_table = compute(**{**columns, "predictions": baseline}, average=average, use_aggregator=False)
    expected = compute(**columns, average=average, n_bootstrap=300, baseline_predictions=baseline)
    corpus = Corpus(settings, paired=True)
    tables = UpdateRougeScorer(settings).tables(**columns, baseline_predictions=baseline)
    assert tables.table == scorer_table and tables.baseline_table == baseline_table
    n = len(baseline)
    for start in range(0, n, size):
        part = slice(start, start + size)

        corpus.add(
            _cut(tables.table, part),
            columns["references"][part],
            _cut(tables.baseline_table, part),
            _cut(tables.counts, part),
            _cut(tables.baseline_counts, part),
        )
    assert corpus.result() == expected


@pytest.mark.parametrize("average", ["macro", "micro"])
def test_compare_goes_through_the_same_statistics_as_compute(average):
    columns = _columns()
    baseline = columns["sources"]
    options = {"average": average, "n_bootstrap": 250, "seed": 7}
    compared = compare(
        columns["sources"],
        columns["references"],
        {"base": baseline, "system": columns["predictions"]},
        "base",
        **options,
    )
    paired = compute(**columns, baseline_predictions=baseline, **options)
    for key, value in compared["system"].items():
        assert value == paired[key], key
    alone = compute(**{**columns, "predictions": baseline}, **options)
    for key, value in compared["base"].items():
        assert value == alone[key], key


def test_micro_counts_as_an_array_or_as_tuples_give_the_same_numbers():
    counts = [(1, 4, 2), (4, 6, 6), (0, 3, 1)]
    settings = Settings(rouge_types=["rouge1"], average="micro", n_bootstrap=100)
    as_tuples = corpus_statistics({"update_rouge1": counts}, None, settings)
    as_array = corpus_statistics({"update_rouge1": np.asarray(counts, dtype=np.int64)}, None, settings)
    assert as_tuples == as_array
