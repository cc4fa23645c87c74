"""wlcs: ROUGE-W, ROUGE-1.5.5's weighted longest common subsequence, by hand and against itself.

Its agreement with ROUGE-1.5.5 (`-w 1.2`) is tested with the other ROUGE-1.5.5 options'
golden values in test_rouge155_options.py.
"""

import math
import random

import numpy as np
import pytest
from rouge_score.scoring import Score

from update_rouge import compute
from update_rouge.example_scoring import score_changes
from update_rouge.settings import Settings
from update_rouge.wlcs import _mark_large, _mark_small, _weights, weighted_lcs_counts


def _single(rouge_type, reference, prediction, **options):
    ((scores, _, _),) = score_changes([[reference]], [prediction], Settings(rouge_types=[rouge_type], **options))
    return scores[rouge_type]


def test_rouge_w_by_hand():
    # Reference "a b c d", prediction "a b x d", f(k) = k ** 2: runs "a b" and "d" give
    # hits f(2) + f(1) = 5; ROUGE-1.5.5 weighs the reference twice, f(f(4)) = 256, the
    # prediction once more, f(4) = 16: recall sqrt(5 / 256), precision sqrt(5 / 16).
    score = _single("rougeW-2", ["a b c d"], ["a b x d"])
    assert score.recall == pytest.approx(math.sqrt(5) / 16, rel=1e-15)
    assert score.precision == pytest.approx(math.sqrt(5) / 4, rel=1e-15)
    assert score.fmeasure == pytest.approx(2 * 5 / 64 / (math.sqrt(5) * 5 / 16), rel=1e-12)


def test_rouge_w_side_without_words_is_zero_and_no_additions_is_one():
    assert _single("rougeW", ["!!!"], ["a b"]) == Score(0.0, 0.0, 0.0)
    assert _single("rougeW", ["a b"], ["..."]) == Score(0.0, 0.0, 0.0)
    ((scores, rule, _),) = score_changes([[[]]], [[]], Settings(rouge_types=["rougeW"]))
    assert rule and scores["rougeW"] == Score(1.0, 1.0, 1.0)


def test_rouge_w_type_names():
    with pytest.raises(ValueError, match="greater than 1"):
        compute(sources=[""], predictions=["a"], references=["a"], rouge_types=["rougeW-1"])
    with pytest.raises(ValueError, match="unknown rouge type"):
        compute(sources=[""], predictions=["a"], references=["a"], rouge_types=["rougeW1.5"])
    # Identical one-line texts of 3 words, f(k) = k ** 1.5: hits f(3); precision
    # f^-1(f(3) / f(3)) = 1 but recall f^-1(f(3) / f(f(3))) = 3 ** -0.5 (the reference is
    # weighed twice by ROUGE-1.5.5), so even identical texts score below 1.
    result = compute(sources=[""], predictions=["a b c"], references=["a b c"], rouge_types=["rougeW-1.5"])
    assert result["update_rougeW-1.5_precision"] == pytest.approx(1.0, rel=1e-15)
    assert result["update_rougeW-1.5_recall"] == pytest.approx(3**-0.5, rel=1e-15)


def test_rouge_w_pooled_and_best_recall():
    # Two identical references pooled: hits and both totals double, the ratios do not move.
    one = score_changes([[["a b c d"]]], [["a b x d"]], Settings(rouge_types=["rougeW"]))[0][0]["rougeW"]
    two = score_changes(
        [[["a b c d"], ["a b c d"]]], [["a b x d"]], Settings(rouge_types=["rougeW"], multi_ref="pooled")
    )
    assert two[0][0]["rougeW"] == pytest.approx(one, rel=1e-15)
    best = score_changes(
        [[["q r s"], ["a b c d"]]], [["a b x d"]], Settings(rouge_types=["rougeW"], multi_ref="best_recall")
    )
    assert best[0][0]["rougeW"] == one


def test_numpy_tables_mark_as_python_tables():
    generator = random.Random(13)
    weights = _weights(80, 1.2)
    for _ in range(200):
        reference = [generator.randrange(4) for _ in range(generator.randrange(1, 60))]
        prediction = [generator.randrange(4) for _ in range(generator.randrange(1, 60))]
        small, large = [False] * len(reference), [False] * len(reference)
        _mark_small(reference, prediction, weights, small)
        _mark_large(np.array(reference), np.array(prediction), np.array(weights), large)
        assert small == large


def test_a_run_goes_on_past_a_used_up_marked_position_as_docs_rouge155_options_md_states():
    # docs/rouge155-options.md ("Hits with clipping"), its example: the prediction's one "a" is
    # used up by the first line, so in "b a c d" the "a" is marked but not counted, and the run of
    # "b" is not added there: it goes on across the unmarked "c" into "d", one run of 2.
    counts = weighted_lcs_counts([["a"], ["b", "a", "c", "d"]], [["b", "a", "d"]], list("abacd"), list("bad"), 1.2)
    assert counts.hits == 1 + 2**1.2
    # Lost when the line ends first: "b" counted, then "a" marked but used up, then the end.
    counts = weighted_lcs_counts([["a"], ["b", "a"]], [["b", "a"]], list("aba"), list("ba"), 1.2)
    assert counts.hits == 1
