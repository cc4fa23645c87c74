"""rougeLsum's LCS hits in linear memory: the same positions as rouge-score, bounded memory,
and the table limit of the engines that build full LCS tables (rouge-score, rouge-score-rs).

The hit recovery is checked against rouge-score's own functions (``lcs_ind``, ``_union_lcs``,
``_summary_level_lcs``) with the memory budgets of ``lcs`` forced tiny, so that every candidate
line is read through checkpoints and recomputed blocks, and every mask is rebuilt at each use.
"""

import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import plain_walk, quick_and_full, union_lcs_positions
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from update_rouge import lcs
from update_rouge.edits import paired_source_positions
from update_rouge.engines import PythonEngine, make_engine
from update_rouge.lcs_limits import DEFAULT_MAX_LCS_CELLS, MAX_LCS_CELLS_VARIABLE, LcsTableTooLarge, max_lcs_cells
from update_rouge.tokens import tokenizer_for

# Few distinct tokens: many repeats, hence many LCS ties for the backtracking to break.
_line = st.lists(st.sampled_from("abcd"), max_size=30)
_lines = st.lists(_line, min_size=1, max_size=4)


def rouge_score_hits(reference_lines, candidate_lines):
    """rouge-score's rougeLsum hit count, recovered from its recall (hits / reference tokens)."""
    score = rouge_scorer._summary_level_lcs(reference_lines, candidate_lines)
    return round(score.recall * sum(map(len, reference_lines)))


@pytest.fixture
def tiny_budgets(monkeypatch):
    """Column and mask budgets of a few bytes: checkpoints, recomputed blocks, rebuilt masks."""
    monkeypatch.setattr(lcs, "COLUMN_BUDGET_BYTES", 8)
    monkeypatch.setattr(lcs, "MASK_BUDGET_BYTES", 8)


def _union_positions_are_rouge_score_backtracking(reference_lines, candidate_lines):
    """Per reference line, exactly the positions of rouge-score's ``_find_union`` of its ``lcs_ind``s."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lcs, "COLUMN_BUDGET_BYTES", 8)
        patch.setattr(lcs, "MASK_BUDGET_BYTES", 8)
        positions = union_lcs_positions(reference_lines, candidate_lines)
        hits = lcs.summary_lcs_hits(reference_lines, candidate_lines)
    expected = [
        rouge_scorer._find_union([rouge_scorer.lcs_ind(reference, candidate) for candidate in candidate_lines])
        for reference in reference_lines
    ]
    assert positions == expected
    assert hits == rouge_score_hits(reference_lines, candidate_lines)


test_union_positions_are_rouge_score_backtracking, test_union_positions_are_rouge_score_backtracking_full = (
    quick_and_full(1500, _lines, _lines)(_union_positions_are_rouge_score_backtracking)
)

# Candidate lines with tokens no reference line holds ("x", "y"), often in runs: columns without
# a match, which the backtracking reads once per run.
_wide_line = st.lists(st.sampled_from("abxy"), max_size=30)
_wide_lines = st.lists(_wide_line, min_size=1, max_size=4)

test_unmatched_runs_are_rouge_score_backtracking, test_unmatched_runs_are_rouge_score_backtracking_full = (
    quick_and_full(1500, _lines, _wide_lines)(_union_positions_are_rouge_score_backtracking)
)


@st.composite
def _lines_and_copies(draw):
    """Reference lines, and candidate lines of which some are copies of reference lines."""
    reference_lines = draw(_lines)
    copy_or_line = st.one_of(st.sampled_from(reference_lines), _line)
    return reference_lines, draw(st.lists(copy_or_line, min_size=1, max_size=4))


def _copied_lines_are_rouge_score_backtracking(lines):
    _union_positions_are_rouge_score_backtracking(*lines)


test_copied_lines_are_rouge_score_backtracking, test_copied_lines_are_rouge_score_backtracking_full = quick_and_full(
    1500, _lines_and_copies()
)(_copied_lines_are_rouge_score_backtracking)


def test_tie_breaking_on_a_known_case(tiny_budgets):
    # rouge-score's backtracking matches the last 'a' of the reference for the candidate "a",
    # and "a b" takes positions 0 and 1: the union holds both 'a's, so 3 hits (taking the
    # first 'a' for "a", as a forward scan would, gives a union of 2 tokens and 2 hits).
    reference = ["a", "b", "a"]
    assert rouge_scorer.lcs_ind(reference, ["a"]) == [2]
    assert rouge_scorer.lcs_ind(reference, ["a", "b"]) == [0, 1]
    assert union_lcs_positions([reference], [["a"], ["a", "b"]]) == [[0, 1, 2]]
    assert lcs.summary_lcs_hits([reference], [["a"], ["a", "b"]]) == 3


def test_lcs_length_with_rebuilt_masks(tiny_budgets):
    rng = random.Random(7)
    for _ in range(200):
        a = [rng.choice("abcde") for _ in range(rng.randrange(1, 50))]
        b = [rng.choice("abcde") for _ in range(rng.randrange(1, 50))]
        assert lcs.lcs_length(a, b) == rouge_scorer._lcs_table(a, b)[-1][-1]


def _lcs_length_is_rouge_score_table(prefix, a, b, suffix):
    a, b = prefix + a + suffix, prefix + b + suffix
    assert lcs.lcs_length(a, b) == rouge_scorer._lcs_table(a, b)[-1][-1]


# Sequences that share a prefix and a suffix (counted without the bit-parallel pass), or not.
test_lcs_length_with_common_ends, test_lcs_length_with_common_ends_full = quick_and_full(
    1500, _line, _line, _line, _line
)(_lcs_length_is_rouge_score_table)


@st.composite
def _walk_cases(draw):
    """A text, a source, the bounds of the source's part to walk, and whether budgets are tiny."""
    text, source = draw(_line), draw(st.one_of(_line, _wide_line))
    start = draw(st.integers(0, len(source)))
    return text, source, start, draw(st.integers(start, len(source))), draw(st.booleans())


def _walk_is_the_plain_table_walk(case):
    text, source, start, end, tiny = case
    kept, paired, stop = plain_walk(text, source[start:end])
    with pytest.MonkeyPatch.context() as patch:
        if tiny:  # rebuilt masks, checkpoints and recomputed blocks
            patch.setattr(lcs, "COLUMN_BUDGET_BYTES", 8)
            patch.setattr(lcs, "MASK_BUDGET_BYTES", 8)
        walked = lcs.lcs_walk(text, source, lcs.source_masks(source), start, end)
    assert walked == (kept, stop)
    # The pairing stated in ``edits``: each kept token takes the first equal source token after the last.
    assert paired_source_positions(text, source[start:end], kept) == paired


test_walk_is_the_plain_table_walk, test_walk_is_the_plain_table_walk_full = quick_and_full(1500, _walk_cases())(
    _walk_is_the_plain_table_walk
)


def test_walk_on_a_known_case():
    # "a b a" against "x a": "a" (0) is passed, since the source's one "a" is left for the last
    # text token; and the walk stops with the source read first.
    assert lcs.lcs_walk(list("aba"), list("xa"), lcs.source_masks(list("xa"))) == ([2], 3)
    assert lcs.lcs_walk(list("abb"), list("b"), lcs.source_masks(list("b"))) == ([1], 2)
    assert lcs.lcs_walk(list("ab"), list("zzab"), lcs.source_masks(list("zzab")), 1, 3) == ([0], 1)
    assert lcs.lcs_walk([], list("ab"), lcs.source_masks(list("ab"))) == ([], 0)


def test_long_single_lines_match_rouge_score(tiny_budgets):
    """Checkpointed blocks of isqrt(m) columns on lines of 1,500 tokens, against rouge-score."""
    rng = random.Random(3)
    words = [f"w{rng.randrange(40)}" for _ in range(3000)]
    reference, candidate = " ".join(words[:1500]), " ".join(words[1500:])
    expected = rouge_scorer.RougeScorer(["rougeLsum"]).score(reference, candidate)
    assert PythonEngine(["rougeLsum"], tokenizer_for()).score(reference, candidate) == expected


_MEMORY_PROBE = textwrap.dedent(
    """
    import random, resource, sys
    from update_rouge.engines import PythonEngine
    from update_rouge.tokens import tokenizer_for
    rng = random.Random(11)
    vocabulary = [f"w{i}" for i in range(20000)]
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]
    n = int(sys.argv[1])
    target = " ".join(rng.choices(vocabulary, weights, k=n))
    prediction = " ".join(rng.choices(vocabulary, weights, k=n))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    score = PythonEngine(["rougeLsum"], tokenizer_for()).score(target, prediction)["rougeLsum"]
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(score.recall, (after - before) // 1024)
    """
)


@pytest.mark.slow
def test_memory_is_bounded_on_a_huge_single_line(tmp_path):
    """Two 60,000-token lines: the old all-columns backtracking needed 450 MB of columns alone."""
    package_root = str(Path(lcs.__file__).resolve().parents[1])  # the code under test, not another install
    environment = {**os.environ, "PYTHONPATH": package_root}
    result = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE, "60000"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env=environment,
    )
    recall, growth_mib = result.stdout.split()
    assert float(recall) > 0.1
    # Masks (2 x 64 MiB budget at most) and 2 * isqrt(m) columns of 7.5 kB: well under 250 MiB.
    assert int(growth_mib) < 250


def test_limit_default_and_variable(monkeypatch):
    monkeypatch.delenv(MAX_LCS_CELLS_VARIABLE, raising=False)
    assert max_lcs_cells() == DEFAULT_MAX_LCS_CELLS == 25_000_000
    monkeypatch.setenv(MAX_LCS_CELLS_VARIABLE, "1000")
    assert max_lcs_cells() == 1000
    for bad in ("0", "-5", "lots"):
        monkeypatch.setenv(MAX_LCS_CELLS_VARIABLE, bad)
        with pytest.raises(ValueError, match=MAX_LCS_CELLS_VARIABLE):
            max_lcs_cells()


def _pairs():
    small = ("the cat sat", "the cat ran")
    big = (" ".join(["a", "b", "c"] * 20), " ".join(["c", "a"] * 30))  # one line each: 60 x 60 tokens
    return [small, big]


@pytest.mark.parametrize("engine", ["rouge-score", "rust"])
def test_explicit_engine_refuses_a_table_above_the_limit(engine, monkeypatch):
    monkeypatch.setenv(MAX_LCS_CELLS_VARIABLE, "3599")
    scorer = make_engine(engine, ["rouge1", "rougeLsum"], tokenizer_for())
    with pytest.raises(
        LcsTableTooLarge, match=r"60 x 60 tokens for rougeLsum.*3,599 cells.*UPDATE_ROUGE_MAX_LCS_CELLS"
    ):
        scorer.score_pairs(_pairs())
    monkeypatch.setenv(MAX_LCS_CELLS_VARIABLE, "3600")
    reference = rouge_scorer.RougeScorer(["rouge1", "rougeLsum"])
    assert scorer.score_pairs(_pairs()) == [reference.score(*pair) for pair in _pairs()]


def test_rouge_score_engine_counts_rougel_on_whole_texts(monkeypatch):
    monkeypatch.setenv(MAX_LCS_CELLS_VARIABLE, "3599")
    pair = ("\n".join(["a b c"] * 20), "\n".join(["c a"] * 30))  # lines of 3 and 2 tokens, texts 60 x 60
    assert make_engine("rouge-score", ["rougeLsum"], tokenizer_for()).score_pairs([pair])
    with pytest.raises(LcsTableTooLarge, match="for rougeL,"):
        make_engine("rouge-score", ["rougeL"], tokenizer_for()).score_pairs([pair])


def test_auto_scores_oversized_pairs_with_the_python_engine(monkeypatch):
    monkeypatch.setenv(MAX_LCS_CELLS_VARIABLE, "100")
    scorer = make_engine("auto", ["rouge1", "rouge2", "rougeLsum"], tokenizer_for(stemmer="porter"))
    reference = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeLsum"], use_stemmer=True)
    pairs = _pairs() + [("", "x"), ("running dogs", "the dogs ran")]
    assert scorer.score_pairs(pairs) == [reference.score(*pair) for pair in pairs]
