"""Command line: score a file of examples, print the corpus scores as JSON.

Input is one JSONL or CSV file (columns ``source``, ``reference``, ``prediction``) or three
line-aligned text files; see ``files``. The examples are read, scored and written in
chunks, so memory does not grow with the number of examples, and the corpus means are exact
running sums, equal to ``compute``'s bit for bit. ``--per-example FILE`` gets one JSON line per
example (``-`` for standard output), written as ``outputs.output_file`` writes (an existing
file is replaced only when every example was scored, never an input: ``check_output_paths``),
and closed before the bootstrap runs, so nothing after it can lose it.
``update-rouge compare ...`` compares systems instead (``cli_compare``).

Exit status (``run_command``; see docs/guarantees.md): 0 on success, 2 for unusable input or
options or a missing optional extra (one line naming file and line, the option, or the pip
command), 1 when a worker process fails, 128 + the signal on SIGINT (130), SIGTERM (143) or
SIGHUP (129) (workers stopped, temporary files removed, existing outputs left as they were
unless already completed, one line on stderr that names any completed), 141 when the reader of
the output goes away (``write_stdout``).
"""

import argparse
import contextlib
import functools
import json
import os
import signal
import sys
import threading
from typing import IO, Any, Callable, Dict, Iterator, List, Optional, Sequence

from tqdm import tqdm

from .corpus_stream import score_rows
from .extras import MissingExtra
from .files import open_examples
from .outputs import check_output_paths, output_file, shown_path
from .parallel import STOP_SIGNALS
from .rouge_types import check_rouge_types
from .settings import OPTIONS, RUNNING, SCORING, STATISTICS, Option, Settings
from .version import __version__

PROG = "update-rouge"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="update-rouge",
        description="Score what updated texts add to their sources; print the corpus scores as JSON. "
        "To compare systems with a baseline: update-rouge compare --help.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    inputs = parser.add_argument_group("input: one JSONL or CSV file, or three line-aligned text files")
    inputs.add_argument("file", nargs="?", help="JSONL or CSV file with source, reference and prediction")
    inputs.add_argument("--format", choices=["jsonl", "csv"], help="format of FILE (default: from its extension)")
    inputs.add_argument("--sources", metavar="S", help="text file, one source per line")
    inputs.add_argument("--references", metavar="R", help="text file, one reference per line")
    inputs.add_argument("--predictions", metavar="P", help="text file, one prediction per line")
    running = add_table_options(parser)[RUNNING]
    running.add_argument("--per-example", metavar="FILE", help="write one JSON line of scores per example to FILE")
    running.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="score on the Ray cluster at ADDRESS (a new local one without ADDRESS); needs update-rouge[ray]",
    )
    running.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="progress bar on stderr (default: only when stderr is a terminal, after a second)",
    )
    return parser


def add_table_options(
    parser: argparse.ArgumentParser, exclude: Sequence[str] = ()
) -> Dict[str, argparse._ArgumentGroup]:
    """Add every option of the table that the command line offers (but ``exclude``), in its group;
    return the groups by name."""
    groups = {name: parser.add_argument_group(name) for name in (SCORING, STATISTICS, RUNNING)}
    for option in OPTIONS:
        if option.cli is not None and option.name not in exclude:
            groups[option.cli].add_argument(option.cli_flag, dest=option.name, **_argparse_options(option))
    return groups


def _argparse_options(option: Option) -> Dict[str, Any]:
    """``add_argument``'s keyword arguments for an option of the table (see ``settings.Option``)."""
    described = option.described().replace("%", "%%")
    if option.parse is bool:
        return {"action": "store_true", "help": described}
    arguments: Dict[str, Any] = {"default": option.default, "help": described}
    if option.parse is list:
        arguments["nargs"] = "+"
    elif option.parse is not None:
        arguments["type"] = option.parse
    if option.choices is not None:
        arguments["choices"] = option.choices
    return arguments


def file_after_rouge_types(args: argparse.Namespace) -> None:
    """Give back the FILE that ``--rouge-types`` (one or more values) took when FILE followed it:
    without a FILE or --sources, a last value that is not a rouge type is the FILE."""
    if args.file is None and args.sources is None and args.rouge_types and len(args.rouge_types) > 1:
        try:
            check_rouge_types(args.rouge_types[-1:])
        except ValueError:
            args.file = args.rouge_types.pop()


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
    """Within the block, the stop signals (``parallel.STOP_SIGNALS``) raise ``Interrupted``; after
    the first one they are ignored until the block is left, so the clean-up is not itself interrupted."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: Any) -> None:
        for number in STOP_SIGNALS:
            signal.signal(number, signal.SIG_IGN)
        raise Interrupted(signum)

    previous = {number: signal.signal(number, stop) for number in STOP_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def run_command(prog: str, body: Callable[[], int], written: Sequence[str] = ()) -> int:
    """Run a command's ``body`` and turn its ends into one line on stderr and an exit status:
    ``body``'s own status; 2 for ``OSError``, ``ValueError`` (unusable input or options) and
    ``MissingExtra`` (an optional extra the options need is not installed); 1 for
    ``RuntimeError`` (a worker failed); 141 for a closed standard output; 128 + the signal when
    a stop signal stopped it (130 SIGINT, 143 SIGTERM, 129 SIGHUP). ``written`` holds the output
    files ``body`` has finished so far (it appends to it): the line on an interrupt names them."""
    try:
        with _signals_interrupt():
            return body()
    except (Interrupted, KeyboardInterrupt) as stop:
        signum = stop.signum if isinstance(stop, Interrupted) else signal.SIGINT
        name = signal.Signals(signum).name
        print(f"{prog}: interrupted by {name}: stopped; {_outputs_told(written)}", file=sys.stderr)
        return 128 + signum
    except BrokenPipeError:
        return pipe_closed()
    except (OSError, ValueError, RuntimeError, MissingExtra) as error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        return 1 if isinstance(error, RuntimeError) else 2


def _outputs_told(written: Sequence[str]) -> str:
    """What an interrupted run did to the output files, ``written`` being those it completed."""
    if not written:
        return "no existing output file was changed"
    return f"{', '.join(map(shown_path, written))} had been written completely; no other output file was changed"


def compute_options(args: argparse.Namespace, groups: Sequence[str] = (SCORING,)) -> Dict[str, Any]:
    """The keyword arguments of ``compute`` given on the command line: the table's options of ``groups``."""
    return {
        option.name: getattr(args, option.name)
        for option in OPTIONS
        if option.cli in groups and hasattr(args, option.name)
    }


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings the command line gives (corpus means: ``use_aggregator`` stays true)."""
    return Settings.from_options(vars(args))


def read_examples(args: argparse.Namespace, parser: argparse.ArgumentParser):
    """The input files named on the command line and a function ``advance -> rows`` reading them
    (``files.open_examples``); a usage error when they do not name one layout."""
    try:
        return open_examples(args.file, args.format, (args.sources, args.references, args.predictions))
    except ValueError as error:
        parser.error(str(error))


def write_per_example(handle: IO[str], lines: List[int], table: Dict[str, list]) -> None:
    """One JSON object per example of a chunk: its file ``line`` and its per-example scores."""
    for index, line in enumerate(lines):
        handle.write(json.dumps({"line": line, **{key: values[index] for key, values in table.items()}}))
        handle.write("\n")


def main(argv: Optional[List[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["compare"]:
        from .cli_compare import main as compare_main

        return compare_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    file_after_rouge_types(args)
    written: List[str] = []
    return run_command(PROG, functools.partial(_score, args, parser, written), written)


def _tell(text: str) -> None:
    print(f"{PROG}: {text}", file=sys.stderr)


def _score(args: argparse.Namespace, parser: argparse.ArgumentParser, written: List[str]) -> int:
    """The command: check everything, then score, write the per-example file (appended to
    ``written`` once complete), then the result."""
    paths, read_rows = read_examples(args, parser)
    settings = settings_from(args)
    check_output_paths(paths, [] if args.per_example is None else [args.per_example])
    if args.ray is not None:
        from .ray_scoring import score_file_on_ray

        if args.per_example is not None:
            parser.error(
                "--per-example does not work with --ray: read per-example scores from ray_scoring.score_dataset"
            )
        options = compute_options(args, (SCORING, STATISTICS))
        return write_stdout(json.dumps(score_file_on_ray(read_rows(), args.ray or None, options), indent=2) + "\n")
    total_bytes = sum(os.path.getsize(path) for path in paths)
    # tqdm's disable=None: a bar only when stderr is a terminal.
    bar_options = {"disable": None if args.progress is None else not args.progress, "delay": 0 if args.progress else 1}
    with tqdm(total=total_bytes, unit="B", unit_scale=True, file=sys.stderr, **bar_options) as bar:
        with output_file(args.per_example) if args.per_example is not None else contextlib.nullcontext() as per_example:
            on_chunk = None if per_example is None else functools.partial(write_per_example, per_example)
            corpus = score_rows(read_rows(bar.update), settings, on_chunk, tell=_tell)
            if corpus.totals.count == 0:
                raise ValueError(f"{', '.join(map(shown_path, paths))}: no examples to score")
    if args.per_example not in (None, "-"):
        written.append(args.per_example)
    result = corpus.result()
    if args.return_signature:
        result["signature"] = corpus.signature()
    return write_stdout(json.dumps(result, indent=2) + "\n")
