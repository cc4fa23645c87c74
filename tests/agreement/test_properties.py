"""Properties that hold for every input, checked on generated examples (hypothesis).

Texts are drawn two ways: arbitrary Unicode (periods, white space, surrogates included) for the
properties that hold for any text, and sentences of words from a small vocabulary for the ones
that need overlapping words. Every call goes through ``update_rouge.compute`` without intervals.
"""

import pytest
from conftest import quick_and_full
from hypothesis import strategies as st

from update_rouge import compute, extract_additions, split_segments

# Arbitrary text often has additions without a token; the warning is tested in test_no_tokens.
pytestmark = pytest.mark.filterwarnings("ignore::update_rouge.NoTokensWarning")

N_GRAM_TYPES = ("rouge1", "rouge2", "rougeL")
ALL_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
SCORE_SUFFIXES = ("", "_precision", "_recall")

# Few words, so that texts share n-grams; capitals, digits and non-ASCII on purpose.
WORDS = ["the", "cat", "sat", "on", "mat", "The", "dog", "ran", "42", "café", "naïve", "a", "of", "RAN"]

# Any Unicode text (lone surrogates are refused, see test_inputs), or the characters extraction
# splits and strips on.
any_text = st.text(max_size=40) | st.text(". \n\tab", max_size=30)
# A sentence of two or more words: its addition has at least two tokens, so rouge2 is defined.
sentence = st.builds(
    lambda words, end: " ".join(words) + end,
    st.lists(st.sampled_from(WORDS), min_size=2, max_size=6),
    st.sampled_from([".", ".", ".", ""]),
)


@st.composite
def example(draw):
    """A (source, prediction, reference) built from source sentences and new ones."""
    source_sentences = draw(st.lists(sentence.map(lambda s: s.rstrip(".") + "."), max_size=4))
    pool = source_sentences + draw(st.lists(sentence, min_size=1, max_size=4))
    texts = [" ".join(draw(st.lists(st.sampled_from(pool), max_size=5))) for _ in range(2)]
    return " ".join(source_sentences), texts[0], texts[1]


def score(sources, predictions, references, **options):
    return compute(
        sources=list(sources),
        predictions=list(predictions),
        references=list(references),
        rouge_types=list(ALL_TYPES),
        confidence_level=None,
        **options,
    )


def columns(examples):
    return tuple(map(list, zip(*examples)))


def property_tests(*strategies):
    """A quick test of QUICK_EXAMPLES drawn cases and the slow sweep of FULL_EXAMPLES (``quick_and_full``)."""
    return quick_and_full(FULL_EXAMPLES, *strategies, quick_examples=QUICK_EXAMPLES)


# Each property scores every draw through compute: the quick run draws a few, the slow run (CI) many.
QUICK_EXAMPLES = 50
FULL_EXAMPLES = 300


def _every_score_lies_in_0_1(examples):
    table = score(*columns(examples), use_aggregator=False)
    for rouge_type in ALL_TYPES:
        for suffix in SCORE_SUFFIXES:
            assert all(0.0 <= value <= 1.0 for value in table[f"update_{rouge_type}{suffix}"])


test_every_score_lies_in_0_1, test_every_score_lies_in_0_1_full = property_tests(
    st.lists(st.tuples(any_text, any_text, any_text), min_size=1, max_size=4)
)(_every_score_lies_in_0_1)


def _prediction_equal_to_reference_scores_1_for_every_type(examples):
    sources, _, references = columns(examples)
    table = score(sources, references, references, use_aggregator=False)
    for rouge_type in ALL_TYPES:
        for suffix in SCORE_SUFFIXES:
            assert table[f"update_{rouge_type}{suffix}"] == [1.0] * len(examples)


(
    test_prediction_equal_to_reference_scores_1_for_every_type,
    test_prediction_equal_to_reference_scores_1_for_every_type_full,
) = property_tests(st.lists(example(), min_size=1, max_size=4))(_prediction_equal_to_reference_scores_1_for_every_type)


def _prediction_equal_to_source_scores_0_unless_the_reference_adds_nothing(examples):
    sources = [source for source, _ in examples]
    references = [reference for _, reference in examples]
    table = score(sources, sources, references, use_aggregator=False)
    for index, (source, reference) in enumerate(examples):
        expected = 0.0 if extract_additions(reference, source) else 1.0
        for rouge_type in ALL_TYPES:
            for suffix in SCORE_SUFFIXES:
                assert table[f"update_{rouge_type}{suffix}"][index] == expected
        assert table["_prediction_diff_len"][index] == 0.0


(
    test_prediction_equal_to_source_scores_0_unless_the_reference_adds_nothing,
    test_prediction_equal_to_source_scores_0_unless_the_reference_adds_nothing_full,
) = property_tests(st.lists(st.tuples(any_text, any_text), min_size=1, max_size=4))(
    _prediction_equal_to_source_scores_0_unless_the_reference_adds_nothing
)


def _no_addition_is_a_substring_of_its_source_and_every_one_is_a_segment(text, source):
    additions = extract_additions(text, source)
    segments = split_segments(text)
    assert all(addition not in source for addition in additions)
    assert all(addition in segments for addition in additions)
    assert [s for s in segments if s not in source] == additions


(
    test_no_addition_is_a_substring_of_its_source_and_every_one_is_a_segment,
    test_no_addition_is_a_substring_of_its_source_and_every_one_is_a_segment_full,
) = property_tests(any_text, any_text)(_no_addition_is_a_substring_of_its_source_and_every_one_is_a_segment)


def _permuting_examples_permutes_values_and_keeps_the_means(examples_and_permuted):
    examples, permuted = examples_and_permuted
    table = score(*columns(examples), use_aggregator=False)
    permuted_table = score(*columns(permuted), use_aggregator=False)
    means = score(*columns(examples))
    permuted_means = score(*columns(permuted))
    assert permuted_means == means
    for key, values in table.items():
        assert sorted(zip(examples, values), key=repr) == sorted(zip(permuted, permuted_table[key]), key=repr)


(
    test_permuting_examples_permutes_values_and_keeps_the_means,
    test_permuting_examples_permutes_values_and_keeps_the_means_full,
) = property_tests(
    st.lists(example(), min_size=1, max_size=6).flatmap(lambda e: st.tuples(st.just(e), st.permutations(e)))
)(_permuting_examples_permutes_values_and_keeps_the_means)


def _one_value_per_example_for_every_key(examples):
    table = score(*columns(examples), use_aggregator=False)
    assert set(table) == {f"update_{t}{s}" for t in ALL_TYPES for s in SCORE_SUFFIXES} | {
        "_target_diff_len",
        "_prediction_diff_len",
        "_both_empty",
    }
    assert all(len(values) == len(examples) for values in table.values())


test_one_value_per_example_for_every_key, test_one_value_per_example_for_every_key_full = property_tests(
    st.lists(st.tuples(any_text, any_text, any_text), min_size=1, max_size=8)
)(_one_value_per_example_for_every_key)


def _swapping_prediction_and_reference_swaps_precision_and_recall(examples):
    sources, predictions, references = columns(examples)
    table = score(sources, predictions, references, use_aggregator=False)
    swapped = score(sources, references, predictions, use_aggregator=False)
    for rouge_type in N_GRAM_TYPES:
        key = f"update_{rouge_type}"
        assert swapped[f"{key}_precision"] == table[f"{key}_recall"]
        assert swapped[f"{key}_recall"] == table[f"{key}_precision"]
        assert swapped[key] == table[key]
    assert swapped["_target_diff_len"] == table["_prediction_diff_len"]
    assert swapped["_both_empty"] == table["_both_empty"]


(
    test_swapping_prediction_and_reference_swaps_precision_and_recall,
    test_swapping_prediction_and_reference_swaps_precision_and_recall_full,
) = property_tests(st.lists(example(), min_size=1, max_size=4))(
    _swapping_prediction_and_reference_swaps_precision_and_recall
)


@st.composite
def example_with_source_sentence(draw):
    """An example whose prediction ends with a period, and a segment or period-free part of its source."""
    source, prediction, reference = draw(st.one_of(example(), st.tuples(any_text, any_text, any_text)))
    prediction = prediction.rstrip() + "."
    segments = split_segments(source)
    period_free_parts = [part for part in source.split(".") if part.strip()]
    candidates = segments + period_free_parts
    if not candidates:
        return source, prediction, reference, ""
    return source, prediction, reference, draw(st.sampled_from(candidates))


def _appending_a_source_sentence_to_a_prediction_changes_nothing(drawn, separator):
    source, prediction, reference, sentence_of_source = drawn
    before = score([source], [prediction], [reference], use_aggregator=False)
    after = score([source], [prediction + separator + sentence_of_source], [reference], use_aggregator=False)
    assert after == before


(
    test_appending_a_source_sentence_to_a_prediction_changes_nothing,
    test_appending_a_source_sentence_to_a_prediction_changes_nothing_full,
) = property_tests(example_with_source_sentence(), st.sampled_from([" ", "", "\n", "  "]))(
    _appending_a_source_sentence_to_a_prediction_changes_nothing
)


def test_a_one_word_addition_scores_0_for_rouge2_even_against_itself():
    # Why the generated sentences have two or more words: rouge-score finds no bigram in one token.
    table = score(["s."], ["s. Hello."], ["s. Hello."], use_aggregator=False)
    assert table["update_rouge1"] == [1.0]
    assert table["update_rouge2"] == [0.0]
    assert table["update_rougeLsum"] == [1.0]
