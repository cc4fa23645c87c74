"""Which stemmer a call asks for: the one place ``use_stemmer``, ``stemmer`` and ``tokenizer`` meet.

Stemmer names:

- ``"none"``: rouge-score's tokens, no stemming;
- ``"porter"``: rouge-score's Porter stemmer (NLTK), what ``use_stemmer=True`` selects, as in
  evaluate's ``rouge``;
- ``"rouge155"``: ROUGE-1.5.5's own tokens and ``-m`` stemming (``rouge155_tokens.py``), the only one
  whose stemmed scores equal the original Perl ROUGE-1.5.5;
- ``"snowball"`` (``LANGUAGE_STEMMER``, not a ``stemmer=`` value): what ``use_stemmer=True``
  selects with a ``language=``, NLTK's Snowball stemmer of that language on its tokens
  (``languages.py``).
"""

from collections.abc import Callable

STEMMERS = ("none", "porter", "rouge155")
LANGUAGE_STEMMER = "snowball"


def resolve_stemmer(
    use_stemmer: bool = False,
    stemmer: str | None = None,
    tokenizer: Callable[[str], list[str]] | None = None,
    language: str | None = None,
) -> str:
    """The stemmer name (in ``STEMMERS``, or ``LANGUAGE_STEMMER``) that the arguments select;
    ``ValueError`` if they disagree.

    ``stemmer=None`` means ``"none"``, or with ``use_stemmer=True`` ``"porter"``
    (``LANGUAGE_STEMMER`` when a ``language`` is given; ``stemmer=LANGUAGE_STEMMER``, the name it
    resolves to, is taken back with a ``language``). A custom ``tokenizer`` does its own
    stemming, if any, so it resolves to ``"none"`` and cannot be combined with a stemmer, nor
    with a language (which brings its own tokens). ``"porter"`` and ``"rouge155"`` stem
    rouge-score's and ROUGE-1.5.5's English tokens, so they exclude a language.
    """
    if language is not None:
        return _language_stemmer(use_stemmer, stemmer, tokenizer is not None, language)
    if stemmer is not None and stemmer not in STEMMERS:
        raise ValueError(f"unknown stemmer {stemmer!r}; valid stemmers are {', '.join(map(repr, STEMMERS))}")
    if use_stemmer not in (True, False):
        raise ValueError(
            f"use_stemmer must be True or False, got {use_stemmer!r}; choose a stemmer by name with stemmer="
        )
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


def _language_stemmer(use_stemmer: bool, stemmer: str | None, has_tokenizer: bool, language: str) -> str:
    """``resolve_stemmer`` with a ``language``: ``LANGUAGE_STEMMER`` or ``"none"``."""
    if has_tokenizer:
        raise ValueError(
            f"language={language!r} brings its own tokens, so it cannot be combined with a custom tokenizer; "
            "give only one of them"
        )
    if stemmer in ("porter", "rouge155"):
        raise ValueError(
            f"stemmer={stemmer!r} stems rouge-score's English tokens and cannot be combined with "
            f"language={language!r}; use use_stemmer=True for the language's Snowball stemmer"
        )
    if use_stemmer not in (True, False):
        raise ValueError(f"use_stemmer must be True or False, got {use_stemmer!r}")
    # LANGUAGE_STEMMER itself is what the arguments resolve to (Settings keeps it): taken back as
    # it is, so that settings rebuilt from their fields (dataclasses.replace) resolve the same.
    if stemmer not in (None, "none", LANGUAGE_STEMMER):
        raise ValueError(f"unknown stemmer {stemmer!r}; valid stemmers are {', '.join(map(repr, STEMMERS))}")
    if use_stemmer and stemmer == "none":
        raise ValueError("use_stemmer=True contradicts stemmer='none'; give only one of them")
    return LANGUAGE_STEMMER if use_stemmer or stemmer == LANGUAGE_STEMMER else "none"
