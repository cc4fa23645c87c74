"""How Ray's door refuses: the errors of Ray Data tasks reach the driver as they were raised,
and a dataset without the columns it needs is refused in one line.

- ``carried()``: within a scoring task the user's error (``USER_ERRORS``) is raised as
  ``CarriedError``; ``own_errors(ds)`` makes Ray Data raise a task's own exception on the driver,
  and ``worker_error`` takes the user's error back out of Ray's task error, the same object.
- ``check_columns``: ``OptionError`` naming a missing column and the ``*_column`` option.

Needs the optional extra ``pip install 'update-rouge[ray]'``.
"""

import contextlib
from collections.abc import Iterator, Sequence

from ..errors import Name, OptionError
from ..extras import MissingExtra

try:
    import ray
except ImportError as error:
    raise MissingExtra("scoring on Ray needs the optional extra: pip install 'update-rouge[ray]'") from error

COLUMN_OPTIONS = ("source_column", "prediction_column", "reference_column", "row_column")
COLUMN_DEFAULTS = dict(zip(COLUMN_OPTIONS, ("source", "prediction", "reference", "row")))
"""The ``*_column`` options and the column each names when left out."""
USER_ERRORS = (ValueError, MissingExtra)
"""What a scoring task raises for the user: ``OptionError``, ``InputError`` (``LcsTableTooLarge``
among them), ``MissingExtra``, ``ValueError``; ``corpus_scores`` raises it as it was raised."""


class CarriedError(Exception):
    """One of ``USER_ERRORS``, ``error``, on its way from a Ray Data task to the driver.

    With ``raise_original_map_exception`` (``own_errors``) Ray Data raises a task's own exception,
    but first appends its advice on retries to its ``args``, from which errors are rebuilt on the
    driver. This carrier is pickled as ``error`` alone, untouched, whatever becomes of its own
    ``args``; Ray's task error on the driver holds it as its ``cause``."""

    def __init__(self, error: BaseException):
        super().__init__(error)
        self.error = error

    def __reduce__(self) -> tuple:
        return CarriedError, (self.error,)

    def __str__(self) -> str:
        return str(self.error)


@contextlib.contextmanager
def carried() -> Iterator[None]:
    """Within the block (a Ray Data task), one of ``USER_ERRORS`` is raised as ``CarriedError``."""
    try:
        yield
    except USER_ERRORS as error:
        raise CarriedError(error) from None


def worker_error(error: "ray.exceptions.RayTaskError") -> BaseException:
    """The error a scoring task raised for the user (``CarriedError.error``), the same object;
    else ``RuntimeError`` with Ray's report (a task Ray gave up on, a worker lost)."""
    if isinstance(error.cause, CarriedError):
        return error.cause.error
    return RuntimeError(str(error))


def check_columns(present: Sequence[str], names: dict[str, str]) -> None:
    """``OptionError`` for the first of ``names`` (``*_column`` option -> column) not ``present``."""
    for option, name in names.items():
        if name in present:
            continue
        advice: tuple = ("name the column that holds it with ", Name(option), ", or rename it")
        if option == "row_column":
            advice = (
                "add one (a unique integer per example, its place in the input: docs/ray.md) or name the column "
                "that holds it with ",
                Name(option),
            )
        what = option.removesuffix("_column")
        raise OptionError(option, name, (f"the dataset has no {what} column {name!r}: ", *advice))


def own_errors(ds: "ray.data.Dataset") -> "ray.data.Dataset":
    """``ds``, whose failing tasks raise their own exceptions (``CarriedError``): set on its
    context, which the datasets it derives from share, never on Ray's current one."""
    ds.context.raise_original_map_exception = True
    return ds
