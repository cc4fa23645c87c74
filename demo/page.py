"""The UpdateROUGE page's layout: the options, the one-example and file tabs, Reproduce and the
metric card. ``demo.events`` wires its events to the handlers; docs/architecture.md's table
lists every module of the demo. ``app.py`` (the repository's and the Space's root) serves it.
"""

import os
from typing import Any

import gradio as gr

from demo.events import Page, wire
from demo.file_handlers import MAX_UPLOAD_MB, PER_EXAMPLE_LABEL
from demo.handlers import Texts, score_example
from demo.options import (
    CONFIDENCE_LEVELS,
    LANGUAGE_CHOICES,
    MAX_DEMO_BOOTSTRAP,
    ROUGE_TYPE_CHOICES,
    ScreenOptions,
    matchable,
    option_component,
    option_number,
)
from demo.render import (
    ADDED,
    KEPT,
    MATCHED,
    PAIRED_HEADERS,
    SCORE_HEADERS,
    SCORES_LABEL,
    SUMMARY_HEADERS,
    metric_card,
    paired_label,
    summary_label,
)
from demo.reproduce import DOWNLOAD_NAME, example_signature, reproduce, reproduce_example
from demo.samples import DAN_EXAMPLE, REPO, fruit_examples
from demo.upload_limit import OVER_LIMIT_BUTTON, over_limit_js


def _options(page: Page) -> None:
    """The rouge types and the stemmer, and the advanced options in an accordion, each control from
    the option table (``demo.options.option_component``)."""
    with gr.Row(equal_height=False):
        page.rouge_types = option_component(
            gr.CheckboxGroup, "rouge_types", choices=list(ROUGE_TYPE_CHOICES), min_width=200, elem_id="rouge-types"
        )
        page.stemmer = option_component(gr.Radio, "stemmer", min_width=200, elem_id="stemmer")
    with gr.Accordion("Advanced options (ROUGE-1.5.5, languages, edits, deletions)", open=False), gr.Row():
        # Wide enough for "none (rouge-score's tokens)" whole beside the menu's arrow (style.CSS).
        page.language = option_component(
            gr.Dropdown, "language", choices=LANGUAGE_CHOICES, min_width=250, elem_id="language"
        )
        page.remove_stopwords = option_component(gr.Checkbox, "remove_stopwords", min_width=160)
        whole: dict[str, Any] = {"precision": 0, "minimum": 0, "min_width": 120}
        page.max_words = option_number("max_words", **whole)
        page.max_bytes = option_number("max_bytes", **whole)
        page.alpha = option_number("alpha", minimum=0, maximum=1, min_width=120)
        page.additions = option_component(gr.Radio, "additions", min_width=200)
        page.deletions = option_component(gr.Checkbox, "deletions", min_width=200, elem_id="deletions")


def _statistics_options(page: Page) -> None:
    """The file's statistics: the confidence level, and in an accordion the multi-reference mode,
    resamples, seed, average and published protocol."""
    page.confidence_level = option_component(gr.Radio, "confidence_level", choices=list(CONFIDENCE_LEVELS))
    with gr.Accordion("Several references, resamples, seed, micro average, published protocols", open=False), gr.Row():
        page.multi_ref = option_component(gr.Radio, "multi_ref", min_width=200)
        page.n_bootstrap = option_number(
            "n_bootstrap", precision=0, minimum=1, maximum=MAX_DEMO_BOOTSTRAP, min_width=120
        )
        page.seed = option_number("seed", precision=0, minimum=0, min_width=120)
        page.average = option_component(gr.Radio, "average", min_width=200)
        # A menu, not radio buttons: a gr.Radio whose labels differ from its values re-sent its
        # events in a loop in Chromium (the file tab never settled).
        page.protocol = option_component(gr.Dropdown, "protocol", min_width=200, elem_id="protocol")


def _one_example_tab(page: Page) -> None:
    """The three texts, the FRUIT samples, Score, the scores with notes, highlights and matches."""
    examples, example_ids = fruit_examples()
    with gr.Row():
        page.source = gr.Textbox(DAN_EXAMPLE[0], label="Source", lines=3, min_width=160)
        page.reference = gr.Textbox(DAN_EXAMPLE[1], label="Reference", lines=3, min_width=160)
        page.prediction = gr.Textbox(DAN_EXAMPLE[2], label="Prediction", lines=3, min_width=160)
    # Score right under the texts: on a 390x844 phone it is on the first screen.
    page.score_button = gr.Button("Score", variant="primary")
    gr.Examples(
        examples,
        page("source", "reference", "prediction"),
        label="Wikipedia updates from FRUIT: pick one, then Score",
        example_labels=example_ids,
        cache_examples=False,
    )
    # The page opens on DAN_EXAMPLE scored with the default options (scored_texts says so).
    first = score_example(Texts(*DAN_EXAMPLE), ScreenOptions.of())
    page.note = gr.Textbox(first["note"], label="Notes", interactive=False, elem_id="note", lines=3)
    page.scores = gr.Dataframe(
        first["scores"], headers=SCORE_HEADERS, label=SCORES_LABEL, interactive=False, elem_id="scores", wrap=True
    )
    page.example_signature = gr.Textbox(
        example_signature(ScreenOptions.of()),
        label="Signature (quote it with the scores)",
        interactive=False,
        buttons=["copy"],
        elem_id="example-signature",
    )
    # What each side drops from the source, struck through (demo.deletions_view): empty unless deletions are scored.
    page.source_view = gr.HTML("", elem_id="source-view")
    with gr.Row():
        for side in ("reference", "prediction"):
            view = gr.HighlightedText(
                first[f"{side}_view"],
                label=f"{side.capitalize()}: additions (scored) and text in the source (not scored)",
                color_map={ADDED: "#fcd34d", KEPT: "#e5e7eb"},
                show_legend=True,
                elem_id=f"{side}-view",
                min_width=160,
            )
            setattr(page, f"{side}_view", view)
    # Shown once Score is pressed (or a row opened), so the page opens at about two screens.
    with gr.Column(visible=False) as page.matches_box:
        ticked = matchable(ScreenOptions.of().rouge_types)
        page.matches_of = lenient(gr.Radio(ticked, value=ticked[0], label="Matched tokens of", elem_id="matches-of"))
        page.match_note = gr.Textbox(label="What counts", interactive=False, elem_id="match-note", lines=1)
        with gr.Row():
            for side in ("reference", "prediction"):
                view = gr.HighlightedText(
                    label=f"{side.capitalize()} additions as tokens",
                    color_map={MATCHED: "#86efac"},
                    show_legend=True,
                    elem_id=f"{side}-matches",
                    min_width=160,
                )
                setattr(page, f"{side}_matches", view)
    _reproduce_box(page, "reproduce_one", reproduce_example(ScreenOptions.of(), DAN_EXAMPLE), "reproduce-one")


def _reproduce_box(page: Page, name: str, code: str, elem_id: str) -> None:
    """A tab's Reproduce code ``code`` as ``page.<name>``, with a copy button and
    ``page.<name>_download``, a button that saves it as ``demo.reproduce.DOWNLOAD_NAME``."""
    with gr.Accordion("Reproduce (Python and the command line)", open=False):
        setattr(
            page,
            name,
            gr.Code(code, language="python", label="Reproduce", elem_id=elem_id, interactive=False, buttons=["copy"]),
        )
        setattr(
            page, f"{name}_download", gr.Button(f"Download {DOWNLOAD_NAME}", size="sm", elem_id=f"{elem_id}-download")
        )


def _file_tab(page: Page) -> None:
    """The upload with its options, Score file, and the results: summary, signature, downloads,
    paired test, histogram and per-example table."""
    gr.Markdown(
        "A `.jsonl` file (one object per line) or a `.csv` file (with a header row) with "
        "`source`, `reference` and `prediction`; a reference may be a JSON list of "
        f'several references, e.g. `["first", "second"]`. At most {MAX_UPLOAD_MB:g} MB.'
    )
    page.upload = gr.File(label="Examples file", file_types=[".jsonl", ".csv"], elem_id="batch-file")
    _statistics_options(page)
    page.baseline_column = gr.Textbox(
        "",
        label="Baseline column (optional): another system's outputs, for a paired test",
        placeholder="e.g. baseline",
        elem_id="baseline-column",
    )
    page.file_button = gr.Button("Score file", variant="primary")
    page.status = gr.Textbox(label="Status", interactive=False, elem_id="batch-status", lines=1)
    # Clicked by the page's script for a file over the cap, which gradio refuses unsent (demo.upload_limit).
    page.over_limit = gr.Button("Over the upload limit", visible="hidden", elem_id=OVER_LIMIT_BUTTON)
    with gr.Column(visible=False) as page.results:
        page.summary = gr.Dataframe(
            headers=SUMMARY_HEADERS,
            label=summary_label("macro"),
            interactive=False,
            elem_id="corpus-summary",
            wrap=True,
            # The type column holds "del_rougeLsum" whole in 12 px type on a 390 px phone.
            column_widths=["31%", "33%", "18%", "18%"],
        )
        page.signature = gr.Textbox(
            label="Signature (quote it with the scores)", interactive=False, buttons=["copy"], elem_id="signature"
        )
        page.cite = gr.Textbox(
            label="Cite this result: the corpus scores, the signature and the BibTeX (one copy)",
            interactive=False,
            buttons=["copy"],
            lines=4,
            max_lines=40,
            elem_id="cite",
        )
        with gr.Row():
            page.download_json = gr.File(label="Full result (JSON)", interactive=False, elem_id="download-json")
            page.download_csv = gr.File(label="Per-example scores (CSV)", interactive=False, elem_id="download")
        with gr.Column(visible=False) as page.paired_box:
            page.paired = gr.Dataframe(
                headers=PAIRED_HEADERS,
                label=paired_label("macro"),
                interactive=False,
                elem_id="paired-test",
                wrap=True,
                column_widths=["24%", "22%", "35%", "19%"],
            )
        page.histogram_of = gr.Dropdown([], label="Histogram of the per-example F1 of", elem_id="histogram-of")
        page.histogram = gr.HTML(label="Histogram", elem_id="histogram")
        page.per_example = gr.Dataframe(
            label=PER_EXAMPLE_LABEL, interactive=False, elem_id="per-example-scores", max_height=400, wrap=True
        )
    page.per_example_state = gr.State()
    _reproduce_box(page, "reproduce_box", reproduce(ScreenOptions.of()), "reproduce")


def _api_examples(page: Page) -> None:
    """The "Use via API" page shows these examples instead of gradio's ("Hello!!", a PDF)."""
    for component, example in zip(page("source", "reference", "prediction"), DAN_EXAMPLE):
        component.example_payload = component.example_value = lambda example=example: example
    page.upload.example_payload = page.upload.example_value = lambda: {
        "path": "examples.jsonl",
        "orig_name": "examples.jsonl",
        "meta": {"_type": "gradio.FileData"},
    }


def build_demo() -> gr.Blocks:
    """The page: options on top, the one-example and file tabs, Reproduce, the metric card (its
    links to docs/ pages go to the Space's files where ``SPACE_ID`` is set, see ``metric_card``)."""
    page = Page()
    with gr.Blocks(title="UpdateROUGE", analytics_enabled=False, delete_cache=(3600, 3600)) as demo:
        gr.Markdown(
            "# UpdateROUGE\n"
            "ROUGE over the sentences an updated text **adds** to its source. Below, an example "
            "scored: edit a text or pick a Wikipedia update, then press **Score**."
        )
        _options(page)
        with gr.Tabs() as page.tabs:
            with gr.Tab("One example", id="one"):
                _one_example_tab(page)
            with gr.Tab("A file of examples", id="file"):
                _file_tab(page)
        # What the views show was scored from, per session (demo.events.Page.event): the example's texts
        # and options, the file's options (None: none shown or cleared) and the last Score file's (kept).
        page.remembered = gr.State(
            {
                "scored_texts": Texts(*DAN_EXAMPLE),
                "scored_options": ScreenOptions.of(),
                "file_options": None,
                "file_scoring": None,
            }
        )
        with gr.Accordion("About UpdateROUGE (the metric card)", open=False):
            card = (REPO / "README.md").read_text(encoding="utf-8")
            gr.Markdown(metric_card(card, os.environ.get("SPACE_ID")), elem_id="metric-card")
        _api_examples(page)
        wire(page)
        demo.load(None, js=over_limit_js(MAX_UPLOAD_MB), api_visibility="private")
    return demo


LENIENT_RADIOS = frozenset({"matches-of"})
"""The ``elem_id`` of each radio whose value reaches the handlers even when it is no longer among
its choices (``lenient``)."""


def lenient(radio: gr.Radio) -> gr.Radio:
    """``radio`` (its ``elem_id`` one of ``LENIENT_RADIOS``), whose value reaches the handlers even
    when it is no longer among its choices (an event sent before the page applied narrower
    choices). It patches ``gr.Radio.preprocess`` for these ids only (not a subclass: gradio
    rebuilds a ``gr.Radio`` on a choices update)."""
    if radio.elem_id not in LENIENT_RADIOS:
        raise ValueError(f"{radio.elem_id!r} is not one of LENIENT_RADIOS")
    if not getattr(gr.Radio.preprocess, "lenient", False):
        strict = gr.Radio.preprocess

        def _preprocess_leniently(self: gr.Radio, payload: Any) -> Any:
            try:
                return strict(self, payload)
            except gr.Error:
                if self.elem_id in LENIENT_RADIOS:
                    return payload
                raise

        _preprocess_leniently.lenient = True  # type: ignore[attr-defined]
        gr.Radio.preprocess = _preprocess_leniently
    return radio
