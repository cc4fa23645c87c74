"""What the demo shows of deletions (``deletions=True``): the source with what each side drops
struck through, the deletion rows of the tables, their notes and their type names (``del_<type>``,
the suffix of ``update_del_<type>``, so that ``demo.render`` reads it as a type). Nothing here scores.
"""

import html
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from demo.render import fmt, token_spans
from update_rouge.edits import kept_positions, paired_source_positions, runs_outside
from update_rouge.example_tables import DeletionScore

DELETION_TYPE = "del_{}"
# Where a segment (or, with additions="edits", a run of tokens) of the source goes, by who drops it.
BOTH, REFERENCE, PREDICTION = "both", "reference", "prediction"
SIDE_WORDS = {
    BOTH: "dropped by both",
    REFERENCE: "dropped by the reference only (the prediction kept it)",
    PREDICTION: "dropped by the prediction only (the reference kept it)",
}
# Each kind's strike and background, legible on a light and a dark page alike.
SIDE_STYLES = {
    BOTH: "text-decoration-color: #7c3aed; background: rgba(124, 58, 237, 0.16)",
    REFERENCE: "text-decoration-color: #d97706; background: rgba(217, 119, 6, 0.18)",
    PREDICTION: "text-decoration-color: #dc2626; background: rgba(220, 38, 38, 0.16)",
}
HEADING = "Source: what each side drops from it, struck through (scored as del_&lt;type&gt;)"
UNPLACED = (
    "The deleted runs of tokens could not all be found in the source as written (stemmed, or in a script "
    "without word boundaries), so they are listed here instead:"
)

Units = list[tuple[int, int, str | None]]  # (start, end, who drops it) of each unit of the source


def shown_types(rouge_types: Sequence[str], deletions: bool) -> list[str]:
    """The types the tables show: ``rouge_types``, then with ``deletions`` each ``del_<type>``."""
    return [*rouge_types, *(DELETION_TYPE.format(t) for t in rouge_types)] if deletions else list(rouge_types)


def scores_rows(deletion: DeletionScore | None) -> list[list[str]]:
    """The example's score table rows of its deletions (``del_<type>``, P, R, F1); none without."""
    if deletion is None:
        return []
    return [
        [DELETION_TYPE.format(t), fmt(s.precision), fmt(s.recall), fmt(s.fmeasure)] for t, s in deletion.scores.items()
    ]


def with_deletion_rows(table: pd.DataFrame, deletion: DeletionScore | None) -> pd.DataFrame:
    """``table`` (``render.scores_table``'s) with the rows of ``deletion`` after its own."""
    rows = scores_rows(deletion)
    return pd.concat([table, pd.DataFrame(rows, columns=table.columns)], ignore_index=True) if rows else table


def deletion_notes(deletion: DeletionScore | None, unit: str = "segment") -> str:
    """What each side drops (of the first reference, the one shown), and the no-deletions rule."""
    if deletion is None:
        return ""
    notes = [
        f"The reference drops {len(deletion.reference_deletions[0])} {unit}(s) of the source, "
        f"the prediction {len(deletion.prediction_deletions)}."
    ]
    if deletion.both_kept:
        notes.append("Neither drops anything, so by the same rule every deletion score is 1.0.")
    return "\n".join(notes)


def kept_status(examples: int, result: dict[str, Any], micro: bool = False) -> str:
    """The file status's line on deletions: in how many of the ``examples`` neither side drops
    anything (``result``'s ``_both_kept``; under the ``micro`` average such an example adds no
    counts); "" where ``result`` has no deletions."""
    if "_both_kept" not in result:
        return ""
    kept = "such an example adds no counts to the micro values" if micro else "each deletion score is 1.0 there"
    return f"In {result['_both_kept']} of {examples} example(s) neither side drops anything from the source ({kept})."


def segment_units(source: str, deleted: Mapping[str, Sequence[str]], pattern: Any) -> Units:
    """Each segment of ``source`` (``pattern``'s, stripped, as the scorer cut them) with who drops
    it: ``deleted`` maps each side to its deletions, the source's segments it lacks in order."""
    found = dict.fromkeys(deleted, 0)
    units: Units = []
    for match in pattern.finditer(source):
        segment = match.group(0).strip()
        if not segment:
            continue
        start = source.index(segment, match.start())
        dropped = []
        for side, deletions in deleted.items():
            if found[side] < len(deletions) and deletions[found[side]] == segment:
                found[side] += 1
                dropped.append(side)
        units.append((start, start + len(segment), _who(dropped)))
    missing = [side for side, deletions in deleted.items() if found[side] != len(deletions)]
    if missing:
        raise ValueError(f"the {missing[0]}'s deletions are not segments of the source in order")
    return units


def token_units(
    source: str, texts: Mapping[str, str], deleted: Mapping[str, Sequence[str]], tokenizer: Any
) -> Units | None:
    """Each token of ``source`` (placed by ``render.token_spans``) with who drops it: the source tokens
    outside the diff's LCS with each side's text; ``None`` where a token cannot be placed or the runs
    found differ from the side's ``deleted`` runs (no guessed mark)."""
    tokens = tokenizer.tokenize(source)
    spans = token_spans(source, tokens)
    if spans is None:
        return None
    paired = {}
    for side, text in texts.items():
        text_tokens = tokenizer.tokenize(text)
        paired[side] = paired_source_positions(text_tokens, tokens, kept_positions(text_tokens, tokens))
        if [" ".join(run) for run in runs_outside(tokens, paired[side])] != list(deleted[side]):
            return None
    kept = {side: set(positions) for side, positions in paired.items()}
    return [
        (start, end, _who([side for side in texts if index not in kept[side]]))
        for index, (start, end) in enumerate(spans)
    ]


def _who(sides: Sequence[str]) -> str | None:
    """``BOTH``, the one side, or ``None`` (kept by both) for the ``sides`` that drop a unit."""
    return BOTH if len(sides) == 2 else (sides[0] if sides else None)


def _merged(units: Units) -> Units:
    """``units`` with neighbours dropped by the same side joined (the text between them too)."""
    merged: Units = []
    for start, end, who in units:
        if merged and who is not None and merged[-1][2] == who:
            merged[-1] = (merged[-1][0], end, who)
        else:
            merged.append((start, end, who))
    return merged


def _struck(text: str, who: str) -> str:
    return (
        f'<del class="deleted-{who}" title="{SIDE_WORDS[who]}" '
        f'style="text-decoration-thickness: 2px; {SIDE_STYLES[who]}">{html.escape(text)}</del>'
    )


def legend() -> str:
    """The legend of the marks: a struck sample of each kind, then what it means."""
    samples = "; ".join(f"{_struck('text', who)} {SIDE_WORDS[who]}" for who in (REFERENCE, PREDICTION, BOTH))
    return f'<p class="deletions-legend" style="margin: 0.25em 0">{samples}</p>'


def source_html(source: str, units: Units | None, deleted: Mapping[str, Sequence[str]], merge: bool = False) -> str:
    """The source view: ``HEADING``, the ``legend`` and ``source`` with each unit some side drops struck
    through (neighbours of one kind joined when ``merge``); with ``units`` ``None``, the source as it
    is and each side's ``deleted`` listed struck through."""
    parts = [
        f'<div class="deletions-view"><p style="margin: 0; font-weight: 600; font-size: 1em">{HEADING}</p>',
        legend(),
    ]
    if units is None:
        parts.append(f'<p class="source" style="white-space: pre-wrap">{html.escape(source)}</p><p>{UNPLACED}</p>')
        for side in (REFERENCE, PREDICTION):
            items = "".join(f"<li>{_struck(run, side)}</li>" for run in deleted[side])
            parts.append(f'<p>The {side} drops:</p><ul class="{side}-deletions">{items}</ul>')
        return "".join(parts) + "</div>"
    shown, position = [], 0
    for start, end, who in _merged(units) if merge else units:
        if who is None:
            continue
        shown += [html.escape(source[position:start]), _struck(source[start:end], who)]
        position = end
    shown.append(html.escape(source[position:]))
    parts.append(f'<p class="source" style="white-space: pre-wrap; line-height: 1.6">{"".join(shown)}</p>')
    return "".join(parts) + "</div>"


def source_view(texts: Sequence[str], deletion: DeletionScore | None, settings: Any) -> str:
    """The source view of one example (``texts``: source, reference, prediction) scored with
    ``settings``: "" without deletions; else the first reference's and the prediction's deletions,
    placed as segments or token runs."""
    if deletion is None:
        return ""
    source, reference, prediction = texts
    deleted = {REFERENCE: deletion.reference_deletions[0], PREDICTION: deletion.prediction_deletions}
    if settings.additions == "edits":
        units = token_units(source, {REFERENCE: reference, PREDICTION: prediction}, deleted, settings.text_tokenizer())
        return source_html(source, units, deleted, merge=True)
    try:
        units = segment_units(source, deleted, settings.segment_pattern)
    except ValueError:
        return source_html(source, None, deleted)
    return source_html(source, units, deleted)
