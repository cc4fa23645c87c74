"""An example's way from checked inputs to its scores and table (``example_pipeline``): the
protocol's references applied once, before extraction; the deletions beside the additions; the
shards' tables joined in order. Spreading the shards over processes is test_example_workers.py's."""

import pytest

from update_rouge import InputError, Settings, UpdateRougeScorer
from update_rouge.example_pipeline import merged_tables, score_checked, table_checked

SOURCE = "Dan is a baker."
PREDICTION = "Dan is a baker. He sells bread."
REFERENCES = ["Dan is a baker. He sells bread.", "Dan is a baker. Cats sleep all day."]


def test_autometrics_extracts_and_scores_the_first_reference_only():
    [example] = score_checked(Settings(protocol="autometrics"), [SOURCE], [PREDICTION], [REFERENCES])
    assert example.reference_additions == [["He sells bread."]], "the second reference is never extracted"
    # The prediction adds exactly the first reference's sentence: 1.0, where the second would pull the mean down.
    assert {rouge_type: score.fmeasure for rouge_type, score in example.scores.items()} == {
        "rouge1": 1.0,
        "rouge2": 1.0,
        "rougeLsum": 1.0,
    }
    [ours] = score_checked(Settings(rouge_types=["rouge1"], multi_ref="mean"), [SOURCE], [PREDICTION], [REFERENCES])
    assert len(ours.reference_additions) == 2 and ours.scores["rouge1"].fmeasure == pytest.approx(0.5)


def test_fruit_refuses_several_references_before_scoring():
    # At the scorer's door, which every caller of the pipeline goes through (protocols.Protocol.check_one_reference).
    with pytest.raises(InputError, match=r"^references\[0\] holds 2 references, but protocol='fruit' takes one"):
        UpdateRougeScorer(protocol="fruit").examples([SOURCE], [PREDICTION], [REFERENCES])
    [example] = score_checked(Settings(protocol="fruit"), [SOURCE], [PREDICTION], [REFERENCES[:1]])
    assert example.scores["rouge1"].fmeasure == 1.0


def test_the_deletions_are_scored_beside_the_additions():
    settings = Settings(rouge_types=["rouge1"], deletions=True)
    [example] = score_checked(settings, ["A b. C d."], ["A b. E f."], [["A b. E g."]])
    assert (example.prediction_additions, example.reference_additions) == (["E f."], [["E g."]])
    assert example.scores["rouge1"].fmeasure == pytest.approx(0.5), "1 of 2 unigrams each way"
    assert example.deletions is not None
    assert (example.deletions.prediction_deletions, example.deletions.reference_deletions) == (["C d."], [["C d."]])
    assert example.deletions.scores["rouge1"].fmeasure == 1.0


def test_the_shards_tables_join_in_input_order():
    settings = Settings(rouge_types=["rouge1"], average="micro")
    sources = ["A.", "B.", "C."]
    predictions = ["A. x y.", "B.", "C. z."]
    references = [["A. x."], ["B. q."], ["C. z w."]]
    whole = table_checked(settings, sources, predictions, references)
    shards = [table_checked(settings, sources[:1], predictions[:1], references[:1])]
    shards.append(table_checked(settings, sources[1:], predictions[1:], references[1:]))
    assert merged_tables(shards) == whole
    table, tokenless, counts = whole
    assert table["update_rouge1"] == [pytest.approx(2 / 3), 0.0, pytest.approx(2 / 3)]
    assert tokenless == [False, False, False]
    assert counts is not None and [tuple(c) for c in counts["update_rouge1"]] == [(1, 1, 2), (0, 1, 0), (1, 2, 1)]
