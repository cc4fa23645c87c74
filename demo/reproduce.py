"""The Reproduce code of each tab: Python (and the command line) that computes what the page shows,
loading the Space's own metric at the revision of the package it runs and passing every option
that differs from the defaults. One example is scored without an interval (``example_settings``).
"""

import dataclasses
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from demo.options import OPTION_NAMES, DemoError, ScreenOptions
from update_rouge.protocols import rules_of
from update_rouge.rouge_types import DEFAULT_ROUGE_TYPES
from update_rouge.settings import DEFAULTS, OPTION_BY_NAME, Settings
from update_rouge.signature import signature
from update_rouge.version import __version__

# The metric's id outside a Space (no ``SPACE_ID``): the reader fills it in.
PLACEHOLDER_ID = "<namespace>/update_rouge"
PLACEHOLDER_HINT = (
    "# <namespace>: the Hugging Face account the UpdateROUGE Space is published under "
    "(https://huggingface.co/spaces/<namespace>/update_rouge).\n"
)
# The examples file the file tab's code reads until a file is uploaded.
EXAMPLES_NAME = "examples.jsonl"
# The name the Reproduce code downloads as (gradio's own download button names every file "file.py").
DOWNLOAD_NAME = "reproduce_update_rouge.py"


def metric_id(environ: Mapping[str, str] = os.environ) -> str:
    """What ``evaluate.load`` takes to load this demo's metric from the Hub: the Space's own
    ``owner/name`` (``SPACE_ID``, which Hugging Face sets in a Space), else ``PLACEHOLDER_ID``."""
    return environ.get("SPACE_ID") or PLACEHOLDER_ID


def pinned_revision() -> str:
    """The Space revision the Reproduce code pins: the tag ``v<version>`` (docs/publishing.md tags every
    release of the Space so)."""
    return f"v{__version__}"


def example_settings(options: ScreenOptions) -> Settings:
    """The settings one example is scored with: ``options.settings()`` without an interval (one
    example has none), as its signature and its Reproduce code state."""
    return dataclasses.replace(options.settings(), confidence_level=None)


def example_signature(options: ScreenOptions, references: int = 1) -> str:
    """The signature of one example with ``references`` references scored with ``options``:
    what ``compute(..., return_signature=True)`` of ``reproduce_example``'s code prints."""
    return signature(example_settings(options), [[""] * references])


def _options_of(settings: Settings) -> dict[str, Any]:
    """The keyword options of ``compute`` that differ from the defaults, in the page's order;
    ``n_bootstrap`` and ``seed`` only with an interval or a bootstrap-median protocol."""
    chosen = {name: getattr(settings, name) for name in OPTION_NAMES}
    chosen["rouge_types"] = list(settings.rouge_types)
    if settings.confidence_level is None and not rules_of(settings.protocol).bootstrap_median:
        del chosen["n_bootstrap"], chosen["seed"]
    defaults = {**DEFAULTS, "rouge_types": list(DEFAULT_ROUGE_TYPES), "stemmer": "none"}
    return {name: value for name, value in chosen.items() if value != defaults[name]}


def _command_line(chosen: dict[str, Any]) -> str:
    """The flags of the ``update-rouge`` command for the ``chosen`` options."""
    flags = []
    for name, value in chosen.items():
        flag = OPTION_BY_NAME[name].cli_flag
        if value is True:
            flags.append(flag)
        elif isinstance(value, list):
            flags.append(f"{flag} {' '.join(value)}")
        else:
            flags.append(f"{flag} {'none' if value is None else value}")
    return " ".join(flags)


def _compute_call(environ: Mapping[str, str], columns: Sequence[str], arguments: str) -> str:
    """Loading the metric and ``compute`` of ``columns`` (sources, predictions, references
    expressions) with ``arguments``, printing the result."""
    sources, predictions, references = columns
    metric = metric_id(environ)
    return (
        (PLACEHOLDER_HINT if metric == PLACEHOLDER_ID else "")
        + f"update_rouge = evaluate.load({metric!r}, revision={pinned_revision()!r})\n"
        "result = update_rouge.compute(\n"
        f"    sources={sources},\n"
        f"    predictions={predictions},\n"
        f"    references={references},\n"
        f"{arguments}"
        "    return_signature=True,\n"
        ")\n"
        "print(json.dumps(result, indent=2))\n"
    )


def reproduce(
    options: ScreenOptions,
    baseline_column: str = "",
    environ: Mapping[str, str] = os.environ,
    file_name: str | None = None,
) -> str:
    """The file tab's code: Python that, run beside the file ``file_name`` (``EXAMPLES_NAME`` when
    ``None``), computes and prints what the tab shows for ``options`` (with ``baseline_predictions``
    from ``baseline_column`` when named), then the same as a command line. Unusable options give the
    error as a comment."""
    try:
        settings = options.settings()
    except DemoError as error:
        return f"# {error}"
    name = Path(file_name).name if file_name else EXAMPLES_NAME
    chosen = _options_of(settings)
    baseline = (baseline_column or "").strip()
    arguments = "".join(f"    {option}={value!r},\n" for option, value in chosen.items())
    if baseline:
        arguments += f"    baseline_predictions=[row[{baseline!r}] for row in rows],\n"
    command = f"update-rouge {name}"
    if baseline:
        command = f"update-rouge compare {name} --system prediction --system {baseline} --baseline {baseline}"
    # Each example's references as a list (a file may mix one reference and several); a CSV cell
    # starting with "[" holds a JSON list of them.
    if name.lower().endswith(".csv"):
        reading = (
            "import csv\n"
            "import json\n\n"
            "import evaluate\n\n"
            f"with open({name!r}, encoding='utf-8-sig', newline='') as handle:\n"
            "    rows = list(csv.DictReader(handle))\n"
        )
        references = (
            "[json.loads(r) if r.lstrip().startswith('[') else [r] for r in (row['reference'] for row in rows)]"
        )
    else:
        reading = (
            "import json\n\n"
            "import evaluate\n\n"
            f"# {name}: one JSON object a line with source, reference and prediction"
            + (f" (and {baseline})" if baseline else "")
            + ".\n"
            f"with open({name!r}, encoding='utf-8-sig') as handle:\n"
            "    rows = [json.loads(line) for line in handle if line.strip()]\n"
        )
        references = "[r if isinstance(r, list) else [r] for r in (row['reference'] for row in rows)]"
    columns = ("[row['source'] for row in rows]", "[row['prediction'] for row in rows]")
    return (
        reading
        + _compute_call(environ, (*columns, references), arguments)
        + "\n# The same from the command line (pip install update-rouge):\n"
        + f"# {command} {_command_line(chosen)}".rstrip()
        + "\n"
    )


def reproduce_example(options: ScreenOptions, texts: Sequence[str], environ: Mapping[str, str] = os.environ) -> str:
    """The one-example tab's code: Python that computes and prints the scores and signature of
    ``texts`` (source, reference, prediction) with ``options`` and no interval. Unusable options give
    the error as a comment."""
    try:
        settings = example_settings(options)
    except DemoError as error:
        return f"# {error}"
    source, reference, prediction = texts
    chosen = _options_of(settings)
    arguments = "".join(f"    {option}={value!r},\n" for option, value in chosen.items())
    return (
        "import json\n\n"
        "import evaluate\n\n"
        f"source = {source!r}\n"
        f"reference = {reference!r}\n"
        f"prediction = {prediction!r}\n"
        + _compute_call(environ, ("[source]", "[prediction]", "[reference]"), arguments)
    )
