"""ROUGE-S and ROUGE-SU: hand-counted cases, a naive enumeration of position pairs, and the
exact values of the original Perl ROUGE-1.5.5 in tests/data/rouge155_skipbigram_golden.jsonl."""

from collections import Counter
from unittest.mock import patch

import pytest
from conftest import quick_and_full, read_jsonl
from hypothesis import strategies as st

from update_rouge import compute, extract_additions, skipbigrams
from update_rouge.engines import make_engine
from update_rouge.skipbigrams import SkipBigramType, gram_total, parse_skip_bigram_type, skip_bigram_counts
from update_rouge.tokens import tokenizer_for

GOLDEN_TYPES = ["rougeS", "rougeSU", "rougeS4", "rougeSU4"]
# The quick run compares every SAMPLE_STEP-th golden row (0, 10, 20, ...); every row is compared in
# the slow run (CI).
SAMPLE_STEP = 10
SWEEPS = [pytest.param(False, id="sample"), pytest.param(True, id="every-row", marks=pytest.mark.slow)]


def scores(reference, prediction, rouge_types):
    """compute() on one example whose source is empty, so the texts are the additions."""
    result = compute(sources=[""], predictions=[prediction], references=[reference], rouge_types=rouge_types)
    return {
        t: (result[f"update_{t}_precision"], result[f"update_{t}_recall"], result[f"update_{t}"]) for t in rouge_types
    }


def f1(precision, recall):
    return 2 * precision * recall / (precision + recall)


# Reference "police killed the gunman", prediction "police kill the gunman" (4 tokens each).
# Skip-bigrams of each: 4 * 3 / 2 = 6; shared: (police, the), (police, gunman), (the, gunman).
# SU adds the unigrams of positions 0..2: police, killed/kill, the; shared: police, the.
# Distance 0 (bigrams): only (the, gunman) of 3. Distance 1 (j - i <= 2): 5 pairs each,
# shared (police, the) and (the, gunman).
POLICE = [
    ("rougeS", 3 / 6, 3 / 6),
    ("rougeSU", 5 / 9, 5 / 9),
    ("rougeS0", 1 / 3, 1 / 3),
    ("rougeSU0", 3 / 6, 3 / 6),
    ("rougeS1", 2 / 5, 2 / 5),
    ("rougeS2", 3 / 6, 3 / 6),
    ("rougeS4", 3 / 6, 3 / 6),
]


@pytest.mark.parametrize("rouge_type, precision, recall", POLICE)
def test_hand_counted_police_example(rouge_type, precision, recall):
    got = scores("police killed the gunman", "police kill the gunman", [rouge_type])[rouge_type]
    assert got == pytest.approx((precision, recall, f1(precision, recall)), abs=1e-12)


def test_repeated_tokens_are_clipped_per_distinct_pair():
    # "a a a": pairs (a, a) x 3 and SU unigrams a x 2; "a a": (a, a) x 1 and a x 1.
    got = scores("a a a", "a a", ["rougeS", "rougeSU"])
    assert got["rougeS"] == pytest.approx((1 / 1, 1 / 3, f1(1, 1 / 3)), abs=1e-12)
    assert got["rougeSU"] == pytest.approx((2 / 2, 2 / 5, f1(1, 2 / 5)), abs=1e-12)


def test_order_matters_and_the_last_token_is_no_su_unigram():
    # (a, b) against (b, a): no shared pair; SU unigrams a and b (first tokens only) differ.
    assert scores("a b", "b a", ["rougeS", "rougeSU"]) == {"rougeS": (0.0, 0.0, 0.0), "rougeSU": (0.0, 0.0, 0.0)}


def test_a_one_token_text_has_no_grams():
    got = scores("gunman", "gunman", ["rougeS", "rougeSU", "rougeSU4"])
    assert set(got.values()) == {(0.0, 0.0, 0.0)}
    assert skip_bigram_counts(["gunman"], ["gunman"], [SkipBigramType(True, None)]) == [(0, 0, 0)]


def test_lines_are_joined_and_tokens_are_rouge_n_tokens():
    # Reference lines "A b." and "C!" give tokens a b c: pairs (a, b), (a, c), (b, c), the
    # line break ignored. Prediction "a, C" gives (a, c): 1 hit of 1 and of 3.
    got = compute(sources=["s."], predictions=["s. a, C"], references=["s. A b. C!"], rouge_types=["rougeS"])
    assert (got["update_rougeS_precision"], got["update_rougeS_recall"]) == pytest.approx((1.0, 1 / 3), abs=1e-12)


def test_skip_bigram_keys_follow_the_usual_form():
    result = compute(sources=["s."], predictions=["s. a b."], references=["s. a b."], rouge_types=["rougeSU4"])
    assert {key for key in result if "rougeSU4" in key} == {
        "update_rougeSU4",
        "update_rougeSU4_precision",
        "update_rougeSU4_recall",
        "update_rougeSU4_low",
        "update_rougeSU4_high",
    }
    assert result["update_rougeSU4"] == 1.0


@pytest.mark.parametrize(
    "name, parsed",
    [
        ("rougeS", SkipBigramType(False, None)),
        ("rougeSU", SkipBigramType(True, None)),
        ("rougeS0", SkipBigramType(False, 0)),
        ("rougeSU4", SkipBigramType(True, 4)),
        ("rougeS12", SkipBigramType(False, 12)),
        ("rougeS04", None),
        ("rougeSU-1", None),
        ("rougeL", None),
        ("rouge2", None),
    ],
)
def test_type_names(name, parsed):
    assert parse_skip_bigram_type(name) == parsed


def naive_grams(tokens, kind):
    """Every gram by position: pairs i < j (j - i <= distance + 1 if limited), SU unigrams 0..n-2."""
    limit = len(tokens) if kind.distance is None else kind.distance + 1
    grams = [
        (tokens[i], tokens[j]) for i in range(len(tokens)) for j in range(i + 1, min(i + limit, len(tokens) - 1) + 1)
    ]
    if kind.unigrams:
        grams += [(token,) for token in tokens[:-1]]
    return Counter(grams)


def naive_counts(reference, prediction, kind):
    reference_grams, prediction_grams = naive_grams(reference, kind), naive_grams(prediction, kind)
    hits = sum((reference_grams & prediction_grams).values())
    return hits, sum(reference_grams.values()), sum(prediction_grams.values())


kinds = st.builds(SkipBigramType, st.booleans(), st.one_of(st.none(), st.integers(0, 8), st.integers(20, 60)))
token_lists = st.lists(st.sampled_from("abcd"), max_size=30) | st.lists(
    st.sampled_from("abcdefghijklmnop"), max_size=60
)


def _counts_equal_a_naive_enumeration_of_position_pairs(reference, prediction, kind_list):
    assert skip_bigram_counts(reference, prediction, kind_list) == [
        naive_counts(reference, prediction, k) for k in kind_list
    ]


(
    test_counts_equal_a_naive_enumeration_of_position_pairs,
    test_counts_equal_a_naive_enumeration_of_position_pairs_full,
) = quick_and_full(700, token_lists, token_lists, st.lists(kinds, min_size=1, max_size=4))(
    _counts_equal_a_naive_enumeration_of_position_pairs
)


def _counts_are_the_same_when_computed_in_small_blocks(reference, prediction, kind):
    # A tiny block size forces the pair counts to be built a few first tokens at a time.
    with patch.object(skipbigrams, "_BLOCK_CELLS", 7):
        assert skip_bigram_counts(reference, prediction, [kind]) == [naive_counts(reference, prediction, kind)]


(
    test_counts_are_the_same_when_computed_in_small_blocks,
    test_counts_are_the_same_when_computed_in_small_blocks_full,
) = quick_and_full(300, token_lists, token_lists, kinds, quick_examples=100)(
    _counts_are_the_same_when_computed_in_small_blocks
)


@pytest.mark.parametrize("n_tokens", [0, 1, 2, 3, 7, 40])
@pytest.mark.parametrize("distance", [None, 0, 1, 4, 6, 100])
def test_gram_totals_equal_the_enumerated_number(n_tokens, distance):
    tokens = [f"t{i}" for i in range(n_tokens)]
    for unigrams in (False, True):
        kind = SkipBigramType(unigrams, distance)
        assert gram_total(n_tokens, kind) == sum(naive_grams(tokens, kind).values())


def test_engines_other_than_python_refuse_skip_bigram_types():
    for engine in ("rust", "rouge-score"):
        with pytest.raises(
            ValueError, match=f"engine='{engine}' cannot compute rougeSU4: skip-bigram types run on the python"
        ):
            make_engine(engine, ["rouge1", "rougeSU4"], tokenizer_for())
    assert make_engine("auto", ["rouge1", "rougeS"], tokenizer_for()).name == "python"


@pytest.fixture(scope="module")
def golden():
    rows = read_jsonl("rouge155_skipbigram_golden.jsonl")
    assert len(rows) == 787
    return rows


def test_an_empty_source_gives_the_golden_texts_as_their_additions(golden):
    for row in golden:
        for field in ("reference", "prediction"):
            assert "\n".join(extract_additions(row[field], source="")) == row[field], (row["id"], field)
    # ROUGE-1.5.5 has no value where neither side has additions (UpdateROUGE defines 1.0): none here.
    assert all(row["reference"] or row["prediction"] for row in golden)


@pytest.mark.parametrize("every_row", SWEEPS)
def test_every_row_equals_rouge155_through_compute(golden, every_row):
    golden = golden if every_row else golden[::SAMPLE_STEP]
    result = compute(
        sources=[""] * len(golden),
        predictions=[row["prediction"] for row in golden],
        references=[row["reference"] for row in golden],
        rouge_types=GOLDEN_TYPES,
        use_aggregator=False,
    )
    for i, row in enumerate(golden):
        for t in GOLDEN_TYPES:
            got = (result[f"update_{t}_precision"][i], result[f"update_{t}_recall"][i], result[f"update_{t}"][i])
            assert got == pytest.approx(tuple(row[t]), abs=1e-9), (row["id"], t)


@pytest.mark.parametrize("every_row", SWEEPS)
def test_every_row_has_rouge155s_raw_counts(golden, every_row):
    golden = golden if every_row else golden[::SAMPLE_STEP]
    engine = make_engine("python", GOLDEN_TYPES, tokenizer_for())
    counted = engine.count_pairs([(row["reference"], row["prediction"]) for row in golden])
    for row, counts in zip(golden, counted):
        for t in GOLDEN_TYPES:
            # ROUGE-1.5.5's order: reference grams, prediction grams, hits.
            assert [counts[t].target, counts[t].prediction, counts[t].hits] == row["counts"][t], (row["id"], t)
