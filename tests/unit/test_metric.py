"""metric: UpdateRougeScorer, the metric as an object holding its settings, equal to compute."""

import pytest
from conftest import read_jsonl

from update_rouge import Settings, UpdateRougeScorer, compute


def columns(rows):
    return dict(
        sources=[row["source"] for row in rows],
        predictions=[row["prediction"] for row in rows],
        references=[row["reference"] for row in rows],
    )


def test_the_scorer_gives_computes_results():
    data = columns(read_jsonl("iterater_triples.jsonl"))
    options = dict(rouge_types=["rouge1", "rougeL"], stemmer="porter", confidence_level=0.9, seed=5)
    scorer = UpdateRougeScorer(**options)
    baseline = data["sources"]
    assert scorer.corpus(**data, baseline_predictions=baseline) == compute(
        **data, **options, baseline_predictions=baseline
    )
    per_example = UpdateRougeScorer(Settings(**options, use_aggregator=False)).corpus(**data)
    assert per_example == compute(**data, **options, use_aggregator=False)
    assert scorer.signature(data["references"]) == compute(**data, **options, return_signature=True)["signature"]


def test_score_scores_one_example():
    # "Dan loves chocolate chip cookies." against "Dan loves chocolate cakes.": 3 of 5 and 3 of 4 words.
    example = UpdateRougeScorer(rouge_types=["rouge1"]).score(
        "Dan is a baker.",
        "Dan is a baker. Dan loves chocolate chip cookies.",
        "Dan is a baker. Dan loves chocolate cakes.",
    )
    assert example.scores["rouge1"].precision == 3 / 5
    assert example.scores["rouge1"].recall == 3 / 4
    assert example.prediction_additions == ["Dan loves chocolate chip cookies."]
    assert example.reference_additions == [["Dan loves chocolate cakes."]]
    assert not example.both_empty


def test_score_names_a_bad_field():
    with pytest.raises(ValueError, match=r"predictions\[0\] must be a string, got None"):
        UpdateRougeScorer().score("s.", None, "s.")  # type: ignore[arg-type]


def test_a_scorer_takes_settings_or_options_not_both():
    with pytest.raises(TypeError, match=r"^UpdateRougeScorer\(\) takes settings or keyword options, not both"):
        UpdateRougeScorer(Settings(), seed=1)
