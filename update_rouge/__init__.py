"""UpdateROUGE: ROUGE over what an updated text adds to its source.

Usable without ``evaluate``::

    from update_rouge import compute, UpdateRougeScorer
    compute(sources=[...], predictions=[...], references=[...])
    scorer = UpdateRougeScorer(rouge_types=["rouge1"], stemmer="porter")
    scorer.score(source, prediction, reference)
    scorer.corpus(sources, predictions, references)
    scorer.signature(references)

and several systems against a baseline with ``compare`` (see ``comparison.systems``).

As an evaluate metric from the installed package: ``evaluate.load(update_rouge.metric_path())``.
"""

import importlib
import os

from .version import __version__

# Not typing's: this module imports nothing that Python's start has not imported already, so
# that the command line handles Ctrl-C from its first line on (``cli.run_program``). Type
# checkers take any TYPE_CHECKING for true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .comparison.systems import compare
    from .errors import InputError, OptionError, UnknownOptionError, UpdateRougeError
    from .example_tables import ExampleScore
    from .extraction import extract_additions, split_segments
    from .extras import MissingExtra
    from .files import InputFileError
    from .lcs_limits import LcsTableTooLarge
    from .metric import UpdateRougeScorer, compute, score_examples
    from .no_tokens import NoTokensWarning
    from .rouge_types import DEFAULT_ROUGE_TYPES
    from .settings import OPTIONS, Settings
    from .signature import build_signature

_HOMES = {
    "compare": "comparison.systems",
    "ExampleScore": "example_tables",
    "InputError": "errors",
    "OptionError": "errors",
    "UnknownOptionError": "errors",
    "UpdateRougeError": "errors",
    "MissingExtra": "extras",
    "InputFileError": "files",
    "LcsTableTooLarge": "lcs_limits",
    "extract_additions": "extraction",
    "split_segments": "extraction",
    "NoTokensWarning": "no_tokens",
    "DEFAULT_ROUGE_TYPES": "rouge_types",
    "UpdateRougeScorer": "metric",
    "compute": "metric",
    "score_examples": "metric",
    "OPTIONS": "settings",
    "Settings": "settings",
    "build_signature": "signature",
}
"""The module each name of the package's API comes from. They are imported on first use
(PEP 562), so that a process importing one module of the package, such as a worker process
that scores chunks, does not import all of them (comparing systems, NumPy's statistics)."""


def __getattr__(name: str) -> "Any":
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


def metric_path() -> str:
    """The path of the evaluate script inside this package, for ``evaluate.load(metric_path())``."""
    return os.path.join(os.path.dirname(__file__), "update_rouge.py")


__all__ = [
    "metric_path",
    "compute",
    "compare",
    "UpdateRougeScorer",
    "Settings",
    "OPTIONS",
    "build_signature",
    "score_examples",
    "extract_additions",
    "split_segments",
    "ExampleScore",
    "NoTokensWarning",
    "DEFAULT_ROUGE_TYPES",
    "UpdateRougeError",
    "OptionError",
    "UnknownOptionError",
    "InputError",
    "InputFileError",
    "LcsTableTooLarge",
    "MissingExtra",
    "__version__",
]
