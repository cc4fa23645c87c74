"""Warning for additions the tokenizer cannot see, which would otherwise score a silent 0.

An example is *tokenless* when its prediction, or one of its references, has additions (or,
under ``deletions=True``, deletions) of which none yields a token, as rouge-score's tokenizer
gives for most non-Latin scripts. ``compute`` counts such examples and warns once.
"""

import re
import warnings
from collections.abc import Sequence

from .example_tables import ExampleScore
from .tokens import DefaultTokenizer

_ASCII_TOKEN_CHARACTER = re.compile(r"[a-z0-9]")


class NoTokensWarning(UserWarning):
    """Some additions yield no token with the active tokenizer: ``count`` tokenless examples of
    ``total`` scored."""

    def __init__(self, count: int, total: int, deletions: bool = False):
        self.count = count
        self.total = total
        self.deletions = deletions
        super().__init__(
            f"{self.problem}; pass language= (the texts' ISO 639-1 code, e.g. language='zh') to score them with "
            "that language's segments and tokens, or tokenizer= (a callable text -> list of tokens)"
        )

    @property
    def problem(self) -> str:
        """The warning without its advice (each door gives its own)."""
        examples = "example has" if self.total == 1 else "examples have"
        texts = "additions or deletions" if self.deletions else "additions"
        return (
            f"{self.count} of {self.total} {examples} {texts} in which the tokenizer finds no token, so they "
            "score 0 even against an identical reference (rouge-score's tokenizer keeps only a-z and 0-9 and "
            "drops most non-Latin scripts)"
        )


def _yields_tokens(tokenizer, text: str) -> bool:
    if type(tokenizer) is DefaultTokenizer and not tokenizer.use_stemmer:
        # A lower-case letter or digit is a token as it is; only without one is lower() needed.
        return bool(_ASCII_TOKEN_CHARACTER.search(text) or _ASCII_TOKEN_CHARACTER.search(text.lower()))
    return bool(tokenizer.tokenize(text))


def _tokenless(tokenizer, additions: list[str]) -> bool:
    """True when there are additions and none yields a token (stops at the first that does)."""
    return bool(additions) and not any(_yields_tokens(tokenizer, addition) for addition in additions)


def tokenless_examples(examples: Sequence[ExampleScore], tokenizer) -> list[bool]:
    """Per example, whether it is tokenless (its additions, or its deletions where scored)."""
    return [
        _tokenless(tokenizer, example.prediction_additions)
        or any(_tokenless(tokenizer, additions) for additions in example.reference_additions)
        or (
            example.deletions is not None
            and (
                _tokenless(tokenizer, example.deletions.prediction_deletions)
                or any(_tokenless(tokenizer, deletions) for deletions in example.deletions.reference_deletions)
            )
        )
        for example in examples
    ]


def warn_tokenless(count: int, total: int, stacklevel: int = 3, deletions: bool = False) -> None:
    """One ``NoTokensWarning`` for ``count`` tokenless examples out of ``total`` (none for 0),
    attributed ``stacklevel`` frames up; ``deletions``: the deletions were counted too."""
    if count:
        warnings.warn(NoTokensWarning(count, total, deletions), stacklevel=stacklevel)
