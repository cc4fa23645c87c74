"""``update-rouge [score]``: score a file of examples, print the corpus scores as JSON.

Input is one JSONL or CSV file (columns ``source``, ``reference``, ``prediction``) or three
line-aligned text files; see ``files``. The examples are read, scored and written in
chunks, so memory does not grow with the number of examples, and the corpus means are exact
running sums, equal to ``compute``'s bit for bit. ``--per-example FILE`` gets one JSON line per
example (``-`` for standard output), written as ``outputs.output_file`` writes (an existing
file is replaced only when every example was scored, never an input: ``check_output_paths``),
and closed before the bootstrap runs, so nothing after it can lose it. Exit status: ``runner``.
"""

import argparse
import contextlib
import dataclasses
import functools
import json
import os
import sys
from typing import IO, Dict, List

from tqdm import tqdm

from ..chunk_scoring import CHUNK_SIZE, Output, score_chunks
from ..file_chunks import open_chunks
from ..outputs import check_output_paths, output_file, shown_path
from ..parallel import available_cpus
from ..settings import RUNNING
from ..version import __version__
from .runner import (
    INPUT_FORMATS,
    DeprecatedFlag,
    add_file_argument,
    add_table_options,
    run_command,
    settings_from,
    write_stdout,
)

PROG = "update-rouge"


def add_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> argparse.ArgumentParser:
    """Add the ``score`` command and its options to ``commands``; return its parser."""
    parser = commands.add_parser(
        "score",
        help="score a file of examples (the default command: update-rouge FILE ...)",
        description="Score what updated texts add to their sources; print the corpus scores as JSON. "
        "update-rouge FILE ... is update-rouge score FILE ...; to compare systems with a baseline: "
        "update-rouge compare --help.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    inputs = parser.add_argument_group("input: one JSONL or CSV file, or three line-aligned text files")
    add_file_argument(parser, inputs, "JSONL or CSV file with source, reference and prediction")
    inputs.add_argument("--input-format", choices=INPUT_FORMATS, help="format of FILE (default: from its extension)")
    inputs.add_argument(
        "--format", dest="input_format", choices=INPUT_FORMATS, action=DeprecatedFlag, use="--input-format"
    )
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


def read_examples(args: argparse.Namespace, parser: argparse.ArgumentParser):
    """The input files named on the command line and a function ``(advance, lines) -> chunks``
    cutting them into chunks (``file_chunks.open_chunks``); a usage error when they do not name
    one layout."""
    try:
        return open_chunks(args.file, args.input_format, (args.sources, args.references, args.predictions))
    except ValueError as error:
        parser.error(str(error))


def per_example_lines(lines: List[int], table: Dict[str, list]) -> str:
    """The per-example file's lines of a chunk: one JSON object per example, its file ``line``
    and its per-example scores. Made in the worker that scored the chunk (``score_chunks``'s
    ``render``)."""
    return "".join(
        json.dumps({"line": line, **{key: values[index] for key, values in table.items()}}) + "\n"
        for index, line in enumerate(lines)
    )


def _write_lines(handle: IO[str], _lines: List[int], text: str) -> None:
    handle.write(text)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run the command on its parsed ``args``; its exit status (``runner.run_command``)."""
    written: List[str] = []
    return run_command(PROG, functools.partial(_score, args, parser, written), written)


def _tell(text: str) -> None:
    print(f"{PROG}: {text}", file=sys.stderr)


def _score(args: argparse.Namespace, parser: argparse.ArgumentParser, written: List[str]) -> int:
    """The command: check everything, then score, write the per-example file (appended to
    ``written`` once complete), then the result."""
    paths, read_chunks = read_examples(args, parser)
    settings = settings_from(args)
    check_output_paths(paths, [] if args.per_example is None else [args.per_example])
    if args.ray is not None and settings.num_proc != 1:
        parser.error("--num-proc does not work with --ray: Ray scores as many chunks at once as the cluster has CPUs")
    total_bytes = sum(os.path.getsize(path) for path in paths)
    # tqdm's disable=None: a bar only when stderr is a terminal.
    bar_options = {"disable": None if args.progress is None else not args.progress, "delay": 0 if args.progress else 1}
    with contextlib.ExitStack() as run:
        workers = None
        if args.ray is not None:
            from ..integrations.ray_chunks import ray_workers

            workers = run.enter_context(ray_workers(args.ray or None))
            # The cluster's CPUs score; this machine's, as many, compute the bootstrap.
            settings = dataclasses.replace(settings, num_proc=workers.count)
        bar = run.enter_context(tqdm(total=total_bytes, unit="B", unit_scale=True, file=sys.stderr, **bar_options))
        per_example = None if args.per_example is None else run.enter_context(output_file(args.per_example))
        output = (
            None if per_example is None else Output(functools.partial(_write_lines, per_example), per_example_lines)
        )
        count = min(settings.num_proc, available_cpus()) if workers is None else workers.count
        chunks = read_chunks(bar.update, CHUNK_SIZE, count)
        corpus = score_chunks(chunks, settings, output, tell=_tell, workers=workers)
        if corpus.totals.count == 0:
            raise ValueError(f"{', '.join(map(shown_path, paths))}: no examples to score")
    if args.per_example not in (None, "-"):
        written.append(args.per_example)
    result = corpus.result()
    if args.return_signature:
        result["signature"] = corpus.signature()
    return write_stdout(json.dumps(result, indent=2) + "\n")
