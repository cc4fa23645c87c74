import gradio
from app import build_demo, score_one


def test_score_one_shows_additions_and_four_decimal_scores():
    reference_adds, prediction_adds, rows = score_one(
        "Dan is a baker.", "Dan is a baker. Dan loves chocolate cakes.", "Dan is a baker. Dan loves chocolate chip cookies."
    )
    assert reference_adds == "Dan loves chocolate cakes."
    assert prediction_adds == "Dan loves chocolate chip cookies."
    assert rows[0] == ["rouge1", "0.6000", "0.7500", "0.6667"]


def test_demo_builds():
    assert isinstance(build_demo(), gradio.Blocks)
