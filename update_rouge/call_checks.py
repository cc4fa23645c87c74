"""The checks of a whole ``compute`` call: its options, and what its baseline, group labels and
evidence ask of them, each refusal an ``OptionError`` whose advice works for the whole call
(``errors.advised``). ``compute``, the evaluate module and ``UpdateRougeScorer.corpus`` ask here."""

from typing import Any

from .bootstrap import check_paired
from .entities import check_evidence_given
from .errors import LEFT_OUT, Name, OptionError, Setting, advised
from .protocols import check_protocol_paired
from .settings import DEFAULTS, Settings, check_switch


def check_corpus_options(settings: Settings, paired: bool, grouped: bool) -> None:
    """``OptionError`` unless ``settings`` take a baseline (``paired``: a corpus value, and one
    with a paired test) and group labels (``grouped``: corpus values)."""
    if paired:
        check_paired(settings.use_aggregator)
        check_protocol_paired(settings.protocol)
    if grouped and not settings.use_aggregator:
        raise OptionError(
            "group_by",
            LEFT_OUT,
            (Name("group_by"), " gives the corpus values of each group: it needs ", Setting("use_aggregator", True)),
            [[Setting("use_aggregator", LEFT_OUT)], [Setting("group_by", LEFT_OUT)]],
        )


def checked_call(call: dict[str, Any]) -> Settings:
    """The ``Settings`` of a ``compute`` call's options ``call`` (its ``baseline_predictions``,
    ``group_by`` and ``return_signature`` too, the data's values aside): ``OptionError`` whose
    advice works for the whole call (``errors.advised``)."""
    return advised(_checked_call, call, DEFAULTS)


def _checked_call(call: dict[str, Any]) -> Settings:
    settings = Settings.from_options(call)
    check_switch("return_signature", call.get("return_signature", DEFAULTS["return_signature"]))
    grouped = call.get("group_by") is not None
    check_corpus_options(settings, call.get("baseline_predictions") is not None, grouped)
    check_evidence_given(settings.entities, call.get("evidence"))
    return settings
