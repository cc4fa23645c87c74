"""The demo's F1 histogram (``demo.histogram``): its bins, axes, mean line and escaping."""

import pandas as pd
import pytest
from conftest import read_histogram

from demo.histogram import f1_histogram, histogram_svg


def test_histogram_counts_start_at_zero_and_reach_a_round_number():
    per_example = pd.DataFrame({"update_rouge1": [0.05] * 7 + [0.95] * 3})
    figure = read_histogram(histogram_svg(per_example, "rouge1"))
    assert figure["y_ticks"] == [0, 2, 4, 6, 8]
    assert figure["bars"]["0.0-0.1"] == 7 and figure["bars"]["0.9-1.0"] == 3
    assert figure["mean_at"] == pytest.approx(0.32, abs=1e-4)
    assert figure["mean_label"] == "corpus score (macro mean) 0.3200"
    assert histogram_svg(None, "rouge1") == ""


def test_histogram_names_are_escaped():
    svg = histogram_svg(pd.DataFrame({"update_<b>&": [0.5]}), "<b>&")
    assert read_histogram(svg)["titles"][0] == "F1 of <b>& per example, 0 to 1 (bins of 0.1)"


def test_histogram_puts_perfect_scores_in_the_last_bin():
    histogram = f1_histogram(pd.DataFrame({"update_rouge1": [0.0, 0.1, 0.95, 1.0]}), "rouge1")
    assert histogram["examples"].tolist() == [1, 1, 0, 0, 0, 0, 0, 0, 0, 2]
