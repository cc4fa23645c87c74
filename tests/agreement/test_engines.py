"""The engines against rouge-score itself: every float equal, on generated and real texts.

Generated texts mix a small vocabulary (repeated tokens, ties in the LCS), case, digits,
punctuation-only and empty lines, Unicode that lower-cases oddly, and long lines.
"""

import random

import pytest
from conftest import quick_and_full, texts
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from update_rouge import rust_engine
from update_rouge.engines import PythonEngine, _summary_totals, make_engine
from update_rouge.rust_engine import RustEngine
from update_rouge.tokens import tokenizer_for

ALL_TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rouge9", "rougeL", "rougeLsum"]


def reference_scores(types, target, prediction, **scorer_kwargs):
    return {t: tuple(s) for t, s in rouge_scorer.RougeScorer(types, **scorer_kwargs).score(target, prediction).items()}


def engine_scores(engine, types, target, prediction, use_stemmer=False, tokenizer=None):
    scorer = make_engine(engine, types, tokenizer_for("porter" if use_stemmer else "none", tokenizer))
    return {t: tuple(s) for t, s in scorer.score_pairs([(target, prediction)])[0].items()}


def _python_equals_rouge_score(target, prediction, types):
    assert engine_scores("python", types, target, prediction) == reference_scores(types, target, prediction)


test_python_engine_equals_rouge_score, test_python_engine_equals_rouge_score_full = quick_and_full(
    4000, texts(), texts(), st.lists(st.sampled_from(ALL_TYPES), min_size=1, max_size=3, unique=True)
)(_python_equals_rouge_score)


def _python_rouge1_and_rougelsum_equal_rouge_score(target, prediction):
    # Both always drawn (the lists above rarely draw rougeLsum): rougeLsum's counts are rouge1's only
    # where every target line is a prediction line.
    _python_equals_rouge_score(target, prediction, ["rouge1", "rougeLsum"])


# Lines of a few words of four, so that word order often matters to rougeLsum.
few_word_lines = st.lists(st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=6), min_size=1, max_size=5).map(
    lambda lines: "\n".join(map(" ".join, lines))
)
(
    test_python_rouge1_and_rougelsum_equal_rouge_score,
    test_python_rouge1_and_rougelsum_equal_rouge_score_full,
) = quick_and_full(3000, few_word_lines, few_word_lines)(_python_rouge1_and_rougelsum_equal_rouge_score)


def _python_equals_rouge_score_with_porter_stemming(target, prediction):
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    expected = reference_scores(types, target, prediction, use_stemmer=True)
    assert engine_scores("python", types, target, prediction, use_stemmer=True) == expected


(
    test_python_engine_equals_rouge_score_with_porter_stemming,
    test_python_engine_equals_rouge_score_with_porter_stemming_full,
) = quick_and_full(3000, texts(), texts())(_python_equals_rouge_score_with_porter_stemming)


class WhitespaceTokenizer:
    def tokenize(self, text):
        return text.lower().split()


def _python_equals_rouge_score_with_a_custom_tokenizer(target, prediction, types):
    expected = reference_scores(types, target, prediction, tokenizer=WhitespaceTokenizer())
    got = engine_scores("python", types, target, prediction, tokenizer=lambda text: text.lower().split())
    assert got == expected


(
    test_python_engine_equals_rouge_score_with_a_custom_tokenizer,
    test_python_engine_equals_rouge_score_with_a_custom_tokenizer_full,
) = quick_and_full(2000, texts(), texts(), st.lists(st.sampled_from(ALL_TYPES), min_size=1, max_size=3, unique=True))(
    _python_equals_rouge_score_with_a_custom_tokenizer
)


def _rust_equals_rouge_score(target, prediction, use_stemmer):
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    expected = reference_scores(types, target, prediction, use_stemmer=use_stemmer)
    assert engine_scores("rust", types, target, prediction, use_stemmer=use_stemmer) == expected


test_rust_engine_equals_rouge_score, test_rust_engine_equals_rouge_score_full = quick_and_full(
    1500, texts(), texts(), st.booleans()
)(_rust_equals_rouge_score)


class ComparingEngine(PythonEngine):
    """The python engine that compares the two sides of a pair of equal texts too."""

    def _same_text_counts(self, tokens, lines):
        return None


def _equal_texts_score_as_rouge_score_does(text, types, use_stemmer):
    # A pair of equal texts is scored without comparing its sides (engines.PythonEngine; under "auto"
    # the accelerator takes its rougeLsum from rouge1): the counts as the full comparison finds them,
    # and every float as rouge-score gives it.
    tokenizer = tokenizer_for("porter" if use_stemmer else "none")
    counts = PythonEngine(types, tokenizer).counts(text, text)
    assert counts == ComparingEngine(types, tokenizer).counts(text, text)
    expected = reference_scores(types, text, text, use_stemmer=use_stemmer)
    assert engine_scores("python", types, text, text, use_stemmer=use_stemmer) == expected
    auto = RustEngine(types, tokenizer, fallback=PythonEngine(types, tokenizer))  # "auto" with two threads
    other = text + " zebra"
    first, second = auto.score_pairs([(text, text), (text, other)])
    assert {t: tuple(s) for t, s in first.items()} == expected
    assert {t: tuple(s) for t, s in second.items()} == reference_scores(types, text, other, use_stemmer=use_stemmer)


test_equal_texts_score_as_rouge_score_does, test_equal_texts_score_as_rouge_score_does_full = quick_and_full(
    2000,
    texts(),
    st.lists(st.sampled_from(ALL_TYPES), min_size=1, max_size=3, unique=True),
    st.booleans(),
)(_equal_texts_score_as_rouge_score_does)


def _repeated_lines_score_as_rouge_score_does(lines, picks, use_stemmer):
    # Every target line a prediction line: rougeLsum's counts are rouge1's, which the python engine
    # and, under "auto", the accelerator take; against rouge-score and the full comparison.
    prediction = "\n".join(lines)
    target = "\n".join(lines[pick % len(lines)] for pick in picks)
    types = ["rouge2", "rougeLsum"]
    tokenizer = tokenizer_for("porter" if use_stemmer else "none")
    expected = reference_scores(types, target, prediction, use_stemmer=use_stemmer)
    auto = RustEngine(types, tokenizer, fallback=PythonEngine(types, tokenizer))
    assert rust_engine.summary_way(target, prediction, 2) == "unigrams"
    assert {t: tuple(s) for t, s in auto.score_pairs([(target, prediction)])[0].items()} == expected
    python = PythonEngine(types, tokenizer)
    assert {t: tuple(s) for t, s in python.score_pairs([(target, prediction)])[0].items()} == expected
    target_lines, prediction_lines = python.tokens(target)[1], python.tokens(prediction)[1]
    assert python.counts(target, prediction)["rougeLsum"] == _summary_totals(target_lines, prediction_lines)


test_repeated_lines_score_as_rouge_score_does, test_repeated_lines_score_as_rouge_score_does_full = quick_and_full(
    2000, st.lists(texts(max_words=8), min_size=1, max_size=6), st.lists(st.integers(0, 9), max_size=8), st.booleans()
)(_repeated_lines_score_as_rouge_score_does)


def test_equal_texts_keep_the_types_that_need_their_comparison():
    # ROUGE-W and skip-bigrams are not shortcut: their counts are the comparison's.
    tokenizer = tokenizer_for()
    text = "the cat sat on the mat\nthe cat ran"
    for types in (["rouge1", "rougeW"], ["rougeS4", "rougeLsum"]):
        assert PythonEngine(types, tokenizer)._same_text_counts(*PythonEngine(types, tokenizer).tokens(text)) is None
        assert PythonEngine(types, tokenizer).counts(text, text) == ComparingEngine(types, tokenizer).counts(text, text)
    rouge1, rouge2 = PythonEngine(["rouge1", "rouge2"], tokenizer).counts("one", "one").values()
    assert (rouge1, rouge2) == ((1, 1, 1), (0, 0, 0))


def long_text(rng, n_tokens, n_lines, vocabulary):
    words = [rng.choice(vocabulary) for _ in range(n_tokens)]
    breaks = set(rng.sample(range(1, n_tokens), n_lines - 1)) if n_lines > 1 else set()
    return "".join(("\n" if i in breaks else " ") + w for i, w in enumerate(words)).strip()


@pytest.mark.parametrize("n_tokens, n_lines, vocabulary_size", [(1500, 1, 30), (1500, 60, 300), (800, 1, 3)])
def test_long_lines_equal_rouge_score(n_tokens, n_lines, vocabulary_size):
    rng = random.Random(n_tokens * 7 + n_lines)
    vocabulary = [f"w{i}" for i in range(vocabulary_size)]
    target = long_text(rng, n_tokens, n_lines, vocabulary)
    prediction = long_text(rng, n_tokens, n_lines, vocabulary)
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert engine_scores("python", types, target, prediction) == reference_scores(types, target, prediction)


def test_unknown_engine_is_refused():
    with pytest.raises(ValueError, match="unknown engine 'fast'; valid engines are auto, python, rust, rouge-score"):
        make_engine("fast", ["rouge1"], tokenizer_for())


def test_rust_refuses_a_custom_tokenizer():
    with pytest.raises(ValueError, match="engine='rust' supports only rouge-score's tokenizer"):
        make_engine("rust", ["rouge1"], tokenizer_for(tokenizer=str.split))


def test_auto_uses_python_for_a_custom_tokenizer():
    assert make_engine("auto", ["rouge1"], tokenizer_for(tokenizer=str.split)).name == "python"


@pytest.mark.parametrize("threads", ["1", "2", "16"])
def test_auto_uses_the_accelerator_on_any_number_of_threads(monkeypatch, threads):
    # On one thread too: its rouge-n and rougeL cost less than the Python engine's, and a pair's
    # rougeLsum goes to the Python engine where that costs less (rust_engine.summary_way).
    monkeypatch.setenv("RAYON_NUM_THREADS", threads)
    engine = make_engine("auto", ["rouge1", "rougeLsum"], tokenizer_for())
    assert (engine.name, engine._fallback.name) == ("rust", "python")
