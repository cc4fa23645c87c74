"""The demo's examples: the Dan example the page opens on, scored, and the FRUIT sample triples
(``tests/data/fruit_triples.jsonl``; the Space folder holds them at the same path,
``update_rouge/space.py``)."""

import json
import re
from pathlib import Path

# The checkout's root, or the Space folder's (this package lies at its top).
REPO = Path(__file__).resolve().parent.parent
EXAMPLES_FILE = REPO / "tests" / "data" / "fruit_triples.jsonl"
DAN_EXAMPLE = (
    "Dan is a baker.",
    "Dan is a baker. Dan loves chocolate cakes.",
    "Dan is a baker. Dan loves chocolate chip cookies.",
)


def fruit_examples() -> tuple[list[list[str]], list[str]]:
    """The FRUIT sample triples as [source, reference, prediction] rows, and their buttons' names:
    the article each updates (its source's subject, before the first " is " or comma)."""
    with open(EXAMPLES_FILE, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    names = [re.split(r" is |,", row["source"], maxsplit=1)[0].strip("' ") for row in rows]
    return [[row["source"], row["reference"], row["prediction"]] for row in rows], names
