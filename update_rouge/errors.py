"""The errors users catch, as data that each door renders in its own words.

Every refusal of a user's mistake is an ``UpdateRougeError``, one of these (all exported from
``update_rouge``; docs/guarantees.md lists them, and a test holds that list to this hierarchy):

- ``OptionError`` (a ``ValueError``): an option refused: ``option``, the ``value`` given, and
  ``instead``, the changes that would be accepted (each a tuple of ``Setting``; ``LEFT_OUT``:
  leave that option out); ``UnknownOptionError`` (also a ``TypeError``) is one that no door
  knows, or that the call cannot take beside another;
- ``InputError`` (a ``ValueError``): a bad input at ``field``, ``index`` and ``item`` (``None``
  where the problem is the whole column); ``InputFileError`` (``files/lines.py``) one of an input
  file's line, ``TokenizerError`` (``tokens.py``) one of a custom tokenizer, ``LcsTableTooLarge``
  (``lcs_limits.py``) a pair beyond an LCS limit;
- ``MissingExtra`` (``extras.py``, an ``ImportError``): an optional extra is not installed.

``advised`` keeps of a refusal's advice what the whole call accepts once followed. A message is
``parts``: plain text and mentions (``Name``, ``Setting``, ``Field``, ``InputFile``) that a
``Spelling`` writes as its door spells them (``PYTHON``, the command line's flags, the demo's
labels, a reward's column names). No door reads a message back.
"""

import copy
import dataclasses
import difflib
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeVar


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

    def __init__(self, option: str, value: Any, parts: Sequence[Part], instead: Sequence[Sequence[Setting]] = ()):
        self.option, self.value = option, value
        self.parts = tuple(parts)
        self.instead = tuple(tuple(changes) for changes in instead)
        super().__init__(option, value, self.parts, self.instead)

    def revised(self, revise: Callable[[tuple[Setting, ...]], tuple[Setting, ...] | None]) -> "OptionError":
        """The same refusal with each alternative of ``instead`` as ``revise`` gives it (``None``: dropped)."""
        return self.advising([changes for changes in map(revise, self.instead) if changes])

    def advising(self, instead: Sequence[Sequence[Setting]]) -> "OptionError":
        """The same refusal (of the same class) with the alternatives ``instead``."""
        revised = copy.copy(self)
        revised.instead = tuple(tuple(changes) for changes in instead)
        revised.args = (*self.args[:3], revised.instead)
        return revised

    def render(self, spelling: Spelling = PYTHON) -> str:
        message = super().render(spelling)
        return f"{message}; instead: {alternatives(self.instead, spelling)}" if self.instead else message


class UnknownOptionError(OptionError, TypeError):
    """An option no door of this call knows (``option``, the first such, at ``value``), or one it
    cannot take beside another: a ``TypeError`` too, whose advice leaves it out or, where one is
    spelt alike, gives its value to the option meant."""


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

    def said_of(self, place: str) -> "InputError":
        """The same error said of ``place`` (``line 4``, a file's) instead of its example index:
        ``line 4: references holds 2 references, ...``."""
        unplaced = tuple(
            dataclasses.replace(part, index=None) if isinstance(part, Field) else part for part in self.parts
        )
        return InputError(self.where and dataclasses.replace(self.where, index=None), (f"{place}: ", *unplaced))


def input_error(field: str, index: int | None, problem: str, item: int | None = None) -> InputError:
    """``InputError`` at ``field[index][item]`` whose message is that place then ``problem``."""
    where = Field(field, index, item)
    return InputError(where, (where, " ", problem))


def unknown_options(given: Mapping[str, Any], known: Collection[str], door: str) -> None:
    """``UnknownOptionError`` if ``given`` holds options not in ``known``: "``door`` got an
    unexpected keyword argument 'stemer'", as Python says it; the advice leaves them out and,
    where the first is spelt like a known option, gives its value to that one."""
    unknown = [name for name in given if name not in known]
    if not unknown:
        return
    first, leave_out = unknown[0], [Setting(name, LEFT_OUT) for name in unknown]
    meant = difflib.get_close_matches(first, known, n=1)
    plural = "s" if len(unknown) > 1 else ""
    raise UnknownOptionError(
        first,
        given[first],
        (f"{door} got an unexpected keyword argument{plural} {', '.join(map(repr, unknown))}",),
        [*([[Setting(meant[0], given[first]), *leave_out]] if meant else []), leave_out],
    )


Call = TypeVar("Call")


def followed(call: Mapping[str, Any], changes: Sequence[Setting]) -> dict[str, Any]:
    """``call`` (keyword arguments) with ``changes`` made: a ``LEFT_OUT`` option removed, so that
    its default applies; any other set."""
    made = dict(call)
    for change in changes:
        if change.value is LEFT_OUT:
            made.pop(change.option, None)
        else:
            made[change.option] = change.value
    return made


def advised(check: Callable[[dict[str, Any]], Call], call: Mapping[str, Any], defaults: Mapping[str, Any]) -> Call:
    """``check(call)``'s result; the ``OptionError`` it raises with only the alternatives whose
    call, ``followed``, ``check`` accepts. An alternative that leads to another refusal is
    completed by each of that refusal's alternatives (once); a change that changes nothing
    (leaving out an option not given, or at its ``defaults`` value) is dropped."""
    try:
        return check(dict(call))
    except OptionError as error:
        raise error.advising(_working(check, call, defaults, error.instead)) from None


def _working(
    check: Callable[[dict[str, Any]], Any],
    call: Mapping[str, Any],
    defaults: Mapping[str, Any],
    instead: Sequence[Sequence[Setting]],
) -> list[tuple[Setting, ...]]:
    """The alternatives of ``instead`` that work (see ``advised``), each completed once if need be."""
    kept: list[tuple[Setting, ...]] = []
    completed: list[tuple[Setting, ...]] = []
    for changes in instead:
        changes = tuple(change for change in changes if _changes(call, defaults, change))
        works, more = _tried(check, call, changes) if changes else (False, ())
        if works:
            kept.append(changes)
        for next_changes in more:
            made = (*changes, *(change for change in next_changes if _changes(call, defaults, change)))
            both = tuple(sorted(made, key=lambda change: change.value is LEFT_OUT))  # "x=1 and leave out y"
            if _tried(check, call, both)[0]:
                completed.append(both)
    shorter = [both for both in completed if not any(set(changes) <= set(both) for changes in kept)]
    return [*kept, *dict.fromkeys(shorter)]


def _changes(call: Mapping[str, Any], defaults: Mapping[str, Any], change: Setting) -> bool:
    """Whether ``change`` changes ``call``: leaving out an option given away from its default,
    or setting one to another value."""
    if change.value is LEFT_OUT:
        return change.option in call and not _same(call[change.option], defaults.get(change.option, LEFT_OUT))
    return change.option not in call or not _same(call[change.option], change.value)


def _same(value: Any, other: Any) -> bool:
    """Whether two option values are the same (by identity, or equal and of one type: ``1`` is not ``True``)."""
    if value is other:
        return True
    try:
        return type(value) is type(other) and bool(value == other)
    except ValueError:  # arrays
        return False


def _tried(
    check: Callable[[dict[str, Any]], Any], call: Mapping[str, Any], changes: Sequence[Setting]
) -> tuple[bool, tuple[tuple[Setting, ...], ...]]:
    """Whether ``check`` accepts ``call`` with ``changes`` made and, if an ``OptionError`` refuses
    it, that refusal's alternatives. A bad input (``InputError``) is not the advice's to mend:
    the options are accepted."""
    try:
        check(followed(call, changes))
    except OptionError as refusal:
        return False, refusal.instead
    except InputError:
        return True, ()
    except (ValueError, TypeError):
        return False, ()
    return True, ()
