"""The page's events: which handler each control's event runs, with what, and what it writes.

``score_one`` and ``score_file`` are also HTTP endpoints and take their inputs one by one
(``Page.keyed``); every other handler gets the values of the components it reads by name
(``Page.event``). Components a handler's result leaves out are left as they are (gradio's
``skip``), so "nothing changes" is an empty result.
"""

import dataclasses
import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import gradio as gr

from demo.file_handlers import FILE_RESULTS, file_inputs_changed, open_example, score_file
from demo.handlers import (
    MATCHES,
    ONE_EXAMPLE,
    Texts,
    clear_unless_scored,
    cleared_example,
    matches_if_scored,
    options_changed,
    score_one,
    show_deletions,
    show_matches,
    signature_of_scored,
)
from demo.histogram import histogram_svg
from demo.options import OPTION_NAMES, ScreenOptions, matchable
from demo.reproduce import DOWNLOAD_NAME, reproduce, reproduce_example
from demo.sessions import Turns, bound, session_of
from demo.style import STATUS_JS
from demo.upload_limit import FORGET_JS, KEEP_JS, SHOW_JS

Values = Mapping[str, Any]
TEXTS = ("source", "reference", "prediction")
# The options of one example, score_one's parameters in its order; the file's add the statistics.
EXAMPLE_OPTIONS = tuple(name for name in inspect.signature(score_one).parameters if name in OPTION_NAMES)
FILE_ONLY_OPTIONS = tuple(name for name in OPTION_NAMES if name not in EXAMPLE_OPTIONS)


class Page(SimpleNamespace):
    """The page's components by name; handlers' results are keyed by these names. Every handler
    runs in its session's line (``demo.sessions``): ``"one"`` for the one-example view, ``"file"``
    for the file view, one line per other event."""

    def __call__(self, *names: str) -> list[Any]:
        """The components of ``names``, in that order (gradio's inputs, or an API's outputs)."""
        return [getattr(self, name) for name in names]

    def turns(self) -> Turns:
        """The page's lines of events (made at the first event wired)."""
        return vars(self).setdefault("_turns", Turns())

    def keyed(self, handler: Callable[..., dict], line: str, heavy: bool = False) -> Callable[..., Any]:
        """``handler`` giving gradio ``{component: value}`` for its ``{name: value}``, run in its session's
        ``line`` (``heavy``: in one of the places of heavy jobs); its signature and docstring stay the
        API's, plus a last ``request`` that names the session."""
        signature = inspect.signature(handler)
        request = inspect.Parameter("request", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)
        called = signature.replace(parameters=[*signature.parameters.values(), request])
        turns = self.turns()

        @functools.wraps(handler)
        async def run(*args: Any, **kwargs: Any) -> dict:
            given = called.bind(*args, **kwargs).arguments
            session = session_of(given.pop("request", None))
            shown = await turns.run((line, session), bound(handler, **given), heavy)
            return {getattr(self, name): value for name, value in shown.items()}

        run.__signature__ = called  # type: ignore[attr-defined]
        run.__annotations__ = {**handler.__annotations__, "request": gr.Request}
        return run

    def inputs_of(self, handler: Callable[..., Any], renamed: Mapping[str, str]) -> list[Any]:
        """The components of ``handler``'s parameters by name (``renamed``: a parameter's component
        of another name), in the signature's order; none for gradio's progress bar."""
        parameters = inspect.signature(handler).parameters.values()
        names = [p.name for p in parameters if not isinstance(p.default, gr.Progress)]
        return self(*(renamed.get(name, name) for name in names))

    def event(  # noqa: PLR0913 (the event's handler, components, kind and line)
        self,
        handler: Callable[..., dict[str, Any]],
        inputs: Sequence[str],
        outputs: Sequence[str],
        on_select: bool = False,
        line: str = "one",
    ) -> tuple[Callable[..., Any], set, list[Any]]:
        """gradio's ``(fn, inputs, outputs)`` for ``handler(values)`` (``handler(values, row)`` for a
        select event, ``on_select``), ``values`` mapping each of ``inputs`` to its component's value,
        run in its session's ``line``. ``fn`` gives one value per output, ``gr.skip()`` for those
        ``handler`` leaves out; ``KeyError`` for a result that is not an output.

        An entry of the page's ``remembered`` record (a ``gr.State`` dict per session) is read and
        written as the handler runs in its line: gradio reads a State input on arrival and writes it
        after the event, so an event overtaken in its line would act on what was remembered before."""
        kept = {name for name in (*inputs, *outputs) if name in self.remembered.value}
        by_component = {getattr(self, name): name for name in inputs if name not in kept}
        record = self.remembered
        shown_outputs = [name for name in outputs if name not in kept]
        turns = self.turns()

        def results(given: dict[Any, Any], *row: int) -> Any:
            remembered = given.pop(record, {})
            values = {by_component[component]: value for component, value in given.items()}
            shown = handler({**values, **{name: remembered[name] for name in inputs if name in kept}}, *row)
            stray = sorted(set(shown) - set(outputs))
            if stray:
                raise KeyError(f"{handler.__name__} writes {stray}, not among its outputs")
            remembered.update((name, shown[name]) for name in outputs if name in kept and name in shown)
            answers = [shown.get(name, gr.skip()) for name in shown_outputs]
            # gradio takes one output's value as it is, not in a list.
            return answers[0] if len(answers) == 1 else answers

        async def run(given: dict[Any, Any], request: gr.Request) -> Any:
            return await turns.run((line, session_of(request)), bound(results, given))

        async def run_selected(given: dict[Any, Any], selected: gr.SelectData, request: gr.Request) -> Any:
            return await turns.run((line, session_of(request)), bound(results, given, selected.index[0]))

        fn = run_selected if on_select else run
        # gradio's event list, and the tests that read it, name each event by its handler.
        fn.__name__ = fn.__qualname__ = handler.__name__
        return fn, {*by_component, record} if kept else set(by_component), self(*shown_outputs)


# The browser saves a Reproduce box's code as DOWNLOAD_NAME (gradio's own button says "file.py").
DOWNLOAD_JS = f"""(code) => {{
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([code], {{type: "text/x-python"}}));
    link.download = "{DOWNLOAD_NAME}";
    document.body.appendChild(link);
    link.click();
    link.remove();
    return [];
}}"""


def _texts(values: Values) -> Texts:
    return Texts(*(values[name] for name in TEXTS))


def _scored(values: Values) -> Texts | None:
    scored = values["scored_texts"]
    return None if scored is None else Texts(*scored)


def _scored_with(values: Values) -> ScreenOptions:
    """The options the example shown was scored with (a file's row: the file's protocol too), else the page's."""
    return values.get("scored_options") or ScreenOptions.of(values)


def _no_scores(values: Values) -> bool:
    """Whether the scores box shows no scores (the example was refused: an error in the notes)."""
    scores = values["scores"]
    return scores is None or not any(str(cell).strip() for cell in scores.to_numpy().ravel())


def _matches(values: Values) -> dict[str, Any]:
    if _no_scores(values):  # nothing was scored: no tokens explain it
        return {name: value for name, value in cleared_example().items() if name in MATCHES}
    return show_matches(_texts(values), values["matches_of"], _scored_with(values))


def _deletions(values: Values) -> dict[str, Any]:
    if _no_scores(values):  # nothing was scored: nothing struck through
        return {"source_view": ""}
    return show_deletions(_texts(values), _scored_with(values))


def _matches_if_scored(values: Values) -> dict[str, Any]:
    if _no_scores(values):
        return {name: value for name, value in cleared_example().items() if name in MATCHES}
    return matches_if_scored(_texts(values), values["matches_of"], _scored_with(values), _scored(values))


def _match_choices(values: Values) -> dict[str, Any]:
    """ "Matched tokens of" offers the ticked types it can explain, its choice kept where still ticked."""
    choices = matchable(values["rouge_types"])
    value = values["matches_of"] if values["matches_of"] in choices else next(iter(choices), None)
    return {"matches_of": gr.update(choices=choices, value=value)}


def _reproduce(values: Values) -> dict[str, Any]:
    options = ScreenOptions.of(values)
    return {"reproduce_box": reproduce(options, values["baseline_column"], file_name=values["upload"])}


def _reproduce_example(values: Values) -> dict[str, Any]:
    return {"reproduce_one": reproduce_example(ScreenOptions.of(values), _texts(values))}


def _signature(values: Values) -> dict[str, Any]:
    if _no_scores(values):
        return {"example_signature": ""}
    return signature_of_scored(_scored_with(values), _scored(values))


def _clear_unless_scored(values: Values) -> dict[str, Any]:
    return clear_unless_scored(_texts(values), _scored(values))


def _options_changed(values: Values) -> dict[str, Any]:
    return options_changed(_scored(values), ScreenOptions.of(values), values["scored_options"])


def _file_inputs_changed(values: Values) -> dict[str, Any]:
    options = _file_options(values)
    if options == values["file_options"]:
        return {}  # the file shown was scored with these very options: an edit answered late
    return {**file_inputs_changed(values["status"], options[0]), "file_options": None}


def _file_options(values: Values) -> tuple[ScreenOptions, str, Any]:
    """What a file's results follow, as the page shows it: every option, the baseline column and the upload."""
    return ScreenOptions.of(values), values["baseline_column"], values["upload"]


def _remember_file_options(values: Values) -> dict[str, Any]:
    """What Score file scores, remembered; the results it replaces hidden (gradio redraws each output on
    every progress update)."""
    scoring = _file_options(values)
    return {"file_options": scoring, "file_scoring": scoring, "results": gr.update(visible=False)}


def _scored_file_changed(values: Values) -> dict[str, Any]:
    """After a file was scored: the note to score again where the page no longer shows what the click
    scored; nothing where it does."""
    scored = values["file_scoring"]
    now = _file_options(values)
    if now == scored == values["file_options"]:
        return {}
    changed = "File" if now[2] != scored[2] else "Options"
    return {**file_inputs_changed(values["status"], now[0], changed), "file_options": None}


def _file_changed(values: Values) -> dict[str, Any]:
    if _file_options(values) == values["file_options"]:
        return {}  # the very file shown was scored: its upload's answer came after the scoring
    return {**file_inputs_changed(values["status"], ScreenOptions.of(values), "File"), "file_options": None}


def _open_example(values: Values, row: int) -> dict[str, Any]:
    # The row is scored as the table was: under its protocol too (an option the one-example view lacks).
    options = dataclasses.replace(ScreenOptions.of(values), protocol=values["protocol"])
    return {**open_example(values["upload"], values["per_example_state"], options, row), "scored_options": options}


def _remember_scored(values: Values) -> dict[str, Any]:
    return {"scored_texts": _texts(values), "scored_options": ScreenOptions.of(values)}


for _adapter, _handler in (  # the names gradio's event list shows
    (_matches, show_matches),
    (_deletions, show_deletions),
    (_matches_if_scored, matches_if_scored),
    (_match_choices, matchable),
    (_reproduce, reproduce),
    (_reproduce_example, reproduce_example),
    (_signature, signature_of_scored),
    (_clear_unless_scored, clear_unless_scored),
    (_options_changed, options_changed),
    (_file_inputs_changed, file_inputs_changed),
    (_file_changed, file_inputs_changed),
    (_scored_file_changed, file_inputs_changed),
    (_open_example, open_example),
):
    _adapter.__name__ = _handler.__name__


def wire(page: Page) -> None:
    """The events: scoring, opening a row, matches, Reproduce, and the clearing of stale results."""
    view = (*ONE_EXAMPLE, *MATCHES, "source_view", "example_signature", "scored_texts")
    # A scored example's signature follows its scores at once, then its matches and struck deletions.
    signature = page.event(
        _signature, (*EXAMPLE_OPTIONS, "scored_texts", "scored_options", "scores"), ["example_signature"]
    )
    match_inputs = (*TEXTS, "matches_of", *EXAMPLE_OPTIONS, "scored_options", "scores")
    deletions = page.event(_deletions, (*TEXTS, *EXAMPLE_OPTIONS, "scored_options", "scores"), ["source_view"])
    hidden: dict[str, Any] = {"api_visibility": "private", "show_progress": "hidden"}
    # The one-example view's events run one at a time per session, in the order sent (line "one",
    # demo.sessions). The texts and options are remembered as scored first, so that a clearing still
    # pending (which can reach the server after a later Score click) leaves those results alone.
    free: dict[str, Any] = {"concurrency_limit": None}
    remember = page.event(_remember_scored, (*TEXTS, *EXAMPLE_OPTIONS), ["scored_texts", "scored_options"])
    page.score_button.click(*remember, api_visibility="private", **free).then(
        page.keyed(score_one, "one"),
        page.inputs_of(score_one, {}),
        page(*ONE_EXAMPLE),
        api_name="score_one",
        api_description="Score one example (source, reference, prediction) with UpdateROUGE.",
        preprocess=False,
        **free,
    ).then(*signature, api_visibility="private", **free).then(
        *page.event(_matches, match_inputs, MATCHES), api_visibility="private", **free
    ).then(*deletions, api_visibility="private", **free)
    # The file view's events likewise (line "file"; scoring in one of demo.sessions.HEAVY_JOBS places):
    # what a file is scored with, the upload included, is remembered first, and a late "File
    # changed" answer that finds the very file and options scored changes nothing.
    file_options = (*OPTION_NAMES, "baseline_column", "upload")
    # An edit sent while the file is scored reads the status shown before: once the results are
    # shown, the page's options are checked against those scored.
    remembered = ["file_options", "file_scoring"]
    page.file_button.click(
        *page.event(_remember_file_options, file_options, [*remembered, "results"], line="file"),
        api_visibility="private",
        **free,
    ).then(
        page.keyed(score_file, "file", heavy=True),
        page.inputs_of(score_file, {"path": "upload"}),
        page(*FILE_RESULTS),
        api_name="score_file",
        api_description="Score a .jsonl or .csv file of examples: corpus summary, signature, downloads.",
        **free,
    ).then(
        *page.event(
            _scored_file_changed,
            ("status", *remembered, *file_options),
            (*FILE_RESULTS, "file_options"),
            line="file",
        ),
        api_visibility="private",
        **free,
    ).then(None, page("upload", "status"), page.status, js=KEEP_JS, api_visibility="private")
    # The Status box is marked by what it says in the page itself, whichever event wrote it (demo.style).
    page.status.change(None, page.status, None, js=STATUS_JS, api_visibility="private")
    # A file over the upload cap, refused by gradio's page unsent: its refusal in the Status box.
    page.over_limit.click(None, None, page.status, js=SHOW_JS, api_visibility="private")
    page.upload.change(None, None, None, js=FORGET_JS, api_visibility="private", trigger_mode="multiple")
    page.histogram_of.input(
        histogram_svg,
        page("per_example_state", "histogram_of", "average", "protocol"),
        page.histogram,
        api_visibility="private",
    )
    # Options trigger on the user's edits (``.input``), every edit sent and answered in order;
    # never "always_last" (docs/demo.md says why).
    edited: dict[str, Any] = {**hidden, "trigger_mode": "multiple"}
    setting_edits = [component.input for component in page(*EXAMPLE_OPTIONS)]
    option_edits = [*setting_edits, *(component.input for component in page(*FILE_ONLY_OPTIONS))]
    # An edit's clearings are wired first (gradio sends a trigger's events in that order). A text or
    # option that changes clears the scores, unless the texts are those just scored (an opened row);
    # an option or the file that changes leaves a note to score again where results were.
    for component in page(*TEXTS):
        component.change(*page.event(_clear_unless_scored, (*TEXTS, "scored_texts"), view), **hidden, **free)
    gr.on(
        setting_edits,
        *page.event(_options_changed, ("scored_texts", "scored_options", *EXAMPLE_OPTIONS), view),
        **edited,
        **free,
    )
    gr.on(
        [*option_edits, page.baseline_column.change],
        *page.event(
            _file_inputs_changed,
            ("status", "file_options", *file_options),
            (*FILE_RESULTS, "file_options"),
            line="file",
        ),
        **edited,
        **free,
    )
    gr.on(
        [*option_edits, page.baseline_column.change, page.upload.change],
        *page.event(_reproduce, (*OPTION_NAMES, "baseline_column", "upload"), ["reproduce_box"], line="reproduce"),
        **edited,
        **free,
    )
    gr.on(
        [*setting_edits, *(component.change for component in page(*TEXTS))],
        *page.event(_reproduce_example, (*TEXTS, *EXAMPLE_OPTIONS), ["reproduce_one"], line="reproduce_one"),
        **edited,
        **free,
    )
    for code in ("reproduce_one", "reproduce_box"):
        getattr(page, f"{code}_download").click(
            None, getattr(page, code), None, js=DOWNLOAD_JS, api_visibility="private"
        )
    page.per_example.select(
        *page.event(
            _open_example,
            ("upload", "per_example_state", *EXAMPLE_OPTIONS, "protocol"),
            (*TEXTS, "tabs", *ONE_EXAMPLE, "scored_texts", "scored_options"),
            on_select=True,
        ),
        api_visibility="private",
        **free,
    ).then(*signature, api_visibility="private", **free).then(
        *page.event(_matches, match_inputs, MATCHES), api_visibility="private", **free
    ).then(*deletions, api_visibility="private", **free)
    page.rouge_types.input(
        *page.event(_match_choices, ("rouge_types", "matches_of"), ["matches_of"], line="match_choices"),
        **edited,
        **free,
    )
    page.matches_of.input(
        *page.event(_matches_if_scored, (*match_inputs, "scored_texts"), MATCHES), api_visibility="private", **free
    )
    page.upload.change(
        *page.event(
            _file_changed, ("status", "file_options", *file_options), (*FILE_RESULTS, "file_options"), line="file"
        ),
        **hidden,
        **free,
    )
