"""UpdateROUGE: ROUGE over what an updated text adds to its source.

Usable without ``evaluate``::

    from update_rouge import compute, UpdateRouge
    compute(sources=[...], predictions=[...], references=[...])
    scorer = UpdateRouge(rouge_types=["rouge1"], stemmer="porter")
    scorer.score(source, prediction, reference)
    scorer.corpus(sources, predictions, references)
    scorer.signature(references)
"""

from .corpus import ExampleScore
from .extraction import extract_additions, split_segments
from .no_tokens import NoTokensWarning
from .scorer import UpdateRouge, compute, score_examples
from .scoring import DEFAULT_ROUGE_TYPES
from .settings import OPTIONS, Settings
from .signature import build_signature
from .version import __version__

__all__ = [
    "compute",
    "UpdateRouge",
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
