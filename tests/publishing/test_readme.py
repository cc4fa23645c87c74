"""README.md, which is also the Hub metric card: the example it opens with, run as written, prints
the output shown under it; the set-up commands CI runs are there, with where the command lands."""

import contextlib
import io
import re
from fractions import Fraction
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def opening():
    """The card's text before its first section ("## ..."), under its title."""
    card = README.read_text(encoding="utf-8").split("\n# Metric Card for UpdateROUGE\n", 1)[1]
    return card.split("\n## ", 1)[0]


def test_the_opening_example_prints_what_the_card_shows():
    text = opening()
    (code,) = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    (shown,) = re.findall(r"```text\n(.*?)```", text, flags=re.S)
    assert len([line for line in code.splitlines() if line.strip()]) <= 6
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code, {})
    assert printed.getvalue() == shown
    # The fractions the card explains: 3 of the prediction's 5 words, 3 of the reference's 4.
    f1, precision, recall = (float(value) for value in shown.split())
    assert (precision, recall) == (3 / 5, 3 / 4)
    assert Fraction(f1).limit_denominator(10) == Fraction(2, 3)
    assert "precision is 3/5, recall 3/4 and F1 2/3" in " ".join(text.split())


def test_the_install_section_holds_the_commands_ci_runs_and_where_the_command_lands():
    install = README.read_text(encoding="utf-8").split("\n## Install\n", 1)[1].split("\n## ", 1)[0]
    for command in ("bash scripts/update-rouge.sh tests/data/fruit_triples.jsonl", "bash tests/run.sh"):
        assert re.search(rf"^{re.escape(command)}\s", install, flags=re.M), command
    assert "`source .venv/bin/activate`" in install
    assert "(docs/contributing.md)" in install
