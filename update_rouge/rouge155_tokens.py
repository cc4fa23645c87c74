"""ROUGE-1.5.5's tokens with stemming (``-m``): what ``stemmer="rouge155"`` scores.

Tokens: ROUGE-1.5.5 reads bytes, lower-cases only A-Z and treats every other byte outside
[a-z0-9], including every byte of a non-ASCII character, as a separator. So "İstanbul" gives
"stanbul" and "naïve" gives "na", "ve" (rouge-score's Unicode lower-casing would instead turn
"İ" into "i" plus a combining dot, keeping an "i").

Stems: a token of more than 3 characters found in the WordNet 2.0 exception lists is replaced by
its base form (the first one its line gives; when a form is listed more than once, the line
read last wins, reading adj, adv, noun, verb in that order); any other such token is stemmed by
``rouge155_porter.porter_stem``. Tokens of 3 characters or fewer are kept as they are.

With stopword removal (ROUGE-1.5.5 ``-m -s``) stopwords are dropped before stemming, and the
exception lists are not consulted: every token of more than 3 characters is Porter-stemmed.
That is what ROUGE-1.5.5 ``-m -s`` computes (its values for 773 pairs agree with Porter-only
stems and disagree with the exception lists on 41), though its ``MorphStem`` reads as if it
looked them up; see docs/rouge155-options.md.

Stems are memoized in one dictionary per process, shared by every tokenizer; it grows with the
number of distinct words seen (a vocabulary, not a corpus).
"""

import re
from collections.abc import Callable, Iterable

from .rouge155_porter import porter_stem
from .wordnet_exceptions import EXCEPTION_LISTS

_TOKEN = re.compile(r"[A-Za-z0-9]+")
MAX_UNSTEMMED_LENGTH = 3


def exception_table(lists: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Inflected form -> base form from ``(name, text)`` exception lists read in order.

    Each non-blank line is an inflected form followed by one or more base forms; the first base
    form is used, and a later line for the same form replaces an earlier one.
    """
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
    """Tokenizer for rouge-score's ``RougeScorer(tokenizer=...)``: ROUGE-1.5.5 ``-m`` tokens.

    A newline separates tokens, so a text's tokens are those of its lines in order
    (``splits_on_newlines``, which lets the engine tokenize each line once).
    """

    splits_on_newlines = True

    # The tokens of a text in order: ``-m`` tokens, or ``-m -s`` ones when ``stopwords`` is given
    # (chosen once in ``__init__``, not on each call: tokenizing is the hot loop of scoring).
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
        """``tokenize`` under ROUGE-1.5.5 ``-m -s``: tokens in ``stopwords`` dropped before
        stemming, the others of more than 3 characters Porter-stemmed WITHOUT the WordNet
        exception lists (what ROUGE-1.5.5 gives with ``-m -s``, see docs/rouge155-options.md)."""
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
