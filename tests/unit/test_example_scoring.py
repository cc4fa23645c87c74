"""ROUGE-1.5.5's two ways of scoring against several references (pooled ``-f A``, best recall
``-f B``) next to rouge-score's best F1: hand-counted cases and the exact values of the original
Perl ROUGE-1.5.5 in tests/data/rouge155_multiref_golden.jsonl."""

import pytest
from conftest import read_jsonl

from update_rouge import compute, extract_additions
from update_rouge.engines import make_engine, score_from_counts
from update_rouge.example_scoring import best_recall_index
from update_rouge.tokens import tokenizer_for

MODES = ["max_f1", "pooled", "best_recall"]


def scores(references, prediction, rouge_types, multi_ref, source=""):
    result = compute(
        sources=[source],
        predictions=[prediction],
        references=[references],
        rouge_types=rouge_types,
        multi_ref=multi_ref,
        use_aggregator=False,
    )
    triples = {
        t: (result[f"update_{t}_precision"][0], result[f"update_{t}_recall"][0], result[f"update_{t}"][0])
        for t in rouge_types
    }
    return triples, result["_both_empty"][0]


def f1(precision, recall):
    return 2 * precision * recall / (precision + recall)


FOX = "The quick brown fox jumps over the lazy dog"
DOGS = ["A fast brown dog jumps over a sleeping fox", "A quick brown dog jumps over the fox"]


def test_tutorial_example_pooled_recall_is_12_of_17():
    # The prediction's 9 tokens match 5 of the first reference's 9 (brown dog jumps over fox) and
    # 7 of the second's 8 (quick brown dog jumps over the fox): 12 of 17, precision 12 / (2 x 9).
    got, _ = scores(DOGS, FOX, ["rouge1"], "pooled")
    assert got["rouge1"] == pytest.approx((12 / 18, 12 / 17, f1(12 / 18, 12 / 17)), abs=1e-12)


def test_tutorial_example_best_single_reference_recall_is_7_of_8():
    for mode in ("best_recall", "max_f1"):
        got, _ = scores(DOGS, FOX, ["rouge1"], mode)
        assert got["rouge1"] == pytest.approx((7 / 9, 7 / 8, f1(7 / 9, 7 / 8)), abs=1e-12), mode


def test_tutorial_example_pooled_skip_bigrams():
    # rougeS0 = bigrams; the prediction has 8. Of the first reference's 8 it shares "jumps
    # over"; of the second's 7, "quick brown", "jumps over" and "over the". Pooled: recall
    # (1 + 3) / (8 + 7), precision 4 / (2 x 8).
    got, _ = scores(DOGS, FOX, ["rougeS0"], "pooled")
    assert got["rougeS0"] == pytest.approx((4 / 16, 4 / 15, f1(4 / 16, 4 / 15)), abs=1e-12)


def test_best_recall_takes_the_first_of_equal_recalls_where_best_f1_takes_the_better_f1():
    # Prediction a b c d. First reference "a b": recall 2/2, precision 2/4. Second "a b c":
    # recall 3/3, precision 3/4. Equal recall: -f B keeps the first; best F1 takes the second.
    got, _ = scores(["a b", "a b c"], "a b c d", ["rouge1"], "best_recall")
    assert got["rouge1"] == pytest.approx((2 / 4, 1.0, f1(2 / 4, 1.0)), abs=1e-12)
    got, _ = scores(["a b", "a b c"], "a b c d", ["rouge1"], "max_f1")
    assert got["rouge1"] == pytest.approx((3 / 4, 1.0, f1(3 / 4, 1.0)), abs=1e-12)


def test_best_recall_compares_rouge_n_rounded_to_5_decimals_and_rouge_l_exactly():
    # 400 distinct prediction words. The first reference has 288 of them then 89 others
    # (recall 288/377 = 0.7639257), the second 233 then 72 others (233/305 = 0.7639344): both
    # 0.76393 at 5 decimals, so ROUGE-1 keeps the first; ROUGE-L compares exactly and takes the
    # second, whose LCS (its 233 prediction words, in order) gives the higher recall.
    prediction = " ".join(f"w{i}" for i in range(400))
    first = " ".join([f"w{i}" for i in range(288)] + [f"x{i}" for i in range(89)])
    second = " ".join([f"w{i}" for i in range(233)] + [f"y{i}" for i in range(72)])
    got, _ = scores([first, second], prediction, ["rouge1", "rougeLsum"], "best_recall")
    assert got["rouge1"][:2] == pytest.approx((288 / 400, 288 / 377), abs=1e-12)
    assert got["rougeLsum"][:2] == pytest.approx((233 / 400, 233 / 305), abs=1e-12)


def test_pooled_counts_a_reference_without_additions_in_the_precision():
    # The second reference adds nothing: recall (2 + 0) / (2 + 0), precision 2 / (2 x 2).
    references, prediction = ["s. a b.", "s."], "s. a b."
    got, both_empty = scores(references, prediction, ["rouge1"], "pooled", source="s.")
    assert got["rouge1"] == pytest.approx((1 / 2, 1.0, f1(1 / 2, 1.0)), abs=1e-12)
    assert not both_empty
    for mode in ("max_f1", "best_recall"):
        assert scores(references, prediction, ["rouge1"], mode, source="s.")[0]["rouge1"] == (1.0, 1.0, 1.0)


@pytest.mark.parametrize(
    "mode, expected, both_empty",
    [("max_f1", 1.0, True), ("best_recall", 1.0, True), ("pooled", 0.0, False)],
)
def test_no_additions_rule_when_some_reference_adds_nothing(mode, expected, both_empty):
    # The prediction adds nothing, like the second reference; the first reference adds text.
    got, applied = scores(["s. a b.", "s."], "s.", ["rouge1", "rougeSU4", "rougeLsum"], mode, source="s.")
    assert set(got.values()) == {(expected, expected, expected)}
    assert applied is both_empty


@pytest.mark.parametrize("mode", MODES)
def test_no_additions_rule_when_every_reference_adds_nothing(mode):
    got, applied = scores(["s.", "s."], "s.", ["rouge2", "rougeS"], mode, source="s.")
    assert set(got.values()) == {(1.0, 1.0, 1.0)}
    assert applied


def test_with_one_reference_every_mode_gives_the_same_floats():
    rows = read_jsonl("iterater_triples.jsonl")
    kwargs = dict(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeSU4"],
        use_aggregator=False,
    )
    expected = compute(**kwargs, multi_ref="max_f1")
    assert compute(**kwargs, multi_ref="pooled") == expected
    assert compute(**kwargs, multi_ref="best_recall") == expected


@pytest.mark.parametrize("engine", ["rust", "rouge-score"])
@pytest.mark.parametrize("mode", ["pooled", "best_recall"])
def test_other_engines_refuse_the_rouge155_modes(engine, mode):
    with pytest.raises(
        ValueError,
        match=f"^engine='{engine}' gives no raw counts, which multi_ref='{mode}' needs; instead: leave out engine, or engine='python'$",
    ):
        compute(sources=["s."], predictions=["s. a."], references=[["s. a.", "s. b."]], multi_ref=mode, engine=engine)


GOLDEN_TYPES = {"rouge1": "rouge1", "rouge2": "rouge2", "rougeL": "rougeLsum"}  # ROUGE-1.5.5 name -> ours
# The quick run compares every SAMPLE_STEP-th golden row (0, 5, 10, ...); every row is compared in
# the slow run (CI).
SAMPLE_STEP = 5
SWEEPS = [pytest.param(False, id="sample"), pytest.param(True, id="every-row", marks=pytest.mark.slow)]


@pytest.fixture(scope="module")
def golden():
    rows = read_jsonl("rouge155_multiref_golden.jsonl")
    assert len(rows) == 300
    for row in rows:
        for text in row["references"] + [row["prediction"]]:
            assert "\n".join(extract_additions(text, source="")) == text, row["id"]
        # The no-additions rule never applies here, so ROUGE-1.5.5's values are UpdateROUGE's.
        assert all(row["references"])
    return rows


@pytest.mark.parametrize("every_row", SWEEPS)
@pytest.mark.parametrize("mode", ["pooled", "best_recall"])
def test_every_row_equals_rouge155_through_compute(golden, mode, every_row):
    golden = golden if every_row else golden[::SAMPLE_STEP]
    result = compute(
        sources=[""] * len(golden),
        predictions=[row["prediction"] for row in golden],
        references=[row["references"] for row in golden],
        rouge_types=list(GOLDEN_TYPES.values()),
        multi_ref=mode,
        use_aggregator=False,
    )
    for i, row in enumerate(golden):
        for theirs, ours in GOLDEN_TYPES.items():
            got = (
                result[f"update_{ours}_precision"][i],
                result[f"update_{ours}_recall"][i],
                result[f"update_{ours}"][i],
            )
            assert got == pytest.approx(tuple(row[mode][theirs]), abs=1e-9), (row["id"], ours)


@pytest.mark.parametrize("every_row", SWEEPS)
def test_every_row_has_rouge155s_counts_and_best_recall_choice(golden, every_row):
    golden = golden if every_row else golden[::SAMPLE_STEP]
    engine = make_engine("python", list(GOLDEN_TYPES.values()), tokenizer_for())
    differs_from_best_f1 = 0
    for row in golden:
        counted = engine.count_pairs([(reference, row["prediction"]) for reference in row["references"]])
        for theirs, ours in GOLDEN_TYPES.items():
            counts = [c[ours] for c in counted]
            # ROUGE-1.5.5's order: reference grams (tokens for ROUGE-L), prediction grams, hits.
            assert [[c.target, c.prediction, c.hits] for c in counts] == [
                r[theirs] for r in row["per_reference_counts"]
            ]
            chosen = best_recall_index(counts, ours)
            assert chosen == row["best_recall_selected"][theirs], (row["id"], ours)
            best_f1 = max(range(len(counts)), key=lambda k: score_from_counts(counts[k]).fmeasure)
            differs_from_best_f1 += chosen != best_f1
    # The rules really differ on this data (so the comparison above can tell them apart).
    assert differs_from_best_f1 > (10 if every_row else 2)
