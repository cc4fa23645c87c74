"""Which tokens of a pair of texts a rouge type counts as matched: the demo's explanation of a score.

``token_matches`` tokenizes a target (a reference's joined additions) and a prediction as the
Python engine scores them under the settings, and marks on each side:

- ``rouge1`` to ``rouge9``: the first ``min(a, b)`` occurrences on each side of an n-gram found
  ``a`` times in the target and ``b`` times in the prediction (ROUGE-N's clipped count).
- ``rougeL``: the token pairs of the LCS rouge-score's backtracking picks.
- ``rougeLsum``: on the target, rouge-score's hits (each line's union of LCSs with every
  prediction line, while the token's count lasts on both sides); on the prediction, for each
  hit, an unmarked token aligned with it by one of those LCSs (else the first unmarked equal
  token).

The ``Counts`` come from the engine itself, so the explanation cannot drift from the score.
Skip-bigrams and ROUGE-W are not explained (``explained`` tells).
"""

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import NamedTuple

from .engines import Counts, PythonEngine
from .rouge_types import LCS, SUMMARY_LCS, parse_rouge_type
from .settings import Settings

MAX_SHOWN_CELLS = 4_000_000
"""The most DP cells (token pairs) an LCS explanation fills; longer texts are refused."""


Marked = list[list[tuple[str, bool]]]
"""Lines of (token, matched); rouge-N and rougeL read the whole text as one line."""


class Matches(NamedTuple):
    """The tokens of each side by line, each marked matched or not, the type's raw counts, and each
    side's counted units (n-grams joined by a space for rouge2 to rouge9, else the tokens) marked
    likewise."""

    target: Marked
    prediction: Marked
    counts: Counts
    target_grams: Marked
    prediction_grams: Marked


def explained(rouge_type: str) -> bool:
    """Whether ``token_matches`` explains ``rouge_type``."""
    return parse_rouge_type(rouge_type).shows_matches


def token_matches(target: str, prediction: str, rouge_type: str, settings: Settings) -> Matches:
    """The matched tokens of ``rouge_type`` between ``target`` and ``prediction``; ``ValueError`` for a
    type not explained, or an LCS type whose DP tables would pass ``MAX_SHOWN_CELLS``."""
    if not explained(rouge_type):
        raise ValueError(f"the matches of {rouge_type} are not shown (rouge1 to rouge9, rougeL and rougeLsum are)")
    tokenizer = settings.additions_tokenizer()
    engine = PythonEngine([rouge_type], tokenizer, settings.text_options)
    counts = engine.counts(target, prediction)[rouge_type]
    assert isinstance(counts, Counts)
    target_tokens, target_lines = engine.tokens(target)
    prediction_tokens, prediction_lines = engine.tokens(prediction)
    family = parse_rouge_type(rouge_type).family
    if family == SUMMARY_LCS:
        clip = (target_tokens, prediction_tokens) if settings.text_options.limits_length else None
        target_marks, prediction_marks = _summary_marks(target_lines, prediction_lines, clip)
        shown = _marked(target_lines, target_marks), _marked(prediction_lines, prediction_marks)
        return Matches(*shown, counts, *shown)
    if family == LCS:
        _check_cells(len(target_tokens) * len(prediction_tokens))
        pairs = _lcs_pairs(target_tokens, prediction_tokens)
        target_marks = {(0, i) for i, _ in pairs}
        prediction_marks = {(0, j) for _, j in pairs}
    else:
        n = parse_rouge_type(rouge_type).n
        target_marks, prediction_marks, gram_marks = _ngram_marks(target_tokens, prediction_tokens, n)
        shown = _marked([target_tokens], target_marks), _marked([prediction_tokens], prediction_marks)
        grams = [_grams(tokens, n, starts) for tokens, starts in zip((target_tokens, prediction_tokens), gram_marks)]
        return Matches(*shown, counts, *grams)
    shown = _marked([target_tokens], target_marks), _marked([prediction_tokens], prediction_marks)
    return Matches(*shown, counts, *shown)


def _grams(tokens: Sequence[Hashable], n: int, matched_starts: set[int]) -> Marked:
    """The n-grams of ``tokens`` in order as one line, each marked when it starts at a matched start."""
    return [[(" ".join(map(str, tokens[i : i + n])), i in matched_starts) for i in range(len(tokens) - n + 1)]]


def _marked(lines: list[list[Hashable]], marks: set[tuple[int, int]]) -> Marked:
    return [[(str(token), (r, i) in marks) for i, token in enumerate(line)] for r, line in enumerate(lines)]


def _check_cells(cells: int) -> None:
    if cells > MAX_SHOWN_CELLS:
        raise ValueError(
            f"the texts are too long to show their matches ({cells:,} token pairs; at most {MAX_SHOWN_CELLS:,})"
        )


def _ngram_marks(
    target: Sequence[Hashable], prediction: Sequence[Hashable], n: int
) -> tuple[set[tuple[int, int]], set[tuple[int, int]], tuple[set[int], set[int]]]:
    """The matched tokens of each side as (line, position), and the starts of its matched n-grams."""

    def starts(tokens: Sequence[Hashable]) -> dict[tuple, list[int]]:
        found: dict[tuple, list[int]] = {}
        for start in range(len(tokens) - n + 1):
            found.setdefault(tuple(tokens[start : start + n]), []).append(start)
        return found

    target_starts, prediction_starts = starts(target), starts(prediction)
    target_marks: set[tuple[int, int]] = set()
    prediction_marks: set[tuple[int, int]] = set()
    matched_starts: tuple[set[int], set[int]] = (set(), set())
    for gram, found in target_starts.items():
        shared = min(len(found), len(prediction_starts.get(gram, ())))
        matched_starts[0].update(found[:shared])
        matched_starts[1].update(prediction_starts.get(gram, [])[:shared])
    for marks, matched in zip((target_marks, prediction_marks), matched_starts):
        for start in matched:
            marks.update((0, i) for i in range(start, start + n))
    return target_marks, prediction_marks, matched_starts


def _lcs_pairs(target: Sequence[Hashable], prediction: Sequence[Hashable]) -> list[tuple[int, int]]:
    """(target position, prediction position) of the LCS rouge-score's backtracking picks, in order."""
    table = [[0] * (len(prediction) + 1)]
    for token in target:
        above, row = table[-1], [0]
        for j, other in enumerate(prediction):
            row.append(above[j] + 1 if token == other else max(above[j + 1], row[j]))
        table.append(row)
    pairs = []
    i, j = len(target), len(prediction)
    while i > 0 and j > 0:
        if target[i - 1] == prediction[j - 1]:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return pairs[::-1]


def _summary_marks(
    target_lines: list[list[Hashable]], prediction_lines: list[list[Hashable]], clip=None
) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """rougeLsum's hits as (line, position) on each side; ``clip`` (the target's and the
    prediction's tokens under a length limit) gives the counts that clip the hits."""
    _check_cells(sum(map(len, target_lines)) * sum(map(len, prediction_lines)))
    if clip is None:
        clip = ([t for line in target_lines for t in line], [t for line in prediction_lines for t in line])
    target_left, prediction_left = Counter(clip[0]), Counter(clip[1])
    target_marks: set[tuple[int, int]] = set()
    prediction_marks: set[tuple[int, int]] = set()
    for r, target_line in enumerate(target_lines):
        aligned: dict[int, list[tuple[int, int]]] = {}
        for p, prediction_line in enumerate(prediction_lines):
            for i, j in _lcs_pairs(target_line, prediction_line):
                aligned.setdefault(i, []).append((p, j))
        for i in sorted(aligned):
            token = target_line[i]
            if target_left[token] > 0 and prediction_left[token] > 0:
                target_left[token] -= 1
                prediction_left[token] -= 1
                target_marks.add((r, i))
                free = [place for place in aligned[i] if place not in prediction_marks]
                free += [
                    (p, j)
                    for p, line in enumerate(prediction_lines)
                    for j, other in enumerate(line)
                    if other == token and (p, j) not in prediction_marks
                ][:1]
                if free:
                    prediction_marks.add(free[0])
    return target_marks, prediction_marks
