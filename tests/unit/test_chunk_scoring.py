"""Examples scored in chunks (``files.chunk_scoring``): the corpus of a stream of rows, in one
process or in worker processes, equals ``compute`` on all the examples at once, bit for bit; the
command line's chunks of a file are in test_files_chunks.py."""

from collections import namedtuple

import pytest
from conftest import DATA_DIR, read_jsonl

from update_rouge import Settings, compute
from update_rouge.files import corpus_of_rows
from update_rouge.files import read_jsonl as read_rows


@pytest.fixture(scope="module")
def computed(iterater):
    """``compute``'s result on the bundled IteraTeR triples, all at once."""
    return compute(**iterater)


@pytest.mark.parametrize("chunk_size", [1, 7, 1000])
def test_streamed_totals_equal_compute_bit_for_bit(computed, chunk_size):
    expected = computed
    corpus = corpus_of_rows(read_rows(str(DATA_DIR / "iterater_triples.jsonl")), Settings(), chunk_size=chunk_size)
    assert corpus.result() == expected


Paired = namedtuple("Paired", "line source references prediction baseline")


@pytest.mark.slow
def test_a_paired_corpus_in_workers_equals_compute_with_a_baseline():
    rows = read_jsonl("iterater_triples.jsonl")
    paired = [Paired(i, r["source"], [r["reference"]], r["prediction"], r["source"]) for i, r in enumerate(rows)]
    corpus = corpus_of_rows(paired, Settings(num_proc=2), chunk_size=7, paired=True)
    expected = compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        baseline_predictions=[r["source"] for r in rows],
    )
    assert corpus.result() == expected
