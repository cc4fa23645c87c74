"""``additions="edits"``: the additions of a text are the runs of its tokens that a word-level
diff against its source marks as inserted or replaced.

The diff, exactly (reproducible with rouge-score's own ``_lcs_table`` and ``_backtrack_norec``
on the reversed token lists):

- **Tokens**: those of the settings' tokenizer (``tokens.tokenizer_for``: rouge-score's,
  Porter-stemmed when asked, without ROUGE-1.5.5's stopwords when asked; ROUGE-1.5.5's; the
  ``language=`` pipeline's; or a user's callable), of the whole source and the whole text.
- **Kept tokens**: one longest common subsequence (LCS) of the text's tokens t[0..n) and the
  source's s[0..m), chosen by walking from the start: with L(i, j) the LCS length of t[i:] and
  s[j:], at (i, j) take both tokens when t[i] == s[j]; otherwise skip the source token when
  L(i, j + 1) > L(i + 1, j) (strictly), else skip the text token. This is rouge-score's
  backtracking (``lcs_ind``) run on the reversed lists, so matches are taken as early as
  possible: a common prefix is always kept, and text appended after the source is never
  matched into it.
- **Additions**: every maximal run of consecutive text tokens outside that LCS (what a diff
  calls inserted or replaced), in order, each run's tokens joined by single spaces.

A text identical to its source, or one that only deletes tokens (a subsequence of the source),
adds nothing. The additions are then scored as text, one per line (rougeLsum's sentences are the
runs), with a tokenizer under which a run's text gives back exactly its tokens
(``tokens.edit_run_tokenizer``): stemming and stopword removal happen once, before the diff.

Cost: the common prefix is removed first (the walk keeps it whatever follows); the rest is
computed by ``lcs.union_lcs_positions`` (bit-parallel, O(n * m / w) word operations, memory
linear in n + m) and refused beyond ``lcs_limits.max_python_lcs_cells()`` cells, as rougeL is,
with ``LcsTableTooLarge`` (the scorer names the example).
"""

from collections.abc import Hashable, Sequence

from .lcs import union_lcs_positions
from .lcs_limits import check_lcs_time
from .tokens import TokenizerError

RUN_SEPARATOR = " "


def kept_positions(text_tokens: Sequence[Hashable], source_tokens: Sequence[Hashable]) -> list[int]:
    """The ascending positions in ``text_tokens`` of the LCS with ``source_tokens`` that the
    module's walk from the start picks."""
    prefix = 0
    for text_token, source_token in zip(text_tokens, source_tokens):
        if text_token != source_token:
            break
        prefix += 1
    text_rest, source_rest = list(text_tokens[prefix:]), list(source_tokens[prefix:])
    if not text_rest or not source_rest:
        return list(range(prefix))
    check_lcs_time("additions='edits'", len(text_rest), len(source_rest))
    # rouge-score's backtracking from the end of the reversed lists is the walk from the start.
    reversed_kept = union_lcs_positions([text_rest[::-1]], [source_rest[::-1]])[0]
    last = len(text_tokens) - 1
    return list(range(prefix)) + sorted(last - position for position in reversed_kept)


def edit_runs(text_tokens: Sequence[str], source_tokens: Sequence[str]) -> list[list[str]]:
    """The maximal runs of ``text_tokens`` outside the kept LCS (``kept_positions``), in order."""
    runs: list[list[str]] = []
    start = 0
    for position in [*kept_positions(text_tokens, source_tokens), len(text_tokens)]:
        if position > start:
            runs.append(list(text_tokens[start:position]))
        start = position + 1
    return runs


class EditIndex:
    """A source prepared for extracting the ``"edits"`` additions of several texts against it
    (the counterpart of ``extraction.SourceIndex``); ``tokenizer`` is a ``tokens`` object."""

    def __init__(self, source: str, tokenizer):
        self.source = source
        self._tokenizer = tokenizer
        self._source_tokens = tokenizer.tokenize(source)

    def additions(self, text: str) -> list[str]:
        """The runs of ``text``'s tokens that the diff against the source inserts or replaces,
        each joined by single spaces. ``TokenizerError`` if a token is empty or holds white
        space (a custom tokenizer's): its run's text would not give back the same tokens."""
        tokens = self._tokenizer.tokenize(text)
        if RUN_SEPARATOR.join(tokens).split() != tokens:
            bad = next(token for token in tokens if token.split() != [token])
            raise TokenizerError(
                f"additions='edits' needs tokens that are non-empty and hold no white space, got {bad!r}", text
            )
        return [RUN_SEPARATOR.join(run) for run in edit_runs(tokens, self._source_tokens)]
