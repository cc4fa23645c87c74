"""The demo's handlers of the "One example" tab, scored with the package and drawn by
``demo.render`` (``demo.file_handlers`` has those of a file). Each returns a dict keyed by the
names of the components that show its results (``demo.page``'s); a component left out is left as
it is. ``score_one`` is also an HTTP API endpoint.
"""

import dataclasses
from collections.abc import Sequence
from typing import Any, NamedTuple

import gradio as gr

from demo import deletions_view, long_texts, render
from demo.options import NO_LANGUAGE, DemoError, ScreenOptions, in_page_words
from demo.reproduce import example_signature
from update_rouge.extraction import join_segments
from update_rouge.extras import MissingExtra
from update_rouge.lcs_limits import LcsTableTooLarge
from update_rouge.matches import token_matches
from update_rouge.metric import UpdateRougeScorer
from update_rouge.no_tokens import tokenless_examples


class Texts(NamedTuple):
    """One example's three texts, as the page shows them."""

    source: str
    reference: str
    prediction: str


Shown = dict[str, Any]
# The note that replaces results made stale by a change of what they were scored from.
STALE = "{} changed: press {} again."
UNPLACED_ADDITIONS = (
    "This protocol's additions are not all segments of the text as written, so it is shown without highlights."
)
NO_MATCH_TYPE = "Matched tokens are shown for rouge1, rouge2, rougeL and rougeLsum: none of them is ticked."
# The names of the results of score_one (the API's outputs, in order) and show_matches.
ONE_EXAMPLE = ("reference_view", "prediction_view", "scores", "note")
MATCHES = ("reference_matches", "prediction_matches", "match_note", "matches_box")


def check_text(value: Any, field: str) -> str:
    """``value`` if it is a string; else ``gr.Error`` naming ``field`` (the HTTP API's guard)."""
    if not isinstance(value, str):
        got = "null" if value is None else type(value).__name__
        raise gr.Error(f"{field} must be a string, got {got}", print_exception=False)
    return value


def score_one(  # noqa: PLR0913 (an HTTP endpoint: its clients pass the options one by one)
    source: str,
    reference: str,
    prediction: str,
    rouge_types: Sequence[str],
    stemmer: str,
    language: str = NO_LANGUAGE,
    remove_stopwords: bool = False,
    max_words: float | None = None,
    max_bytes: float | None = None,
    alpha: float = 0.5,
    additions: str = "sentences",
    deletions: bool = False,
) -> Shown:
    """Score one example with UpdateROUGE.

    Args:
        source: the text before the update.
        reference: the correct updated text.
        prediction: the system's updated text.
        rouge_types: the ROUGE variants to report, e.g. ["rouge1", "rouge2", "rougeLsum"].
        stemmer: one of the option table's stemmers (``update_rouge.settings.OPTIONS``).
        language: an ISO 639-1 code such as "de", or "none (rouge-score's tokens)".
        remove_stopwords: drop ROUGE-1.5.5's English stopwords before scoring.
        max_words: keep only the first N words of each side's additions (0: no limit).
        max_bytes: keep only the first N bytes of each side's additions (0: no limit).
        alpha: the weight of precision in F (0.5: the usual F1).
        additions: "sentences" (the published rule) or "edits" (the token runs a word-level
            diff against the source marks as inserted or replaced).
        deletions: also score what each side removes from the source (rows del_<type>).
    Returns:
        The reference and the prediction cut into pieces labelled "added" (scored) or
        "in the source" (not scored), a table of precision, recall and F1 per rouge type (and
        with deletions per del_<type>), and notes (what each side added, and dropped with
        deletions, the no-additions rule, warnings, or the error).
    """
    options = ScreenOptions.of(locals())  # the parameters that are options (the texts are ignored)
    for value, field in ((source, "source"), (reference, "reference"), (prediction, "prediction")):
        check_text(value, field)
    return score_example(Texts(source, reference, prediction), options)


def score_example(texts: Texts, options: ScreenOptions) -> Shown:
    """``score_one``'s results for ``texts`` scored with ``options`` (its ``settings()``)."""
    source, reference, prediction = texts
    try:
        settings = options.settings()
        example = UpdateRougeScorer(settings).score(source, prediction, reference)
        tokenizer = settings.additions_tokenizer()
        [tokenless] = tokenless_examples([example], tokenizer)
    except (ValueError, MissingExtra) as error:
        note = render.too_long_note(error) if isinstance(error, LcsTableTooLarge) else f"Error: {in_page_words(error)}"
        return {"reference_view": None, "prediction_view": None, "scores": None, "note": note}
    unit = "segment" if settings.additions == "sentences" else "run"
    note = render.example_notes(source, reference, prediction, example, tokenless, unit)
    dropped = deletions_view.deletion_notes(example.deletions, unit)
    note = "\n".join(part for part in (note, dropped) if part)
    if settings.additions == "sentences":
        pattern = settings.segment_pattern
        try:
            views = [
                render.highlight_additions(reference, example.reference_additions[0], pattern),
                render.highlight_additions(prediction, example.prediction_additions, pattern),
            ]
        except ValueError:  # a protocol's additions (an empty one: FRUIT's) that are no segment of the text
            note += f"\n{UNPLACED_ADDITIONS}"
            views = [[(reference, None)], [(prediction, None)]]
    else:
        placed = [
            render.edit_highlights(reference, source, example.reference_additions[0], settings),
            render.edit_highlights(prediction, source, example.prediction_additions, settings),
        ]
        if None in placed:
            note += f"\n{render.UNPLACED_EDITS}"
        views = [[(text, None)] if view is None else view for text, view in zip((reference, prediction), placed)]
    (reference_view, cut_reference), (prediction_view, cut_prediction) = (
        long_texts.capped_view(view, side) for view, side in zip(views, ("reference", "prediction"))
    )
    return {
        "reference_view": reference_view,
        "prediction_view": prediction_view,
        "scores": deletions_view.with_deletion_rows(render.scores_table(example.scores), example.deletions),
        "note": "\n".join(part for part in (note, cut_reference, cut_prediction) if part),
    }


def show_matches(texts: Texts, rouge_type: str | None, options: ScreenOptions) -> Shown:
    """The tokens of the reference's and the prediction's additions as ``rouge_type`` scores them,
    each labelled ``MATCHED`` where it counts (``update_rouge.matches``), one line per addition for
    rougeLsum; a note with the counts behind precision and recall; and their box, shown. ``options``
    are the page's (their rouge types replaced by ``rouge_type``)."""
    source, reference, prediction = texts
    try:
        options.settings()
    except DemoError:
        # The scores above are an error: no matches either (not those of an earlier score).
        return {name: value for name, value in cleared_example().items() if name in MATCHES}
    shown: Shown = {"reference_matches": None, "prediction_matches": None, "matches_box": gr.update(visible=True)}
    if rouge_type is None:
        return {**shown, "match_note": NO_MATCH_TYPE}
    try:
        settings = dataclasses.replace(options, rouge_types=[rouge_type]).settings()
        example = UpdateRougeScorer(settings).score(source, prediction, reference)
        if example.both_empty:
            return {**shown, "match_note": "Neither side adds anything: there is nothing to match."}
        found = token_matches(
            join_segments(example.reference_additions[0]),
            join_segments(example.prediction_additions),
            rouge_type,
            settings,
        )
    except LcsTableTooLarge as error:
        return {**shown, "match_note": render.too_long_note(error)}
    except (ValueError, MissingExtra) as error:
        return {**shown, "match_note": f"Error: {in_page_words(error)}"}
    # rouge2 to rouge9 count n-grams: each is shown as one unit, " · " between them.
    grams = render.counts_grams(rouge_type)
    separator, unit = (" · ", "n-grams") if grams else (" ", "tokens")
    reference_units, cut_reference = long_texts.capped_units(found.target_grams, "reference", unit)
    prediction_units, cut_prediction = long_texts.capped_units(found.prediction_grams, "prediction", unit)
    notes = (render.match_note(rouge_type, found.counts), cut_reference, cut_prediction)
    return {
        **shown,
        "reference_matches": render.token_pieces(reference_units, separator),
        "prediction_matches": render.token_pieces(prediction_units, separator),
        "match_note": "\n".join(part for part in notes if part),
    }


def show_deletions(texts: Texts, options: ScreenOptions) -> Shown:
    """The source view of ``texts`` scored with ``options``: the source with what each side drops
    struck through; empty without deletions or where the example is refused (the notes say why)."""
    try:
        settings = options.settings()
        if not settings.deletions:
            return {"source_view": ""}
        example = UpdateRougeScorer(settings).score(texts.source, texts.prediction, texts.reference)
    except (ValueError, MissingExtra):  # LcsTableTooLarge too: the notes name it
        return {"source_view": ""}
    return {"source_view": deletions_view.source_view(texts, example.deletions, settings)}


def cleared_example() -> Shown:
    """The one-example view emptied, and nothing remembered as scored."""
    return {
        "reference_view": None,
        "prediction_view": None,
        "scores": None,
        "note": "",
        "reference_matches": None,
        "prediction_matches": None,
        "match_note": "",
        "matches_box": gr.update(visible=False),
        "source_view": "",
        "example_signature": "",
        "scored_texts": None,
    }


def signature_of_scored(options: ScreenOptions, scored: Texts | None) -> Shown:
    """The signature of the example ``scored`` with ``options`` (``demo.reproduce.example_signature``);
    empty where nothing is scored or an option is unusable (the notes name it)."""
    try:
        return {"example_signature": "" if scored is None else example_signature(options)}
    except DemoError:
        return {"example_signature": ""}


def clear_unless_scored(texts: Texts, scored: Texts | None) -> Shown:
    """``cleared_example()`` unless ``texts`` are those just ``scored`` (then nothing changes)."""
    return {} if texts == scored else cleared_example()


def options_changed(scored: Texts | None, options: ScreenOptions, scored_with: ScreenOptions | None = None) -> Shown:
    """After an option changed: the error naming an unusable option (the view cleared); else, where
    something was ``scored`` with other options than ``options`` (``scored_with``),
    ``cleared_example()`` with the note "Options changed: press Score again."; else nothing changes."""
    try:
        options.settings()
    except DemoError as error:
        return {**cleared_example(), "note": f"Error: {error}"}
    if scored is None or options == scored_with:
        return {}
    return {**cleared_example(), "note": STALE.format("Options", "Score")}


def matches_if_scored(texts: Texts, rouge_type: str | None, options: ScreenOptions, scored: Texts | None) -> Shown:
    """``show_matches`` when ``texts`` are those ``scored``; else nothing changes."""
    return show_matches(texts, rouge_type, options) if texts == scored else {}
