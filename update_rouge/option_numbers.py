"""What the options accept as a number (any integral or real number type, never a bool or a
string) and as a switch (``True`` or ``False`` only).

Whatever registers as ``numbers.Integral`` or ``numbers.Real`` (NumPy's scalars, ``Fraction``) is a
number; ``bool`` (and NumPy's ``bool_``) and strings are refused. An accepted value is used as
``int(value)`` or ``float(value)``, so a NumPy scalar gives the numbers of the Python number it equals.
"""

import numbers
from typing import Any

from .errors import LEFT_OUT, Name, OptionError, Setting


def is_integer(value: Any) -> bool:
    """Whether ``value`` is an integral number other than a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def is_real(value: Any) -> bool:
    """Whether ``value`` is a real number (integral ones included) other than a bool."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_switch(name: str, value: Any) -> bool:
    """``value`` if it is ``True`` or ``False`` (not merely truthy); ``OptionError`` naming ``name`` otherwise."""
    if value is not True and value is not False:
        raise OptionError(
            name, value, (Name(name), f" must be True or False, got {value!r}"), [[Setting(name, LEFT_OUT)]]
        )
    return value
