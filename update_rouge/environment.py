"""Limits read from environment variables: one rule for every ``UPDATE_ROUGE_*`` number.

An unset variable gives the default. A set one must hold a finite number greater than 0; anything
else is an ``OptionError`` (the variable is the option) that advises the default, so a typo in a
job script fails at once instead of lifting a limit.
"""

import math
import os
from collections.abc import Mapping

from .errors import OptionError, Setting


def positive_integer(variable: str, default: int, unit: str, environ: Mapping[str, str] | None = None) -> int:
    """The integer > 0 in ``variable`` (``int``'s syntax), ``default`` when unset; ``unit``
    names what it counts in the error message ("bytes", "table cells")."""
    text = (os.environ if environ is None else environ).get(variable)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise _refused(variable, text, f"a positive integer ({unit})", default)
    return value


def positive_number(variable: str, default: float, unit: str, environ: Mapping[str, str] | None = None) -> float:
    """The finite number > 0 in ``variable`` (``float``'s syntax), ``default`` when unset;
    ``unit`` names what it counts in the error message ("seconds", "megabytes")."""
    text = (os.environ if environ is None else environ).get(variable)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise _refused(variable, text, f"a number of {unit} > 0", default)
    return value


def _refused(variable: str, text: str, expected: str, default: float) -> OptionError:
    """The refusal of ``variable``'s ``text``: "UPDATE_ROUGE_X='abc': expected ...; instead:
    UPDATE_ROUGE_X=<default>" (the default is what unsetting it gives too)."""
    return OptionError(variable, text, (f"{variable}={text!r}: expected {expected}",), [[Setting(variable, default)]])
