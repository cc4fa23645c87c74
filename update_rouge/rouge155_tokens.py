"""ROUGE-1.5.5's tokens with stemming (``-m``): what ``stemmer="rouge155"`` scores.

Tokens: ROUGE-1.5.5 reads bytes, lower-cases only A-Z and treats every other byte outside
[a-z0-9], every byte of a non-ASCII character included, as a separator ("naïve" gives "na",
"ve"). Stems: a token of more than 3 characters in the WordNet 2.0 exception lists becomes its
base form (``exception_table``), any other such token is stemmed by
``rouge155_porter.porter_stem``. Under ``-m -s`` stopwords are dropped before stemming and the
exception lists are not consulted, as ROUGE-1.5.5's values show (docs/rouge155-options.md).
Stems are memoized once per process, shared by every tokenizer.
"""

import re
from collections.abc import Callable, Iterable

from .rouge155_porter import porter_stem
from .wordnet_exceptions import EXCEPTION_LISTS

_TOKEN = re.compile(r"[A-Za-z0-9]+")
MAX_UNSTEMMED_LENGTH = 3


def exception_table(lists: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Inflected form -> base form from ``(name, text)`` exception lists read in order: the first base
    form of each line; a later line for the same form replaces an earlier one."""
    table = {}
    for _, text in lists:
        for line in text.splitlines():
            fields = line.split()
            if len(fields) >= 2:
                table[fields[0]] = fields[1]
    return table


EXCEPTIONS = exception_table(EXCEPTION_LISTS)
_stems: dict[str, str] = {}
_porter_stems: dict[str, str] = {}


def clear_cache() -> None:
    """Forget the memoized stems (for measuring a cold start; results do not change)."""
    _stems.clear()
    _porter_stems.clear()


def stem(token: str) -> str:
    """The ROUGE-1.5.5 ``-m`` form of one lower-case ASCII token of more than 3 characters (memoized)."""
    result = _stems.get(token)
    if result is None:
        result = _stems[token] = EXCEPTIONS[token] if token in EXCEPTIONS else porter_stem(token)
    return result


class Rouge155Tokenizer:
    """Tokenizer for rouge-score's ``RougeScorer(tokenizer=...)``: ROUGE-1.5.5 ``-m`` tokens; a newline
    separates tokens (``splits_on_newlines``)."""

    splits_on_newlines = True

    # ``-m`` tokens, or ``-m -s`` ones with ``stopwords``: chosen once, as tokenizing is the hot loop.
    tokenize: Callable[[str], list[str]]

    def __init__(self, stopwords: frozenset[str] = frozenset()):
        self.stopwords = stopwords
        self.tokenize = self._tokenize_without_stopwords if stopwords else self._tokenize_with_exceptions

    def _tokenize_with_exceptions(self, text: str) -> list[str]:
        """The tokens of ``text`` in order, lower-cased and stemmed as ROUGE-1.5.5 ``-m`` does."""
        stems = _stems
        tokens = []
        for token in _TOKEN.findall(text):
            token = token.lower()
            if len(token) > MAX_UNSTEMMED_LENGTH:
                token = stems.get(token) or stem(token)
            tokens.append(token)
        return tokens

    def _tokenize_without_stopwords(self, text: str) -> list[str]:
        """``tokenize`` under ROUGE-1.5.5 ``-m -s``: tokens in ``stopwords`` dropped, the others of more
        than 3 characters Porter-stemmed without the WordNet exception lists."""
        stopwords = self.stopwords
        porter_stems = _porter_stems
        tokens = []
        for token in _TOKEN.findall(text):
            token = token.lower()
            if token in stopwords:
                continue
            if len(token) > MAX_UNSTEMMED_LENGTH:
                stemmed = porter_stems.get(token)
                if stemmed is None:
                    stemmed = porter_stems[token] = porter_stem(token)
                token = stemmed
            tokens.append(token)
        return tokens
