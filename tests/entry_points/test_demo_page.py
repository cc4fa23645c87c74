"""The page as built by ``demo_page.build_demo``: the metric card's links, the note that replaces
stale results, the language menu.
"""

import collections
import re
from html.parser import HTMLParser
from pathlib import Path

import gradio
import pytest
from markdown_it import MarkdownIt

import update_rouge.languages
import update_rouge.settings
from demo import file_handlers, handlers, render, style
from demo import options as demo_options
from demo import page as demo_page

REPO = Path(__file__).resolve().parents[2]
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
        return demo_page.build_demo()


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
    card = render.metric_card(readme)
    assert not [href for href in links(card) if not href.startswith(("https://", "#"))]
    named = re.findall(r"\(`docs/([\w.-]+\.md)`\)", card)
    assert set(named) <= DOCS and len(named) == len([href for href in links(readme) if "docs/" in href])
    assert "Statistics (`docs/statistics.md`)" in card
    assert "([Dependencies](docs/dependencies.md))" not in card
    assert render.metric_card("See [Speed](docs/speed.md#engines).", "a/b") == (
        "See [Speed](https://huggingface.co/spaces/a/b/blob/main/docs/speed.md#engines)."
    )


DAN = (
    "Dan is a baker.",
    "Dan is a baker. Dan loves chocolate cakes.",
    "Dan is a baker. Dan loves chocolate chip cookies.",
)
FRUIT = REPO / "tests" / "data" / "fruit_triples.jsonl"


def test_an_option_change_leaves_a_note_where_the_example_was_scored_until_it_is_scored_again():
    scored = handlers.score_one(*DAN, ["rouge1"], "none")
    assert scored["note"] == "The reference adds 1 segment(s) to the source, the prediction 1."
    defaults = demo_options.ScreenOptions.of()
    changed = handlers.options_changed(handlers.Texts(*DAN), defaults)
    assert changed["note"] == "Options changed: press Score again."
    assert changed["scores"] is None and changed["reference_view"] is None and changed["scored_texts"] is None
    assert changed["matches_box"] == {"__type__": "update", "visible": False}
    # Nothing scored (or already cleared): the view, with its note, stays as it is.
    assert handlers.options_changed(None, defaults) == {}
    # An unusable option is named in the notes at once, scored or not (once: not as a pop-up).
    bad = handlers.options_changed(None, demo_options.ScreenOptions.of(alpha=1.5))
    assert bad["note"] == "Error: alpha must be a number in [0, 1], got 1.5" and bad["scores"] is None
    again = handlers.score_one(*DAN, ["rouge1"], "porter")
    assert again["note"] == scored["note"] and "changed" not in again["note"]


def test_an_option_or_file_change_leaves_a_note_where_a_file_was_scored_until_it_is_scored_again():
    scored = file_handlers.score_file(str(FRUIT), ["rouge1"], "none")
    assert scored["status"].startswith("Scored 3 examples from fruit_triples.jsonl")
    defaults = demo_options.ScreenOptions.of()
    changed = file_handlers.file_inputs_changed(scored["status"], defaults)
    assert changed["status"] == "Options changed: press Score file again."
    assert changed["results"] == {"__type__": "update", "visible": False} and changed["summary"] is None
    assert file_handlers.file_inputs_changed("Error: x.jsonl:1: not JSON", defaults)["status"] == changed["status"]
    assert (
        file_handlers.file_inputs_changed(scored["status"], defaults, "File")["status"]
        == "File changed: press Score file again."
    )
    assert file_handlers.file_inputs_changed("", defaults) == {}
    bad = file_handlers.file_inputs_changed("", demo_options.ScreenOptions.of(n_bootstrap=100000))
    assert bad["status"].startswith("Error: n_bootstrap must be a whole number from 1 to 10,000 (this demo's limit")
    again = file_handlers.score_file(str(FRUIT), ["rouge1"], "none", "0.99")
    assert again["status"] == scored["status"] and again["results"] == {"__type__": "update", "visible": True}


def test_the_page_wires_an_option_change_to_the_notes(space_page):
    alpha = next(block for block in space_page.blocks.values() if getattr(block, "option", None) == "alpha")
    wired = {}
    for function in space_page.fns.values():
        if (alpha._id, "input") in [tuple(target[:2]) for target in function.targets]:
            ids = [
                [getattr(block, "elem_id", None) for block in blocks] for blocks in (function.inputs, function.outputs)
            ]
            wired[function.fn.__name__] = ids
    assert {"note", "scores"} <= set(wired["options_changed"][1])
    assert "batch-status" in wired["file_inputs_changed"][0] and "batch-status" in wired["file_inputs_changed"][1]


# The events gradio fires when a handler updates a component (the others fire on the user's actions).
PROGRAMMATIC = {"change"}


def triggered_by(demo):
    """Each event handler's id -> the ids of the handlers its completion can start: those
    chained after it (``.then``) and those listening to a programmatic event of a component it
    outputs."""
    listeners = {}
    for function in demo.fns.values():
        for block_id, event in function.targets:
            if event in PROGRAMMATIC:
                listeners.setdefault(block_id, set()).add(function._id)
    edges = {}
    for function in demo.fns.values():
        started = {other._id for other in demo.fns.values() if other.trigger_after == function._id}
        for block in function.outputs:
            started |= listeners.get(block._id, set())
        edges[function._id] = started
    return edges


def cycles(edges):
    """The handlers (ids) that can start themselves again through ``edges``."""
    looping = set()
    for start in edges:
        seen, pending = set(), list(edges[start])
        while pending:
            node = pending.pop()
            if node == start:
                looping.add(start)
                break
            if node not in seen:
                seen.add(node)
                pending.extend(edges.get(node, ()))
    return looping


def test_no_event_handler_can_trigger_itself_again(space_page):
    edges = triggered_by(space_page)
    # Examples, Score (4 chained: the signature last), Score file, histogram, the two tabs' Reproduce
    # and their download buttons, 3 texts, options, a row (3), matches, the file's options, the upload;
    # and the status's class after each of the 3 events that write the status.
    assert len(edges) == len(space_page.fns) == 24
    classed_after = {
        f.trigger_after for f in space_page.fns.values() if getattr(f.fn, "__name__", None) == "status_class"
    }
    writers = {
        f._id
        for f in space_page.fns.values()
        if getattr(f.fn, "__name__", None) in ("score_file", "file_inputs_changed", "<lambda>")
    }
    assert len(classed_after) == 3 and classed_after <= writers
    # The score chain is wired: Score starts score_one, which starts show_matches.
    (score_one,) = [f._id for f in space_page.fns.values() if getattr(f.fn, "__name__", None) == "score_one"]
    (show_matches,) = [f._id for f in space_page.fns.values() if f.trigger_after == score_one]
    assert show_matches in edges[score_one] and any(score_one in started for started in edges.values())
    assert cycles(edges) == set()
    # The check finds a loop where there is one: a text's .change clearing that same text.
    assert cycles({1: {2}, 2: {1}, 3: {1}}) == {1, 2}


def test_options_are_read_by_handlers_never_written_and_trigger_on_user_edits(space_page):
    options = [block for block in space_page.blocks.values() if hasattr(block, "option")]
    assert sorted(block.option for block in options) == [
        "additions",
        "alpha",
        "average",
        "confidence_level",
        "language",
        "max_bytes",
        "max_words",
        "multi_ref",
        "n_bootstrap",
        "protocol",
        "remove_stopwords",
        "rouge_types",
        "seed",
        "stemmer",
    ]
    ids = {block._id for block in options}
    written = [
        getattr(f.fn, "__name__", None) for f in space_page.fns.values() if ids & {block._id for block in f.outputs}
    ]
    assert written == []
    events = {event for f in space_page.fns.values() for block_id, event in f.targets if block_id in ids}
    assert events == {"input"}
    modes = {f.trigger_mode for f in space_page.fns.values() for block_id, _ in f.targets if block_id in ids}
    assert modes == {"multiple"}


def test_no_trigger_starts_two_always_last_handlers(space_page):
    # gradio's page re-sends a whole trigger (every handler of it) when a handler it deferred
    # ("always_last", sent while that handler ran) ends: two such handlers of one trigger whose
    # runs overlap re-send each other without end (the browser test of quick alpha edits saw
    # ~700 events in 60 s).
    by_trigger = collections.defaultdict(list)
    for function in space_page.fns.values():
        for block_id, event in function.targets:
            if function.trigger_mode == "always_last" and block_id is not None:
                by_trigger[(getattr(space_page.blocks[block_id], "label", block_id), event)].append(function.name)
    shared = {trigger: names for trigger, names in by_trigger.items() if len(names) > 1}
    assert shared == {}, f"triggers with two always_last handlers: {shared}"
    # The texts' .change (gradio's default mode there) keeps its clearing "always_last", alone.
    assert by_trigger[("Source", "change")] == ["clear_unless_scored"]


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
        assert control.label == option.name, name
        # The help is shown under every control but the two on top (they must leave Score on a phone's first screen).
        # The page's own help where the table's speaks of the API or the command line.
        help_text = demo_options.DEMO_HELP.get(name, option.help)
        assert control.info == (None if name in ("rouge_types", "stemmer") else help_text), name
        if option.choices:
            # The stemmer menu adds the language's Snowball stemmer (use_stemmer=True with a language),
            # the protocol menu starts with "none" (the table's None: our rules).
            extra = ["snowball"] if name == "stemmer" else []
            first = ["none"] if name == "protocol" else []
            assert [value for _, value in control.choices] == [*first, *option.choices, *extra], name
    assert "command line" not in controls["confidence_level"].info and "None" not in controls["confidence_level"].info
    assert "use_stemmer" not in controls["language"].info and "stemmer `snowball`" in controls["language"].info
    # The controls' values as the page opens, read as the handlers read them, are the table's defaults.
    order = ["rouge_types", "stemmer", "language", "remove_stopwords", "max_words", "max_bytes", "alpha"]
    order += ["confidence_level", "multi_ref", "n_bootstrap", "seed", "additions", "average", "protocol"]
    assert sorted(order) == sorted(controls)
    shown = demo_options.ScreenOptions.of({name: controls[name].value for name in order}).settings()
    assert vars(shown) == vars(update_rouge.settings.Settings())
    assert controls["confidence_level"].value == "0.95" and controls["n_bootstrap"].value == 1000


@pytest.mark.parametrize(
    "message, kind",
    [
        ("Error: x.jsonl:1: not valid JSON", "status-error"),
        (
            "Scored 3 examples from x.jsonl; in 0 of them neither side adds anything (each such example scores 1.0).",
            "status-scored",
        ),
        ("Options changed: press Score file again.", "status-note"),
        (None, "status-note"),
    ],
)
def test_the_status_is_classed_by_what_it_says(message, kind):
    assert style.status_class(message) == {"__type__": "update", "elem_classes": [kind]}
