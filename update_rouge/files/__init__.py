"""Everything that reads or writes a user's file: examples read from files, one reader per
layout, scored in chunks, and result files written without losing one.

Four layouts, all UTF-8 (``lines``): JSONL or a ``.json`` array (``jsonl_files``), CSV
(``csv_files``), three line-aligned text files (``text_files``), and standard input, the path
``-`` (``STDIN``: JSONL unless the format says CSV). The fields read are ``Fields``'; an example
is a ``Row`` (for a comparison of systems, ``read_systems``, a ``SystemsRow``). Unusable input
is an ``InputFileError`` naming the file and line.

Each layout is read by one reader (``chunks.open_reader``), whoever reads it: the command line in
one process or many (``chunk_scoring.score_chunks``), ``compare``, the demo (``open_examples``,
``corpus_of_rows``), lm-eval's loader (``jsonl_values``) and Ray. ``outputs`` writes result files.
"""

from collections.abc import Callable, Iterator

from .chunk_scoring import Output, corpus_of_rows, score_chunks
from .chunks import FORMATS, format_of, open_examples, open_reader, read_systems
from .csv_files import csv_records
from .jsonl_files import jsonl_id, jsonl_values
from .lines import STDIN, InputFileError, input_name, max_line_bytes, shown_path
from .outputs import check_output_paths, output_file
from .rows import Fields, Row, SystemsRow, no_progress


def read_jsonl(path: str, advance: Callable[[int], None] = no_progress, group_by: str | None = None) -> Iterator[Row]:
    """The examples of a JSONL file (0.1.0's name of ``open_examples(path, "jsonl")``'s reader)."""
    return open_examples(path, "jsonl", group_by=group_by)[1](advance)


def read_csv(path: str, advance: Callable[[int], None] = no_progress, group_by: str | None = None) -> Iterator[Row]:
    """The examples of a CSV file (0.1.0's name of ``open_examples(path, "csv")``'s reader)."""
    return open_examples(path, "csv", group_by=group_by)[1](advance)


def read_text_files(sources: str, references: str, predictions: str, advance=no_progress) -> Iterator[Row]:
    """The examples of three line-aligned text files (0.1.0's name of ``open_examples``' reader)."""
    return open_examples(text_files=(sources, references, predictions))[1](advance)


__all__ = [
    "FORMATS",
    "Fields",
    "STDIN",
    "InputFileError",
    "Output",
    "Row",
    "SystemsRow",
    "check_output_paths",
    "corpus_of_rows",
    "csv_records",
    "format_of",
    "input_name",
    "jsonl_id",
    "jsonl_values",
    "max_line_bytes",
    "open_examples",
    "open_reader",
    "output_file",
    "read_csv",
    "read_jsonl",
    "read_systems",
    "read_text_files",
    "score_chunks",
    "shown_path",
]
