"""What every command of the command line shares: its exit status, its options from the table,
and its errors in the words the user typed.

Exit status (``run_command``; docs/guarantees.md): 0 on success, 2 for unusable input or options
or a missing optional extra (one line), 1 when a worker process fails, 128 + the signal on
SIGINT, SIGTERM or SIGHUP (workers stopped, temporary files removed, existing outputs unchanged
unless completed, one line on stderr), 141 when the reader of the output goes away (``write_stdout``).

The options of the table (``settings.OPTIONS``) are added by ``add_table_options``; an error of
``errors``' family reaches the user rendered in flags (``Flags``: ``--alpha must be ...``).
"""

import argparse
import contextlib
import difflib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..errors import InputError, InputFile, Part, Spelling, UpdateRougeError
from ..extras import MissingExtra
from ..files import STDIN, Fields, InputFileError, input_name, shown_path
from ..rouge_types import check_rouge_types
from ..settings import OPTIONS, RUNNING, SCORING, STATISTICS, Option, Settings
from ..stop_signals import NOTHING_CHANGED, STOP_SIGNALS, interrupted_line

INPUT_FORMATS = ("jsonl", "csv")


class CommandParser(argparse.ArgumentParser):
    """A command's parser: an unrecognized argument is refused with the command's own usage and,
    where one of its flags is spelt alike, that flag (``--rogue-types (did you mean --rouge-types?)``)."""

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        parsed, unrecognized = self.parse_known_args(args, namespace)
        if unrecognized:
            flags = [flag for flag in self._option_string_actions if flag.startswith("--")]
            shown = []
            for given in unrecognized:
                close = difflib.get_close_matches(given.partition("=")[0], flags, n=1, cutoff=0.75)
                shown.append(f"{given} (did you mean {close[0]}?)" if given.startswith("--") and close else given)
            self.error("unrecognized arguments: " + " ".join(shown))
        return parsed


def add_table_options(
    parser: argparse.ArgumentParser, exclude: Sequence[str] = ()
) -> dict[str, argparse._ArgumentGroup]:
    """Add every option of the table that the command line offers (but ``exclude``), in its group;
    return the groups by name."""
    groups = {name: parser.add_argument_group(name) for name in (SCORING, STATISTICS, RUNNING)}
    for option in OPTIONS:
        if option.cli is not None and option.name not in exclude:
            groups[option.cli].add_argument(option.cli_flag, dest=option.name, **_argparse_options(option))
    return groups


def _argparse_options(option: Option) -> dict[str, Any]:
    """``add_argument``'s keyword arguments for an option of the table (see ``settings.Option``):
    its help in flags (``FLAGS``), with its default unless a switch (off unless given)."""
    described = option.described(FLAGS, code="", default=option.parse is not bool).replace("%", "%%")
    if option.parse is bool:
        return {"action": "store_true", "help": described}
    arguments: dict[str, Any] = {"default": option.default, "help": described}
    if option.parse is list:
        arguments.update(nargs="+", action=_RougeTypesThenFile)
    elif option.parse is not None:
        arguments["type"] = option.parse
    if option.choices is not None:
        arguments["choices"] = option.choices
    return arguments


def field_name(text: str) -> str:
    """A flag's name of a field, not empty (no message could show an empty one)."""
    if not text:
        raise argparse.ArgumentTypeError("expected the name of a JSON field or CSV column, got an empty name")
    return text


def add_reading_options(group: argparse._ArgumentGroup, roles: Sequence[str] = ("source", "reference", "prediction")):
    """Add ``--input-format``, for each of ``roles`` the flag that names the field a FILE holds it
    in (``--source-field NAME``), and ``--evidence-field NAME`` to ``group`` (``fields_from``)."""
    group.add_argument(
        "--input-format", choices=INPUT_FORMATS, help="format of FILE (default: from its extension; stdin: jsonl)"
    )
    for role in roles:
        group.add_argument(
            f"--{role}-field",
            metavar="NAME",
            type=field_name,
            default=role,
            help=f"the JSON field or CSV column of each example's {role} in FILE (default {role})",
        )
    group.add_argument(
        "--evidence-field",
        metavar="NAME",
        type=field_name,
        help="with --entities, read each example's evidence (a text or a JSON array of texts) from NAME in FILE",
    )


def check_input_paths(paths: Iterable[str | None]) -> None:
    """``OSError`` in one line for an input path that is a directory or does not exist (``-``,
    standard input, is neither; ``None``: no path), before its format is told from its name."""
    for path in paths:
        if path is None or path == STDIN:
            continue
        if os.path.isdir(path):
            raise IsADirectoryError(f"{shown_path(path)} is a directory, not a file of examples")
        if not os.path.exists(path):
            raise FileNotFoundError(f"{shown_path(path)}: no such file")


def fields_from(args: argparse.Namespace) -> Fields:
    """The fields of FILE the command line names (``add_reading_options``, ``--group-by``, ``--evidence-field``)."""
    prediction = getattr(args, "prediction_field", "prediction")
    extra = (getattr(args, "group_by", None), getattr(args, "evidence_field", None))
    return Fields(args.source_field, args.reference_field, (prediction,), *extra)


FIELD_FLAGS = {f"{role}_field": f"--{role}-field" for role in ("source", "reference", "prediction", "evidence")}
"""The flags that name a FILE's fields, by the option names of ``InputFileError.missing``."""


def add_file_argument(parser: argparse.ArgumentParser, group: argparse._ArgumentGroup, help: str) -> None:
    """Add the optional positional FILE (``args.file``, ``None`` when not given) to ``group``.
    Its default is set on ``parser`` alone, so that argparse, which gives a FILE that no word is
    left for its default after the options, keeps the FILE ``--rouge-types`` found."""
    parser.set_defaults(file=None)
    group.add_argument("file", nargs="?", default=argparse.SUPPRESS, help=help)


def stdin_piped() -> bool:
    """Whether standard input can be read and is not a terminal (a pipe or a file): a command
    given no input file reads it then."""
    try:
        return sys.stdin is not None and sys.stdin.readable() and not sys.stdin.isatty()
    except (OSError, ValueError):  # closed
        return False


class _RougeTypesThenFile(argparse.Action):
    """``--rouge-types``: when no FILE came before, a last word of several that is not a rouge type
    is the FILE (``--rouge-types rouge1 rouge2 data.jsonl`` reads data.jsonl); any other word that
    is not a rouge type is refused when the settings are built."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        words = list(values)
        if getattr(namespace, "file", None) is None and len(words) > 1 and not _is_rouge_type(words[-1]):
            namespace.file = words.pop()
        setattr(namespace, self.dest, words)


def _is_rouge_type(word: str) -> bool:
    try:
        check_rouge_types([word])
    except ValueError:
        return False
    return True


def add_output_format(group: argparse._ArgumentGroup, formats: Sequence[str], default: str) -> None:
    """Add ``-f``/``--format``/``--output-format`` (``args.output_format``), the output's format,
    one of ``formats``, as sacreBLEU's ``-f``. An input format given to it (``--format jsonl``) is
    refused with a usage error that names ``--input-format``."""

    def output_format(text: str) -> str:
        if text in INPUT_FORMATS and text not in formats:
            raise argparse.ArgumentTypeError(
                f"{text} is an input format: --format is the output format ({', '.join(formats)}); "
                f"give the input's with --input-format {text}"
            )
        return text

    group.add_argument(
        "-f",
        "--format",
        "--output-format",
        dest="output_format",
        type=output_format,
        choices=formats,
        default=default,
        help=f"output format (default {default})",
    )


def compute_options(args: argparse.Namespace, groups: Sequence[str] = (SCORING,)) -> dict[str, Any]:
    """The keyword arguments of ``compute`` given on the command line: the table's options of ``groups``."""
    return {
        option.name: getattr(args, option.name)
        for option in OPTIONS
        if option.cli in groups and hasattr(args, option.name)
    }


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings the command line gives (corpus means: ``use_aggregator`` stays true)."""
    return Settings.from_options(vars(args))


class Flags(Spelling):
    """The command line's spelling of options (``errors.Spelling``): each option of ``flags`` (name
    -> flag) as its flag with the value as typed (``--stemmer porter``), leaving one out as "leave
    out --flag"; an option the command line does not offer keeps its keyword."""

    def __init__(self, flags: Mapping[str, str]):
        self.flags = dict(flags)

    def name(self, option: str) -> str:
        return self.flags.get(option, option)

    def value(self, option: str, value: Any) -> str:
        if option not in self.flags:
            return super().value(option, value)
        if value is None:
            return "none"
        if isinstance(value, (list, tuple)):
            return " ".join(map(str, value))
        return str(value)

    def setting(self, option: str, value: Any) -> str:
        if option in self.flags and value is True:
            return self.flags[option]
        if option in self.flags and value is False:
            return f"no {self.flags[option]}"
        separator = " " if option in self.flags else "="
        return f"{self.name(option)}{separator}{self.value(option, value)}"


TABLE_FLAGS = {option.name: option.cli_flag for option in OPTIONS if option.cli is not None}
FLAGS = Flags(TABLE_FLAGS)


def no_examples(paths: Sequence[str], command: str) -> InputError:
    """The refusal of the input files ``paths`` when they hold no example: "x.jsonl: no examples
    to ``command``; ..." (``<stdin>`` for standard input)."""
    files: list[Part] = []
    for path in paths:
        files += [", "] if files else []
        files.append(InputFile(path, input_name(path)))
    return InputError(None, (*files, f": no examples to {command}; give at least one example"))


def write_stdout(text: str) -> int:
    """Write ``text`` to stdout; 0, or 141 (128 + SIGPIPE, what a shell reports for a Unix tool
    the pipe closed on) without a traceback when the reader has gone, e.g. ``| head -1``."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        return pipe_closed()
    return 0


def pipe_closed() -> int:
    """141, after pointing stdout at /dev/null: Python flushes stdout again at exit, and that
    flush must not fail."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 128 + signal.SIGPIPE


class Interrupted(BaseException):
    """A stop signal (``signum``: SIGINT, SIGTERM, SIGHUP) arrived: raised where the program was, so that every
    ``finally`` on the way out runs (workers terminated, temporary files removed)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _signals_interrupt() -> Iterator[None]:
    """Within the block, the stop signals (``stop_signals.STOP_SIGNALS``) raise ``Interrupted``; after
    the first one they are ignored until the block is left, so the clean-up is not itself interrupted.
    A signal the process ignores (SIGHUP under ``nohup``) stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: Any) -> None:
        for number in STOP_SIGNALS:
            signal.signal(number, signal.SIG_IGN)
        raise Interrupted(signum)

    previous = {
        number: signal.signal(number, stop) for number in STOP_SIGNALS if signal.getsignal(number) is not signal.SIG_IGN
    }
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def run_command(prog: str, body: Callable[[], int], written: Sequence[str] = (), flags: Flags = FLAGS) -> int:
    """Run a command's ``body`` and turn its ends into one line on stderr and an exit status
    (an error of ``errors``' family rendered in ``flags``): ``body``'s own status; 2 for
    ``OSError``, ``ValueError`` and ``MissingExtra``; 1 for ``RuntimeError`` (a worker failed);
    141 for a closed standard output; 128 + the signal when a stop signal stopped it.
    ``written`` holds the output files ``body`` has finished so far: the line on an interrupt names them."""
    try:
        with _signals_interrupt():
            return body()
    except (Interrupted, KeyboardInterrupt) as stop:
        signum = stop.signum if isinstance(stop, Interrupted) else signal.SIGINT
        print(interrupted_line(prog, signum, _outputs_told(written)), file=sys.stderr)
        return 128 + signum
    except BrokenPipeError:
        return pipe_closed()
    except (OSError, ValueError, RuntimeError, MissingExtra) as error:
        text = error.render(flags) if isinstance(error, UpdateRougeError) else str(error)
        print(f"{prog}: error: {text}{_naming(error, flags)}", file=sys.stderr)
        return 1 if isinstance(error, RuntimeError) else 2


def _naming(error: BaseException, flags: Flags) -> str:
    """How to name the fields a file lacks (``InputFileError.missing``) with ``flags``' flags, if any."""
    named = [flags.name(option) for option in getattr(error, "missing", ()) if option in flags.flags]
    if not isinstance(error, InputFileError) or not named:
        return ""
    given = ", ".join(flag if " " in flag else f"{flag} NAME" for flag in named)
    return f"; if FILE names {'it' if len(named) == 1 else 'them'} otherwise, give {given}"


def _outputs_told(written: Sequence[str]) -> str:
    """What an interrupted run did to the output files, ``written`` being those it completed."""
    if not written:
        return NOTHING_CHANGED
    return f"{', '.join(map(shown_path, written))} had been written completely; no other output file was changed"
