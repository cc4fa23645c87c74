"""Command line: score a file of examples, print the corpus scores as JSON.

Input is one JSONL or CSV file (columns ``source``, ``reference``, ``prediction``) or three
line-aligned text files; see ``files``. The examples are read, scored and written in
chunks, so memory does not grow with the number of examples, and the corpus means are exact
running sums, equal to ``compute``'s bit for bit. ``--per-example FILE`` gets one JSON line per
example, written to a temporary file that replaces FILE only when every example was scored.
Exit status 0 on success, 2 for unusable input or options (the message names file and line),
1 when a worker process fails, 141 when the reader of the output goes away (``write_stdout``).
``update-rouge compare ...`` compares systems instead (``cli_compare``).
"""

import argparse
import contextlib
import dataclasses
import functools
import itertools
import json
import os
import sys
import tempfile
import warnings
from collections import deque
from typing import IO, Any, Dict, Iterable, Iterator, List, Optional, Sequence

from tqdm import tqdm

from .corpus_stream import Corpus
from .files import Row, read_csv, read_jsonl, read_text_files
from .no_tokens import NoTokensWarning, warn_tokenless
from .parallel import starmap_in_order
from .scorer import UpdateRouge
from .scoring import check_rouge_types
from .settings import OPTIONS, RUNNING, SCORING, STATISTICS, Option, Settings
from .version import __version__

CHUNK_SIZE = 1000
FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv"}


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
        # Python flushes stdout again at exit: point it at /dev/null so that flush cannot fail.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + 13
    return 0


def compute_options(args: argparse.Namespace, groups: Sequence[str] = (SCORING,)) -> Dict[str, Any]:
    """The keyword arguments of ``compute`` given on the command line: the table's options of ``groups``."""
    return {option.name: getattr(args, option.name) for option in OPTIONS if option.cli in groups and hasattr(args, option.name)}


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings the command line gives (corpus means: ``use_aggregator`` stays true)."""
    return Settings.from_options(vars(args))


def _reader(args: argparse.Namespace, parser: argparse.ArgumentParser):
    """The input files named on the command line and a function ``advance -> rows`` reading them."""
    text_files = (args.sources, args.references, args.predictions)
    if args.file is not None:
        if any(text_files):
            parser.error("give either FILE or --sources, --references and --predictions, not both")
        file_format = args.format or FORMATS.get(os.path.splitext(args.file)[1].lower())
        if file_format is None:
            parser.error(f"cannot tell the format of {args.file} from its extension: pass --format jsonl or csv")
        read = read_csv if file_format == "csv" else read_jsonl
        return [args.file], functools.partial(read, args.file)
    if not all(text_files):
        parser.error("give a JSONL or CSV FILE, or all three of --sources, --references and --predictions")
    return list(text_files), functools.partial(read_text_files, *text_files)


def score_chunk(scorer: UpdateRouge, sources: List[str], predictions: List[str], references: List[Any]):
    """The per-example table of one chunk (``scorer`` has ``use_aggregator=False``) and its number
    of tokenless examples.

    The chunk's ``NoTokensWarning`` is taken in, so that a run warns once for all its chunks.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = scorer.corpus(sources, predictions, references)
    tokenless = 0
    for warning in caught:
        if isinstance(warning.message, NoTokensWarning):
            tokenless += warning.message.count
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return table, tokenless


def score_rows(
    rows: Iterable[Row],
    settings: Settings,
    per_example: Optional[IO[str]] = None,
    chunk_size: int = CHUNK_SIZE,
) -> Corpus:
    """Score ``rows`` chunk by chunk with ``settings``; return what the corpus result needs.

    Chunks are scored in ``settings.num_proc`` worker processes, each in one process. With
    ``per_example``, one JSON object per example is written to it in input order: the example's
    ``line`` and its per-example scores (the keys of ``compute(use_aggregator=False)``).
    Examples in which the tokenizer finds no token get one ``NoTokensWarning`` for the whole run.
    """
    in_flight: deque = deque()

    def chunks():
        remaining = iter(rows)
        while chunk := list(itertools.islice(remaining, chunk_size)):
            references = [row.references for row in chunk]
            in_flight.append(([row.line for row in chunk], references))
            yield [row.source for row in chunk], [row.prediction for row in chunk], references

    scorer = UpdateRouge(dataclasses.replace(settings, use_aggregator=False, num_proc=1))
    corpus = Corpus(settings)
    tokenless = 0
    score = functools.partial(score_chunk, scorer)
    for table, chunk_tokenless in starmap_in_order(score, chunks(), settings.num_proc):
        lines, references = in_flight.popleft()
        corpus.add(table, references)
        tokenless += chunk_tokenless
        if per_example is not None:
            for index, line in enumerate(lines):
                per_example.write(json.dumps({"line": line, **{key: values[index] for key, values in table.items()}}))
                per_example.write("\n")
    warn_tokenless(tokenless, corpus.totals.count, stacklevel=2)
    return corpus


@contextlib.contextmanager
def atomic_output(path: str) -> Iterator[IO[str]]:
    """A text file that appears at ``path`` (replacing any old one) only if the block succeeds."""
    directory, name = os.path.split(os.path.abspath(path))
    handle = tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=directory, prefix=f".{name}.", suffix=".tmp", delete=False
    )
    try:
        with handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(handle.name, 0o666 & ~umask)
        os.replace(handle.name, path)
    except BaseException:
        os.unlink(handle.name)
        raise


def main(argv: Optional[List[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["compare"]:
        from .cli_compare import main as compare_main

        return compare_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    file_after_rouge_types(args)
    paths, read_rows = _reader(args, parser)
    # tqdm's disable=None: a bar only when stderr is a terminal.
    bar_options = {"disable": None if args.progress is None else not args.progress, "delay": 0 if args.progress else 1}
    try:
        settings = settings_from(args)
        if args.ray is not None:
            from .ray_scoring import score_file_on_ray

            if args.per_example:
                parser.error("--per-example does not work with --ray: read per-example scores from ray_scoring.score_dataset")
            options = compute_options(args, (SCORING, STATISTICS))
            return write_stdout(json.dumps(score_file_on_ray(read_rows(), args.ray or None, options), indent=2) + "\n")
        total_bytes = sum(os.path.getsize(path) for path in paths)
        with tqdm(total=total_bytes, unit="B", unit_scale=True, file=sys.stderr, **bar_options) as bar:
            with atomic_output(args.per_example) if args.per_example else contextlib.nullcontext() as per_example:
                corpus = score_rows(read_rows(bar.update), settings, per_example)
                if corpus.totals.count == 0:
                    raise ValueError(f"{', '.join(paths)}: no examples to score")
                result = corpus.result()
                if args.return_signature:
                    result["signature"] = corpus.signature()
    except (OSError, ValueError, RuntimeError) as error:
        print(f"update-rouge: error: {error}", file=sys.stderr)
        return 1 if isinstance(error, RuntimeError) else 2
    return write_stdout(json.dumps(result, indent=2) + "\n")
