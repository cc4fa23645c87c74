"""UpdateROUGE in EleutherAI's lm-evaluation-harness (``lm_eval``): a ``process_results`` helper,
registered aggregations, and a task for a local FRUIT-style JSONL file.

Needs the optional extra ``pip install 'update-rouge[lm-eval]'``.

lm_eval's metric call never sees the document, so UpdateROUGE, which needs the source, comes in
through ``process_results(doc, results)``: it returns, for each reported key, the sample's
(settings, source, prediction, references) item; the aggregation registered under that key
(``update_rouge1``, ``update_rouge1_low``, ``update_del_rouge1``, ...) scores all the items at
once (``harness_corpus.corpus_result``): ``compute``'s corpus means and interval ends on the same
triples, bit for bit. The interval keys take the place of lm_eval's ``_stderr`` (``N/A``).

The shipped tasks ``update_rouge_fruit`` and ``update_rouge_fruit_deletions`` (``TASK_DIR``) read
a JSONL file with ``source``, ``reference`` (a string or a list of strings) and an optional ``id``::

    lm_eval --model hf --model_args pretrained=MODEL --tasks update_rouge_fruit \\
        --include_path "$(python -m update_rouge.integrations.lm_eval)" \\
        --metadata '{"data_files": "my_updates.jsonl"}'

Other settings: ``make_process_results(**options)`` in a task's own ``utils.py``, with each
key's ``aggregation`` naming the key (``reported_keys``).
"""

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import Field, InputError, OptionError
from ..extras import MissingExtra
from ..files import InputFileError, jsonl_id, jsonl_values
from ..files.lines import file_lines

try:
    from lm_eval.api.registry import register_aggregation
except ImportError as error:
    missing = MissingExtra(
        "the lm-evaluation-harness task needs the optional extra: pip install 'update-rouge[lm-eval]'"
    )
    if __name__ == "__main__":  # the documented `$(python -m update_rouge.integrations.lm_eval)`: one line
        print(f"python -m update_rouge.integrations.lm_eval: error: {missing}", file=sys.stderr)
        raise SystemExit(2) from None
    raise missing from error

from .harness_corpus import (
    Triple,
    as_references,
    as_triple,
    corpus_result,
    harness_settings,
    named_settings,
    reported_keys,
    settings_name,
)

TASK_DIR = str(Path(__file__).with_name("lm_eval_tasks"))
"""The folder of the shipped task YAML, for ``--include_path`` (or ``TaskManager(include_path=...)``)."""

Item = tuple[str, str, str, tuple[str, ...]]
"""What ``process_results`` gives each key of one sample: the settings' name (the signature of
its ``Settings``, ``harness_corpus.settings_name``), source, prediction, references."""


@functools.cache
def aggregation(key: str) -> Callable[[list[Item]], float]:
    """The aggregation of output ``key``: the value of ``key`` in ``compute``'s result on all the
    items. Registered with lm_eval under ``key`` (one function per key and process, so
    registering again is allowed); raises ``ValueError`` for items of several settings."""

    def aggregate(items: list[Item]) -> float:
        settings = named_settings((item[0] for item in items), key)
        triples: list[Triple] = [(source, prediction, tuple(refs)) for _, source, prediction, refs in items]
        return float(corpus_result(settings, triples)[key])

    aggregate.__name__ = f"aggregate_{key}"
    register_aggregation(key)(aggregate)
    return aggregate


def make_process_results(
    source_field: str = "source", reference_field: str = "reference", **options: Any
) -> Callable[[dict[str, Any], list[str]], dict[str, Item]]:
    """A ``process_results(doc, results)`` for a generation task: the source and reference(s)
    from the document's fields, the prediction the model's first generation; ``options`` are
    ``compute``'s settings (rouge types ``HARNESS_TYPES`` unless given). Registers the
    aggregation of each reported key (``reported_keys``), which the task's ``metric_list`` names."""
    settings = harness_settings(options)
    name = settings_name(settings)
    keys = reported_keys(settings)
    for key in keys:
        aggregation(key)

    def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, Item]:
        where = f"document {doc['id']!r}" if "id" in doc else "a document"
        if not results:
            raise InputError(
                Field("results"),
                (
                    f"{where}: process_results got no generation (results is empty): "
                    "give its task output_type: generate_until",
                ),
            )
        source, prediction, references = as_triple(doc.get(source_field), results[0], doc.get(reference_field), where)
        item = (name, source, prediction, references)
        return {key: item for key in keys}

    return process_results


process_results = make_process_results()
"""The shipped task's ``process_results``: ``source`` and ``reference`` fields, the default settings."""

process_results_with_deletions = make_process_results(deletions=True)
"""The shipped task ``update_rouge_fruit_deletions``'s ``process_results``: as ``process_results``,
with ``deletions=True`` (the deletions' ``update_del_<type>`` keys and their intervals too)."""


def load_jsonl(data_files: str | None = None, **metadata: Any) -> dict[str, Any]:
    """The shipped task's ``custom_dataset``: the JSONL file ``data_files`` (from ``--metadata``)
    as the split ``test``, read as the command line reads JSONL. Each line has ``source``,
    ``reference`` (a string or a list of strings) and optionally ``id``, kept as text as the
    command line keeps it (the line number where it is absent or ``null``); other fields are kept,
    ``metadata``'s other entries ignored. Raises ``InputFileError`` for a bad line."""
    import datasets

    if not data_files:
        raise OptionError(
            "data_files",
            data_files,
            ('update_rouge_fruit reads a local JSONL file: pass --metadata \'{"data_files": "PATH"}\'',),
        )
    values = jsonl_values(data_files, file_lines(data_files, lambda _: None))
    rows = [_row(row, number, data_files) for number, row in values]
    return {"test": datasets.Dataset.from_list(rows)}


def _row(row: Any, number: int, path: str) -> dict[str, Any]:
    """The document of the JSON value ``row`` of the line ``number`` of the JSONL file ``path``."""
    if not isinstance(row, dict) or not isinstance(row.get("source"), str):
        raise InputFileError(path, number, "each line is an object with a 'source' string")
    try:
        row["reference"] = list(as_references(row.get("reference"), "'reference'"))
    except ValueError as error:
        raise InputFileError(path, number, str(error)) from None
    example_id = jsonl_id(row.get("id"))
    row["id"] = str(number) if example_id is None else example_id
    return row


if __name__ == "__main__":
    print(TASK_DIR)
