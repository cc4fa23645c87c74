"""The accelerator's adapter (rust_engine): installed where the tests run, its threads, its
refusal of other tokens, the pairs above its LCS limit handed to its fallback or refused, and the
ways to a pair's rougeLsum."""

import pytest
from rouge_score import rouge_scorer

from update_rouge import rust_engine
from update_rouge.engines import PythonEngine, make_engine
from update_rouge.errors import LEFT_OUT, OptionError, Setting
from update_rouge.lcs_limits import MAX_PYTHON_LCS_CELLS_VARIABLE, LcsTableTooLarge
from update_rouge.rust_engine import RustEngine, accelerator_threads, rust_available
from update_rouge.tokens import tokenizer_for


def test_rust_is_installed_where_its_tests_run():
    # tests/run.sh installs the [fast] extra, so the accelerator's differential tests really run.
    assert rust_available()


@pytest.mark.parametrize("threads, expected", [("3", 3), (" 12 ", 12), ("0", 5), ("-2", 5), ("two", 5), ("", 5)])
def test_the_threads_are_rayon_num_threads_when_positive_else_one_per_cpu(monkeypatch, threads, expected):
    monkeypatch.setattr(rust_engine, "available_cpus", lambda: 5)
    monkeypatch.setenv("RAYON_NUM_THREADS", threads)
    assert accelerator_threads() == expected
    monkeypatch.delenv("RAYON_NUM_THREADS")
    assert accelerator_threads() == 5


def test_it_refuses_other_tokens_than_rouge_scores_and_its_alternatives_work():
    tokenizer = tokenizer_for(tokenizer=str.split)
    with pytest.raises(OptionError) as caught:
        RustEngine(["rouge1"], tokenizer)
    assert (caught.value.option, caught.value.value) == ("engine", "rust")
    assert caught.value.instead == ((Setting("engine", LEFT_OUT),), (Setting("engine", "python"),))
    # Both alternatives score: "auto" (the option left out) and "python" run the Python engine.
    for name in ("auto", "python"):
        scores = make_engine(name, ["rouge1"], tokenizer).score_pairs([("a b", "a c")])
        assert tuple(scores[0]["rouge1"]) == (0.5, 0.5, 0.5)


# 10 lines of 3 tokens a side, each prediction line a reference line reversed: 30 x 30 cells and
# 100 line pairs. rougeLsum costs the accelerator 60 x 900 + 400 x 100 = 94,000 cells, the Python
# engine 8 x 900 + 200 x 100 = 27,200 (lcs_limits.CELL_COSTS and PAIR_CELLS).
LINES = [[f"t{(i + j) % 6}" for j in range(3)] for i in range(10)]
TARGET = "\n".join(" ".join(line) for line in LINES)
PREDICTION = "\n".join(" ".join(reversed(line)) for line in LINES)


def test_a_pair_above_its_limit_goes_to_the_fallback_or_is_refused_at_its_index(monkeypatch):
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "27200")
    pairs = [("a b", "a c"), (TARGET, PREDICTION)]
    expected = [rouge_scorer.RougeScorer(["rougeLsum"]).score(*pair)["rougeLsum"] for pair in pairs]
    tokenizer = tokenizer_for()
    fallback = PythonEngine(["rougeLsum"], tokenizer)
    scores = RustEngine(["rougeLsum"], tokenizer, fallback=fallback).score_pairs(pairs)
    assert [tuple(score["rougeLsum"]) for score in scores] == [tuple(score) for score in expected]
    with pytest.raises(LcsTableTooLarge) as caught:
        RustEngine(["rougeLsum"], tokenizer).score_pairs(pairs)
    assert caught.value.index == 1
    assert "rougeLsum of 30 x 30 tokens with their line pairs (a cost of 94,000 cells)" in str(caught.value)
    # Beyond the fallback's own limit too, the pair is refused before anything is scored.
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "27199")
    with pytest.raises(LcsTableTooLarge, match=r"\(a cost of 27,200 cells\)") as caught:
        RustEngine(["rougeLsum"], tokenizer, fallback=fallback).score_pairs(pairs)
    assert caught.value.index == 1


def test_rougelsum_comes_the_cheapest_way():
    # Every target line a prediction line (in any order, repeated or not): rouge1's counts.
    assert rust_engine.summary_way("b c\na b\na b", "a b\nx y\nb c", 2) == "unigrams"
    assert rust_engine.summary_way("a b\n\nb c", "b c\na b", 16) == "unigrams"
    # Small pairs stay with the accelerator; long ones whose target lines the prediction mostly
    # repeats go to the python engine while few threads share the accelerator's table.
    assert rust_engine.summary_way("a b\nc d", "a b\nd c", 1) is None
    lines = [f"sentence {i} of a long text with its words." for i in range(200)]
    target, prediction = "\n".join([*lines, "a new one."]), "\n".join(lines[::-1])
    assert rust_engine.summary_way(target, prediction, 2) == "python"
    assert rust_engine.summary_way(target, prediction, 64) is None
    assert rust_engine.summary_way("\n".join(f"other {i}." for i in range(200)), prediction, 2) is None


def test_each_way_to_rougelsum_gives_the_accelerators_own_scores(monkeypatch):
    # The Wikipedia triples' additions and deletions: "auto" on two threads, rougeLsum taken from
    # rouge1's counts or the python engine where summary_way says, against the accelerator alone
    # (which its differential tests hold to rouge-score).
    from conftest import read_jsonl

    from update_rouge.extraction import SourceIndex, join_segments

    monkeypatch.setattr(rust_engine, "accelerator_threads", lambda: 2)
    pairs = []
    for row in read_jsonl("wiki_triples.jsonl"):
        index = SourceIndex(row["source"])
        for changes in (index.additions, index.deletions):
            pairs.append((join_segments(changes(row["reference"])), join_segments(changes(row["prediction"]))))
    ways = [rust_engine.summary_way(*pair, 2) for pair in pairs]
    counts = {way: ways.count(way) for way in (None, "unigrams", "python")}
    assert min(counts.values()) > 100, f"each way must be taken by many pairs: {counts}"
    tokenizer = tokenizer_for()
    for types in (["rouge1", "rouge2", "rougeLsum"], ["rougeLsum"], ["rouge2", "rougeL", "rougeLsum"]):
        alone = RustEngine(types, tokenizer).score_pairs(pairs)
        assert RustEngine(types, tokenizer, fallback=PythonEngine(types, tokenizer)).score_pairs(pairs) == alone
