"""The page's layout (``demo.page``), as ``build_demo`` builds it: the metric card's links on a
Space, the language menu, every option control labelled, helped and defaulted as the option table
says, no analytics; its events are in test_demo_events.py.
"""

import re
from html.parser import HTMLParser
from pathlib import Path

import gradio
from conftest import SPACE
from markdown_it import MarkdownIt

import update_rouge.languages
import update_rouge.settings
from demo import handlers
from demo import options as demo_options
from demo import page as demo_page

REPO = Path(__file__).resolve().parents[2]
DOCS = {path.name for path in (REPO / "docs").glob("*.md")}


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


def test_the_language_menu_shows_names_with_codes_and_gives_the_scorer_the_codes(space_page):
    (menu,) = [block for block in space_page.blocks.values() if getattr(block, "option", None) == "language"]
    (none, *languages) = menu.choices
    assert none == (demo_options.NO_LANGUAGE, demo_options.NO_LANGUAGE)
    assert sorted(value for _, value in languages) == sorted(update_rouge.languages.ISO_639_1)
    assert len(languages) == 183
    for label, code in languages:
        name, _, rest = label.rpartition(" (")
        assert rest == f"{code})" and re.fullmatch(r"[A-Z][\w' -]*\w", name), label
    assert ("Chinese (zh)", "zh") in languages and ("Hindi (hi)", "hi") in languages
    assert ("German (de)", "de") in languages and ("Norwegian Bokmål (nb)", "nb") in languages
    labels = [label for label, _ in languages]
    assert labels == sorted(labels) and len(set(labels)) == len(labels)
    # The value a label stands for is what scoring takes (hand counts as in tests/entry_points/test_app_served_api.py):
    # "दिल्ली भारत की राजधानी है" against "दिल्ली भारत की राजधानी नहीं है", 5 tokens match.
    texts = (
        "भारत एक विशाल देश है।",
        "भारत एक विशाल देश है। दिल्ली भारत की राजधानी है।",
        "भारत एक विशाल देश है। दिल्ली भारत की राजधानी नहीं है।",
    )
    scores = handlers.score_one(*texts, ["rouge1"], "none", dict(languages)["Hindi (hi)"])
    assert scores["scores"].values.tolist() == [["rouge1", "0.8333", "1.0000", "0.9091"]]


def test_every_option_control_is_labelled_helped_and_defaulted_as_the_option_table_says(space_page):
    table = update_rouge.settings.OPTION_BY_NAME
    controls = {block.option: block for block in space_page.blocks.values() if hasattr(block, "option")}
    for name, control in controls.items():
        option = table[name]
        # Each control is labelled by its option's name, but a checkbox that says what ticking it does.
        assert control.label == demo_options.LABELS.get(name, option.name), name
        # The help is shown under every control but the two on top (they must leave Score on a phone's first screen),
        # the table's text in the page's words.
        help_text = update_rouge.settings.rendered(option.help, demo_options.SCREEN)
        assert control.info == (None if name in ("rouge_types", "stemmer") else help_text), name
        if option.choices:
            # The protocol menu starts with "none" (the table's None: our rules).
            first = ["none"] if name == "protocol" else []
            assert [value for _, value in control.choices] == [*first, *option.choices], name
    # Options named as the page names its controls (the rendering of every door: test_doors_help.py).
    assert 'confidence_level "none" for none' in controls["confidence_level"].info
    assert 'and stemmer "snowball" is its Snowball stemmer' in controls["language"].info
    # The controls' values as the page opens, read as the handlers read them, are the table's defaults.
    order = ["rouge_types", "stemmer", "language", "remove_stopwords", "max_words", "max_bytes", "alpha"]
    order += ["confidence_level", "multi_ref", "n_bootstrap", "seed", "additions", "average", "protocol", "deletions"]
    assert sorted(order) == sorted(controls)
    shown = demo_options.ScreenOptions.of({name: controls[name].value for name in order}).settings()
    assert vars(shown) == vars(update_rouge.settings.Settings())
    assert controls["confidence_level"].value == "0.95" and controls["n_bootstrap"].value == 1000


def test_demo_builds_without_analytics():
    demo = demo_page.build_demo()
    assert isinstance(demo, gradio.Blocks)
    assert demo.analytics_enabled is False
