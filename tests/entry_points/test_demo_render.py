"""What the demo shows (``demo.render``), drawn directly: highlighted additions, the F1 histogram
as SVG, and the metric card made of the README."""

import re

import pandas as pd
import pytest
from app_calls import KEPT
from conftest import DATA_DIR, read_histogram
from test_demo_page import DOCS, REPO, links

from demo import render


def test_without_a_space_the_card_names_the_docs_pages_without_linking_them():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    card = render.metric_card(readme)
    assert not [href for href in links(card) if not href.startswith(("https://", "#"))]
    named = re.findall(r"\(`docs/([\w.-]+\.md)`\)", card)
    assert set(named) <= DOCS and len(named) == len([href for href in links(readme) if "docs/" in href])
    assert "Statistics (`docs/statistics.md`)" in card
    assert "([Dependencies](docs/dependencies.md))" not in card
    assert render.metric_card("See [Speed](docs/speed.md#engines).", "a/b") == (
        "See [Speed](https://huggingface.co/spaces/a/b/blob/main/docs/speed.md#engines)."
    )


def test_metric_card_is_the_readme_without_front_matter():
    card = render.metric_card((DATA_DIR.parent.parent / "README.md").read_text(encoding="utf-8"))
    assert card.startswith("# Metric Card for UpdateROUGE\n")
    assert "app_file:" not in card and "## Citation" in card
    assert render.metric_card("# No front matter\n") == "# No front matter\n"


def test_highlighting_keeps_every_character_and_marks_repeated_additions():
    text = "Old. New...  New. Old.\nLast"
    view = render.highlight_additions(text, ["New.", "New.", "Last"])
    assert view == [
        ("Old.", KEPT),
        (" ", None),
        ("New.", "added"),
        ("..  ", None),
        ("New.", "added"),
        (" ", None),
        ("Old.", KEPT),
        ("\n", None),
        ("Last", "added"),
    ]


def test_highlighting_rejects_additions_that_are_not_segments_of_the_text():
    with pytest.raises(ValueError, match="'Gone.' is not a segment"):
        render.highlight_additions("Kept. New.", ["New.", "Gone."])


def test_histogram_counts_start_at_zero_and_reach_a_round_number():
    per_example = pd.DataFrame({"update_rouge1": [0.05] * 7 + [0.95] * 3})
    figure = read_histogram(render.histogram_svg(per_example, "rouge1"))
    assert figure["y_ticks"] == [0, 2, 4, 6, 8]
    assert figure["bars"]["0.0-0.1"] == 7 and figure["bars"]["0.9-1.0"] == 3
    assert figure["mean_at"] == pytest.approx(0.32, abs=1e-4)
    assert figure["mean_label"] == "corpus score (macro mean) 0.3200"
    assert render.histogram_svg(None, "rouge1") == ""


def test_histogram_names_are_escaped():
    svg = render.histogram_svg(pd.DataFrame({"update_<b>&": [0.5]}), "<b>&")
    assert read_histogram(svg)["titles"][0] == "F1 of <b>& per example, 0 to 1 (bins of 0.1)"


def test_histogram_puts_perfect_scores_in_the_last_bin():
    histogram = render.f1_histogram(pd.DataFrame({"update_rouge1": [0.0, 0.1, 0.95, 1.0]}), "rouge1")
    assert histogram["examples"].tolist() == [1, 1, 0, 0, 0, 0, 0, 0, 0, 2]
