"""Which stemmer a call asks for: the one place ``use_stemmer``, ``stemmer`` and ``tokenizer`` meet.

``"none"``: rouge-score's tokens; ``"porter"``: rouge-score's Porter stemmer (NLTK), what
``use_stemmer=True`` selects; ``"rouge155"``: ROUGE-1.5.5's tokens and ``-m`` stemming
(``rouge155_tokens.py``); ``"snowball"`` (``LANGUAGE_STEMMER``): NLTK's Snowball stemmer of the
``language=``, what ``use_stemmer=True`` selects with a language.
"""

from collections.abc import Callable

from .errors import LEFT_OUT, Name, OptionError, Setting
from .languages import check_stemmer_language
from .option_numbers import check_switch

STEMMERS = ("none", "porter", "rouge155", "snowball")
LANGUAGE_STEMMER = "snowball"
# The stemmers of rouge-score's and ROUGE-1.5.5's English tokens (not with a language).
ENGLISH_STEMMERS = ("porter", "rouge155")


def resolve_stemmer(
    use_stemmer: bool = False,
    stemmer: str | None = None,
    tokenizer: Callable[[str], list[str]] | None = None,
    language: str | None = None,
) -> str:
    """The stemmer name (in ``STEMMERS``) that the arguments select; ``OptionError`` if they disagree:
    ``"snowball"`` needs a ``language``, ``"porter"`` and ``"rouge155"`` exclude one, and a custom
    ``tokenizer`` (which resolves to ``"none"``) excludes both a stemmer and a language."""
    check_switch("use_stemmer", use_stemmer)
    if stemmer is not None and stemmer not in STEMMERS:
        raise OptionError(
            "stemmer",
            stemmer,
            (f"unknown stemmer {stemmer!r}; valid stemmers are {', '.join(map(repr, STEMMERS))}",),
            [[Setting("stemmer", LEFT_OUT)]],
        )
    alias = LANGUAGE_STEMMER if language is not None else "porter"
    if use_stemmer and stemmer not in (None, alias):
        raise OptionError(
            "use_stemmer",
            True,
            (
                Setting("use_stemmer", True),
                " is an alias of ",
                Setting("stemmer", alias),
                " and contradicts ",
                Setting("stemmer", stemmer),
            ),
            [[Setting("use_stemmer", LEFT_OUT)], [Setting("stemmer", LEFT_OUT)]],
        )
    name = alias if use_stemmer else stemmer or "none"
    if tokenizer is not None:
        _check_tokenizer(name, language)
    if language is None and name == LANGUAGE_STEMMER:
        raise OptionError(
            "stemmer",
            name,
            (
                Setting("stemmer", name),
                " stems the words of a language with its Snowball stemmer: it needs ",
                Name("language"),
            ),
            [[Setting("stemmer", LEFT_OUT)], [Setting("stemmer", "porter")]],
        )
    if language is not None and name in ENGLISH_STEMMERS:
        raise OptionError(
            "stemmer",
            name,
            (
                Setting("stemmer", name),
                " stems rouge-score's English tokens and cannot be combined with ",
                Setting("language", language),
            ),
            [[Setting("stemmer", LEFT_OUT)], [Setting("stemmer", LANGUAGE_STEMMER)], [Setting("language", LEFT_OUT)]],
        )
    if name == LANGUAGE_STEMMER and language is not None:
        check_stemmer_language(language)
    return name


def _check_tokenizer(stemmer: str, language: str | None) -> None:
    """A custom tokenizer brings its own tokens: ``OptionError`` with a stemmer or a language."""
    if language is not None:
        raise OptionError(
            "tokenizer",
            LEFT_OUT,
            (
                Setting("language", language),
                " brings its own tokens, so it cannot be combined with a custom ",
                Name("tokenizer"),
                "; give only one of them",
            ),
            [[Setting("tokenizer", LEFT_OUT)], [Setting("language", LEFT_OUT)]],
        )
    if stemmer != "none":
        raise OptionError(
            "tokenizer",
            LEFT_OUT,
            (
                "a custom ",
                Name("tokenizer"),
                " replaces the tokenizer and its stemming, so it cannot be combined with ",
                f"the {stemmer!r} stemmer; stem inside the tokenizer",
            ),
            [[Setting("stemmer", LEFT_OUT), Setting("use_stemmer", LEFT_OUT)], [Setting("tokenizer", LEFT_OUT)]],
        )
