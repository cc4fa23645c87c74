"""``additions="edits"``: the additions of a text are the runs of its tokens that a word-level
diff against its source marks as inserted or replaced (docs/edits.md states the diff).

- **Tokens**: the settings' tokenizer's (``tokens.tokenizer_for``), of the whole source and text.
- **Kept tokens**: one LCS of the text's tokens t[0..n) and the source's s[0..m), chosen by
  walking from the start: with L(i, j) the LCS length of t[i:] and s[j:], at (i, j) take both
  tokens when t[i] == s[j]; otherwise skip the source token when L(i, j + 1) > L(i + 1, j)
  (strictly), else skip the text token: rouge-score's backtracking (``lcs_ind``) on the
  reversed lists.
- **Additions**: every maximal run of text tokens outside that LCS, in order, its tokens joined
  by single spaces; **deletions** (``deletions=True``): the same of the source's tokens, each
  kept text token paired with the first equal source token after the previous pair's.

The runs are scored one per line with ``tokens.edit_run_tokenizer``, under which a run gives back
exactly its tokens. The walk is ``lcs.lcs_walk``'s, refused beyond
``lcs_limits.max_python_lcs_cells()`` cells with ``LcsTableTooLarge``.
"""

from collections.abc import Callable, Hashable, Sequence
from itertools import chain

from .lcs import MaskLookup, common_ends, lcs_walk, source_masks
from .lcs_limits import check_lcs_time
from .tokens import DefaultTokenizer, TokenizerError

RUN_SEPARATOR = " "


def kept_positions(
    text_tokens: Sequence[Hashable],
    source_tokens: Sequence[Hashable],
    masks: Callable[[], MaskLookup] | None = None,
) -> list[int]:
    """The ascending positions in ``text_tokens`` of the LCS with ``source_tokens`` that the module's
    walk picks; ``masks`` gives ``lcs.source_masks(source_tokens)`` (called only if needed).

    The common prefix is kept; the middles are walked by ``lcs.lcs_walk`` (LCS(x + c, y + c) =
    LCS(x, y) + len(c) for the common suffix c); where that walk stops one side's middle is read,
    and each token of c in turn is kept at the first equal text token at or after the walk.
    """
    prefix, suffix = common_ends(text_tokens, source_tokens)
    end, source_end = len(text_tokens) - suffix, len(source_tokens) - suffix
    kept = list(range(prefix))
    position = prefix  # where the walk leaves the middles
    if prefix < end and prefix < source_end:
        check_lcs_time("additions='edits'", end - prefix, source_end - prefix)
        lookup = source_masks(source_tokens) if masks is None else masks()
        middle, position = lcs_walk(text_tokens[prefix:end], source_tokens, lookup, prefix, source_end, prefix)
        kept.extend(middle)
    for offset in range(suffix):
        if position == end + offset:  # the text's own copy of the suffix: kept in place
            kept.extend(range(position, len(text_tokens)))
            break
        token = text_tokens[end + offset]
        while text_tokens[position] != token:
            position += 1
        kept.append(position)
        position += 1
    return kept


def paired_source_positions(
    text_tokens: Sequence[Hashable], source_tokens: Sequence[Hashable], kept: Sequence[int]
) -> list[int]:
    """The positions in ``source_tokens`` that the walk pairs with the text's ``kept`` positions: for
    each kept token in turn, the first equal source token after the previous one paired."""
    positions = []
    next_position = 0
    for position in kept:
        token = text_tokens[position]
        while source_tokens[next_position] != token:
            next_position += 1
        positions.append(next_position)
        next_position += 1
    return positions


def runs_outside(tokens: Sequence[str], kept: Sequence[int]) -> list[Sequence[str]]:
    """The maximal runs of ``tokens`` at positions not in ``kept`` (ascending), in order: slices of ``tokens``."""
    befores, afters = chain([-1], kept), chain(kept, [len(tokens)])
    return [tokens[before + 1 : after] for before, after in zip(befores, afters) if after - before > 1]


def edit_runs(text_tokens: Sequence[str], source_tokens: Sequence[str]) -> list[Sequence[str]]:
    """The maximal runs of ``text_tokens`` outside the kept LCS (``kept_positions``), in order."""
    return runs_outside(text_tokens, kept_positions(text_tokens, source_tokens))


def deleted_runs(text_tokens: Sequence[str], source_tokens: Sequence[str]) -> list[Sequence[str]]:
    """The maximal runs of ``source_tokens`` outside the kept LCS, in order: the mirror of ``edit_runs``."""
    kept = kept_positions(text_tokens, source_tokens)
    return runs_outside(source_tokens, paired_source_positions(text_tokens, source_tokens, kept))


class EditIndex:
    """A source prepared for extracting the ``"edits"`` additions of several texts against it
    (the counterpart of ``extraction.SourceIndex``); ``tokenizer`` is a ``tokens`` object."""

    def __init__(self, source: str, tokenizer):
        self.source = source
        self._tokenizer = tokenizer
        self._source_tokens = tokenizer.tokenize(source)
        self._masks: MaskLookup | None = None
        self._last: tuple[str, tuple[list[str], list[int]]] | None = None
        self._source_checked = False

    def additions(self, text: str) -> list[str]:
        """The runs of ``text``'s tokens that the diff against the source inserts or replaces, each joined
        by single spaces. ``TokenizerError`` if a token is empty or holds white space."""
        tokens, kept = self._diff(text)
        return [RUN_SEPARATOR.join(run) for run in runs_outside(tokens, kept)]

    def deletions(self, text: str) -> list[str]:
        """The runs of the source's tokens that the diff against ``text`` deletes or replaces,
        each joined by single spaces (``deleted_runs``); errors as ``additions``."""
        tokens, kept = self._diff(text)
        source = self._source_tokens
        if not self._source_checked:  # once per source, on its first deletions
            self._check_tokens(source, self.source)
            self._source_checked = True
        return [RUN_SEPARATOR.join(run) for run in runs_outside(source, paired_source_positions(tokens, source, kept))]

    def _diff(self, text: str) -> tuple[list[str], list[int]]:
        """``text``'s tokens and the positions of the kept LCS among them; the last text's are kept, so
        its additions and deletions cost one diff."""
        if self._last is not None and self._last[0] == text:
            return self._last[1]
        tokens = self._tokenizer.tokenize(text)
        self._check_tokens(tokens, text)
        diff = (tokens, kept_positions(tokens, self._source_tokens, self._source_masks))
        self._last = (text, diff)
        return diff

    def _source_masks(self) -> MaskLookup:
        """``lcs.source_masks`` of the source's tokens, built for the first diff that needs them."""
        if self._masks is None:
            self._masks = source_masks(self._source_tokens)
        return self._masks

    def _check_tokens(self, tokens: list[str], text: str) -> None:
        if type(self._tokenizer) is DefaultTokenizer:
            return  # rouge-score's tokens are runs of [a-z0-9]
        if RUN_SEPARATOR.join(tokens).split() != tokens:
            bad = next(token for token in tokens if token.split() != [token])
            raise TokenizerError(
                f"additions='edits' needs tokens that are non-empty and hold no white space, got {bad!r}", text
            )
