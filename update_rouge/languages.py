"""The ``language=`` tokens: words and stems for text in any script, and the language codes.

``language`` is an ISO 639-1 code or ``None`` (the published rules). With a code (docs/languages.md
states the rules): the text is normalised (``normalisation.normalise``); words are the maximal runs
of characters of the general categories L, M and N, cut where they pass into or out of a script
written without spaces; each such piece is segmented into words by the language's word segmenter
(``word_segmenters.py``: ``zh``, ``ja``, ``th``), else one token per character with its marks.
``stem=True`` applies NLTK's Snowball stemmer of the language as rouge-score applies Porter's.
A ``LanguageTokenizer`` holds only its settings, so it pickles for worker processes.
"""

import re
from functools import cache, lru_cache
from typing import NamedTuple

from .errors import LEFT_OUT, Name, OptionError, Setting
from .normalisation import normalise
from .unicode_patterns import ascii_only, character_class, one_of, subtract
from .unicode_tables import HAN_KANA, KHMER, LAO, MARK, MYANMAR, THAI, WORD
from .word_segmenters import check_segmenter_installed, segmenter

# ISO 639-1: the 183 two-letter codes of the ISO 639-2 registration authority's list.
ISO_639_1 = frozenset(
    "aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de "
    "dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia "
    "id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo "
    "lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl "
    "ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk "
    "tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu".split()
)
# ISO 639-1 code -> the name of its stemmer in NLTK's SnowballStemmer.
SNOWBALL_LANGUAGES: dict[str, str] = {
    "ar": "arabic",
    "da": "danish",
    "de": "german",
    "en": "english",
    "es": "spanish",
    "fi": "finnish",
    "fr": "french",
    "hu": "hungarian",
    "it": "italian",
    "nb": "norwegian",
    "nl": "dutch",
    "no": "norwegian",
    "pt": "portuguese",
    "ro": "romanian",
    "ru": "russian",
    "sv": "swedish",
}
_STEM_CACHE_SIZE = 1 << 20
_SPACELESS = {"han_kana": HAN_KANA, "thai": THAI, "lao": LAO, "khmer": KHMER, "myanmar": MYANMAR}
_PIECE_KINDS = (*_SPACELESS, "other")


class _Patterns(NamedTuple):
    """The compiled expressions of the tokens (``patterns()``)."""

    word_run: "re.Pattern[str]"
    ascii_word_run: "re.Pattern[str]"
    any_spaceless: "re.Pattern[str]"
    piece: "re.Pattern[str]"
    character: "re.Pattern[str]"


@cache
def patterns() -> _Patterns:
    """The expressions of the tokens, compiled on first use: a run of word characters; on ASCII text,
    rouge-score's pattern; any character of a script written without spaces; a piece, one group per
    such script then the rest of the word characters; a character with its marks."""
    other_word = subtract(WORD, *_SPACELESS.values())
    return _Patterns(
        word_run=re.compile(f"{one_of(WORD)}+"),
        ascii_word_run=re.compile(f"[{character_class(ascii_only(WORD))}]+"),
        any_spaceless=re.compile(one_of(tuple(sorted(pair for table in _SPACELESS.values() for pair in table)))),
        piece=re.compile("|".join(f"({one_of(table)}+)" for table in (*_SPACELESS.values(), other_word))),
        character=re.compile(f"{one_of(MARK, negate=True)}{one_of(MARK)}*|{one_of(MARK)}+"),
    )


# The kind of piece each language's word segmenter cuts (``word_segmenters.segmenter``).
_SEGMENTED_KIND = {"zh": "han_kana", "ja": "han_kana", "th": "thai"}


def check_language(language: str | None) -> str | None:
    """``language`` (``None`` or an ISO 639-1 code); ``OptionError`` for anything else."""
    if language is None:
        return None
    if not isinstance(language, str) or language not in ISO_639_1:
        raise OptionError(
            "language",
            language,
            (Name("language"), f" must be a lower-case ISO 639-1 code such as 'en', 'zh', 'hi', got {language!r}"),
            [[Setting("language", LEFT_OUT)]],
        )
    return language


def check_stemmer_language(language: str) -> str:
    """The Snowball stemmer name for ``language``; ``OptionError`` listing the supported codes."""
    if language not in SNOWBALL_LANGUAGES:
        supported = ", ".join(f"{code} ({name})" for code, name in sorted(SNOWBALL_LANGUAGES.items()))
        raise OptionError(
            "stemmer",
            "snowball",
            ("no Snowball stemmer for ", Setting("language", language), f": NLTK's exist for {supported}"),
            [[Setting("stemmer", LEFT_OUT), Setting("use_stemmer", LEFT_OUT)]],
        )
    return SNOWBALL_LANGUAGES[language]


@cache
def _snowball(name: str):
    from nltk.stem.snowball import SnowballStemmer

    return SnowballStemmer(name)


@lru_cache(maxsize=_STEM_CACHE_SIZE)
def _stem(name: str, token: str) -> str:
    return _snowball(name).stem(token) if len(token) > 3 else token


def characters(piece: str) -> list[str]:
    """``piece`` cut into characters: each a non-mark with the marks that follow it."""
    return patterns().character.findall(piece)


class LanguageTokenizer:
    """The tokens of ``language`` (an ISO 639-1 code), Snowball-stemmed with ``stem=True``;
    ``MissingExtra`` when its segmenter is not installed, ``OptionError`` for ``stem`` without a
    Snowball stemmer."""

    splits_on_newlines = True

    def __init__(self, language: str, stem: bool = False):
        check_language(language)
        self.language = language
        self.stem = stem
        self._stemmer_name = check_stemmer_language(language) if stem else None
        check_segmenter_installed(language)

    def words(self, text: str) -> list[str]:
        """The unstemmed tokens of ``text``."""
        compiled = patterns()
        if text.isascii():
            return compiled.ascii_word_run.findall(text.lower())
        text = normalise(text)
        if not compiled.any_spaceless.search(text):
            return compiled.word_run.findall(text)
        segmented_kind = _SEGMENTED_KIND.get(self.language)
        tokens = []
        for match in compiled.piece.finditer(text):
            group = match.lastindex
            assert group is not None, "every alternative of the piece pattern is a group"
            kind = _PIECE_KINDS[group - 1]
            piece = match.group(0)
            if kind == "other":
                tokens.append(piece)
            elif kind == segmented_kind:
                tokens.extend(word for word in segmenter(self.language)(piece) if word)
            else:
                tokens.extend(characters(piece))
        return tokens

    def tokenize(self, text: str) -> list[str]:
        tokens = self.words(text)
        if self._stemmer_name is None:
            return tokens
        stems = (_stem(self._stemmer_name, token) for token in tokens)
        return [stem for stem in stems if stem]
