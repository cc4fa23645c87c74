"""The ``language=`` pipeline: segments, tokens and stems for text in any script.

``language`` is an ISO 639-1 code (``"zh"``, ``"hi"``, ...) or ``None``. ``None`` keeps the
published rules (segments ``[^.]+\\.?``, rouge-score's tokens); with a code:

- **Segments** (for the extraction of additions): ``[^T]+T?`` where T is every character with
  the Unicode property Sentence_Terminal (``SENTENCE_PATTERN``).
- **Tokens** (``LanguageTokenizer``): the text is NFKC-normalised and lower-cased
  (``str.lower``) as Unicode 13.0.0 does it on every Python (``normalise``); words are the maximal runs of characters of the general categories L, M and
  N. A run is cut where it passes into or out of a script written without spaces, and each
  piece in such a script is segmented into words: Han and kana with ``jieba`` for ``zh`` and
  ``fugashi`` with the ``unidic-lite`` dictionary for ``ja``, Thai with ``pythainlp`` (engine
  newmm, its bundled dictionary) for ``th``; otherwise (Lao, Khmer, Myanmar, and those
  scripts under another language) one token per character, a character being a letter or
  digit with the marks that follow it.
- **Stemming** (``stem=True``): NLTK's Snowball stemmer of the language, applied as
  rouge-score applies Porter's, to tokens of more than 3 characters.

The character sets come from ``unicode_tables.py`` (Unicode 17.0.0), the code points that
``normalise`` changes from ``unicode_assigned.py`` (Unicode 13.0.0). Segmenters are loaded
once per process, at first use; a ``LanguageTokenizer`` holds only its settings, so it pickles
for worker processes.
"""

import importlib.util
import logging
import re
import unicodedata
from functools import cache, lru_cache
from importlib.metadata import version
from itertools import groupby
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

from .extras import MissingExtra
from .unicode_assigned import ASSIGNED
from .unicode_assigned import UNICODE_VERSION as ASSIGNED_UNICODE_VERSION
from .unicode_tables import (
    HAN_KANA,
    KHMER,
    LAO,
    MARK,
    MYANMAR,
    SENTENCE_TERMINALS,
    THAI,
    WORD,
)

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
SNOWBALL_LANGUAGES: Dict[str, str] = {
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
PIP_EXTRA = "pip install 'update-rouge[multilingual]'"
_STEM_CACHE_SIZE = 1 << 20
Ranges = Tuple[Tuple[int, int], ...]


def _character_class(ranges: Ranges) -> str:
    return "".join(f"\\U{first:08X}-\\U{last:08X}" for first, last in ranges)


_ASTRAL = "\\U00010000-\\U0010FFFF"


def _one_of(ranges: Ranges, negate: bool = False) -> str:
    """A pattern matching one character in ``ranges`` (outside them with ``negate``).

    ``re`` tests characters of the Basic Multilingual Plane against a bitmap but walks the list
    of ranges above it one by one, so those are tried only for characters above it.
    """
    bmp = tuple((first, min(last, 0xFFFF)) for first, last in ranges if first <= 0xFFFF)
    astral = tuple((max(first, 0x10000), last) for first, last in ranges if last > 0xFFFF)
    if negate:
        if not astral:
            return f"[^{_character_class(bmp)}]"
        return f"(?:[^{_character_class(bmp)}{_ASTRAL}]|(?![{_character_class(astral)}])[{_ASTRAL}])"
    if not astral:
        return f"[{_character_class(bmp)}]"
    return f"(?:[{_character_class(bmp)}]|(?=[{_ASTRAL}])[{_character_class(astral)}])"


def _subtract(ranges: Ranges, *removed: Ranges) -> Ranges:
    """The code points of ``ranges`` outside every one of ``removed``, as sorted ranges."""
    cut = sorted(pair for table in removed for pair in table)
    result = []
    for first, last in ranges:
        for cut_first, cut_last in cut:
            if cut_last < first or cut_first > last:
                continue
            if cut_first > first:
                result.append((first, cut_first - 1))
            first = cut_last + 1
            if first > last:
                break
        if first <= last:
            result.append((first, last))
    return tuple(result)


def _ascii_only(ranges: Ranges) -> Ranges:
    return tuple((first, min(last, 0x7F)) for first, last in ranges if first <= 0x7F)


class SentencePattern:
    """``[^T]+T?`` for the sentence terminals T, with the ``finditer`` and ``findall`` of a pattern.

    On ASCII text (``str.isascii``) it runs the same pattern over the ASCII terminals only,
    which finds the same matches faster.
    """

    def __init__(self, terminals: Ranges):
        self.full = re.compile(f"{_one_of(terminals, negate=True)}+{_one_of(terminals)}?")
        ascii_terminals = _ascii_only(terminals)
        self.ascii = re.compile(f"[^{_character_class(ascii_terminals)}]+[{_character_class(ascii_terminals)}]?")
        self.pattern = self.full.pattern

    def _for(self, text: str) -> "re.Pattern[str]":
        return self.ascii if text.isascii() else self.full

    def finditer(self, text: str):
        return self._for(text).finditer(text)

    def findall(self, text: str) -> List[str]:
        return self._for(text).findall(text)


SENTENCE_TERMINAL = re.compile(_one_of(SENTENCE_TERMINALS))
SENTENCE_PATTERN = SentencePattern(SENTENCE_TERMINALS)
_SPACELESS = {"han_kana": HAN_KANA, "thai": THAI, "lao": LAO, "khmer": KHMER, "myanmar": MYANMAR}
_OTHER_WORD = _subtract(WORD, *_SPACELESS.values())
_WORD_RUN = re.compile(f"{_one_of(WORD)}+")
# The word characters of ASCII are [A-Za-z0-9]: on lower-cased ASCII text, rouge-score's pattern.
_ASCII_WORD_RUN = re.compile(f"[{_character_class(_ascii_only(WORD))}]+")
_ANY_SPACELESS = re.compile(_one_of(tuple(sorted(pair for table in _SPACELESS.values() for pair in table))))
# One group per script written without spaces, then the rest of the word characters: each match
# is a run of one kind, and consecutive matches cut a word run where its script changes.
_PIECE = re.compile("|".join(f"({_one_of(table)}+)" for table in (*_SPACELESS.values(), _OTHER_WORD)))
_PIECE_KINDS = (*_SPACELESS, "other")
# Planes 4 to 13: no Unicode version up to 17.0.0 assigns a character there.
_EMPTY_PLANES = ((0x40000, 0xDFFFF),)
_ASTRAL_CHARACTER = re.compile(f"[{_ASTRAL}]")
_CHARACTER = re.compile(f"{_one_of(MARK, negate=True)}{_one_of(MARK)}*|{_one_of(MARK)}+")

# Per language with a word segmenter: the modules it imports, and the kind of piece it segments.
_SEGMENTER_MODULES = {"zh": ("jieba",), "ja": ("fugashi", "unidic_lite"), "th": ("pythainlp",)}
_SEGMENTER_PACKAGES = {"jieba": "jieba", "fugashi": "fugashi", "unidic_lite": "unidic-lite", "pythainlp": "pythainlp"}
_SEGMENTED_KIND = {"zh": "han_kana", "ja": "han_kana", "th": "thai"}
LANGUAGE_NAMES = {"zh": "Chinese", "ja": "Japanese", "th": "Thai"}


def check_language(language: Optional[str]) -> Optional[str]:
    """Return ``language`` (``None`` or an ISO 639-1 code); ``ValueError`` for anything else."""
    if language is None:
        return None
    if not isinstance(language, str) or language not in ISO_639_1:
        raise ValueError(
            f"language must be None or a lower-case ISO 639-1 code such as 'en', 'zh', 'hi', got {language!r}"
        )
    return language


def check_segmenter_installed(language: str) -> None:
    """Raise ``MissingExtra`` (an ``ImportError``) naming the pip line when ``language``'s
    segmenter is not installed."""
    missing = [name for name in _SEGMENTER_MODULES.get(language, ()) if importlib.util.find_spec(name) is None]
    if missing:
        raise MissingExtra(_missing_segmenter(language, missing, "not installed"))


def _missing_segmenter(language: str, modules: Sequence[str], why: str) -> str:
    packages = " ".join(_SEGMENTER_PACKAGES[name] for name in modules)
    return (
        f"language={language!r} segments {LANGUAGE_NAMES[language]} words with {packages} ({why}); "
        f"install with: {PIP_EXTRA}   (or: pip install {packages})"
    )


def segmenter_versions(language: str) -> Optional[str]:
    """The installed packages that cut ``language``'s words, as ``name-version`` joined by ``+``
    (``fugashi-1.5.2+unidic-lite-1.0.8``); ``None`` for a language without a segmenter.

    Their dictionaries and algorithms decide the tokens, so the signature names them. Raises
    ``ImportError`` as ``check_segmenter_installed`` does when one is missing.
    """
    if language not in _SEGMENTER_MODULES:
        return None
    check_segmenter_installed(language)
    packages = (_SEGMENTER_PACKAGES[name] for name in _SEGMENTER_MODULES[language])
    return "+".join(f"{package}-{version(package)}" for package in packages)


def check_stemmer_language(language: str) -> str:
    """The Snowball stemmer name for ``language``; ``ValueError`` listing the supported codes."""
    if language not in SNOWBALL_LANGUAGES:
        supported = ", ".join(f"{code} ({name})" for code, name in sorted(SNOWBALL_LANGUAGES.items()))
        raise ValueError(
            f"no stemmer for language={language!r}: stemming with a language uses NLTK's Snowball stemmers, "
            f"which exist for {supported}; drop use_stemmer=True to score {language!r} unstemmed"
        )
    return SNOWBALL_LANGUAGES[language]


def segment_pattern(language: Optional[str]):
    """The segment pattern of the extraction (anything with a pattern's ``finditer``): the
    published ``[^.]+\\.?`` for ``None``, else ``SENTENCE_PATTERN``."""
    from .extraction import SEGMENT_PATTERN

    return SEGMENT_PATTERN if language is None else SENTENCE_PATTERN


def _jieba_segmenter():
    import jieba

    logger = logging.getLogger("jieba")
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        segmenter = jieba.Tokenizer()
        segmenter.initialize()
    finally:
        logger.setLevel(level)
    return lambda piece: list(segmenter.cut(piece))


def _fugashi_segmenter():
    import os

    import fugashi
    import unidic_lite

    # The dictionary is named explicitly: fugashi would prefer the full ``unidic`` package when
    # it is installed, which needs a download before use.
    tagger = fugashi.GenericTagger(f'-r "{os.path.join(unidic_lite.DICDIR, "mecabrc")}" -d "{unidic_lite.DICDIR}"')
    return lambda piece: [word.surface for word in tagger(piece)]


def _thai_segmenter():
    from pythainlp.tokenize import word_tokenize

    return lambda piece: word_tokenize(piece, engine="newmm", keep_whitespace=False)


_SEGMENTER_LOADERS = {"zh": _jieba_segmenter, "ja": _fugashi_segmenter, "th": _thai_segmenter}


@cache
def segmenter(language: str) -> Callable[[str], List[str]]:
    """The word segmenter of ``language`` (a key of ``LANGUAGE_NAMES``), loaded once per process;
    ``MissingExtra`` when it cannot be imported."""
    check_segmenter_installed(language)
    try:
        return _SEGMENTER_LOADERS[language]()
    except ImportError as error:
        why = " ".join(f"cannot be imported: {error}".split())
        raise MissingExtra(_missing_segmenter(language, _SEGMENTER_MODULES[language], why)) from error


@cache
def _snowball(name: str):
    from nltk.stem.snowball import SnowballStemmer

    return SnowballStemmer(name)


@lru_cache(maxsize=_STEM_CACHE_SIZE)
def _stem(name: str, token: str) -> str:
    return _snowball(name).stem(token) if len(token) > 3 else token


def characters(piece: str) -> List[str]:
    """``piece`` cut into characters: each a non-mark with the marks that follow it."""
    return _CHARACTER.findall(piece)


def _lower(text: str) -> str:
    """``text.lower()`` with the final sigma of Unicode 13.0.0.

    ``str.lower`` writes a capital sigma as the final form after a cased letter and any
    case-ignorable characters; U+1734 (Hanunoo pamudpod) is case-ignorable in Unicode 13.0.0
    and not from 14.0.0 on, when it became a spacing mark. Lowering with U+0300 (case-ignorable
    in every version) in its place gives 13.0.0's sigmas, and every other character the same
    one-for-one characters.
    """
    if "\u1734" not in text or "\u03a3" not in text:
        return text.lower()
    substituted = text.replace("\u1734", "\u0300").lower()
    return "".join(own if own == "\u1734" else other for own, other in zip(text.lower(), substituted))


@cache
def _newer_characters() -> Tuple[FrozenSet[str], "re.Pattern[str]", FrozenSet[str]]:
    """The characters this Python's ``unicodedata`` assigns and Unicode 13.0.0 does not (none on
    Python 3.10), a pattern matching those of the Basic Multilingual Plane, and those above it.

    A character unassigned in both is left as it is by both, so only these need cutting out.
    Computed once per process (a fraction of a second); planes 4 to 13 are not scanned, as
    tests/unit/test_normalisation.py checks that this Python assigns nothing there. (``re`` is fast
    with a class of BMP characters and slow with a long one of astral ones, hence the split.)
    """
    newer: List[str] = []
    if unicodedata.unidata_version != ASSIGNED_UNICODE_VERSION:
        unassigned = _subtract(((0, 0x10FFFF),), ASSIGNED, _EMPTY_PLANES)
        newer = [
            chr(code)
            for first, last in unassigned
            for code in range(first, last + 1)
            if unicodedata.category(chr(code)) != "Cn"
        ]
    bmp = "".join(character for character in newer if character <= "\uffff")
    astral = frozenset(character for character in newer if character > "\uffff")
    return frozenset(newer), re.compile(f"[{re.escape(bmp)}]" if bmp else "(?!)"), astral


def _has_newer_characters(text: str) -> bool:
    _, bmp, astral = _newer_characters()
    if bmp.search(text):
        return True
    return bool(astral) and any(character in astral for character in _ASTRAL_CHARACTER.findall(text))


def normalise(text: str) -> str:
    """``unicodedata.normalize("NFKC", text).lower()`` as Python 3.10 (Unicode 13.0.0) computes it, on any Python.

    Characters unassigned in Unicode 13.0.0 are kept as they are, and the runs between them are
    normalised and lower-cased on their own (only those this Python assigns need the cut, see
    ``_newer_characters``). That is what 13.0.0 does: to it such a character has no mappings
    and combining class 0, so nothing composes or reorders across it, and it is neither cased
    nor case-ignorable, so a final sigma's context ends at it. Unicode's normalization
    stability policy keeps NFKC of assigned characters; their case mappings and case properties
    are those of 13.0.0 on Python 3.10 to 3.13 but for U+1734 (``_lower``), as
    tests/unit/test_normalisation.py checks code point by code point.
    """
    if not _has_newer_characters(text):
        return _lower(unicodedata.normalize("NFKC", text))
    newer = _newer_characters()[0]
    runs = ("".join(run) for _, run in groupby(text, key=newer.__contains__))
    return "".join(run if run[0] in newer else _lower(unicodedata.normalize("NFKC", run)) for run in runs)


class LanguageTokenizer:
    """The tokens of ``language`` (an ISO 639-1 code), Snowball-stemmed with ``stem=True``.

    Raises ``MissingExtra`` at construction when the language's segmenter is not installed,
    and ``ValueError`` when ``stem`` is asked for a language without a Snowball stemmer.
    """

    splits_on_newlines = True

    def __init__(self, language: str, stem: bool = False):
        check_language(language)
        self.language = language
        self.stem = stem
        self._stemmer_name = check_stemmer_language(language) if stem else None
        check_segmenter_installed(language)

    def words(self, text: str) -> List[str]:
        """The unstemmed tokens of ``text``."""
        if text.isascii():
            return _ASCII_WORD_RUN.findall(text.lower())
        text = normalise(text)
        if not _ANY_SPACELESS.search(text):
            return _WORD_RUN.findall(text)
        segmented_kind = _SEGMENTED_KIND.get(self.language)
        tokens = []
        for match in _PIECE.finditer(text):
            group = match.lastindex
            assert group is not None, "every alternative of _PIECE is a group"
            kind = _PIECE_KINDS[group - 1]
            piece = match.group(0)
            if kind == "other":
                tokens.append(piece)
            elif kind == segmented_kind:
                tokens.extend(word for word in segmenter(self.language)(piece) if word)
            else:
                tokens.extend(characters(piece))
        return tokens

    def tokenize(self, text: str) -> List[str]:
        tokens = self.words(text)
        if self._stemmer_name is None:
            return tokens
        stems = (_stem(self._stemmer_name, token) for token in tokens)
        return [stem for stem in stems if stem]
