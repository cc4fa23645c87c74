"""Corpus results of examples scored in chunks (the CLI's stream, the Trainer's batches).

``Corpus`` keeps what ``compute``'s corpus result needs of every chunk: exact running means
(``corpus.RunningTotals``), the per-example F1 of each type for the bootstrap (8 bytes
per example and type) and how many references examples have (for the signature). Its result
equals ``compute`` on all the examples at once, bit for bit (a paired test needs both systems'
per-example scores and is not offered here).
"""

from array import array
from typing import Any, Dict, Sequence

from .bootstrap import bootstrap_statistics
from .corpus import RunningTotals
from .settings import Settings
from .signature import signature


class Corpus:
    """Accumulates per-example tables (``compute(use_aggregator=False)``) chunk by chunk.

    ``settings`` give the rouge types of the tables and the options of the intervals.
    """

    def __init__(self, settings: Settings):
        self.settings = settings
        self.totals = RunningTotals()
        self.f1 = {f"update_{rouge_type}": array("d") for rouge_type in settings.rouge_types}
        self.reference_counts: set = set()

    def add(self, table: Dict[str, list], references: Sequence[Any]) -> None:
        """Add a chunk's per-example table and its references (a string or a list per example)."""
        self.totals.add(table)
        for key, column in self.f1.items():
            column.extend(table[key])
        self.reference_counts.update(1 if isinstance(r, str) else len(r) for r in references)

    def result(self) -> Dict[str, Any]:
        """The corpus result ``compute`` gives for all the examples with these settings."""
        settings = self.settings
        result = self.totals.result()
        result.update(
            bootstrap_statistics(self.f1, None, settings.confidence_level, settings.n_bootstrap, settings.seed)
        )
        return result

    def signature(self, paired: bool = False) -> str:
        """The signature of ``compute`` with these settings on all the examples (``paired``: with
        ``baseline_predictions``)."""
        # The signature reads only how many references examples have: the fewest and the most.
        references = [[""] * min(self.reference_counts), [""] * max(self.reference_counts)]
        return signature(self.settings, references, paired)
