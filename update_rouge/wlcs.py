"""ROUGE-W: ROUGE-1.5.5's weighted longest common subsequence (``-w weight``), summary level.

Weighting function f(k) = k ** weight (weight > 1; ROUGE's usual 1.2), its inverse
f^-1(x) = x ** (1 / weight).

For one reference line r and one prediction line c, ROUGE-1.5.5 fills a table c[i][j] over
r[:i] and c[:j] with run lengths l[i][j]: where r[i-1] equals c[j-1] the cell ALWAYS takes the
diagonal, c[i][j] = (c[i-1][j-1] + f(k + 1)) - f(k) with k = l[i-1][j-1] and l[i][j] = k + 1
(even when the cell above or to the left holds more); otherwise it takes the cell above when
c[i-1][j] >= c[i][j-1], else the one to the left, and l[i][j] = 0. Walking the moves back from
(len(r), len(c)) marks the reference positions of the diagonal steps. A reference line's marks
are the union over all prediction lines.

Hits: the reference lines are read in order, each position in order; a marked position whose
token still has a count left on both sides (counts of the whole, possibly truncated, texts,
decremented at each hit) extends the current run; the run is added as f(run length) to the
hits and restarted when the next position is unmarked or the line ends. A marked position whose
token has no count left neither extends nor ends the run: ROUGE-1.5.5's bookkeeping, kept as is.

Totals: ``target`` = sum over reference lines of f(line length), ``prediction`` = the number
of prediction tokens. Scores: recall f^-1(hits / f(target)), precision
f^-1(hits / f(prediction)), 0 where the denominator is 0. Floating-point operations are those of
ROUGE-1.5.5, in its order, so ties between cells are broken as it breaks them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Sequence
from itertools import accumulate, islice
from typing import TYPE_CHECKING, NamedTuple

from .scores import Score, fmeasure

if TYPE_CHECKING:
    import numpy as np

WEIGHTED_LCS_TYPE_PATTERN = re.compile(r"rougeW(?:-([0-9]+(?:\.[0-9]+)?))?")
DEFAULT_WEIGHT = 1.2
MAX_WEIGHT = 5.0
"""The largest ROUGE-W weight w: scores take f(f(n)) <= n ** (w * w) for n tokens, which at w = 5
stays a finite double below 2 * 10**12 tokens."""
_DIAGONAL, _UP, _LEFT = 0, 1, 2
NUMPY_CELLS = 1 << 14
"""Tables with more cells than this are filled by anti-diagonals with NumPy (``_mark_large``), others
in pure Python (``_mark_small``); ``lcs_limits.wlcs_tables_cost`` prices the two apart."""


class WeightedCounts(NamedTuple):
    """ROUGE-W totals of one (target, prediction) pair for one weight: ``hits`` (the sum of f(run
    length)), ``target`` (the sum of f(line length)), ``prediction`` (the prediction's tokens)."""

    hits: float
    target: float
    prediction: int
    weight: float


def parse_weighted_lcs_type(rouge_type: str) -> float | None:
    """The weight of ``rougeW`` (1.2) or ``rougeW-<weight>``, else None; ``ValueError`` for a weight
    outside 1 < weight <= ``MAX_WEIGHT``."""
    match = WEIGHTED_LCS_TYPE_PATTERN.fullmatch(rouge_type)
    if match is None:
        return None
    if match.group(1) is None:
        return DEFAULT_WEIGHT
    weight = float(match.group(1))
    if not 1 < weight <= MAX_WEIGHT:
        raise ValueError(
            f"rouge type {rouge_type!r}: the ROUGE-W weight must be greater than 1 and at most {MAX_WEIGHT:g} "
            "(a larger one overflows a double)"
        )
    return weight


def _weights(size: int, weight: float) -> list[float]:
    """f(0) .. f(size) as ROUGE-1.5.5 computes them (C pow)."""
    return [float(k) ** weight for k in range(size + 1)]


def _mark_small(
    reference: Sequence[Hashable], prediction: Sequence[Hashable], weights: list[float], marks: list
) -> None:
    """Set ``marks[i]`` for the reference positions i on ROUGE-1.5.5's weighted-LCS path.

    A row's cells between two match cells take the running maximum of the row above (a cell's value
    does not depend on the tie rule), so each such stretch is one ``accumulate``; the walk back
    recovers the moves by ROUGE-1.5.5's comparison.
    """
    n = len(prediction)
    positions: dict[Hashable, list[int]] = {}
    for j, token in enumerate(prediction, 1):
        positions.setdefault(token, []).append(j)
    previous = [0.0] * (n + 1)
    previous_runs: dict[int, int] = {}
    rows = [previous]
    collapsed = False  # whether ``previous`` is already its own running maximum
    for token in reference:
        matches = positions.get(token)
        if not matches:
            row = previous if collapsed else list(accumulate(previous, max))
            collapsed = True
            runs: dict[int, int] = {}
        else:
            row = [0.0]
            runs = {}
            start = 1
            for j in matches:
                if j > start:
                    row.extend(islice(accumulate([row[-1], *previous[start:j]], max), 1, None))
                k = previous_runs.get(j - 1, 0)
                row.append(previous[j - 1] + weights[k + 1] - weights[k])
                runs[j] = k + 1
                start = j + 1
            if start <= n:
                row.extend(islice(accumulate([row[-1], *previous[start:]], max), 1, None))
            collapsed = False
        rows.append(row)
        previous, previous_runs = row, runs
    i, j = len(reference), n
    while i and j:
        if reference[i - 1] == prediction[j - 1]:
            i -= 1
            j -= 1
            marks[i] = True
        elif rows[i - 1][j] >= rows[i][j - 1]:
            i -= 1
        else:
            j -= 1


def _mark_large(reference: np.ndarray, prediction: np.ndarray, weights: np.ndarray, marks: list) -> None:
    """``_mark_small`` by anti-diagonals d = i + j, each a NumPy vector indexed by i, in three
    buffers never cleared: the boundary cells a diagonal reads were never written, so hold 0."""
    import numpy as np

    m, n = len(reference), len(prediction)
    reversed_prediction = prediction[::-1]
    c0, c1, c2 = np.zeros(m + 1), np.zeros(m + 1), np.zeros(m + 1)
    l0, l1, l2 = (np.zeros(m + 1, dtype=np.int64) for _ in range(3))
    goes_up = {}
    for d in range(2, m + n + 1):
        lo, hi = max(1, d - n), min(m, d - 1)
        up, left = c1[lo - 1 : hi], c1[lo : hi + 1]
        goes_up[d] = (lo, up >= left)
        c0[lo : hi + 1] = np.maximum(up, left)
        l0[lo : hi + 1] = 0
        found = np.flatnonzero(reference[lo - 1 : hi] == reversed_prediction[n - d + lo : n - d + hi + 1])
        if found.size:
            k = l2[lo - 1 + found]
            c0[lo + found] = (c2[lo - 1 + found] + weights[k + 1]) - weights[k]
            l0[lo + found] = k + 1
        c0, c1, c2 = c2, c0, c1
        l0, l1, l2 = l2, l0, l1
    i, j = m, n
    while i and j:
        if reference[i - 1] == prediction[j - 1]:
            i -= 1
            j -= 1
            marks[i] = True
        else:
            lo, went_up = goes_up[i + j]
            if went_up[i - lo]:
                i -= 1
            else:
                j -= 1


def weighted_lcs_counts(
    target_lines: list[list[Hashable]],
    prediction_lines: list[list[Hashable]],
    target_tokens: Sequence[Hashable],
    prediction_tokens: Sequence[Hashable],
    weight: float,
) -> WeightedCounts:
    """ROUGE-W totals: lines for the tables, whole-text tokens for the counts that clip hits (under
    ``max_bytes`` ROUGE-1.5.5's lines and tokens differ: ``rouge155_options``)."""
    import numpy as np

    weights = _weights(max((len(line) for line in target_lines), default=0), weight)
    target_total = 0.0
    for line in target_lines:
        target_total += weights[len(line)]
    if not target_total or not prediction_tokens:
        return WeightedCounts(0.0, target_total, len(prediction_tokens), weight)
    ids: dict[Hashable, int] = {}
    coded_prediction = [[ids.setdefault(token, len(ids)) for token in line] for line in prediction_lines]
    prediction_sets = [set(line) for line in coded_prediction]
    weight_array = np.array(weights)
    target_left, prediction_left = Counter(target_tokens), Counter(prediction_tokens)
    hits = 0.0
    for line in target_lines:
        coded = [ids.get(token, -1) for token in line]
        marks = [False] * len(line)
        # Only positions whose token a prediction line has can be marked by it: lines with the
        # most such positions first, then a line is skipped when all of its are marked.
        candidates = [[i for i, token in enumerate(coded) if token in other_set] for other_set in prediction_sets]
        for index in sorted(range(len(candidates)), key=lambda index: -len(candidates[index])):
            if all(marks[i] for i in candidates[index]):
                continue
            other = coded_prediction[index]
            if len(line) * len(other) > NUMPY_CELLS:
                _mark_large(np.array(coded), np.array(other), weight_array, marks)
            else:
                _mark_small(coded, other, weights, marks)
        run = 0
        last = len(line) - 1
        for position, token in enumerate(line):
            if marks[position] and target_left[token] > 0 and prediction_left[token] > 0:
                run += 1
                if position == last or not marks[position + 1]:
                    hits += weights[run]
                    run = 0
                target_left[token] -= 1
                prediction_left[token] -= 1
    return WeightedCounts(hits, target_total, len(prediction_tokens), weight)


def _inverse(ratio: float, weight: float) -> float:
    return ratio ** (1 / weight)


def weighted_score(per_reference: Sequence[WeightedCounts]) -> Score:
    """Precision, recall and F1 of ROUGE-W from one reference's totals, or several pooled as
    ROUGE-1.5.5's ``-f A`` sums them (hits, f(target) and f(prediction))."""
    hits = target = prediction = 0.0
    for counts in per_reference:
        hits += counts.hits
        target += counts.target**counts.weight
        prediction += float(counts.prediction) ** counts.weight
    weight = per_reference[0].weight
    precision = _inverse(hits / prediction, weight) if prediction else 0.0
    recall = _inverse(hits / target, weight) if target else 0.0
    return Score(precision=precision, recall=recall, fmeasure=fmeasure(precision, recall))


def selection_recall(counts: WeightedCounts) -> float:
    """The recall by which ROUGE-1.5.5's ``-f B`` compares references for ROUGE-W (unrounded)."""
    return _inverse(counts.hits / counts.target, counts.weight) if counts.target else 0.0
