"""The options of the table (``settings.OPTIONS``) that an integration does not take, refused by
name before any work, as ``OptionError`` whose advice, leaving the option out, works when
followed: none is accepted and then computed as if absent (tests/entry_points/test_doors.py).
Needs no extra.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import LEFT_OUT, Name, OptionError, Setting, unknown_options
from ..settings import OPTIONS, STATISTICS

CORPUS_OPTIONS = tuple(
    option.name
    for option in OPTIONS
    if option.cli == STATISTICS or option.name in ("use_aggregator", "baseline_predictions", "group_by")
)
"""The options that act on a corpus result, not on an example's score: the table's statistics and
reporting group (``STATISTICS``) and the Python-only ``use_aggregator``, ``baseline_predictions``
and ``group_by``."""

NOT_ONE_RESULT = ("use_aggregator", "baseline_predictions", "return_signature", "group_by")
"""The options that make ``compute``'s result other than one corpus value per key (per-example
lists, a paired test, a string, nested groups): refused where a door reports one number per key."""


def refuse_given(options: Mapping[str, Any], refused: Iterable[str], door: str, why: str) -> None:
    """``OptionError`` for the first option of ``refused`` that ``options`` holds: it "cannot be
    set for ``door``: ``why``"; the advice is to leave it out."""
    for name in refused:
        if name in options:
            raise OptionError(
                name, options[name], (Name(name), f" cannot be set for {door}: {why}"), [[Setting(name, LEFT_OUT)]]
            )


def refuse_unknown(options: Mapping[str, Any], door: str) -> None:
    """``UnknownOptionError`` (a ``TypeError``) naming the first of ``options`` that is not an
    option of the table, as Python names an unexpected keyword argument (``errors.unknown_options``)."""
    unknown_options(options, [option.name for option in OPTIONS], door)
