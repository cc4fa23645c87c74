"""The errors users catch, as data that each door renders in its own words.

Every refusal of update-rouge is one of these (all exported from ``update_rouge``):

- ``OptionError`` (a ``ValueError``): an option refused: ``option``, the ``value`` given, and
  ``instead``, the changes that would be accepted (each a tuple of ``Setting``; a ``Setting``
  whose value is ``LEFT_OUT`` means "leave that option out");
- ``InputError`` (a ``ValueError``): a bad input: ``field`` (``sources``, ``predictions``, ...),
  ``index`` (the example) and ``item`` (the reference within it), or ``None`` where the problem
  is the whole column; ``InputFileError`` (``files/lines.py``, an ``InputError``) is one of an
  input file instead: ``path`` and ``line`` (``where`` None), the message ``path:line: problem``;
- ``LcsTableTooLarge`` (``lcs_limits.py``, an ``InputError``): a pair beyond an LCS limit;
- ``MissingExtra`` (``extras.py``, an ``ImportError``): an optional extra is not installed.

A message is ``parts``: plain text and *mentions* (``Name``, ``Setting``, ``Field``, ``InputFile``) that a
``Spelling`` writes as its door spells them: ``PYTHON`` (keywords, ``str(error)``), the command
line's flags (``cli.runner.FLAGS``), the demo's labels, a reward's column names. No door reads a
message back: it renders the parts.
"""

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any


class _LeftOut:
    """The value of a ``Setting`` that leaves its option out (its default)."""

    def __repr__(self) -> str:
        return "LEFT_OUT"

    def __reduce__(self) -> str:
        return "LEFT_OUT"


LEFT_OUT: Any = _LeftOut()


@dataclasses.dataclass(frozen=True)
class Name:
    """An option named without a value (``stemmer``; ``--stemmer`` at the command line)."""

    option: str


@dataclasses.dataclass(frozen=True)
class Setting:
    """An option at a value (``stemmer='porter'``; ``--stemmer porter``), or left out (``LEFT_OUT``)."""

    option: str
    value: Any = LEFT_OUT


@dataclasses.dataclass(frozen=True)
class Field:
    """An input field, the whole column (``index`` None) or one example's entry (``references[3]``,
    ``item``: the reference within it, ``references[3][1]``)."""

    field: str
    index: int | None = None
    item: int | None = None

    @property
    def indices(self) -> str:
        """``[3]``, ``[3][1]``, or nothing for the whole column."""
        return "".join(f"[{index}]" for index in (self.index, self.item) if index is not None)

    def shifted(self, offset: int) -> "Field":
        """The same entry ``offset`` examples further on (a batch's index in a whole evaluation)."""
        return self if self.index is None else dataclasses.replace(self, index=self.index + offset)


@dataclasses.dataclass(frozen=True)
class InputFile:
    """An input file named in a message: its ``path``, and the name it is ``shown`` by
    (``<stdin>`` for standard input; a door may show another, the demo its upload's name)."""

    path: str
    shown: str


Part = str | Name | Setting | Field | InputFile


class Spelling:
    """How a door writes mentions; this one is Python's (keyword arguments), ``str(error)``'s."""

    def name(self, option: str) -> str:
        return option

    def value(self, option: str, value: Any) -> str:
        return repr(value)

    def setting(self, option: str, value: Any) -> str:
        return f"{self.name(option)}={self.value(option, value)}"

    def change(self, setting: Setting) -> str:
        """The advice to make ``setting``: set it, or leave its option out."""
        if setting.value is LEFT_OUT:
            return f"leave out {self.name(setting.option)}"
        return self.setting(setting.option, setting.value)

    def field(self, field: Field) -> str:
        return f"{field.field}{field.indices}"

    def part(self, part: Part) -> str:
        if isinstance(part, Name):
            return self.name(part.option)
        if isinstance(part, Setting):
            return self.change(part) if part.value is LEFT_OUT else self.setting(part.option, part.value)
        if isinstance(part, Field):
            return self.field(part)
        if isinstance(part, InputFile):
            return self.input_file(part)
        return part

    def input_file(self, file: InputFile) -> str:
        return file.shown


PYTHON = Spelling()


def alternatives(instead: Sequence[Sequence[Setting]], spelling: Spelling) -> str:
    """``instead`` as advice: each alternative's changes joined by "and", alternatives by "or"."""
    return ", or ".join(" and ".join(spelling.change(setting) for setting in changes) for changes in instead)


class UpdateRougeError(Exception):
    """What every error of update-rouge has: its message as ``parts``, rendered by ``render``."""

    parts: tuple[Part, ...] = ()

    def render(self, spelling: Spelling = PYTHON) -> str:
        """The message in ``spelling``'s words."""
        return "".join(spelling.part(part) for part in self.parts)

    def __str__(self) -> str:
        return self.render()


class OptionError(UpdateRougeError, ValueError):
    """An option refused: ``option`` at ``value`` (``LEFT_OUT`` when the refusal is of its absence),
    because of ``parts``; ``instead``, the alternatives that would be accepted, each a tuple of
    ``Setting`` applied together (rendered after the message: "; instead: ...")."""

    def __init__(
        self,
        option: str,
        value: Any,
        parts: Sequence[Part],
        instead: Sequence[Sequence[Setting]] = (),
    ):
        self.option, self.value = option, value
        self.parts = tuple(parts)
        self.instead = tuple(tuple(changes) for changes in instead)
        super().__init__(option, value, self.parts, self.instead)

    def revised(self, revise: Callable[[tuple[Setting, ...]], tuple[Setting, ...] | None]) -> "OptionError":
        """The same refusal with each alternative of ``instead`` as ``revise`` gives it (``None``: dropped)."""
        kept = [changes for changes in map(revise, self.instead) if changes]
        return OptionError(self.option, self.value, self.parts, kept)

    def render(self, spelling: Spelling = PYTHON) -> str:
        message = super().render(spelling)
        return f"{message}; instead: {alternatives(self.instead, spelling)}" if self.instead else message


class InputError(UpdateRougeError, ValueError):
    """A bad input: ``where`` (a ``Field``, or None for the inputs as a whole) and ``parts``, the
    message (the field first, as ``references[3] must be a string, got None``)."""

    def __init__(self, where: Field | None, parts: Sequence[Part]):
        self.where = where
        self.parts = tuple(parts)
        super().__init__(where, self.parts)

    @property
    def field(self) -> str | None:
        return None if self.where is None else self.where.field

    @property
    def index(self) -> int | None:
        return None if self.where is None else self.where.index

    def shifted(self, offset: int) -> "InputError":
        """The same error with every example index ``offset`` further on."""
        moved = tuple(part.shifted(offset) if isinstance(part, Field) else part for part in self.parts)
        return InputError(None if self.where is None else self.where.shifted(offset), moved)


def input_error(field: str, index: int | None, problem: str, item: int | None = None) -> InputError:
    """``InputError`` at ``field[index][item]`` whose message is that place then ``problem``."""
    where = Field(field, index, item)
    return InputError(where, (where, " ", problem))
