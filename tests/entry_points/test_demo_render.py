"""What the demo shows (``demo.render``), drawn directly: highlighted additions, the F1 histogram
as SVG, and the metric card made of the README."""

import re

import pytest
from app_calls import KEPT
from conftest import DATA_DIR
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
