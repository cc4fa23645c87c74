"""How the demo's page looks (``demo.style``): the Status box classed by what it says."""

import pytest

from demo import style


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
