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

from pathlib import Path

from .comparison.systems import compare
from .corpus import ExampleScore
from .extraction import extract_additions, split_segments
from .no_tokens import NoTokensWarning
from .rouge_types import DEFAULT_ROUGE_TYPES
from .scorer import UpdateRougeScorer, compute, score_examples
from .settings import OPTIONS, Settings
from .signature import build_signature
from .version import __version__


def metric_path() -> str:
    """The path of the evaluate script inside this package, for ``evaluate.load(metric_path())``."""
    return str(Path(__file__).with_name("update_rouge.py"))


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
    "__version__",
]
