"""The size and time limits of the LCS types (rougeL, rougeLsum, ROUGE-W), checked before scoring.

Three limits, each raised by an environment variable (docs/guarantees.md, "Limits checked before
scoring"); a pair beyond one is refused with ``LcsTableTooLarge``:

- time, on every engine (``check_lcs_time``, ``max_python_lcs_cells``): the cost ``lcs_cost``,
  in cells of the python engine's rougeL, prices each engine's cells (``CELL_COSTS``), line pairs
  (``PAIR_CELLS``) and ROUGE-W tables (``wlcs_tables_cost``); rust and rouge-score check all
  their pairs before scoring any (``refused_pairs``);
- table memory of rouge-score and rouge-score-rs, which build an n x m table per pair
  (``max_lcs_cells``, checked by ``refused_pairs``);
- ROUGE-W's table memory on the python engine (``check_wlcs_table``, ``max_wlcs_cells``).

Under ``engine="auto"`` the Python engine scores the pairs an accelerator refuses, with the same
numbers. The prices are measured in docs/speed.md, "The LCS time limit's prices".
"""

from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate

from .environment import positive_integer
from .errors import PYTHON, InputError, Part, Setting
from .lcs import summary_lines
from .rouge_types import LCS, SUMMARY_LCS, WEIGHTED_LCS, parse_rouge_type
from .tokens import DefaultTokenizer
from .wlcs import NUMPY_CELLS

DEFAULT_MAX_LCS_CELLS = 25_000_000
MAX_LCS_CELLS_VARIABLE = "UPDATE_ROUGE_MAX_LCS_CELLS"
DEFAULT_MAX_PYTHON_LCS_CELLS = 200_000_000_000
MAX_PYTHON_LCS_CELLS_VARIABLE = "UPDATE_ROUGE_MAX_PYTHON_LCS_CELLS"
DEFAULT_MAX_WLCS_CELLS = 1_000_000_000
MAX_WLCS_CELLS_VARIABLE = "UPDATE_ROUGE_MAX_WLCS_CELLS"

# One (target, prediction) text pair, in the order of rouge-score's ``RougeScorer.score``.
TextPair = tuple[str, str]

PAIR_CELLS = {
    ("python", SUMMARY_LCS): 200,
    ("python", WEIGHTED_LCS): 9_000,
    ("rust", SUMMARY_LCS): 400,
    ("rouge-score", SUMMARY_LCS): 60_000,
}
"""What one pair of a reference line and a prediction line costs a summary-level walk, in LCS
cells, by (engine, family of the type)."""


WLCS_TABLE_CELLS = {"python": (2_000, 10_000), "numpy": (100, 90_000)}
"""What one ROUGE-W table of lines of ``a`` and ``b`` tokens costs, in LCS cells, as (per cell, per
token): ``cell * a * b + token * (a + b)``; ``python`` for tables of at most
``wlcs.NUMPY_CELLS`` cells, ``numpy`` for the larger ones."""


def wlcs_tables_cost(target_lengths: Sequence[int], prediction_lengths: Sequence[int]) -> int:
    """The sum over every pair of a reference line and a prediction line (their token counts) of
    ``WLCS_TABLE_CELLS``'s cost of the pair's ROUGE-W table, in O((n + m) log m)."""
    lengths = sorted(prediction_lengths)
    sums = [0, *accumulate(lengths)]
    total, count = sums[-1], len(lengths)
    (small_cell, small_token), (large_cell, large_token) = WLCS_TABLE_CELLS["python"], WLCS_TABLE_CELLS["numpy"]
    cost = 0
    for a in target_lengths:
        small = bisect_right(lengths, NUMPY_CELLS // a) if a else count
        large_tokens = total - sums[small]
        cost += small_cell * a * sums[small] + small_token * (a * small + sums[small])
        cost += large_cell * a * large_tokens + large_token * (a * (count - small) + large_tokens)
    return cost


CELL_COSTS = {
    ("rust", LCS): 12,
    ("rouge-score", LCS): 4_000,
    ("python", SUMMARY_LCS): 8,
    ("rust", SUMMARY_LCS): 60,
    ("rouge-score", SUMMARY_LCS): 4_000,
}
"""What one cell (a reference token by a prediction token) costs, in LCS cells of 0.45 ns, by
(engine, family of the type); 1 for the others (python rougeL, the unit; ROUGE-W, priced by
``wlcs_tables_cost``)."""


def lcs_cost(engine: str, rouge_type: str, rows: int, columns: int, line_pairs: int = 1) -> int:
    """The cost that the time limit bounds: ``rows`` x ``columns`` cells (the two sides' token
    counts; for a summary-level type, the sum of its line pairs' cells) at ``CELL_COSTS`` each,
    plus ``PAIR_CELLS`` for each of ``line_pairs`` (a summary-level type's line pairs)."""
    family = parse_rouge_type(rouge_type).family
    return CELL_COSTS.get((engine, family), 1) * rows * columns + PAIR_CELLS.get((engine, family), 0) * line_pairs


class LcsTableTooLarge(InputError):
    """A pair beyond one of the LCS limits, an ``InputError`` with ``where`` None (it is of a pair,
    not of one field), as data: ``subject`` (what would be computed, such as ``rougeL of 30,000 x
    40,000 tokens``), the ``limit`` in cells, its ``kind`` (``"time"``, ``"memory"``: ROUGE-W's
    table, ``"table"``: the table ``engine`` would build), ``index`` (of the pair or example, or
    None) and ``what`` names that position. ``problem`` is the message without its place, with the
    advice to raise the limit."""

    index: int | None = None  # its own, not a field's

    def __init__(
        self, subject: str, limit: int, kind: str, index: int | None = None, what: str = "pair", engine: str = ""
    ):
        args = (subject, limit, kind, index, what, engine)
        self.subject, self.limit, self.kind, self.index, self.what, self.engine = args
        place = "" if index is None else f"{what} {index}: "
        super().__init__(None, (place, *self._problem_parts()))
        self.args = args

    @property
    def variable(self) -> str:
        """The environment variable that raises the limit."""
        return {"time": MAX_PYTHON_LCS_CELLS_VARIABLE, "memory": MAX_WLCS_CELLS_VARIABLE}.get(
            self.kind, MAX_LCS_CELLS_VARIABLE
        )

    def _problem_parts(self) -> tuple[Part, ...]:
        raise_it = f"raise it with the environment variable {self.variable}"
        if self.kind == "time" and self.engine:  # an engine whose cells cost more than the python engine's
            return (
                f"{self.subject} is more than the LCS limit of {self.limit:,} cells on ",
                Setting("engine", self.engine),
                f" ({raise_it}); ",
                Setting("engine", "python"),
                " computes it within the limit, with the same numbers",
            )
        if self.kind == "time":
            return (
                f"{self.subject} is more than the LCS limit of {self.limit:,} cells (minutes of computing on any engine; {raise_it})",
            )
        if self.kind == "memory":
            return (f"{self.subject}, more than the limit of {self.limit:,} cells (about one byte each; {raise_it})",)
        return (
            Setting("engine", self.engine),
            f" would build {self.subject}, more than the limit of {self.limit:,} cells ({raise_it}); ",
            Setting("engine", "python"),
            " scores it identically in linear memory",
        )

    @property
    def problem(self) -> str:
        return "".join(PYTHON.part(part) for part in self._problem_parts())

    def shifted(self, offset: int) -> "LcsTableTooLarge":
        """The same refusal of an example ``offset`` examples further on (a batch's in a whole evaluation)."""
        return self if self.index is None or self.what != "example" else self.at(self.index + offset, self.what)

    def of_deletions(self) -> "LcsTableTooLarge":
        """The same refusal, said of the deletions' pair: "rougeL of 20 x 20 tokens in the deletions"."""
        subject = f"{self.subject} in the deletions"
        return LcsTableTooLarge(subject, self.limit, self.kind, self.index, self.what, self.engine)

    def on(self, engine: str) -> "LcsTableTooLarge":
        """The same time refusal, said of ``engine`` (a costlier one than the python engine, which
        computes the pair within the limit: the message names it), or of every engine (``""``)."""
        return LcsTableTooLarge(self.subject, self.limit, self.kind, self.index, self.what, engine)

    def at(self, index: int, what: str = "pair") -> "LcsTableTooLarge":
        """The same refusal, placed at ``what`` number ``index``."""
        return LcsTableTooLarge(self.subject, self.limit, self.kind, index, what, self.engine)


def max_lcs_cells() -> int:
    """The most cells one LCS table of rouge-score or rouge-score-rs may have:
    ``UPDATE_ROUGE_MAX_LCS_CELLS`` if set, else 25,000,000."""
    return positive_integer(MAX_LCS_CELLS_VARIABLE, DEFAULT_MAX_LCS_CELLS, "table cells")


def max_python_lcs_cells() -> int:
    """The most LCS cells (``lcs_cost``) one pair may cost on any engine:
    ``UPDATE_ROUGE_MAX_PYTHON_LCS_CELLS`` if set, else 200,000,000,000."""
    return positive_integer(MAX_PYTHON_LCS_CELLS_VARIABLE, DEFAULT_MAX_PYTHON_LCS_CELLS, "table cells")


def max_wlcs_cells() -> int:
    """The most cells of one ROUGE-W table: ``UPDATE_ROUGE_MAX_WLCS_CELLS`` if set, else 1,000,000,000."""
    return positive_integer(MAX_WLCS_CELLS_VARIABLE, DEFAULT_MAX_WLCS_CELLS, "table cells")


def check_lcs_time(rouge_type: str, rows: int, columns: int, cost: int = 0) -> None:
    """``LcsTableTooLarge`` if ``cost`` (``lcs_cost``; by default ``rows`` x ``columns``, the two
    sides' token counts) is above ``max_python_lcs_cells()``."""
    limit = max_python_lcs_cells()
    cost = cost or rows * columns
    if cost > limit:
        lines = (
            " with their line pairs"
            if rouge_type.startswith("rouge") and parse_rouge_type(rouge_type).reads_lines
            else ""
        )
        pairs = "" if cost == rows * columns else f"{lines} (a cost of {cost:,} cells)"
        raise LcsTableTooLarge(f"{rouge_type} of {rows:,} x {columns:,} tokens{pairs}", limit, "time")


def check_wlcs_table(rows: int, columns: int) -> None:
    """``LcsTableTooLarge`` if a ROUGE-W table of ``rows`` x ``columns`` tokens (the longest line
    of each side) is above ``max_wlcs_cells()``."""
    limit = max_wlcs_cells()
    if rows * columns > limit:
        raise LcsTableTooLarge(
            f"ROUGE-W would fill a table of {rows:,} x {columns:,} tokens (a line of each side)", limit, "memory"
        )


class _PairSizes:
    """The texts of one (target, prediction) pair that an LCS type compares and their token counts,
    each found once, when first needed."""

    def __init__(self, pair: TextPair, tokenizer):
        self.pair, self.tokenizer = pair, tokenizer
        self._lines: tuple[list[str], list[str]] | None = None
        self._token_counts: dict[bool, tuple[list[int], list[int]]] = {}

    def texts(self, rouge_type: str) -> tuple[list[str], list[str]]:
        target, prediction = self.pair
        if parse_rouge_type(rouge_type).family == LCS:
            return [target], [prediction]
        if self._lines is None:
            self._lines = summary_lines(target), summary_lines(prediction)
        return self._lines

    def token_counts(self, rouge_type: str) -> tuple[list[int], list[int]]:
        whole = parse_rouge_type(rouge_type).family == LCS
        counts = self._token_counts.get(whole)
        if counts is None:
            tokenize = self.tokenizer.tokenize
            target, prediction = ([len(tokenize(text)) for text in side] for side in self.texts(rouge_type))
            counts = self._token_counts[whole] = target, prediction
        return counts


def refused_pairs(
    engine: str, pairs: Sequence[TextPair], tokenizer, rouge_types: Sequence[str], table_types: Sequence[str]
) -> tuple[dict[int, LcsTableTooLarge], dict[int, LcsTableTooLarge]]:
    """Index -> refusal of each pair that ``engine`` (rust or rouge-score, which tokenize by
    themselves) must not score, found before any scoring: (the pairs above the time limit for one
    of ``rouge_types``; the pairs on which it would build a table of one of ``table_types`` above
    ``max_lcs_cells()``).

    Only pairs that could be above a limit are tokenized: with rouge-score's tokenizer, at most 2
    tokens per character bound the counts.
    """
    time_types = [t for t in rouge_types if parse_rouge_type(t).is_rouge_score_lcs]
    time_limit, table_limit = max_python_lcs_cells(), max_lcs_cells()
    bounded = type(tokenizer) is DefaultTokenizer
    slow, oversized = {}, {}
    for index, pair in enumerate(pairs):
        sizes = _PairSizes(pair, tokenizer)
        for rouge_type in time_types:
            texts = sizes.texts(rouge_type)
            line_pairs = len(texts[0]) * len(texts[1])
            characters = 2 * len(pair[0]), 2 * len(pair[1])
            if bounded and lcs_cost(engine, rouge_type, *characters, line_pairs) <= time_limit:
                continue
            rows, columns = map(sum, sizes.token_counts(rouge_type))
            try:
                check_lcs_time(rouge_type, rows, columns, lcs_cost(engine, rouge_type, rows, columns, line_pairs))
            except LcsTableTooLarge as error:
                python_fits = lcs_cost("python", rouge_type, rows, columns, line_pairs) <= time_limit
                slow[index] = error.on(engine if python_fits else "").at(index)
                break
        for rouge_type in table_types:
            if bounded:
                longest = [max(map(len, side), default=0) for side in sizes.texts(rouge_type)]
                if 4 * longest[0] * longest[1] <= table_limit:
                    continue
            rows, columns = (max(side, default=0) for side in sizes.token_counts(rouge_type))
            if rows * columns > table_limit:
                subject = f"an LCS table of {rows:,} x {columns:,} tokens for {rouge_type}"
                oversized[index] = LcsTableTooLarge(subject, table_limit, "table", index, engine=engine)
                break
    return slow, oversized
