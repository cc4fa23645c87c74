"""UpdateROUGE: ROUGE over what an updated text adds to its source.

Usable without ``evaluate``::

    from update_rouge import compute
    compute(sources=[...], predictions=[...], references=[...])

and several systems against a baseline with ``compare`` (see ``comparison``).
"""

from .comparison import compare
from .corpus import ExampleScore
from .extraction import extract_additions, split_segments
from .scorer import compute, score_examples
from .scoring import DEFAULT_ROUGE_TYPES
from .signature import build_signature
from .no_tokens import NoTokensWarning
from .version import __version__

__all__ = [
    "compute",
    "compare",
    "build_signature",
    "score_examples",
    "extract_additions",
    "split_segments",
    "ExampleScore",
    "NoTokensWarning",
    "DEFAULT_ROUGE_TYPES",
    "__version__",
]
