"""Everything that reads or writes a user's file: examples read from files, one reader per
layout, scored in chunks, and result files written without losing one.

Four layouts, all UTF-8, lines ending at ``\\r\\n``, ``\\n`` or a lone ``\\r`` (``lines``):

- JSONL (``jsonl_files``): one JSON object per line with ``source``, ``reference`` (a string or a
  non-empty array of strings) and ``prediction``, blank lines skipped; a ``.json`` file may hold
  one JSON array of such objects instead.
- CSV (``csv_files``): a header row naming the columns, then one example per record (quoted cells
  may span lines); a reference cell holding a JSON array is a list of references.
- Three line-aligned text files (``text_files``) of sources, references and predictions.
- Standard input, the path ``-`` (``STDIN``): JSONL unless the format says CSV, named
  ``<stdin>`` in messages.

The fields (JSON) or columns (CSV) read are ``Fields``' (by default ``source``, ``reference``,
``prediction``). An example's optional ``id`` is kept as text in ``Row.id``, a group label
(``Fields.group_by``) in ``Row.group``, its evidence (``Fields.evidence``) in ``Row.evidence``;
for a comparison of systems (``read_systems``), one prediction column per system.
Unusable input is an ``InputFileError`` naming the file and line (a line longer than
``max_line_bytes()``, variable ``UPDATE_ROUGE_MAX_LINE_BYTES``, among it).

Each layout is read by one reader (``chunks.open_reader``), whoever reads it: the command line in
one process or many (``chunks.Reader.chunks``, ``chunk_scoring.score_chunks``), ``compare``
(``read_systems``), the demo (``open_examples``, ``chunk_scoring.corpus_of_rows``), lm-eval's
loader (``jsonl_values``) and Ray's file helper. ``outputs`` writes result files.
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
