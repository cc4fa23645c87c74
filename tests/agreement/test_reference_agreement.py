"""Differential tests: UpdateROUGE against rouge-score run directly, and against ROUGE-1.5.5.

The expected values come from outside the package: rouge-score called here on additions
extracted by this file's own reading of the recipe, and the per-example values of the original
Perl ROUGE-1.5.5 in tests/data/rouge155_golden.jsonl. Every engine is checked.
"""

import functools
import re
from unittest import mock

import pytest
from conftest import TRIPLE_FILES, read_jsonl
from rouge_score import rouge_scorer

from update_rouge import compute

TYPES = ["rouge1", "rouge2", "rougeLsum"]
ENGINES = ["python", "rust", "rouge-score"]


def recipe_additions(text, source, joiner="\n"):
    """The published recipe, written independently of the package."""
    stripped = (match.group(0).strip() for match in re.finditer(r"[^.]+\.?", text))
    return joiner.join(segment for segment in stripped if segment and segment not in source)


def score_tuples(result, i, types=TYPES):
    return {
        t: (result[f"update_{t}_precision"][i], result[f"update_{t}_recall"][i], result[f"update_{t}"][i])
        for t in types
    }


# The default run checks a fixed sample: every row of the small files and every SAMPLE_STEP-th row
# of the large one (rows 0, 50, 100, ...); the full sweep of every row is marked slow (CI runs it).
SAMPLE_STEP = 50
SWEEPS = [pytest.param(False, id="sample"), pytest.param(True, id="every-row", marks=pytest.mark.slow)]


@functools.cache
def rows_of(name, full):
    rows = read_jsonl(name)
    return rows if full or len(rows) <= 50 else rows[::SAMPLE_STEP]


# What rouge-score returned when ``expected`` ran it directly, by (its rouge types, tokenizer
# class, stemming and sentence splitting, target, prediction).
DIRECT_SCORES = {}


def direct_key(scorer, target, prediction):
    tokenizer = scorer._tokenizer
    stems = getattr(tokenizer, "_stemmer", None) is not None
    return (tuple(scorer.rouge_types), type(tokenizer), stems, scorer._split_summaries, target, prediction)


@functools.cache
def ours(engine, name, full):
    """Our per-example scores of the rows of ``name`` (``rows_of``) on ``engine``.

    On the "rouge-score" engine, a call of rouge-score's ``RougeScorer.score`` with the rouge
    types, stemming, target and prediction that ``expected`` ran rouge-score on returns what that
    direct run returned, and any other call runs rouge-score: the engine is checked on every row
    to hand rouge-score exactly the texts of the recipe and to report its scores, without scoring
    the long rows a second time (they take rouge-score about 100 s on the full file)."""
    rows = rows_of(name, full)
    arguments = {
        "sources": [r["source"] for r in rows],
        "predictions": [r["prediction"] for r in rows],
        "references": [r["reference"] for r in rows],
        "use_aggregator": False,
        "engine": engine,
    }
    if engine != "rouge-score":
        return compute(**arguments)
    expected(name, full)
    direct = rouge_scorer.RougeScorer.score

    def replayed(scorer, target, prediction):
        known = DIRECT_SCORES.get(direct_key(scorer, target, prediction))
        return direct(scorer, target, prediction) if known is None else known

    with mock.patch.object(rouge_scorer.RougeScorer, "score", replayed):
        return compute(**arguments)


@functools.cache
def expected(name, full):
    """rouge-score run directly on the recipe's additions: one entry per row of ``rows_of``."""
    scorer = rouge_scorer.RougeScorer(TYPES)
    results = []
    for row in rows_of(name, full):
        reference = recipe_additions(row["reference"], row["source"])
        prediction = recipe_additions(row["prediction"], row["source"])
        if not reference and not prediction:
            scores = {t: (1.0, 1.0, 1.0) for t in TYPES}
        else:
            direct = scorer.score(reference, prediction)
            DIRECT_SCORES[direct_key(scorer, reference, prediction)] = direct
            scores = {t: tuple(s) for t, s in direct.items()}
        results.append((len(reference), len(prediction), scores))
    return results


@pytest.mark.parametrize("full", SWEEPS)
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", TRIPLE_FILES)
def test_every_triple_equals_rouge_score_run_directly(name, engine, full):
    result = ours(engine, name, full)
    assert len(result["update_rouge1"]) == len(expected(name, full))
    for i, (reference_length, prediction_length, scores) in enumerate(expected(name, full)):
        assert result["_target_diff_len"][i] == reference_length
        assert result["_prediction_diff_len"][i] == prediction_length
        assert score_tuples(result, i) == scores, (name, i)


@pytest.mark.parametrize("full", SWEEPS)
@pytest.mark.parametrize("name", TRIPLE_FILES)
def test_rouge1_and_rouge2_equal_the_space_joined_autometrics_recipe(name, full):
    # The autometrics implementation joins additions with a space; n-grams do not see the join.
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2"])
    result = ours("python", name, full)
    for i, row in enumerate(rows_of(name, full)):
        reference = recipe_additions(row["reference"], row["source"], joiner=" ")
        prediction = recipe_additions(row["prediction"], row["source"], joiner=" ")
        if reference or prediction:
            scores = scorer.score(reference, prediction)
            assert result["update_rouge1"][i] == scores["rouge1"].fmeasure, (name, row["id"])
            assert result["update_rouge2"][i] == scores["rouge2"].fmeasure, (name, row["id"])


@pytest.mark.parametrize("full", SWEEPS)
@pytest.mark.parametrize("engine", ENGINES)
def test_every_triple_equals_rouge155_without_stemming(engine, full):
    golden = read_jsonl("rouge155_golden.jsonl")
    index = {(name, row["id"]): (name, i) for name in TRIPLE_FILES for i, row in enumerate(rows_of(name, full))}
    compared = 0
    for row in golden:
        if (row["file"], row["id"]) not in index:
            continue  # not in the sample
        if not row["reference_additions"] and not row["prediction_additions"]:
            continue  # ROUGE-1.5.5 has no value here; UpdateROUGE defines 1.0 (tested elsewhere)
        name, i = index[(row["file"], row["id"])]
        got = score_tuples(ours(engine, name, full), i)
        for t in TYPES:
            assert got[t] == pytest.approx(tuple(row["rouge155"][t]), abs=1e-9), (row["id"], t)
        compared += 1
    assert compared > (700 if full else 50)


@pytest.mark.parametrize("engine", ENGINES)
def test_several_references_equal_rouge_score_multi(engine):
    rows = read_jsonl("iterater_triples.jsonl") + read_jsonl("fruit_triples.jsonl")
    # Each example gets its own reference and the next example's reference (a harder one).
    references = [[row["reference"], rows[(i + 1) % len(rows)]["reference"]] for i, row in enumerate(rows)]
    result = compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=references,
        use_aggregator=False,
        engine=engine,
    )
    scorer = rouge_scorer.RougeScorer(TYPES)
    for i, row in enumerate(rows):
        targets = [recipe_additions(ref, row["source"]) for ref in references[i]]
        prediction = recipe_additions(row["prediction"], row["source"])
        if not prediction and not all(targets):
            continue  # the no-additions rule decides; tested in test_compute
        multi = scorer.score_multi(targets, prediction)
        assert score_tuples(result, i) == {t: tuple(multi[t]) for t in TYPES}, (row["id"], engine)
