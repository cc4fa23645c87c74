"""The LCS limits (lcs_limits): one limit that holds on every engine, every LCS type and every entry
point (compute, the evaluate module, compare, the reward, the command line, the Trainer helper),
checked before scoring, with messages that say what was refused and the variable that raises it."""

from types import SimpleNamespace

import numpy as np
import pytest
from conftest import COLUMNS, WordIds, run_main, write_jsonl
from rouge_score import rouge_scorer

import update_rouge
from update_rouge.integrations.rewards import update_rouge_reward
from update_rouge.integrations.trainer import make_compute_metrics
from update_rouge.lcs_limits import MAX_PYTHON_LCS_CELLS_VARIABLE, LcsTableTooLarge, wlcs_tables_cost
from update_rouge.rust_engine import rust_available
from update_rouge.tokens import tokenizer_for

# The cost of example 2's 20 x 20 tokens: its 400 cells at lcs_limits.CELL_COSTS each (python rougeL
# and ROUGE-W 1, rust rougeL 12, python rougeLsum 8, rust rougeLsum 60, rouge-score 4,000), plus for
# the summary-level types its one line pair (lcs_limits.PAIR_CELLS: python rougeLsum 200, ROUGE-W
# 9,000, rust rougeLsum 400, rouge-score 60,000), plus for ROUGE-W its 20 x 20 table
# (lcs_limits.WLCS_TABLE_CELLS: 2,000 a cell and 10,000 a token, 1,200,000).
ONE_PAIR_COSTS = {
    ("python", "rougeL"): 400,
    ("rust", "rougeL"): 4_800,
    ("rouge-score", "rougeL"): 1_600_000,
    ("python", "rougeLsum"): 3_400,
    ("rust", "rougeLsum"): 24_400,
    ("rouge-score", "rougeLsum"): 1_660_000,
    ("python", "rougeW"): 1_209_400,
}


class LcsComputed(Exception):
    """An LCS was computed where the test proves a refusal comes first."""


@pytest.fixture
def no_lcs(monkeypatch):
    """Every function that fills an LCS table on any engine refuses to: "refused before any LCS is
    computed" proven by the work done, not by a clock (the python engine's rougeL and rougeLsum,
    ROUGE-W's tables, rouge-score's table, the accelerator's batch)."""

    def refuse(name):
        def refused(*arguments, **keywords):
            raise LcsComputed(f"{name} ran before the refusal")

        return refused

    for module, name in (
        (update_rouge.engines, "lcs_length"),
        (update_rouge.engines, "summary_lcs_hits"),
        (update_rouge.wlcs, "_mark_small"),
        (update_rouge.wlcs, "_mark_large"),
        (rouge_scorer, "_lcs_table"),
    ):
        monkeypatch.setattr(module, name, refuse(f"{module.__name__}.{name}"))
    if rust_available():
        import rouge_score_rs

        class Refusing:
            def __init__(self, *arguments, **keywords):
                pass

            score_batch = staticmethod(refuse("rouge_score_rs.RougeScorer.score_batch"))

        monkeypatch.setattr(rouge_score_rs, "RougeScorer", Refusing)


@pytest.mark.parametrize("engine", ["auto", "python", "rust", "rouge-score"])
@pytest.mark.parametrize("rouge_type", ["rougeL", "rougeLsum", "rougeW"])
def test_the_lcs_limit_holds_on_every_engine(compute, monkeypatch, engine, rouge_type):
    if rouge_type == "rougeW" and engine in ("rust", "rouge-score"):
        pytest.skip("ROUGE-W runs on the python engine only (refused by name for the others)")
    # "auto" refuses what the python engine refuses: the accelerator hands it what it would refuse.
    runs = "python" if engine == "auto" else engine
    cost = ONE_PAIR_COSTS[runs, rouge_type]
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, str(cost - 1))
    with pytest.raises(ValueError) as caught:
        compute(**COLUMNS, rouge_types=[rouge_type], engine=engine)
    assert type(caught.value).__name__ == LcsTableTooLarge.__name__  # the evaluate module has its own copy
    lines = " with their line pairs" if rouge_type != "rougeL" else ""
    pairs = "" if cost == 400 else f"{lines} (a cost of {cost:,} cells)"
    raise_it = f"raise it with the environment variable {MAX_PYTHON_LCS_CELLS_VARIABLE}"
    if runs == "python":
        assert str(caught.value) == (
            f"example 2: {rouge_type} of 20 x 20 tokens{pairs} is more than the LCS limit of {cost - 1:,} cells "
            f"(minutes of computing on any engine; {raise_it})"
        )
    else:  # issue 58: the advice names the engine that computes it within the limit, and it does
        assert str(caught.value) == (
            f"example 2: {rouge_type} of 20 x 20 tokens{pairs} is more than the LCS limit of {cost - 1:,} cells on "
            f"engine='{runs}' ({raise_it}); engine='python' computes it within the limit, with the same numbers"
        )
        followed = compute(**COLUMNS, rouge_types=[rouge_type], engine="python")
        assert followed[f"update_{rouge_type}"] == pytest.approx(2.5 / 3, abs=1e-12)
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, str(cost))
    at_the_limit = compute(**COLUMNS, rouge_types=[rouge_type], engine=engine)
    monkeypatch.delenv(MAX_PYTHON_LCS_CELLS_VARIABLE)
    assert at_the_limit == compute(**COLUMNS, rouge_types=[rouge_type], engine=engine)
    if rouge_type != "rougeW":
        # Example 0: 2 tokens each side ("a", "b" / "a", "c"), one in common: 0.5; then 1.0 and 1.0.
        assert at_the_limit[f"update_{rouge_type}"] == pytest.approx(2.5 / 3, abs=1e-12)


def reversed_lines(count, length):
    """``count`` sentences of ``length`` tokens added on each side of the source "x.", each
    prediction sentence a reference sentence reversed (no line pair can be skipped)."""
    lines = [[f"t{(i + j) % (length + 3)}" for j in range(length)] for i in range(count)]
    return {
        "sources": ["x."],
        "references": ["x. " + " ".join(" ".join(line) + "." for line in lines)],
        "predictions": ["x. " + " ".join(" ".join(reversed(line)) + "." for line in lines)],
    }


@pytest.mark.skipif(not rust_available(), reason="needs the optional accelerator (rouge-score-rs)")
def test_rougelsum_prices_its_cells_per_engine_and_auto_hands_the_accelerators_refusals_to_python(monkeypatch):
    # 10 lines of 3 tokens a side: 30 x 30 cells and 100 line pairs. Python: 8 x 900 + 200 x 100 =
    # 27,200; rust: 60 x 900 + 400 x 100 = 94,000; rouge-score: 4,000 x 900 + 60,000 x 100 = 9,600,000.
    texts = reversed_lines(10, 3)
    monkeypatch.setenv("RAYON_NUM_THREADS", "2")  # "auto" picks the accelerator (two threads)
    assert type(update_rouge.engines.make_engine("auto", ["rougeLsum"], tokenizer_for())).__name__ == "RustEngine"
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "27200")
    python = update_rouge.compute(**texts, rouge_types=["rougeLsum"], engine="python", confidence_level=None)
    assert update_rouge.compute(**texts, rouge_types=["rougeLsum"], engine="auto", confidence_level=None) == python
    for engine, cost in (("rust", 94_000), ("rouge-score", 9_600_000)):
        with pytest.raises(LcsTableTooLarge) as caught:
            update_rouge.compute(**texts, rouge_types=["rougeLsum"], engine=engine, confidence_level=None)
        assert str(caught.value) == (
            f"example 0: rougeLsum of 30 x 30 tokens with their line pairs (a cost of {cost:,} cells) is more than the "
            f"LCS limit of 27,200 cells on engine='{engine}' (raise it with the environment variable "
            f"{MAX_PYTHON_LCS_CELLS_VARIABLE}); engine='python' computes it within the limit, with the same numbers"
        )
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "27199")
    for engine in ("auto", "python"):
        with pytest.raises(LcsTableTooLarge, match=r"^example 0: rougeLsum .* \(a cost of 27,200 cells\) is more than"):
            update_rouge.compute(**texts, rouge_types=["rougeLsum"], engine=engine, confidence_level=None)
    monkeypatch.delenv(MAX_PYTHON_LCS_CELLS_VARIABLE)  # the numbers are rouge-score's own
    assert (
        update_rouge.compute(**texts, rouge_types=["rougeLsum"], engine="rouge-score", confidence_level=None) == python
    )


@pytest.mark.parametrize(
    "engine, count, length, cost",
    [
        # The largest shapes allowed, measured in docs/guarantees.md, and one line more. Python, 30
        # tokens a line: 5,198 lines cost 8 x 155,940**2 + 200 x 5,198**2 = 199,942,109,600;
        # 5,199 cost 200,019,047,400. (3,500 such lines took 23 s at 6.7% of the limit as counted before.)
        ("python", 5_199, 30, 200_019_047_400),
        # 8,000 lines of 10 tokens took 73 s on the accelerator at 16%: 60 x 80,000**2 + 400 x 8,000**2.
        ("rust", 8_000, 10, 409_600_000_000),
        # 5,590 lines: 60 x 55,900**2 + 400 x 5,590**2 = 199,987,840,000; 5,591 lines:
        ("rust", 5_591, 10, 200_059_398_400),
        # 659 lines: 4,000 x 6,590**2 + 60,000 x 659**2 = 199,769,260,000; 660 lines:
        ("rouge-score", 660, 10, 200_376_000_000),
    ],
)
def test_rougelsum_refuses_one_line_more_than_its_largest_allowed_shape_at_once(no_lcs, engine, count, length, cost):
    with pytest.raises(LcsTableTooLarge) as caught:
        update_rouge.compute(
            **reversed_lines(count, length), rouge_types=["rougeLsum"], engine=engine, confidence_level=None
        )
    tokens = count * length
    assert str(caught.value).startswith(
        f"example 0: rougeLsum of {tokens:,} x {tokens:,} tokens with their line pairs (a cost of {cost:,} cells) is more "
        "than the LCS limit of 200,000,000,000 cells"
    )
    assert "\n" not in str(caught.value)


def one_token_lines(count):
    """``count`` one-word sentences added on each side of an empty source."""
    return {
        "sources": [""],
        "references": [" ".join(f"r{i % 50}." for i in range(count))],
        "predictions": [" ".join(f"r{(7 * i) % 50}." for i in range(count))],
    }


@pytest.mark.parametrize(
    "rouge_type, engine, count, additions",
    [
        ("rougeW-1.2", "python", 10_000, "sentences"),  # 100,000,000 line pairs of one cell: 66 s before
        ("rougeW", "python", 10_000, "edits"),  # every other token changed: 69 s before
        ("rougeLsum", "python", 32_000, "sentences"),  # 30,000 x 30,000 took 23 s: allowed, 32,000 not
        ("rougeLsum", "rust", 23_000, "sentences"),
        ("rougeLsum", "rouge-score", 2_000, "sentences"),
    ],
)
def test_many_short_lines_count_their_line_pairs_and_are_refused_before_scoring(
    no_lcs, rouge_type, engine, count, additions
):
    texts = one_token_lines(count)
    if additions == "edits":
        words = [f"w{i}" for i in range(2 * count)]
        texts = {
            "sources": [" ".join(words)],
            "references": [" ".join(w if i % 2 else f"r{i % 50}" for i, w in enumerate(words))],
            "predictions": [" ".join(w if i % 2 else f"q{i % 50}" for i, w in enumerate(words))],
        }
    with pytest.raises(LcsTableTooLarge, match=r"with their line pairs \(a cost of [\d,]+ cells\) is more than"):
        update_rouge.compute(
            **texts, rouge_types=[rouge_type], engine=engine, additions=additions, confidence_level=None
        )


def test_rouge_w_counts_the_cost_of_its_tables_and_refuses_lines_of_sixty_tokens_at_once(no_lcs):
    # 300 lines of 60 tokens a side, each prediction line a reference line reversed (no line can be
    # skipped): 92 s of ROUGE-W on a busy 2-core machine, while its cells and line pairs were 0.6% of
    # the limit. Cost: 18,000 x 18,000 cells + 90,000 pairs x (9,000 + 2,000 x 3,600 + 10,000 x 120).
    lines = [" ".join(f"t{(i + j) % 63}" for j in range(60)) for i in range(300)]
    texts = {
        "sources": ["x."],
        "references": ["x. " + " ".join(line + "." for line in lines)],
        "predictions": ["x. " + " ".join(" ".join(reversed(line.split())) + "." for line in lines)],
    }
    with pytest.raises(LcsTableTooLarge, match=r"^example 0: rougeW of 18,000 x 18,000 tokens .*757,134,000,000 cells"):
        update_rouge.compute(**texts, rouge_types=["rougeW"], confidence_level=None)


def test_the_cost_of_rouge_w_tables_prices_small_and_large_tables_apart():
    # Reference lines of 1 and 200 tokens, prediction lines of 100 and 0: (1, 100) and (1, 0) and
    # (200, 0) are pure-Python tables (at most 16,384 cells), (200, 100) a NumPy one.
    assert wlcs_tables_cost([1, 200], [100, 0]) == (
        (2_000 * 100 + 10_000 * 101) + 10_000 * 1 + (100 * 20_000 + 90_000 * 300) + 10_000 * 200
    )
    assert wlcs_tables_cost([128], [128]) == 2_000 * 16_384 + 10_000 * 256
    assert wlcs_tables_cost([128], [129]) == 100 * 16_512 + 90_000 * 257
    assert wlcs_tables_cost([], [5]) == wlcs_tables_cost([5], []) == 0
    # The sorted sums equal the pair by pair sum.
    rng = np.random.default_rng(40)
    for _ in range(50):
        target, prediction = (rng.choice([0, 1, 2, 64, 128, 129, 256, 20_000], size=rng.integers(0, 7)) for _ in "ab")
        by_pair = sum(
            2_000 * a * b + 10_000 * (a + b) if a * b <= 16_384 else 100 * a * b + 90_000 * (a + b)
            for a in target.tolist()
            for b in prediction.tolist()
        )
        assert wlcs_tables_cost(target.tolist(), prediction.tolist()) == by_pair


def test_a_megabyte_without_a_full_stop_is_refused_at_once_by_the_accelerator(no_lcs):
    text = " ".join(["a", "b"] * 250_000)  # 500,000 tokens, about 1 MB: an 88 s rougeL before
    with pytest.raises(LcsTableTooLarge, match="^example 0: rougeL of 500,000 x 500,000 tokens"):
        update_rouge.compute(sources=[""], references=[text], predictions=[text], rouge_types=["rougeL"])


def test_the_lcs_limit_in_compare_the_reward_and_the_cli(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "399")
    data = write_jsonl(tmp_path / "data.jsonl", COLUMNS)
    argv = ["compare", data, "--system", "prediction", "--system", "base", "--rouge-types", "rougeL"]
    status, out, err = run_main(argv, capsys)
    assert (status, out) == (2, "")
    assert "rougeL of 20 x 20 tokens is more than the LCS limit of 399 cells" in err
    reward = update_rouge_reward("rougeL")
    with pytest.raises(ValueError, match="rougeL of 20 x 20 tokens is more than the LCS limit of 399 cells"):
        reward(completions=COLUMNS["predictions"], source=COLUMNS["sources"], reference=COLUMNS["references"])
    # Issue 58: an engine whose cells cost more names the one that computes the pair within the limit.
    argv = ["score", data, "--rouge-types", "rougeL", "--engine", "rouge-score"]
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "400")
    status, out, err = run_main(argv, capsys)
    assert (status, out) == (2, "")
    assert "cells on --engine rouge-score (raise it" in err and "; --engine python computes it within the limit" in err
    assert run_main([*argv[:-1], "python"], capsys)[0] == 0


def test_the_lcs_limit_in_the_trainer_helper(monkeypatch):
    ids = np.array([[1] * 20, [1, 1] + [0] * 18])  # 20 words, then 2 words
    metrics = make_compute_metrics(WordIds(), sources=["", ""], rouge_types=["rougeL"])
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "399")
    with pytest.raises(ValueError, match="^example 0: rougeL of 20 x 20 tokens is more than the LCS limit of 399"):
        metrics(SimpleNamespace(predictions=ids, label_ids=ids, inputs=None))
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "400")
    assert metrics(SimpleNamespace(predictions=ids, label_ids=ids, inputs=None))["update_rougeL"] == 1.0


def test_a_deletions_pair_beyond_the_limit_says_it_is_the_deletions(monkeypatch, tmp_path, capsys):
    # Example 1 adds 1 token a side; both texts delete the source's 10 sentences of 2 tokens, so
    # only the deletions' pair (20 x 20 tokens, 400 cells of python rougeL) is beyond a limit of 399.
    # Before, the refusal read "rougeL of 20 x 20 tokens" of an example whose additions have 1.
    source = " ".join(f"w{i} x{i}." for i in range(10))
    columns = {"sources": ["a b.", source], "predictions": ["a b. c.", "New."], "references": ["a b. d.", "Old."]}
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "399")
    problem = (
        "rougeL of 20 x 20 tokens in the deletions is more than the LCS limit of 399 cells (minutes of computing on "
        f"any engine; raise it with the environment variable {MAX_PYTHON_LCS_CELLS_VARIABLE})"
    )
    with pytest.raises(LcsTableTooLarge) as caught:
        update_rouge.compute(**columns, rouge_types=["rougeL"], engine="python", deletions=True)
    assert (caught.value.index, caught.value.what, str(caught.value)) == (1, "example", f"example 1: {problem}")
    # Without deletions the same examples are scored: the additions are within the limit.
    assert update_rouge.compute(**columns, rouge_types=["rougeL"], engine="python")["update_rougeL"] == 0.0
    path = write_jsonl(tmp_path / "in.jsonl", columns)
    status, out, err = run_main([path, "--rouge-types", "rougeL", "--engine", "python", "--deletions"], capsys)
    assert (status, out, err) == (2, "", f"update-rouge: error: line 2: {problem}\n")
