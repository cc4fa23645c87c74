"""Tokenizers: objects with a ``tokenize(text)`` method, and ``tokenizer_for``, the one that the
options imply (``Settings.text_tokenizer``).

``DefaultTokenizer`` reproduces rouge-score's tokenizer token for token; ``CallableTokenizer``
wraps a user's callable. A tokenizer's ``stopwords`` (empty by default) are dropped before
stemming. ``splits_on_newlines``: whether a text's tokens are always the concatenation of its
lines' tokens, so that each line is tokenized once for every type (in one pass with
``tokenize_lines`` where a tokenizer has it).
"""

import re
from collections.abc import Callable
from functools import cache, lru_cache

from .errors import Field, InputError
from .inputs import _describe
from .languages import LanguageTokenizer
from .rouge155_options import STOPWORDS
from .rouge155_tokens import Rouge155Tokenizer
from .stemming import LANGUAGE_STEMMER

_VALID_TOKEN = re.compile(r"^[a-z0-9]+$")
# Each byte to itself if it is [a-z0-9] or a line end, else to a space.
_WORD_BYTES = bytes(byte if chr(byte) in "abcdefghijklmnopqrstuvwxyz0123456789\n" else 32 for byte in range(256))
_STEM_CACHE_SIZE = 1 << 20


@lru_cache(maxsize=_STEM_CACHE_SIZE)
def _porter_stem(token: str) -> str | None:
    """rouge-score's stemming of one token, or None when rouge-score would drop the result."""
    stemmed = _porter().stem(token) if len(token) > 3 else token
    return stemmed if _VALID_TOKEN.match(stemmed) else None


@cache
def _porter():
    """NLTK's Porter stemmer, imported on first use (a process without a stemmer never imports NLTK)."""
    from nltk.stem import porter

    return porter.PorterStemmer()


def _words(text: str) -> str:
    """``text`` lower-cased, every character but [a-z0-9] and "\\n" made a space: its words are
    rouge-score's tokens before stemming, its line ends where they were."""
    return text.lower().encode("ascii", "replace").translate(_WORD_BYTES).decode("ascii")


class DefaultTokenizer:
    """rouge-score's ``DefaultTokenizer``: same tokens, faster (byte translation, memoized stems)."""

    splits_on_newlines = True

    def __init__(self, use_stemmer: bool = False, stopwords: frozenset[str] = frozenset()):
        self.use_stemmer = use_stemmer
        self.stopwords = stopwords

    def tokenize(self, text: str) -> list[str]:
        """rouge-score's tokens of ``text``; tokens in ``stopwords`` are dropped before stemming."""
        return self._kept(_words(text).split())

    def tokenize_lines(self, text: str) -> list[list[str]]:
        """``tokenize`` of each non-empty line of ``text`` (``lcs.summary_lines``), in one pass."""
        lines = [line.split() for line in _words(text).split("\n") if line]
        return list(map(self._kept, lines)) if self.stopwords or self.use_stemmer else lines

    def _kept(self, tokens: list[str]) -> list[str]:
        """``tokens`` without ``stopwords``, then stemmed (rouge-score drops invalid stems)."""
        if self.stopwords:
            tokens = [token for token in tokens if token not in self.stopwords]
        if not self.use_stemmer:
            return tokens
        stems = map(_porter_stem, tokens)
        return [stem for stem in stems if stem is not None]


class TokenizerError(InputError):
    """A custom tokenizer raised, or returned something other than a list of strings, on ``text``:
    ``problem``; ``where``, once known, the field whose ``texts`` (``"additions"`` or ``"text"``)
    hold it."""

    def __init__(self, problem: str, text: str = "", where: Field | None = None, texts: str = "additions"):
        self.problem, self.text, self.texts = problem, text, texts
        parts = (problem,) if where is None else (problem, f", on the {texts} of ", where, f": {text!r:.80}")
        super().__init__(where, parts)
        self.args = (problem, text, where, texts)

    def shifted(self, offset: int) -> "TokenizerError":
        if self.where is None:
            return self
        return TokenizerError(self.problem, self.text, self.where.shifted(offset), self.texts)


class CallableTokenizer:
    """A user's callable ``text -> list of tokens``, called exactly where rouge-score calls it. A
    result other than a ``list`` or ``tuple`` of ``str``, or an exception it raises, becomes a
    ``TokenizerError`` (``example_pipeline.naming_examples`` adds the example's field and index)."""

    splits_on_newlines = False

    def __init__(self, tokenize: Callable[[str], list[str]], stopwords: frozenset[str] = frozenset()):
        self.stopwords = stopwords
        self._tokenize = tokenize

    def tokenize(self, text: str) -> list[str]:
        """The callable's tokens of ``text``, without ``stopwords``."""
        try:
            tokens = self._tokenize(text)
        except Exception as error:
            raise TokenizerError(f"tokenizer raised {type(error).__name__}: {error}", text) from error
        if type(tokens) is not list:
            if not isinstance(tokens, (list, tuple)):
                raise TokenizerError(f"tokenizer must return a list of strings, but returned {_describe(tokens)}", text)
            tokens = list(tokens)
        try:
            "".join(tokens)  # the cheapest complete check that every token is a str (done in C)
        except TypeError:
            bad = next(token for token in tokens if not isinstance(token, str))
            raise TokenizerError(
                f"tokenizer must return a list of strings, but its list holds {_describe(bad)}", text
            ) from None
        if self.stopwords:
            return [token for token in tokens if token not in self.stopwords]
        return tokens


ROUGE155_TOKENIZER = Rouge155Tokenizer()


class WhiteSpaceTokenizer:
    """Tokens separated by white space (``str.split``): the tokens of ``additions="edits"``'s runs."""

    splits_on_newlines = True

    def tokenize(self, text: str) -> list[str]:
        """The white-space separated words of ``text``."""
        return text.split()


def edit_run_tokenizer(tokenizer):
    """The tokenizer that gives back exactly the tokens of ``additions="edits"``'s runs: rouge-score's
    plain tokenizer for rouge-score's tokens (so every engine can score them), else
    ``WhiteSpaceTokenizer``."""
    return DefaultTokenizer() if type(tokenizer) is DefaultTokenizer else WhiteSpaceTokenizer()


def tokenizer_for(
    stemmer: str = "none",
    tokenizer: Callable[[str], list[str]] | None = None,
    remove_stopwords: bool = False,
    language: str | None = None,
):
    """The tokenizer for a stemmer name (``stemming.resolve_stemmer``'s): rouge-score's without or with
    its Porter stemmer (``"none"``, ``"porter"``), ROUGE-1.5.5's (``"rouge155"``), a custom
    ``tokenizer`` (with ``"none"``), or with a ``language`` its ``languages.LanguageTokenizer``
    (Snowball-stemmed with ``LANGUAGE_STEMMER``). ``remove_stopwords`` drops ROUGE-1.5.5's stopwords
    before stemming."""
    if language is not None:
        return LanguageTokenizer(language, stem=stemmer == LANGUAGE_STEMMER)
    stopwords = STOPWORDS if remove_stopwords else frozenset()
    if stemmer == "rouge155":
        return Rouge155Tokenizer(stopwords) if stopwords else ROUGE155_TOKENIZER
    if tokenizer is not None:
        return CallableTokenizer(tokenizer, stopwords)
    return DefaultTokenizer(use_stemmer=stemmer == "porter", stopwords=stopwords)
