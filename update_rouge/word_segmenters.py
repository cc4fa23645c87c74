"""The word segmenters of ``language=``: the packages that cut Chinese, Japanese and Thai words
(the ``multilingual`` extra), each built once per process at first use (``segmenter``; a missing
one raises ``MissingExtra``). Their versions go into the signature (``segmenter_versions``).
"""

from collections.abc import Callable, Sequence
from functools import cache

from .errors import Part, Setting
from .extras import MissingExtra, installed

PIP_EXTRA = "pip install 'update-rouge[multilingual]'"
# Per language with a word segmenter: the modules it imports.
_SEGMENTER_MODULES = {"zh": ("jieba",), "ja": ("fugashi", "unidic_lite"), "th": ("pythainlp",)}
_SEGMENTER_PACKAGES = {"jieba": "jieba", "fugashi": "fugashi", "unidic_lite": "unidic-lite", "pythainlp": "pythainlp"}
LANGUAGE_NAMES = {"zh": "Chinese", "ja": "Japanese", "th": "Thai"}


def check_segmenter_installed(language: str) -> None:
    """Raise ``MissingExtra`` (an ``ImportError``) naming the pip line when ``language``'s
    segmenter is not installed (``extras.installed``: a folder of that name on the path is not it)."""
    missing = [name for name in _SEGMENTER_MODULES.get(language, ()) if not installed(name)]
    if missing:
        raise MissingExtra(*_missing_segmenter(language, missing, "not installed"))


def _missing_segmenter(language: str, modules: Sequence[str], why: str) -> tuple[Part, ...]:
    """The parts of ``MissingExtra``'s line: ``language`` as each door sets it, the packages
    ``modules`` come in and ``why`` they are missing, and the pip commands."""
    packages = " ".join(_SEGMENTER_PACKAGES[name] for name in modules)
    return (
        Setting("language", language),
        f" segments {LANGUAGE_NAMES[language]} words with {packages} ({why}); "
        f"install with: {PIP_EXTRA}   (or: pip install {packages})",
    )


def segmenter_versions(language: str) -> str | None:
    """The installed packages that cut ``language``'s words, as ``name-version`` joined by ``+``
    (``fugashi-1.5.2+unidic-lite-1.0.8``); ``None`` for a language without a segmenter.

    Their dictionaries and algorithms decide the tokens, so the signature names them. Raises
    ``ImportError`` as ``check_segmenter_installed`` does when one is missing.
    """
    if language not in _SEGMENTER_MODULES:
        return None
    # Imported here, as in signature.py: worker processes need not import importlib.metadata.
    from importlib.metadata import version

    check_segmenter_installed(language)
    packages = (_SEGMENTER_PACKAGES[name] for name in _SEGMENTER_MODULES[language])
    return "+".join(f"{package}-{version(package)}" for package in packages)


def _jieba_segmenter():
    import logging

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
def segmenter(language: str) -> Callable[[str], list[str]]:
    """The word segmenter of ``language`` (a key of ``LANGUAGE_NAMES``), loaded once per process;
    ``MissingExtra`` when it cannot be imported."""
    check_segmenter_installed(language)
    try:
        return _SEGMENTER_LOADERS[language]()
    except ImportError as error:
        why = " ".join(f"cannot be imported: {error}".split())
        raise MissingExtra(*_missing_segmenter(language, _SEGMENTER_MODULES[language], why)) from error
