"""Corpus results of examples scored in chunks (the CLI's stream, the Trainer's batches).

``Corpus`` keeps what ``compute``'s corpus result needs of every chunk: exact running means
(``corpus.RunningTotals``), the per-example F1 of each type for the bootstrap (8 bytes
per example and type) and how many references examples have (for the signature). Its result
equals ``compute`` on all the examples at once, bit for bit (a paired test needs both systems'
per-example scores and is not offered here).
"""

from array import array
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .corpus import RunningTotals
from .signature import build_signature
from .bootstrap import DEFAULT_CONFIDENCE_LEVEL, DEFAULT_N_BOOTSTRAP, DEFAULT_SEED, bootstrap_statistics

STATISTICS_OPTIONS = ("confidence_level", "n_bootstrap", "seed")


def split_options(options: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """``compute`` keyword arguments split into those that score each chunk and the statistics ones."""
    scoring = {key: value for key, value in options.items() if key not in STATISTICS_OPTIONS}
    statistics = {key: value for key, value in options.items() if key in STATISTICS_OPTIONS}
    return scoring, statistics


class Corpus:
    """Accumulates per-example tables (``compute(use_aggregator=False)``) chunk by chunk."""

    def __init__(self, rouge_types: Sequence[str]):
        self.totals = RunningTotals()
        self.f1 = {f"update_{rouge_type}": array("d") for rouge_type in rouge_types}
        self.reference_counts: set = set()

    def add(self, table: Dict[str, list], references: Sequence[Any]) -> None:
        """Add a chunk's per-example table and its references (a string or a list per example)."""
        self.totals.add(table)
        for key, column in self.f1.items():
            column.extend(table[key])
        self.reference_counts.update(1 if isinstance(r, str) else len(r) for r in references)

    def result(
        self,
        confidence_level: Optional[float] = DEFAULT_CONFIDENCE_LEVEL,
        n_bootstrap: int = DEFAULT_N_BOOTSTRAP,
        seed: int = DEFAULT_SEED,
    ) -> Dict[str, Any]:
        """The corpus result ``compute`` gives for all the examples with these options."""
        result = self.totals.result()
        result.update(bootstrap_statistics(self.f1, None, confidence_level, n_bootstrap, seed))
        return result

    def signature(self, **options: Any) -> str:
        """The signature of ``compute(**options)`` on all the examples."""
        # The signature reads only how many references examples have: the fewest and the most.
        references = [[""] * min(self.reference_counts), [""] * max(self.reference_counts)]
        return build_signature(references=references, **options)
