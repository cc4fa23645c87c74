"""The Reproduce code of each tab: Python (and the command line) that computes what the page shows.

"One example" gives its three texts inline and scores them without an interval (one example
has none; ``example_settings``); "A file of examples" reads the uploaded file by its name
(``EXAMPLES_NAME`` until one is uploaded) with the file's statistics and baseline. Both load the
Space's own metric at the revision of the package it runs (``metric_id``, ``pinned_revision``)
and pass every option that differs from the defaults.
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

# The metric's id where the demo runs outside a Space (no ``SPACE_ID``): the reader fills it in.
PLACEHOLDER_ID = "<namespace>/update_rouge"
# The line above the load where the id is the placeholder: what to put in its place.
PLACEHOLDER_HINT = (
    "# <namespace>: the Hugging Face account the UpdateROUGE Space is published under "
    "(https://huggingface.co/spaces/<namespace>/update_rouge).\n"
)
# The examples file the file tab's code reads until a file is uploaded (JSONL: source, reference,
# prediction, the baseline column).
EXAMPLES_NAME = "examples.jsonl"
# The name the Reproduce code downloads as (gradio's own download button names every file "file.py").
DOWNLOAD_NAME = "reproduce_update_rouge.py"


def metric_id(environ: Mapping[str, str] = os.environ) -> str:
    """What ``evaluate.load`` takes to load this demo's metric from the Hub: the Space's own
    ``owner/name`` (``SPACE_ID``, which Hugging Face sets in a Space), else ``PLACEHOLDER_ID``."""
    return environ.get("SPACE_ID") or PLACEHOLDER_ID


def pinned_revision() -> str:
    """The Space revision the Reproduce code pins: the tag ``v<version>`` of the package the demo
    scores with (docs/publishing.md tags every release of the Space so; ``evaluate.load``'s
    ``revision``)."""
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
    """The keyword options of ``compute`` that differ from the defaults, in the page's order
    (``OPTION_NAMES``); without an interval ``n_bootstrap`` and ``seed`` only under a protocol
    whose corpus value (a bootstrap median) depends on them."""
    chosen = {name: getattr(settings, name) for name in OPTION_NAMES}
    chosen["rouge_types"] = list(settings.rouge_types)
    if settings.confidence_level is None and not rules_of(settings.protocol).bootstrap_median:
        # No interval: no resamples either, unless the corpus value is a protocol's bootstrap median.
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
    """The file tab's code: Python that, run in a fresh Python with the Space's requirements next
    to the file ``file_name`` (an upload's path or name; ``EXAMPLES_NAME`` when ``None``), computes
    and prints what the tab shows for ``options``: every option that differs from the defaults,
    and ``baseline_predictions`` read from ``baseline_column`` when one is named; then the same
    as a command line (``update-rouge compare`` with a baseline). Unusable options give the
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
    if name.lower().endswith(".csv"):
        reading = (
            "import csv\n"
            "import json\n\n"
            "import evaluate\n\n"
            f"with open({name!r}, encoding='utf-8-sig', newline='') as handle:\n"
            "    rows = list(csv.DictReader(handle))\n"
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
    columns = ("[row['source'] for row in rows]", "[row['prediction'] for row in rows]")
    # Each example's references as a list (a file may mix one reference and several); a CSV cell
    # starting with "[" holds a JSON list of them.
    references = "[r if isinstance(r, list) else [r] for r in (row['reference'] for row in rows)]"
    if name.lower().endswith(".csv"):
        references = (
            "[json.loads(r) if r.lstrip().startswith('[') else [r] for r in (row['reference'] for row in rows)]"
        )
    return (
        reading
        + _compute_call(environ, (*columns, references), arguments)
        + "\n# The same from the command line (pip install update-rouge):\n"
        + f"# {command} {_command_line(chosen)}".rstrip()
        + "\n"
    )


def reproduce_example(options: ScreenOptions, texts: Sequence[str], environ: Mapping[str, str] = os.environ) -> str:
    """The one-example tab's code: Python that computes and prints the scores and signature of
    the example ``texts`` (source, reference, prediction; written into the code) with
    ``options`` and no interval (``example_settings``). Unusable options give the error as a
    comment."""
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
