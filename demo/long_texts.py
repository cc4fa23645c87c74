"""What the page shows of a long text: the first part of its highlights and of its matched tokens.

Each view holds at most ``MAX_MARKED`` marked segments (or added runs) and ``MAX_UNITS`` tokens
(or n-grams), and the note says how many of how many are shown. Only what is shown is cut: the
scores and the counts behind them are the whole text's.
"""

from collections.abc import Sequence
from typing import Any

Pieces = list[tuple[str, str | None]]
MAX_MARKED = 500
MAX_UNITS = 2000
# Where a view is cut: the rest of the text is not shown.
CUT = " …"


def capped_view(pieces: Pieces, side: str) -> tuple[Pieces, str]:
    """``pieces`` (a highlighted text: each segment labelled) up to its ``MAX_MARKED``-th segment,
    then ``CUT``; and a note saying so ("" when the view is whole). ``side``: "reference" or "prediction"."""
    marked = [index for index, (_, label) in enumerate(pieces) if label is not None]
    if len(marked) <= MAX_MARKED:
        return pieces, ""
    note = (
        f"The {side} is long: its view above shows its first {MAX_MARKED} of {len(marked)} segments "
        "(more would slow the page); the scores count them all."
    )
    return [*pieces[: marked[MAX_MARKED]], (CUT, None)], note


def capped_units(lines: Sequence[Sequence[Any]], side: str, unit: str = "tokens") -> tuple[list[list[Any]], str]:
    """``lines`` of units (tokens or n-grams, as ``demo.render.token_pieces`` takes them) up to
    ``MAX_UNITS`` units in all, the last line ending in ``CUT`` where cut; and a note saying so
    (``unit``: what the units are, "tokens" or "n-grams")."""
    total = sum(len(line) for line in lines)
    if total <= MAX_UNITS:
        return [list(line) for line in lines], ""
    kept: list[list[Any]] = []
    left = MAX_UNITS
    for line in lines:
        if left <= 0:
            break
        kept.append(list(line[:left]))
        left -= len(kept[-1])
    kept[-1].append((CUT.strip(), False))
    note = (
        f"The {side}'s {unit} below are its first {MAX_UNITS} of {total} (more would slow the page); "
        "the counts are of them all."
    )
    return kept, note
