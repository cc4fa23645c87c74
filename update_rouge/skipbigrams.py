"""Skip-bigram co-occurrence counts of ROUGE-S and ROUGE-SU, as ROUGE-1.5.5 counts them (``-2 d -U``).

The grams of a token sequence t_0 .. t_{n-1} (all lines of a text joined) are the ordered pairs
(t_i, t_j) with i < j, only those with j - i <= d + 1 for a skip distance d >= 0 (d = 0:
bigrams). ROUGE-SU adds the unigrams t_0 .. t_{n-2} (never the last token). Hits are the sum
over distinct grams of min(count in the reference, count in the prediction). Type names:
``rougeS`` and ``rougeSU`` (unlimited distance), ``rougeS<d>`` and ``rougeSU<d>``.

Pairs are counted per distinct shared token pair, exactly, from prefix counts in blocks that
bound memory; a short window lists its position pairs instead.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np


SKIP_BIGRAM_TYPE_PATTERN = re.compile(r"rouge(SU|S)(0|[1-9][0-9]*)?")
MAX_SKIP_DISTANCE = 2**63 - 2
"""The largest skip distance (the window d + 1 must fit NumPy's int64); any distance at or above a
text's token count equals rougeS."""
# Cells of the prefix-count block held at once: bounds memory at a few tens of MiB.
_BLOCK_CELLS = 1 << 21


class SkipBigramType(NamedTuple):
    """A parsed skip-bigram rouge type: with unigrams (SU) or not, and the distance (None: unlimited)."""

    unigrams: bool
    distance: int | None


def parse_skip_bigram_type(rouge_type: str) -> SkipBigramType | None:
    """The ``SkipBigramType`` of a name such as ``rougeSU4``, or None if it names no skip-bigram type;
    ``ValueError`` for a distance above ``MAX_SKIP_DISTANCE``."""
    match = SKIP_BIGRAM_TYPE_PATTERN.fullmatch(rouge_type)
    if match is None:
        return None
    distance = None if match.group(2) is None else int(match.group(2))
    if distance is not None and distance > MAX_SKIP_DISTANCE:
        raise ValueError(
            f"rouge type {rouge_type!r}: the skip distance must be from 0 to {MAX_SKIP_DISTANCE} "
            "(rougeS and rougeSU count every distance)"
        )
    return SkipBigramType(unigrams=match.group(1) == "SU", distance=distance)


def gram_total(n_tokens: int, kind: SkipBigramType) -> int:
    """The number of grams of a text of ``n_tokens`` tokens (with multiplicity)."""
    if n_tokens < 2:
        return 0
    window = n_tokens - 1 if kind.distance is None else min(kind.distance + 1, n_tokens - 1)
    pairs = window * (n_tokens - window) + window * (window - 1) // 2
    return pairs + (n_tokens - 1 if kind.unigrams else 0)


def skip_bigram_counts(
    reference: Sequence[Hashable], prediction: Sequence[Hashable], kinds: Sequence[SkipBigramType]
) -> list[tuple[int, int, int]]:
    """(hits, reference grams, prediction grams) of two token sequences for each of ``kinds``.

    Types with the same distance (rougeS4 and rougeSU4) share one count of the skip-bigrams.
    """
    pair_hits = {distance: _pair_hits(reference, prediction, distance) for distance in {k.distance for k in kinds}}
    results = []
    for kind in kinds:
        hits = pair_hits[kind.distance]
        if kind.unigrams and len(reference) > 1 and len(prediction) > 1:
            hits += sum((Counter(reference[:-1]) & Counter(prediction[:-1])).values())
        results.append((hits, gram_total(len(reference), kind), gram_total(len(prediction), kind)))
    return results


def _pair_hits(reference: Sequence[Hashable], prediction: Sequence[Hashable], distance: int | None) -> int:
    """Sum over distinct skip-bigrams (pairs only, no unigrams) of the smaller of their two counts."""
    import numpy as np

    shared = set(reference).intersection(prediction)
    if not shared or len(reference) < 2 or len(prediction) < 2:
        return 0
    ids = {token: index for index, token in enumerate(shared)}
    window = None if distance is None else distance + 1
    if window is not None:
        listed = window * (len(reference) + len(prediction))
        if listed <= _BLOCK_CELLS and listed <= len(ids) * (len(reference) + len(prediction)):
            return _listed_pair_hits(reference, prediction, ids, window)
    texts = [_SharedTokens(tokens, ids, window) for tokens in (reference, prediction)]
    rows = max(1, _BLOCK_CELLS // max(text.size for text in texts))
    hits = 0
    for first in range(0, len(ids), rows):
        firsts = np.arange(first, min(first + rows, len(ids)))
        reference_pairs, prediction_pairs = (text.pair_counts(firsts) for text in texts)
        hits += int(np.minimum(reference_pairs, prediction_pairs).sum(dtype=np.int64))
    return hits


def _listed_pair_hits(reference: Sequence[Hashable], prediction: Sequence[Hashable], ids: dict, window: int) -> int:
    """``_pair_hits`` for a short window: every position pair of each text listed as a code."""
    import numpy as np

    codes, counts = zip(*(_window_pair_codes(tokens, ids, window) for tokens in (reference, prediction)))
    _, in_reference, in_prediction = np.intersect1d(codes[0], codes[1], assume_unique=True, return_indices=True)
    return int(np.minimum(counts[0][in_reference], counts[1][in_prediction]).sum(dtype=np.int64))


def _window_pair_codes(tokens: Sequence[Hashable], ids: dict, window: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct pairs of shared tokens at most ``window`` positions apart, coded first * V + second,
    and how often each occurs."""
    import numpy as np

    token_ids = np.array([ids.get(token, -1) for token in tokens], dtype=np.int64)
    codes = []
    for offset in range(1, min(window, len(tokens) - 1) + 1):
        first, second = token_ids[:-offset], token_ids[offset:]
        both_shared = (first >= 0) & (second >= 0)
        codes.append(first[both_shared] * len(ids) + second[both_shared])
    return np.unique(np.concatenate(codes), return_counts=True)


class _SharedTokens:
    """The tokens of one text that also occur in the other, as ids, ready for pair counting.

    ``ids`` numbers the shared tokens 0 .. V-1; every id occurs in the text. ``window`` is the
    largest position difference j - i of a counted pair (None: any).
    """

    def __init__(self, tokens: Sequence[Hashable], ids: dict, window: int | None):
        import numpy as np

        found = [(ids[token], position) for position, token in enumerate(tokens) if token in ids]
        self.token_ids, positions = np.array(found, dtype=np.int64).T
        self.size = max(len(self.token_ids), len(ids))
        # A pair count is at most m * m for m shared tokens: int32 holds it below 46,341 tokens.
        self.dtype = np.int32 if len(found) ** 2 < 2**31 else np.int64
        # The k-th shared token's pairs start at shared index window_starts[k] (0 without a window).
        self.window_starts = None if window is None else np.searchsorted(positions, positions - window)
        # Shared indices grouped by id, in position order within each id; last index of each group.
        self.order = np.argsort(self.token_ids, kind="stable")
        self.group_ends = np.flatnonzero(np.diff(self.token_ids[self.order], append=len(ids)))

    def pair_counts(self, firsts: np.ndarray) -> np.ndarray:
        """counts[a - firsts[0], b]: how often first token a precedes second token b, a in ``firsts``."""
        import numpy as np

        # before[a, k]: occurrences of a among the first k shared tokens (k = 0 .. m).
        one_hot = firsts[:, None] == self.token_ids[None, :]
        before = np.zeros((len(firsts), len(self.token_ids) + 1), dtype=self.dtype)
        np.cumsum(one_hot, axis=1, dtype=self.dtype, out=before[:, 1:])
        # Column k of preceding: occurrences of each a that pair with the k-th shared token,
        # columns grouped by that token's id (np.take keeps the rows contiguous for cumsum).
        preceding = np.take(before, self.order, axis=1)
        if self.window_starts is not None:
            preceding -= np.take(before, self.window_starts[self.order], axis=1)
        totals = np.cumsum(preceding, axis=1, dtype=self.dtype)[:, self.group_ends]
        np.subtract(totals[:, 1:], totals[:, :-1].copy(), out=totals[:, 1:])
        return totals
