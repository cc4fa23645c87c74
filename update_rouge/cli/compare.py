"""``update-rouge compare``: several systems against a baseline, as a table with its signature.

Input: line-aligned text files (``--sources S --references R --system NAME=FILE ...``) or one
JSONL or CSV FILE with ``source``, ``reference`` and one column per system (``--system NAME`` or
``--system NAME=COLUMN``), or standard input as ``update-rouge score`` reads it. The numbers are
``comparison.systems.compare``'s, bit for bit; ``--output-format json`` prints exactly
``compare(..., return_signature=True)``. ``--per-example FILE`` is checked and written as in
``update-rouge`` and closed before the paired tests run. Exit status: ``runner.run_command``.
"""

import argparse
import contextlib
import functools
from typing import Any

from ..comparison.report import DEFAULT_LEVEL, Method, per_example_lines, render
from ..comparison.report import FORMATS as OUTPUT_FORMATS
from ..comparison.significance import DEFAULT_N_TRIALS
from ..comparison.systems import (
    CORRECTIONS,
    METHODS,
    check_comparison,
    compare_scores,
    comparison_signature,
    score_systems,
)
from ..entities import check_evidence_given
from ..files import STDIN, SystemsRow, check_output_paths, open_examples, output_file, read_systems
from ..settings import RUNNING, SCORING, STATISTICS
from ..version import __version__
from . import runner

PROG = "update-rouge compare"


def add_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> argparse.ArgumentParser:
    """Add the ``compare`` command and its options (the scoring ones as ``score``'s) to
    ``commands``; return its parser."""
    parser = commands.add_parser(
        "compare",
        help="compare systems with a baseline: intervals, paired tests, a table",
        description="Compare systems with a baseline on the same examples: mean UpdateROUGE F1 with intervals, "
        "paired tests, a table and the signature.",
    )
    parser.add_argument("--version", action="version", version=f"update-rouge {__version__}")
    inputs = parser.add_argument_group(
        "input: text files (--sources, --references, one per system), or one JSONL or CSV FILE with a column per system"
    )
    runner.add_file_argument(
        parser,
        inputs,
        "JSONL or CSV file with source, reference and one column per system; - (or no input named): standard input",
    )
    runner.add_reading_options(inputs, ("source", "reference"))  # each system names its column: --system NAME=COLUMN
    inputs.add_argument("--sources", metavar="S", help="text file, one source per line")
    inputs.add_argument("--references", metavar="R", help="text file, one reference per line")
    inputs.add_argument(
        "--system",
        action="append",
        required=True,
        metavar="NAME=FILE",
        help="a system: NAME=FILE (text file, one prediction per line) or, with FILE, NAME or NAME=COLUMN; repeat it",
    )
    inputs.add_argument("--baseline", metavar="NAME", help="the system compared with (default: the first --system)")

    test = parser.add_argument_group("comparison")
    test.add_argument("--method", choices=METHODS, default="bootstrap", help="paired test (default bootstrap)")
    test.add_argument("--n-trials", type=int, default=DEFAULT_N_TRIALS, help="randomization trials")
    test.add_argument(
        "--correction", choices=[c for c in CORRECTIONS if c], help="adjust p-values over the systems compared"
    )
    test.add_argument("--level", type=float, default=DEFAULT_LEVEL, help="significance level of the * mark")

    output = runner.add_table_options(parser, exclude=("return_signature",))[RUNNING]
    runner.add_output_format(output, OUTPUT_FORMATS, "text")
    output.add_argument("--per-example", metavar="FILE", help="write every system's per-example scores to FILE")
    return parser


def _systems(args: argparse.Namespace, parser: argparse.ArgumentParser) -> dict[str, str]:
    """System name -> its text file (text input) or its column (FILE input), in the given order."""
    systems: dict[str, str] = {}
    for given in args.system:
        name, equals, where = given.partition("=")
        if not equals:
            if args.file is None:
                parser.error(f"--system {given}: give NAME=FILE, the file of that system's predictions")
            where = name
        if not name or not where:
            parser.error(f"--system {given!r}: expected NAME=FILE (or, with FILE, NAME or NAME=COLUMN)")
        if name in systems:
            parser.error(f"--system {name} is given twice")
        systems[name] = where
    return systems


def _input_paths(args: argparse.Namespace, parser: argparse.ArgumentParser, systems: dict[str, str]) -> list[str]:
    """The files the examples are read from; a usage error when they do not name one layout."""
    if args.file is not None:
        if args.sources is not None or args.references is not None:
            parser.error("give either FILE or --sources and --references, not both")
        return [args.file]
    if args.evidence_field is not None:
        parser.error("--evidence-field reads a field of each example: give a JSONL or CSV FILE")
    if args.sources is None or args.references is None:
        parser.error(
            "give a JSONL or CSV FILE, or --sources and --references with --system NAME=FILE, "
            "or pipe JSONL to standard input"
        )
    return [args.sources, args.references, *systems.values()]


def _read(args, systems: dict[str, str]) -> tuple[list[int], list[str], list[list[str]], dict[str, list[str]], Any]:
    """Lines, sources, references, each system's predictions and the evidence (``None``: not
    read), read from the files named."""
    if args.file is not None:
        columns = list(systems.values())
        rows: list[SystemsRow] = list(
            read_systems(args.file, args.input_format, columns, fields=runner.fields_from(args))
        )
        predictions = {name: [row.predictions[column] for row in rows] for name, column in systems.items()}
        evidence = None if args.evidence_field is None else [row.evidence for row in rows]
        lines, sources, references = (
            [row.line for row in rows],
            [row.source for row in rows],
            [row.references for row in rows],
        )
        return lines, sources, references, predictions, evidence
    predictions, text_rows = {}, []
    for name, path in systems.items():
        text_rows = list(open_examples(text_files=(args.sources, args.references, path))[1]())
        predictions[name] = [row.prediction for row in text_rows]
    lines = [row.line for row in text_rows]
    return lines, [row.source for row in text_rows], [row.references for row in text_rows], predictions, None


# The comparison's own options beside the table's.
COMPARE_FLAGS = runner.Flags(
    {
        **runner.TABLE_FLAGS,
        **runner.FIELD_FLAGS,
        "prediction_field": "--system NAME=COLUMN",
        "evidence": "--evidence-field",
        "n_trials": "--n-trials",
        "method": "--method",
        "correction": "--correction",
        "baseline": "--baseline",
        "systems": "--system",
    }
)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run the command on its parsed ``args``; its exit status (``runner.run_command``)."""
    if not 0 < args.level < 1:
        parser.error(f"--level must be strictly between 0 and 1, got {args.level}")
    if args.file is None and args.sources is None and args.references is None and runner.stdin_piped():
        args.file = STDIN
    systems = _systems(args, parser)
    paths = _input_paths(args, parser, systems)
    written: list[str] = []
    return runner.run_command(PROG, functools.partial(_compare, args, systems, paths, written), written, COMPARE_FLAGS)


def _compare(args: argparse.Namespace, systems: dict[str, str], paths: list[str], written: list[str]) -> int:
    """The command: check everything, score, write the per-example file (appended to ``written``
    once complete), then test and report."""
    baseline = args.baseline if args.baseline is not None else next(iter(systems))
    call = {**runner.compute_options(args, (SCORING, STATISTICS, RUNNING)), "baseline": baseline}
    call.update(method=args.method, correction=args.correction, n_trials=args.n_trials)
    test, settings = check_comparison(list(systems), call)
    check_evidence_given(settings.entities, args.evidence_field)
    runner.check_input_paths(paths)
    check_output_paths(paths, [] if args.per_example is None else [args.per_example])
    lines, sources, references, predictions, evidence = _read(args, systems)
    if not lines:
        raise runner.no_examples(paths, "compare")
    # Opened before scoring, so that an output that cannot be written is reported first.
    with output_file(args.per_example) if args.per_example is not None else contextlib.nullcontext() as per_example:
        scored = score_systems(sources, references, predictions, settings, evidence)
        if per_example is not None:
            per_example.writelines(per_example_lines(lines, scored.tables))
    if args.per_example not in (None, "-"):
        written.append(args.per_example)
    results = compare_scores(scored.columns, baseline, test, settings)
    signature = comparison_signature(references, len(systems), test, settings)
    method = Method(
        args.method, args.correction, args.n_bootstrap, args.n_trials, args.confidence_level, args.level, args.average
    )
    return runner.write_stdout(render(results, baseline, method, args.output_format, signature))
