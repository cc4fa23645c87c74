"""Which stemmer a call asks for: the one place ``use_stemmer``, ``stemmer`` and ``tokenizer`` meet.

Stemmer names:

- ``"none"``: rouge-score's tokens, no stemming;
- ``"porter"``: rouge-score's Porter stemmer (NLTK), what ``use_stemmer=True`` selects, as in
  evaluate's ``rouge``;
- ``"rouge155"``: ROUGE-1.5.5's own tokens and ``-m`` stemming (``rouge155_tokens.py``), the only one
  whose stemmed scores equal the original Perl ROUGE-1.5.5.
"""

from typing import Callable, List, Optional

STEMMERS = ("none", "porter", "rouge155")


def resolve_stemmer(
    use_stemmer: bool = False, stemmer: Optional[str] = None, tokenizer: Optional[Callable[[str], List[str]]] = None
) -> str:
    """The stemmer name in ``STEMMERS`` that the arguments select; ``ValueError`` if they disagree.

    ``stemmer=None`` means ``"none"``, or ``"porter"`` with ``use_stemmer=True``. A custom
    ``tokenizer`` does its own stemming, if any, so it resolves to ``"none"`` and cannot be
    combined with a stemmer.
    """
    if stemmer is not None and stemmer not in STEMMERS:
        raise ValueError(f"unknown stemmer {stemmer!r}; valid stemmers are {', '.join(map(repr, STEMMERS))}")
    if use_stemmer not in (True, False):
        raise ValueError(f"use_stemmer must be True or False, got {use_stemmer!r}; choose a stemmer by name with stemmer=")
    if use_stemmer and stemmer not in (None, "porter"):
        raise ValueError(
            f"use_stemmer=True is an alias of stemmer='porter' and contradicts stemmer={stemmer!r}; give only one of them"
        )
    name = "porter" if use_stemmer else stemmer or "none"
    if tokenizer is not None and name != "none":
        raise ValueError(
            f"a custom tokenizer replaces the tokenizer and its stemming, so it cannot be combined with the "
            f"{name!r} stemmer; stem inside the tokenizer, or drop tokenizer="
        )
    return name
