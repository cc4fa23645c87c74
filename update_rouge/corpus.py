"""Corpus statistics, built on one path: every door gets its corpus values, intervals and paired
tests here.

``corpus_statistics`` turns per-example columns (F1 values, or counts under ``average="micro"``)
into each key's corpus value, bootstrap interval and paired test. ``Corpus`` accumulates
per-example tables chunk by chunk, a few numbers per example and type; its result equals
``compute``'s on all the examples at once, bit for bit, ``groups`` included (``add_tables``).
"""

import itertools
from array import array
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Protocol

from .bootstrap import Resampling, bootstrap_statistics
from .engines import Counts
from .entities import ENTITY_KEY, OUTDATED_KEY, pooled_outdated
from .example_tables import RunningTotals, mean, score_keys
from .micro import as_arrays, micro_bootstrap_statistics, micro_means
from .protocols import check_protocol_paired, check_reference_counts, published_statistics, rules_of
from .settings import Settings
from .signature import signature

Table = dict[str, list]
Counted = dict[str, list[Counts]]


class ChunkTables(Protocol):
    """A chunk's per-example tables as ``UpdateRougeScorer.tables`` gives them (``metric.Tables``)."""

    @property
    def table(self) -> Table: ...
    @property
    def baseline_table(self) -> Table | None: ...
    @property
    def counts(self) -> Counted | None: ...
    @property
    def baseline_counts(self) -> Counted | None: ...


def corpus_statistics(
    system: Mapping[str, Any], baseline: Mapping[str, Any] | None, settings: Settings
) -> dict[str, float]:
    """The corpus values of ``system`` as ``compute`` reports them under ``settings``.

    ``system`` maps each output key ``update_<type>`` to its per-example values (F1, or under
    ``"micro"`` the ``Counts`` or an ``n x 3`` int64 array); ``baseline`` the same for the baseline on
    the same examples. Returns plain floats: ``<key>`` (the exact mean, or the micro F with its
    ``_precision`` and ``_recall``) and ``bootstrap.bootstrap_statistics``'s keys. Under
    ``protocol="fruit"`` or ``"editeval"`` the values are each example's reference slots and the
    result is ``protocols.published_statistics``' (no baseline).
    """
    if rules_of(settings.protocol).bootstrap_median:
        import numpy as np

        if baseline is not None:
            check_protocol_paired(settings.protocol)
        arrays = {key: np.asarray(values, dtype=np.float64) for key, values in system.items()}
        n_examples = len(next(iter(arrays.values())))
        bootstrap = (settings.confidence_level, settings.n_bootstrap, settings.seed)
        return published_statistics(arrays, settings.protocol, n_examples, bootstrap)
    resampling = Resampling(settings.confidence_level, settings.n_bootstrap, settings.seed, settings.num_proc)
    if settings.average == "micro":
        counts = as_arrays(system)
        baseline_counts = None if baseline is None else as_arrays(baseline)
        results = micro_means(counts, settings.alpha)
        results.update(micro_bootstrap_statistics(counts, baseline_counts, settings.alpha, resampling))
        return results
    results = {key: mean(values) for key, values in system.items()}
    results.update(bootstrap_statistics(system, baseline, *resampling))
    return results


class Corpus:
    """Accumulates per-example tables (``compute(use_aggregator=False)``) chunk by chunk under
    ``settings``; a ``paired`` corpus also takes the baseline's table of each chunk."""

    def __init__(self, settings: Settings, paired: bool = False):
        self.settings = settings
        self.totals = RunningTotals()
        self.micro = settings.average == "micro"
        self.published = rules_of(settings.protocol).bootstrap_median
        # Under micro the bootstrap needs each example's counts (3 ints a type), not its F1; under
        # a published protocol each reference slot's precision, recall and F (3 floats a slot).
        self.counted = self.micro or self.published
        self.f1 = self._columns()
        self.baseline_f1 = self._columns() if paired else None
        self.reference_counts: set = set()
        self.groups: dict[Hashable, Corpus] = {}
        # Under micro with entities: the sums of |R_gone & P| and |R_gone| (entities.pooled_outdated).
        self.outdated = [0, 0]

    def _columns(self) -> dict[str, array]:
        kind = "q" if self.micro else "d"
        keys = score_keys(self.settings.rouge_types, self.settings.deletions)
        return {key: array(kind) for key in keys + ([ENTITY_KEY] if self.settings.entities is not None else [])}

    def add(
        self,
        table: Table,
        references: Sequence[Any],
        baseline_table: Table | None = None,
        counts: Counted | None = None,
        baseline_counts: Counted | None = None,
    ) -> None:
        """Add a chunk's per-example table and its references (a string or a list per example) and, to a
        paired corpus, the baseline's table; under ``average="micro"`` or a published protocol, also each
        system's counts (``UpdateRougeScorer.tables`` gives them all)."""
        if (baseline_table is None) != (self.baseline_f1 is None):
            raise ValueError("a paired Corpus takes a baseline table with each chunk, and only a paired one")
        if (counts is None) == self.counted or (baseline_counts is None) != (
            baseline_table is None or not self.counted
        ):
            raise ValueError(
                "a Corpus with average='micro' or a published protocol takes each system's counts with each chunk, "
                "and only it"
            )
        self.totals.add(table)
        if self.micro and self.settings.entities is not None:
            self.outdated = [total + part for total, part in zip(self.outdated, pooled_outdated(counts))]  # type: ignore[arg-type]
        self._extend(self.f1, counts if counts is not None else table)
        if self.baseline_f1 is not None and baseline_table is not None:
            self._extend(self.baseline_f1, baseline_counts if baseline_counts is not None else baseline_table)
        self.reference_counts.update(1 if isinstance(r, str) else len(r) for r in references)

    def add_tables(
        self, tables: ChunkTables, references: Sequence[Any], labels: Sequence[Hashable] | None = None
    ) -> None:
        """``add`` a chunk's ``tables``; with ``labels`` (one per example), also add each
        example to the corpus of its label (created when the label first appears)."""
        chunk = (tables.table, tables.baseline_table, tables.counts, tables.baseline_counts)
        self.add(chunk[0], references, *chunk[1:])
        if labels is None:
            return
        if len(labels) != len(tables.table["_both_empty"]):
            raise ValueError(f"{len(labels)} group labels for {len(tables.table['_both_empty'])} examples")
        positions: dict[Hashable, list[int]] = {}
        for index, label in enumerate(labels):
            positions.setdefault(label, []).append(index)
        for label, indices in positions.items():
            if label not in self.groups:
                self.groups[label] = Corpus(self.settings, paired=self.baseline_f1 is not None)
            table, baseline_table, counts, baseline_counts = (_select(part, indices) for part in chunk)
            self.groups[label].add(table, references, baseline_table, counts, baseline_counts)  # type: ignore[arg-type]

    def _extend(self, columns: dict[str, array], values: Any) -> None:
        for key, column in columns.items():
            column.extend(itertools.chain.from_iterable(values[key]) if self.counted else values[key])

    def check(self) -> None:
        """``OptionError`` where the examples added so far have no corpus result
        (``protocols.check_reference_counts``), for a caller to refuse before writing anything more."""
        check_reference_counts(self.settings.protocol, self.reference_counts)

    def result(self) -> dict[str, Any]:
        """The corpus result ``compute`` gives for all the examples added with these settings."""
        self.check()
        result = self.totals.result()
        system: dict[str, Any] = self.f1
        if self.published:
            import numpy as np

            system = {
                key: np.frombuffer(column, dtype=np.float64).reshape(self.totals.count, -1)
                for key, column in self.f1.items()
            }
        result.update(corpus_statistics(system, self.baseline_f1, self.settings))
        if self.micro and self.settings.entities is not None:
            kept, dropped = self.outdated
            result[OUTDATED_KEY] = kept / dropped if dropped else None
        if self.groups:
            result["groups"] = {label: group.result() for label, group in self.groups.items()}
        return result

    def signature(self) -> str:
        """The signature of ``compute`` with these settings on all the examples."""
        # The signature reads only how many references examples have: the fewest and the most.
        references = [[""] * min(self.reference_counts), [""] * max(self.reference_counts)]
        return signature(self.settings, references, self.baseline_f1 is not None)


def _select(table: dict[str, list] | None, indices: Sequence[int]) -> dict[str, list] | None:
    """The entries ``indices`` of each column of ``table`` (``None`` stays ``None``)."""
    if table is None:
        return None
    return {key: [values[index] for index in indices] for key, values in table.items()}
