"""The page as built by ``app.build_demo``: the metric card's links, the note that replaces
stale results, the language menu.
"""

import re
from html.parser import HTMLParser
from pathlib import Path

import gradio
import pytest
from markdown_it import MarkdownIt

import app
import app_render

REPO = Path(__file__).resolve().parent.parent
DOCS = {path.name for path in (REPO / "docs").glob("*.md")}
SPACE = "someone/update_rouge"


class Links(HTMLParser):
    """The ``href`` of every ``<a>`` of the HTML fed to it, in order."""

    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs.append(dict(attrs)["href"])


def links(markdown):
    """Every link target of ``markdown`` as a Markdown renderer (CommonMark) makes it."""
    parser = Links()
    parser.feed(MarkdownIt("commonmark").render(markdown))
    return parser.hrefs


@pytest.fixture(scope="module")
def space_page():
    """The page built as on a Hugging Face Space named ``SPACE``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SPACE_ID", SPACE)
        return app.build_demo()


def the_card(demo):
    (card,) = [block for block in demo.blocks.values() if getattr(block, "elem_id", None) == "metric-card"]
    assert isinstance(card, gradio.Markdown)
    return card.value


def test_the_cards_links_to_docs_pages_go_to_the_spaces_files(space_page):
    readme_links = [href for href in links((REPO / "README.md").read_text(encoding="utf-8")) if "docs/" in href]
    hrefs = links(the_card(space_page))
    assert not [href for href in hrefs if not href.startswith(("https://", "#"))]
    prefix = f"https://huggingface.co/spaces/{SPACE}/blob/main/docs/"
    doc_links = [href for href in hrefs if "docs/" in href]
    assert all(href.startswith(prefix) for href in doc_links), doc_links
    # Each names a page that exists (a renamed page is caught), anchors kept, none lost.
    pages = {href[len(prefix) :].partition("#")[0] for href in doc_links}
    assert pages <= DOCS, pages - DOCS
    assert [href[len(prefix) :] for href in doc_links] == [href[len("docs/") :] for href in readme_links]
    assert len(doc_links) >= 30 and "statistics.md#signature" in {href[len(prefix) :] for href in doc_links}


def test_without_a_space_the_card_names_the_docs_pages_without_linking_them():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    card = app_render.metric_card(readme)
    assert not [href for href in links(card) if not href.startswith(("https://", "#"))]
    named = re.findall(r"\(`docs/([\w.-]+\.md)`\)", card)
    assert set(named) <= DOCS and len(named) == len([href for href in links(readme) if "docs/" in href])
    assert "Statistics (`docs/statistics.md`)" in card
    assert "([Dependencies](docs/dependencies.md))" not in card
    assert app_render.metric_card("See [Speed](docs/speed.md#engines).", "a/b") == (
        "See [Speed](https://huggingface.co/spaces/a/b/blob/main/docs/speed.md#engines)."
    )
