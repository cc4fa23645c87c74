"""``update-rouge [score]``: score a file of examples, print the corpus scores.

Input is one JSONL or CSV file or three line-aligned text files (``files``); ``-`` as FILE, or
no input named while standard input is not a terminal, reads standard input. The output is
JSON, a table or the numbers alone (``score_report``); ``--group-by FIELD`` adds the corpus
scores of each group. The examples are read, scored and written in chunks, so memory does not
grow with their number, and the corpus means are ``compute``'s bit for bit. ``--per-example
FILE`` gets one JSON line per example (its ``line``, its ``id`` when it has one, its scores), as
``files.output_file`` writes: an existing file is replaced only when every example was scored
and the corpus can be computed (``Corpus.check``), never an input, and it is closed before the
bootstrap runs. Exit status: ``runner``.
"""

import argparse
import contextlib
import dataclasses
import functools
import json
import os
import sys
from typing import IO

from ..entities import check_evidence_given
from ..errors import LEFT_OUT, Name, OptionError, Setting, advised
from ..files import STDIN, Output, check_output_paths, no_progress, open_reader, output_file, score_chunks
from ..files.chunks import CHUNK_LINES, Reader
from ..parallel import available_cpus
from ..settings import RUNNING
from ..version import __version__
from . import runner
from .score_report import DEFAULT_WIDTH, OUTPUT_FORMATS, report

PROG = "update-rouge"
SCORE_FLAGS = runner.Flags(
    {
        **runner.TABLE_FLAGS,
        **runner.FIELD_FLAGS,
        "ray": "--ray",
        "score_only": "-b/--score-only",
        "output_format": "-f/--format",
        "group_by": "--group-by",
        "evidence": "--evidence-field",
    }
)
RAY_ADVICE = "ray start --head --node-ip-address 127.0.0.1 --port 6379"
"""How the refusal of ``--ray`` without an address says to start a cluster (Ray's own command)."""


def add_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> argparse.ArgumentParser:
    """Add the ``score`` command and its options to ``commands``; return its parser."""
    parser = commands.add_parser(
        "score",
        help="score a file of examples (the default command: update-rouge FILE ...)",
        description="Score what updated texts add to their sources; print the corpus scores (JSON by default). "
        "update-rouge FILE ... is update-rouge score FILE ...; to compare systems with a baseline: "
        "update-rouge compare --help.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    inputs = parser.add_argument_group(
        "input: one JSONL or CSV file (- or a pipe: standard input), or three line-aligned text files"
    )
    runner.add_file_argument(
        parser, inputs, "JSONL or CSV file with source, reference and prediction; - (or no input named): standard input"
    )
    runner.add_reading_options(inputs)
    inputs.add_argument("--sources", metavar="S", help="text file, one source per line")
    inputs.add_argument("--references", metavar="R", help="text file, one reference per line")
    inputs.add_argument("--predictions", metavar="P", help="text file, one prediction per line")
    inputs.add_argument(
        "--group-by",
        metavar="FIELD",
        type=runner.field_name,
        help="also give the corpus scores of each group of examples with the same FIELD (a JSON field or CSV column)",
    )
    running = runner.add_table_options(parser)[RUNNING]
    runner.add_output_format(running, OUTPUT_FORMATS, "json")
    parser.set_defaults(output_format=None)  # json; None tells that -f was not given (_check_score_only)
    running.add_argument(
        "-b",
        "--score-only",
        action="store_true",
        help="print only the corpus F of each type, one per line (no format, no signature: not with -f or --signature)",
    )
    running.add_argument(
        "-w",
        "--width",
        type=_width,
        default=DEFAULT_WIDTH,
        help=f"decimals of the text, markdown and --score-only numbers (default {DEFAULT_WIDTH}; JSON keeps every digit)",
    )
    running.add_argument("--per-example", metavar="FILE", help="write one JSON line of scores per example to FILE")
    running.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="score on the running Ray cluster at ADDRESS (without ADDRESS: RAY_ADDRESS's); needs update-rouge[ray]",
    )
    running.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="progress bar on stderr (default: only when stderr is a terminal, after a second)",
    )
    return parser


def _width(text: str) -> int:
    """``--width``: a number of decimals, 0 to 17."""
    if not text.isdigit() or int(text) > 17:
        raise argparse.ArgumentTypeError(f"expected a number of decimals from 0 to 17, got {text!r}")
    return int(text)


def read_examples(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Reader:
    """The reader of the input files named on the command line (``-`` for standard input: see
    the module docstring; ``files.open_reader``); a usage error when they do not name one layout,
    ``OSError`` for one that is a directory or does not exist (``runner.check_input_paths``)."""
    text_files = (args.sources, args.references, args.predictions)
    file = args.file
    if file is None and text_files == (None, None, None) and runner.stdin_piped():
        file = STDIN
    runner.check_input_paths([file])  # before its format is told from its name
    try:
        reader = open_reader(file, args.input_format, text_files, runner.fields_from(args))
    except ValueError as error:
        parser.error(f"{error}, or pipe JSONL to standard input" if file is None else str(error))
    runner.check_input_paths(reader.paths)
    return reader


LINE_KEY = b'{"line": '
"""How each line of the per-example file begins: its ``line`` comes first (``per_example_tails``)."""


def per_example_tails(table: dict[str, list], ids: list[str | None]) -> list[bytes]:
    """The per-example file's lines of a chunk but their start (``LINE_KEY`` and the file line,
    which ``write_per_example`` adds): one JSON object per example, its file ``line``, its ``id``
    (if it has one) and its per-example scores, ASCII. Made in the worker that scored the chunk."""
    tails = []
    for index, example_id in enumerate(ids):
        rest = ({} if example_id is None else {"id": example_id}) | {
            key: values[index] for key, values in table.items()
        }
        text = json.dumps(rest)  # "{}" or '{"key": ...}': the object after its "line"
        tails.append((", " + text[1:] if rest else "}").encode("ascii") + b"\n")
    return tails


def write_per_example(handle: IO[bytes], lines: list[int], tails: list[bytes]) -> None:
    """Write a chunk's per-example lines to ``handle``: each example's ``LINE_KEY``, file line and tail."""
    handle.write(b"".join([part for line, tail in zip(lines, tails) for part in (LINE_KEY, b"%d" % line, tail)]))


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run the command on its parsed ``args``; its exit status (``runner.run_command``)."""
    written: list[str] = []
    return runner.run_command(PROG, functools.partial(_score, args, parser, written), written, SCORE_FLAGS)


def _tell(text: str) -> None:
    print(f"{PROG}: {text}", file=sys.stderr)


_SCORE_ONLY_DEFAULTS = {"score_only": False, "output_format": None, "return_signature": False}
_SCORE_ONLY_REFUSES = {
    "output_format": "in no format",
    "return_signature": "without the signature (-f text prints the signature under the table)",
}


def _check_score_only(args: argparse.Namespace) -> None:
    """``-b`` prints the numbers alone, as sacreBLEU's ``-b`` does: a format or a signature
    asked for with it is refused (``OptionError`` of ``score_only`` whose advice leaves out
    one or the other, tried on the whole command: ``errors.advised``), not ignored."""
    advised(_score_only, {name: getattr(args, name) for name in _SCORE_ONLY_DEFAULTS}, _SCORE_ONLY_DEFAULTS)


def _score_only(call: dict) -> None:
    if not call.get("score_only"):
        return
    for option, why in _SCORE_ONLY_REFUSES.items():
        if call.get(option, _SCORE_ONLY_DEFAULTS[option]) not in (None, False):
            raise OptionError(
                "score_only",
                True,
                (Name("score_only"), f" prints the F values alone, {why}"),
                [[Setting(option, LEFT_OUT)], [Setting("score_only", LEFT_OUT)]],
            )


def ray_address(given: str | None) -> str | None:
    """The address of the Ray cluster a run joins: ``--ray ADDRESS``, else ``RAY_ADDRESS`` for
    ``--ray`` alone; ``None`` without ``--ray``. ``OptionError`` naming ``--ray`` when it names
    none: starting a cluster is Ray's (``RAY_ADVICE``), never a run's."""
    if given is None:
        return None
    address = given or os.environ.get("RAY_ADDRESS")
    if not address:
        raise OptionError(
            "ray",
            LEFT_OUT,
            (
                Name("ray"),
                f" joins a running Ray cluster and none is named (no ADDRESS, no RAY_ADDRESS): start one with "
                f"`{RAY_ADVICE}` and give ",
                Name("ray"),
                " 127.0.0.1:6379 (or set RAY_ADDRESS=127.0.0.1:6379)",
            ),
        )
    return address


def _score(args: argparse.Namespace, parser: argparse.ArgumentParser, written: list[str]) -> int:
    """The command: check everything, then score, write the per-example file (appended to
    ``written`` once complete), then the result."""
    _check_score_only(args)
    address = ray_address(args.ray)
    reader = read_examples(args, parser)
    paths = reader.paths
    settings = runner.settings_from(args)
    check_evidence_given(settings.entities, args.evidence_field)
    check_output_paths(paths, [] if args.per_example is None else [args.per_example])
    if address is not None and settings.num_proc != 1:
        parser.error("--num-proc does not work with --ray: Ray scores as many chunks at once as the cluster has CPUs")
    total_bytes = sum(os.path.getsize(path) for path in paths if path != STDIN) or None
    # A bar when asked, else only when stderr is a terminal (as tqdm's disable=None): tqdm is imported then only.
    bar_shown = args.progress or (args.progress is None and sys.stderr.isatty())
    with contextlib.ExitStack() as run:
        workers = None
        if address is not None:
            from ..integrations.ray_chunks import ray_workers

            workers = run.enter_context(ray_workers(address))
            # The cluster's CPUs score; this machine's, as many, compute the bootstrap.
            settings = dataclasses.replace(settings, num_proc=workers.count)
        advance = no_progress
        if bar_shown:
            from tqdm import tqdm

            bar = tqdm(total=total_bytes, unit="B", unit_scale=True, file=sys.stderr, delay=0 if args.progress else 1)
            advance = run.enter_context(bar).update
        per_example = (
            None if args.per_example is None else run.enter_context(output_file(args.per_example, binary=True))
        )
        output = (
            None
            if per_example is None
            else Output(functools.partial(write_per_example, per_example), per_example_tails)
        )
        count = min(settings.num_proc, available_cpus()) if workers is None else workers.count
        chunks = reader.chunks(advance, CHUNK_LINES, count)
        corpus = score_chunks(chunks, settings, output, tell=_tell, workers=workers)
        if corpus.totals.count == 0:
            raise runner.no_examples(paths, "score")
        # Before the per-example file replaces FILE: a run refused with status 2 writes nothing.
        corpus.check()
    if args.per_example not in (None, "-"):
        written.append(args.per_example)
    result = corpus.result()
    output_format = args.output_format or "json"
    if args.return_signature or (output_format != "json" and not args.score_only):
        result["signature"] = corpus.signature()
    counts = [corpus.totals.count, *(group.totals.count for group in corpus.groups.values())]
    how = {
        "format": output_format,
        "score_only": args.score_only,
        "width": args.width,
        "average": settings.average,
        "confidence_level": settings.confidence_level,
        "n_bootstrap": settings.n_bootstrap,
        "protocol": settings.protocol,
        "reference_slots": max(corpus.reference_counts),
        "deletions": settings.deletions,
        "entities": settings.entities is not None,
    }
    return runner.write_stdout(report(result, counts, settings.rouge_types, how))
