"""The size and time limits of the LCS types (rougeL, rougeLsum, ROUGE-W), checked before scoring.

Memory: the Python engine needs memory linear in the text length (``lcs``). rouge-score builds
a full n x m table for rougeL (whole texts) and for each pair of lines of rougeLsum (about 8
bytes a cell, more once values pass 256), rouge-score-rs one for each pair of lines of rougeLsum
(4 bytes a cell; its rougeL is linear). Before scoring anything, those two engines check every
pair against ``max_lcs_cells()`` (``refused_pairs``; default ``DEFAULT_MAX_LCS_CELLS``, raised
with the environment variable ``UPDATE_ROUGE_MAX_LCS_CELLS``): asked for explicitly, they refuse
a larger table with ``LcsTableTooLarge`` (an ``InputError``); ``engine="auto"`` scores such a
pair with the Python engine instead (the same numbers).

Time: on every engine time grows with the product of the two sides' token counts (rougeL: whole
texts; rougeLsum and ROUGE-W: all lines), and ROUGE-W fills a table of about one byte per cell
for each pair of lines. The summary-level walks (rougeLsum, ROUGE-W) also cost something for
every pair of a reference line and a prediction line, however short (10,000 one-word lines a
side are 100,000,000 line pairs of one cell each). And a cell costs
more on some engines and types than a cell of the Python engine's rougeL, which defines the unit:
rougeLsum walks back through its columns (python), fills a table for each line pair
(rouge-score-rs) or builds every table in pure Python (rouge-score). So the cost counted is the
cells at ``CELL_COSTS`` each plus
``PAIR_CELLS`` cells for each line pair (``lcs_cost``: measured per engine and type, in cells of
the same time). ROUGE-W's tables are no bit-parallel LCS: a cell of one costs
hundreds to thousands of LCS cells, and a table something per token of its two lines besides, so the
python engine adds ``wlcs_tables_cost``, the sum over its line pairs of their tables' cost.
Before scoring a pair, every engine checks that cost against
``max_python_lcs_cells()`` (``check_lcs_time``; default ``DEFAULT_MAX_PYTHON_LCS_CELLS``, about a
minute and a half of one core; variable ``UPDATE_ROUGE_MAX_PYTHON_LCS_CELLS``; rust and
rouge-score check all their pairs before scoring any, ``refused_pairs``; under ``engine="auto"``
the Python engine scores the accelerator's slow pairs instead, at its own cost), and the Python
engine each ROUGE-W table against ``max_wlcs_cells()`` (``check_wlcs_table``; default
``DEFAULT_MAX_WLCS_CELLS``, about 1 GB; variable ``UPDATE_ROUGE_MAX_WLCS_CELLS``); a larger one
is refused with ``LcsTableTooLarge``.
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
cells of the same time, by (engine, family of the type: rougeLsum's ``SUMMARY_LCS``, ROUGE-W's ``WEIGHTED_LCS``). Measured with
``scripts/lcs_line_pairs.py`` on one-token lines: each the slowest measured, in cells, rounded up
(docs/speed.md, "The LCS time limit's prices")."""


WLCS_TABLE_CELLS = {"python": (2_000, 10_000), "numpy": (100, 90_000)}
"""What one ROUGE-W table of a reference line of ``a`` tokens and a prediction line of ``b`` costs,
in LCS cells, as (per cell, per token): ``cell * a * b + token * (a + b)``; ``python`` for the
tables of at most ``wlcs.NUMPY_CELLS`` cells (filled in pure Python), ``numpy`` for the larger
ones (by anti-diagonals, a fixed cost each). Measured with ``wlcs._mark_small`` and
``_mark_large`` against ``lcs.lcs_length``; each bound holds every measurement, with some room
(docs/speed.md, "The LCS time limit's prices")."""


def wlcs_tables_cost(target_lengths: Sequence[int], prediction_lengths: Sequence[int]) -> int:
    """The sum over every pair of a reference line and a prediction line (their token counts)
    of ``WLCS_TABLE_CELLS``'s cost of the pair's ROUGE-W table: what the python engine's
    summary-level walk (``wlcs.weighted_lcs_counts``) fills at most. Sorting the prediction
    lines makes it O((n + m) log m) for n and m lines."""
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
(engine, family of the type: rougeL's ``LCS``, rougeLsum's ``SUMMARY_LCS``); 1 for the others
(python rougeL, the cell's definition; ROUGE-W, priced by ``wlcs_tables_cost``). Each bound holds
every measurement, with room for a busier machine (docs/speed.md, "The LCS time limit's prices")."""


def lcs_cost(engine: str, rouge_type: str, rows: int, columns: int, line_pairs: int = 1) -> int:
    """The cost that the time limit bounds: ``rows`` x ``columns`` cells (the two sides' token
    counts; for a summary-level type, the sum of its line pairs' cells) at ``CELL_COSTS`` each,
    plus ``PAIR_CELLS`` for each of ``line_pairs`` (a summary-level type's line pairs)."""
    family = parse_rouge_type(rouge_type).family
    return CELL_COSTS.get((engine, family), 1) * rows * columns + PAIR_CELLS.get((engine, family), 0) * line_pairs


class LcsTableTooLarge(InputError):
    """A pair is beyond one of the LCS limits, an ``InputError`` (its ``where`` is None: it is
    of a pair, not of one field), as data: ``subject`` (what would be computed,
    such as ``rougeL of 30,000 x 40,000 tokens``), the ``limit`` in cells and its ``kind``:
    ``"time"`` (``max_python_lcs_cells``, the one time limit), ``"memory"`` (``max_wlcs_cells``,
    ROUGE-W's table) or ``"table"`` (``max_lcs_cells``, the table ``engine`` would build);
    ``index`` the position of the pair (engines) or of the example (``example_scoring``,
    ``metric``) it concerns, or None, and ``what`` names that position. ``problem`` is the
    message without its place, with the advice to raise the limit."""

    index: int | None = None  # its own, not a field's

    def __init__(
        self, subject: str, limit: int, kind: str, index: int | None = None, what: str = "pair", engine: str = ""
    ):
        self.subject, self.limit, self.kind, self.index, self.what, self.engine = (
            subject,
            limit,
            kind,
            index,
            what,
            engine,
        )
        place = "" if index is None else f"{what} {index}: "
        super().__init__(None, (place, *self._problem_parts()))
        self.args = (subject, limit, kind, index, what, engine)

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
        """The same refusal, said of the deletions' pair (``deletions=True``): "rougeL of 20 x 20
        tokens in the deletions", as every ``subject`` reads on with it."""
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
    """The most cells one LCS table of rouge-score or rouge-score-rs may have.

    ``UPDATE_ROUGE_MAX_LCS_CELLS`` (a positive integer) if set, else ``DEFAULT_MAX_LCS_CELLS``
    (25,000,000: two lines of 5,000 tokens; about 100 MB for rouge-score-rs, 200 MB or more for
    rouge-score).
    """
    return positive_integer(MAX_LCS_CELLS_VARIABLE, DEFAULT_MAX_LCS_CELLS, "table cells")


def max_python_lcs_cells() -> int:
    """The largest product of the two sides' token counts the Python engine computes rougeL or
    rougeLsum for: ``UPDATE_ROUGE_MAX_PYTHON_LCS_CELLS`` if set, else 200,000,000,000 (two texts
    of about 450,000 tokens: about a minute and a half of one core; docs/guarantees.md)."""
    return positive_integer(MAX_PYTHON_LCS_CELLS_VARIABLE, DEFAULT_MAX_PYTHON_LCS_CELLS, "table cells")


def max_wlcs_cells() -> int:
    """The most cells of one ROUGE-W table (a reference line by a prediction line, about one byte a
    cell): ``UPDATE_ROUGE_MAX_WLCS_CELLS`` if set, else 1,000,000,000 (about 1 GB)."""
    return positive_integer(MAX_WLCS_CELLS_VARIABLE, DEFAULT_MAX_WLCS_CELLS, "table cells")


def check_lcs_time(rouge_type: str, rows: int, columns: int, cost: int = 0) -> None:
    """``LcsTableTooLarge`` if ``cost`` (``lcs_cost``; by default ``rows`` x ``columns``, the
    token counts of the two sides that an LCS type compares) is above ``max_python_lcs_cells()``:
    the one time limit of rougeL, rougeLsum, ROUGE-W and the edits diff, on every engine."""
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
    """The texts of one (target, prediction) pair that an LCS type compares (rougeL the whole
    texts, the summary-level types their lines: ``summary_lines``) and their token counts, each
    found once, when a check first needs it, for every check of the pair."""

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
    """Index -> refusal (carrying the index) of each pair that ``engine``, an engine that
    tokenizes by itself (rust, rouge-score), must not score, found before any scoring: (the pairs
    above the time limit for one of ``rouge_types``: ``check_lcs_time`` of ``lcs_cost``; the pairs
    on which it would build a table of one of ``table_types`` above ``max_lcs_cells()``).

    A pair's lines are split once, and tokenized at most once, for both. Only pairs that could
    be above a limit are tokenized: with rouge-score's tokenizer (at most 2 tokens per
    character: lower-casing triples a character at most) those whose character counts multiply
    to more than a quarter of the time limit, with the cost of their line pairs, or, for a
    table, whose longest texts compared (the whole texts for rougeL, the longest line of each
    side for rougeLsum) do so for the table limit.
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
