"""The UpdateROUGE Space: score one example or a file of them, and see what was counted.

Run with ``python app.py``. Gradio serves on 127.0.0.1 (``GRADIO_SERVER_NAME`` overrides it,
as a Hugging Face Space does) at the port in ``GRADIO_SERVER_PORT`` (7860 when unset). Analytics
are off and the default theme's fonts are bundled with gradio, so nothing is fetched from the
network.

This file is the page's layout and its wiring only. Beside it: ``app_options.py`` (the
controls' choices, their values as ``Settings``, the Reproduce code, the limits read from the
environment), ``app_handlers.py`` and ``app_files.py`` (what each event computes, for one
example and for a file; each example scored once), ``app_render.py`` (tables, highlights, the
histogram, the notes), ``app_samples.py`` (the examples) and ``app_style.py`` (CSS, the Status
box's class); ``app_metric.py`` loads the metric. Uploads larger than
``UPDATE_ROUGE_DEMO_MAX_MB`` megabytes are refused, a file is scored for at most
``UPDATE_ROUGE_DEMO_MAX_SECONDS`` and, when served, one example's LCS is limited to
``DEMO_MAX_LCS_CELLS`` (see ``app_options`` and ``app_files``).
"""

import functools
import os
import signal
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Dict, List

import gradio as gr

from app_files import FILE_RESULTS, MAX_UPLOAD_MB, file_inputs_changed, open_example, score_file
from app_handlers import (
    MATCHES,
    ONE_EXAMPLE,
    clear_unless_scored,
    matches_if_scored,
    options_changed,
    score_one,
    show_matches,
)
from app_options import (
    ALPHA_RULE,
    CONFIDENCE_LEVELS,
    COUNT_RULE,
    DEFAULT_ROUGE_TYPES,
    LANGUAGE_CHOICES,
    LIMIT_RULE,
    MATCH_TYPE_CHOICES,
    MAX_DEMO_BOOTSTRAP,
    ROUGE_TYPE_CHOICES,
    SEED_RULE,
    option_component,
    option_number,
    reproduce,
    serve_limits,
)
from app_render import ADDED, KEPT, MATCHED, PAIRED_HEADERS, SCORE_HEADERS, SUMMARY_HEADERS, histogram_svg, metric_card
from app_samples import DAN_EXAMPLE, fruit_examples
from app_style import CSS, status_class

HERE = Path(__file__).parent


class Page(SimpleNamespace):
    """The page's components by name; handlers' results are keyed by these names."""

    def __call__(self, *names: str) -> List[Any]:
        """The components of ``names``, in that order (gradio's inputs, or an API's outputs)."""
        return [getattr(self, name) for name in names]

    def keyed(self, handler: Callable[..., dict]) -> Callable[..., dict]:
        """``handler`` giving gradio ``{component: value}`` for its ``{name: value}`` (gradio
        reads its signature, so its parameters, defaults and docstring stay the API's)."""

        @functools.wraps(handler)
        def run(*args: Any, **kwargs: Any) -> dict:
            return {getattr(self, name): value for name, value in handler(*args, **kwargs).items()}

        return run


def _options(page: Page) -> None:
    """The rouge types and the stemmer, and the advanced options in an accordion; every control's
    label, help, choices and default come from the option table (``app_options.option_control``)."""
    with gr.Row(equal_height=False):
        page.rouge_types = option_component(
            gr.CheckboxGroup, "rouge_types", choices=list(ROUGE_TYPE_CHOICES), min_width=200, elem_id="rouge-types"
        )
        page.stemmer = option_component(gr.Radio, "stemmer", min_width=200, elem_id="stemmer")
    with gr.Accordion("Advanced options (ROUGE-1.5.5, languages, edits)", open=False), gr.Row():
        page.language = option_component(gr.Dropdown, "language", choices=LANGUAGE_CHOICES, min_width=160)
        page.remove_stopwords = option_component(gr.Checkbox, "remove_stopwords", min_width=160)
        whole: Dict[str, Any] = {"rule": LIMIT_RULE, "precision": 0, "minimum": 0, "min_width": 120}
        page.max_words = option_number("max_words", **whole)
        page.max_bytes = option_number("max_bytes", **whole)
        page.alpha = option_number("alpha", ALPHA_RULE, minimum=0, maximum=1, min_width=120)
        page.additions = option_component(gr.Radio, "additions", min_width=200)


def _statistics_options(page: Page) -> None:
    """The file's statistics: the confidence level, and in an accordion the multi-reference mode,
    the number of resamples and the seed (from the option table, as ``_options``)."""
    page.confidence = option_component(gr.Radio, "confidence_level", choices=list(CONFIDENCE_LEVELS))
    with gr.Accordion("Several references, resamples, seed, micro average", open=False), gr.Row():
        page.multi_ref = option_component(gr.Radio, "multi_ref", min_width=200)
        page.n_bootstrap = option_number(
            "n_bootstrap", COUNT_RULE, precision=0, minimum=1, maximum=MAX_DEMO_BOOTSTRAP, min_width=120
        )
        page.seed = option_number("seed", SEED_RULE, precision=0, minimum=0, min_width=120)
        page.average = option_component(gr.Radio, "average", min_width=200)


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
    first = score_one(*DAN_EXAMPLE, list(DEFAULT_ROUGE_TYPES), "none")
    page.note = gr.Textbox(first["note"], label="Notes", interactive=False, elem_id="note", lines=3)
    page.scores = gr.Dataframe(
        first["scores"], headers=SCORE_HEADERS, label="Scores", interactive=False, elem_id="scores", wrap=True
    )
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
        page.matches_of = gr.Radio(MATCH_TYPE_CHOICES, value="rouge1", label="Matched tokens of", elem_id="matches-of")
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
    with gr.Column(visible=False) as page.results:
        page.summary = gr.Dataframe(
            headers=SUMMARY_HEADERS,
            label="Corpus scores (mean over examples, %; F1 with its bootstrap interval at the level its header states)",
            interactive=False,
            elem_id="corpus-summary",
            wrap=True,
            column_widths=["26%", "36%", "19%", "19%"],
        )
        page.signature = gr.Textbox(
            label="Signature (quote it with the scores)", interactive=False, buttons=["copy"], elem_id="signature"
        )
        with gr.Row():
            page.download_json = gr.File(label="Full result (JSON)", interactive=False, elem_id="download-json")
            page.download_csv = gr.File(label="Per-example scores (CSV)", interactive=False, elem_id="download")
        with gr.Column(visible=False) as page.paired_box:
            page.paired = gr.Dataframe(
                headers=PAIRED_HEADERS,
                label="Paired test against the baseline (p: the system is not better)",
                interactive=False,
                elem_id="paired-test",
                wrap=True,
                column_widths=["26%", "50%", "24%"],
            )
        page.histogram_of = gr.Dropdown([], label="Histogram of the per-example F1 of")
        page.histogram = gr.HTML(label="Histogram", elem_id="histogram")
        page.per_example = gr.Dataframe(
            label='Per-example F1 (click a row to open it under "One example")',
            interactive=False,
            elem_id="per-example-scores",
            max_height=400,
            wrap=True,
        )
    page.per_example_state = gr.State()


def _api_examples(page: Page) -> None:
    """The "Use via API" page shows these examples instead of gradio's ("Hello!!", a PDF)."""
    for component, example in zip(page("source", "reference", "prediction"), DAN_EXAMPLE):
        component.example_payload = component.example_value = lambda example=example: example
    page.upload.example_payload = page.upload.example_value = lambda: {
        "path": "examples.jsonl",
        "orig_name": "examples.jsonl",
        "meta": {"_type": "gradio.FileData"},
    }


def _wire(page: Page) -> None:
    """The events: scoring, opening a row, matches, Reproduce, and the clearing of stale results."""
    texts = ("source", "reference", "prediction")
    # score_one's options, in its order (settings_from's first seven, then additions).
    settings = (
        "rouge_types",
        "stemmer",
        "language",
        "remove_stopwords",
        "max_words",
        "max_bytes",
        "alpha",
        "additions",
    )
    statistics = ("multi_ref", "n_bootstrap", "seed")
    # Every option in settings_from's order (the Reproduce code's).
    every = (*settings[:-1], "confidence", *statistics, "additions", "average")
    view = (*ONE_EXAMPLE, *MATCHES, "scored_texts")
    match_inputs = page(*texts, "matches_of", *settings[1:])
    hidden = {"api_name": False, "show_progress": "hidden"}
    # The events that write the one-example view run one at a time, in the order they were sent
    # (one concurrency group), so a clearing sent before a click cannot land after it. The texts
    # are remembered as scored first, so that a clearing still pending cannot wipe the scores.
    in_order = {"concurrency_id": "one_example", "concurrency_limit": 1}
    page.score_button.click(
        lambda *scored: {page.scored_texts: scored}, page(*texts), page("scored_texts"), api_name=False, **in_order
    ).then(
        page.keyed(score_one),
        page(*texts, *settings),
        page(*ONE_EXAMPLE),
        api_name="score_one",
        api_description="Score one example (source, reference, prediction) with UpdateROUGE.",
        preprocess=False,
        **in_order,
    ).then(page.keyed(show_matches), match_inputs, page(*MATCHES), api_name=False, **in_order)
    page.file_button.click(
        page.keyed(score_file),
        page(
            "upload",
            "rouge_types",
            "stemmer",
            "confidence",
            *settings[2:-1],
            "baseline_column",
            *statistics,
            "additions",
            "average",
        ),
        page(*FILE_RESULTS),
        api_name="score_file",
        api_description="Score a .jsonl or .csv file of examples: corpus summary, signature, downloads.",
    ).then(status_class, page.status, page.status, **hidden)
    page.histogram_of.input(histogram_svg, page("per_example_state", "histogram_of"), page.histogram, api_name=False)
    # The options are read, never written, by every handler: they trigger on the user's edits
    # (``.input``), so no handler's results can trigger an option's event (``.change`` also fires
    # on updates a handler sends). The baseline column, which no handler writes either, triggers on
    # ``.change`` (gradio's textbox sent no ``.input`` for a name filled in at once, as a paste, in
    # Chromium). "always_last" runs the last edit made while one was pending.
    edited = {**hidden, "trigger_mode": "always_last"}
    setting_edits = [component.input for component in page(*settings)]
    option_edits = [*setting_edits, *(component.input for component in page("confidence", *statistics, "average"))]
    gr.on(
        [*option_edits, page.baseline_column.change],
        lambda *values: reproduce(*values[:-1], baseline_column=values[-1]),
        page(*every, "baseline_column"),
        page.reproduce_box,
        **edited,
    )
    # A text or an option that changes clears the scores (and forgets what was scored), unless
    # the texts are those just scored (opening a table row sets the texts and their scores at once);
    # an option or the file that changes leaves a note to score again where results were.
    for component in page(*texts):
        component.change(
            page.keyed(clear_unless_scored), page(*texts, "scored_texts"), page(*view), **hidden, **in_order
        )
    gr.on(setting_edits, page.keyed(options_changed), page("scored_texts"), page(*view), **edited, **in_order)
    page.per_example.select(
        page.keyed(open_example),
        page("upload", "per_example_state", *settings),
        page(*texts, "tabs", *ONE_EXAMPLE, "scored_texts"),
        api_name=False,
        **in_order,
    ).then(page.keyed(show_matches), match_inputs, page(*MATCHES), api_name=False, **in_order)
    page.matches_of.input(
        page.keyed(matches_if_scored), [*match_inputs, page.scored_texts], page(*MATCHES), api_name=False, **in_order
    )
    gr.on(
        [*option_edits, page.baseline_column.change],
        page.keyed(file_inputs_changed),
        page("status"),
        page(*FILE_RESULTS),
        **edited,
    ).then(status_class, page.status, page.status, **hidden)
    page.upload.change(
        page.keyed(lambda status: file_inputs_changed(status, "File")), page("status"), page(*FILE_RESULTS), **hidden
    ).then(status_class, page.status, page.status, **hidden)


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
        page.scored_texts = gr.State(DAN_EXAMPLE)
        page.reproduce_box = gr.Code(
            reproduce(DEFAULT_ROUGE_TYPES, "none"),
            language="python",
            label="Reproduce",
            elem_id="reproduce",
            interactive=False,
        )
        with gr.Accordion("About UpdateROUGE (the metric card)", open=False):
            card = (HERE / "README.md").read_text(encoding="utf-8")
            gr.Markdown(metric_card(card, os.environ.get("SPACE_ID")), elem_id="metric-card")
        _api_examples(page)
        _wire(page)
    return demo


def _exit_on_sigterm(signum, frame):
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    serve_limits()
    build_demo().launch(max_file_size=f"{MAX_UPLOAD_MB:g}mb", css=CSS)
