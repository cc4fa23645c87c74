"""The demo's matched tokens: as many as the score counts, and the ones rouge-score counts."""

from collections import Counter

import pytest
from conftest import quick_and_full, union_lcs_positions
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from update_rouge.matches import MAX_SHOWN_CELLS, explained, token_matches
from update_rouge.settings import Settings

DEFAULT = Settings()
WORDS = ["the", "cat", "sat", "on", "mat", "dog", "ran", "a", "of", "42"]
line = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join)
text = st.lists(line, min_size=1, max_size=4).map("\n".join)


def marked(lines):
    return [token for tokens in lines for token, matched in tokens if matched]


def rouge_score_hits(target, prediction, rouge_type, n_prediction):
    """The hits rouge-score counts, read back from its precision (hits / prediction total)."""
    score = rouge_scorer.RougeScorer([rouge_type]).score(target, prediction)[rouge_type]
    return round(score.precision * n_prediction)


def test_the_dan_example_marks_the_shared_words():
    target, prediction = "Dan loves chocolate cakes.", "Dan loves chocolate chip cookies."
    for rouge_type in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        matches = token_matches(target, prediction, rouge_type, DEFAULT)
        assert matches.target == [[("dan", True), ("loves", True), ("chocolate", True), ("cakes", False)]]
        assert marked(matches.prediction) == ["dan", "loves", "chocolate"]
        assert [token for token, _ in matches.prediction[0]] == ["dan", "loves", "chocolate", "chip", "cookies"]
    assert token_matches(target, prediction, "rouge1", DEFAULT).counts == (3, 4, 5)
    assert token_matches(target, prediction, "rouge2", DEFAULT).counts == (2, 3, 4)


def test_an_ngram_matches_as_often_as_it_occurs_on_both_sides():
    matches = token_matches("a a a b", "a b a", "rouge1", DEFAULT)
    assert [m for _, m in matches.target[0]] == [True, True, False, True]
    assert [m for _, m in matches.prediction[0]] == [True, True, True]
    bigrams = token_matches("a b x a b", "a b a b a b", "rouge2", DEFAULT)
    assert [m for _, m in bigrams.target[0]] == [True, True, False, True, True]
    # "a b" twice on each side, "b a" not in the target: the last "a b" of the prediction is unmatched.
    assert [m for _, m in bigrams.prediction[0]] == [True, True, True, True, False, False]
    assert bigrams.counts == (2, 4, 5)


def test_stemmed_tokens_are_shown_as_scored():
    matches = token_matches("The cats were running", "a cat runs", "rouge1", Settings(stemmer="porter"))
    assert matches.target == [[("the", False), ("cat", True), ("were", False), ("run", True)]]


def test_rougelsum_marks_follow_the_lines():
    matches = token_matches("the cat sat\nthe dog ran", "the dog sat\nthe cat", "rougeLsum", DEFAULT)
    assert len(matches.target) == 2 and len(matches.prediction) == 2
    assert sum(m for line in matches.target for _, m in line) == matches.counts.hits == 5


def test_other_types_and_long_texts_are_refused():
    assert not explained("rougeSU4") and not explained("rougeW") and explained("rouge9")
    with pytest.raises(ValueError, match="matches of rougeW are not shown"):
        token_matches("a", "a", "rougeW", DEFAULT)
    long = " ".join(["word"] * 2100)
    with pytest.raises(ValueError, match=f"at most {MAX_SHOWN_CELLS:,}"):
        token_matches(long, long, "rougeL", DEFAULT)


def check_marks_agree_with_rouge_score(target, prediction):
    for rouge_type in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        matches = token_matches(target, prediction, rouge_type, DEFAULT)
        n_prediction = matches.counts.prediction
        hits = rouge_score_hits(target, prediction, rouge_type, n_prediction)
        assert matches.counts.hits == hits
        target_marked, prediction_marked = marked(matches.target), marked(matches.prediction)
        if rouge_type == "rouge1":
            assert Counter(target_marked) == Counter(prediction_marked) and len(target_marked) == hits
        elif rouge_type == "rouge2":
            assert (hits > 0) == bool(target_marked) == bool(prediction_marked)
        elif rouge_type == "rougeL":
            assert target_marked == prediction_marked and len(target_marked) == hits
        else:
            assert len(target_marked) == len(prediction_marked) == hits
            assert Counter(target_marked) == Counter(prediction_marked)
            # The target's marks are the union positions the package's bit-parallel LCS finds, clipped.
            target_lines = [[t for t, _ in tokens] for tokens in matches.target]
            prediction_lines = [[t for t, _ in tokens] for tokens in matches.prediction]
            union = union_lcs_positions(target_lines, prediction_lines)
            assert all(i in union[r] for r, tokens in enumerate(matches.target) for i, (_, m) in enumerate(tokens) if m)


test_marks_agree_with_rouge_score, test_marks_agree_with_rouge_score_full = quick_and_full(2000, text, text)(
    check_marks_agree_with_rouge_score
)


def marked_grams(matches):
    return marked(matches.target_grams), marked(matches.prediction_grams)


def test_ngram_types_mark_whole_ngrams_as_many_as_the_hits():
    # "a b" twice in the target, three times in the prediction: its first two occurrences on each side.
    bigrams = token_matches("a b x a b", "a b a b a b", "rouge2", DEFAULT)
    assert bigrams.target_grams == [[("a b", True), ("b x", False), ("x a", False), ("a b", True)]]
    assert bigrams.prediction_grams == [[("a b", True), ("b a", False), ("a b", True), ("b a", False), ("a b", False)]]
    # Overlapping matched bigrams are two marks, not one span of three tokens.
    assert marked_grams(token_matches("a b c", "a b c d", "rouge2", DEFAULT)) == (["a b", "b c"], ["a b", "b c"])
    dan = token_matches("Dan loves chocolate cakes.", "Dan loves chocolate chip cookies.", "rouge3", DEFAULT)
    assert marked_grams(dan) == (["dan loves chocolate"], ["dan loves chocolate"]) and dan.counts.hits == 1
    # Unigram and LCS types count tokens: their units are the marked tokens.
    unigrams = token_matches("a a a b", "a b a", "rouge1", DEFAULT)
    assert unigrams.target_grams == unigrams.target and unigrams.prediction_grams == unigrams.prediction


def check_marked_ngrams_are_rouge_scores_hits(target, prediction):
    for rouge_type in ("rouge2", "rouge3"):
        matches = token_matches(target, prediction, rouge_type, DEFAULT)
        hits = rouge_score_hits(target, prediction, rouge_type, matches.counts.prediction)
        target_grams, prediction_grams = marked_grams(matches)
        assert len(target_grams) == len(prediction_grams) == hits == matches.counts.hits
        assert Counter(target_grams) == Counter(prediction_grams)
        assert len(matches.target_grams[0]) == matches.counts.target


test_marked_ngrams_are_rouge_scores_hits, test_marked_ngrams_are_rouge_scores_hits_full = quick_and_full(
    2000, text, text
)(check_marked_ngrams_are_rouge_scores_hits)
