"""Examples spread over processes (``example_workers``): the one path of ``compute`` and of
``score_chunks``, how many processes score, and an LCS refusal placed at its example. The
results of several processes against one are in test_parallel.py."""

from collections import namedtuple

import pytest

from update_rouge import Settings, compute, example_workers, metric
from update_rouge.example_workers import ExampleWorkers, process_count
from update_rouge.files import corpus_of_rows, score_chunks
from update_rouge.lcs_limits import LcsTableTooLarge

Row = namedtuple("Row", "line source references prediction")
TRIPLES = [
    ("Dan is a baker.", "Dan is a baker. Dan loves chocolate.", ["Dan is a baker. He loves chocolate."]),
    ("The sky is blue.", "The sky is blue. It rains.", ["The sky is blue. It rains today."]),
    ("Ann sings.", "Ann sings. Ann dances.", ["Ann sings. Ann dances well."]),
]


def test_compute_and_score_chunks_spread_their_work_along_one_path(monkeypatch):
    seen = []
    in_order = ExampleWorkers.in_order

    def noted(self, pieces, firsts=None):
        seen.append(getattr(self.function, "func", self.function).__name__)
        return in_order(self, pieces, firsts)

    monkeypatch.setattr(ExampleWorkers, "in_order", noted)
    sources, predictions, references = zip(*TRIPLES)
    expected = compute(sources, predictions, references, rouge_types=["rouge1"])
    rows = [Row(i + 1, source, references, prediction) for i, (source, prediction, references) in enumerate(TRIPLES)]
    corpus = corpus_of_rows(rows, Settings(rouge_types=["rouge1"]), chunk_size=2)
    # compute's shards; then the chunks handed out, each scoring its rows (in its worker) the same way.
    assert seen == ["table_checked", "_score_chunk", "table_checked", "table_checked"]
    assert corpus.result() == expected
    # F1 by hand: 2 of 3 unigrams each way; then P 2/2, R 2/3 (F 0.8) twice.
    assert expected["update_rouge1"] == pytest.approx((2 / 3 + 0.8 + 0.8) / 3)


def test_the_processes_are_capped_at_the_cpus_and_the_pieces_of_work(monkeypatch):
    monkeypatch.setattr(example_workers, "available_cpus", lambda: 4)
    assert process_count(8) == 4
    assert process_count(3) == 3
    assert process_count(8, 3) == 3
    assert process_count(8, 0) == 1, "no pieces (an empty input) still has this process"

    class Cluster:
        count = 16

    assert process_count(2, workers=Cluster()) == 16, "workers elsewhere: as many as they have, whatever the CPUs here"
    assert process_count(2, 5, Cluster()) == 5


def refuse_at_piece_two(index, size):
    if index == 2:
        raise LcsTableTooLarge("rougeL of 20 x 20 tokens", 399, "time", 1, "example")
    return size


@pytest.mark.parametrize("firsts", [[0, 3, 5], None])
def test_an_lcs_refusal_of_a_piece_is_placed_at_its_example_in_the_whole_input(firsts):
    pieces = [(0, 3), (1, 2), (2, 4)]
    with ExampleWorkers(refuse_at_piece_two, 1) as workers, pytest.raises(LcsTableTooLarge) as raised:
        list(workers.in_order(pieces, firsts))
    # The third piece starts at example 5 of the whole input: its example 1 is example 6.
    assert raised.value.index == (6 if firsts else 1)
    assert str(raised.value).startswith("example 6: " if firsts else "example 1: ")


def test_workers_elsewhere_get_the_function_and_all_the_pieces_in_order():
    calls = []

    class Cluster:
        count = 3

        def starmap_in_order(self, function, items, count):
            calls.append(count)
            for item in items:
                yield function(*item)

    rows = [Row(i + 1, source, references, prediction) for i, (source, prediction, references) in enumerate(TRIPLES)]
    settings = Settings(rouge_types=["rouge1"])
    corpus = score_chunks([rows[:1], rows[1:]], settings, workers=Cluster())
    sources, predictions, references = zip(*TRIPLES)
    assert calls == [2], "no more workers than the two chunks"
    assert corpus.result() == compute(sources, predictions, references, rouge_types=["rouge1"])


def test_metric_holds_the_public_api_only():
    defined = {
        name
        for name, value in vars(metric).items()
        if getattr(value, "__module__", None) == "update_rouge.metric" and callable(value)
    }
    assert defined == {"Tables", "UpdateRougeScorer", "compute", "score_examples"}
