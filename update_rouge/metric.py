"""UpdateROUGE end to end: texts -> additions -> scores -> per-example table or corpus means,
with bootstrap intervals, a paired test against a baseline and the settings signature.

``UpdateRougeScorer`` is the metric as an object holding its ``Settings``; ``compute`` builds one
per call (the evaluate module calls ``compute`` here). The public API only: the examples are
spread over processes by ``example_workers``, and scored there by ``example_pipeline``.
"""

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .call_checks import check_corpus_options, checked_call
from .corpus import Corpus
from .engines import Counts
from .entities import check_evidence_given, entity_columns, score_entities
from .errors import LEFT_OUT, Name, Setting, UnknownOptionError
from .example_pipeline import merged_tables, naming_examples, score_checked, table_checked
from .example_tables import ExampleScore
from .example_workers import ExampleWorkers, process_count
from .inputs import check_baseline_predictions, check_evidence, check_group_labels, check_inputs, is_column
from .no_tokens import warn_tokenless
from .protocols import rules_of
from .settings import DEFAULTS, OPTIONS, Settings, describe_options
from .signature import signature


class Tables(NamedTuple):
    """``UpdateRougeScorer.tables``'s result: the per-example tables of the system and of the
    baseline (``None`` without one), the number of examples without tokens and, under
    ``average="micro"`` (else ``None``), the counts each example contributes to the micro
    average, per system (``micro.count_columns``)."""

    table: dict[str, list]
    baseline_table: dict[str, list] | None
    tokenless: int
    counts: dict[str, list[Counts]] | None
    baseline_counts: dict[str, list[Counts]] | None


class UpdateRougeScorer:
    """UpdateROUGE with fixed settings: ``UpdateRougeScorer(settings)`` or ``UpdateRougeScorer(**options)``.

    ``options`` are ``compute``'s keyword arguments that are settings (every option of
    ``settings.OPTIONS`` but ``baseline_predictions``, ``group_by`` and ``return_signature``),
    checked once here. Given both, it raises ``UnknownOptionError`` (a ``TypeError``) naming
    ``settings``, whose advice leaves out one or the other.
    """

    def __init__(self, settings: Settings | None = None, **options: Any):
        if settings is not None and options:
            raise UnknownOptionError(
                "settings",
                settings,
                (
                    "UpdateRougeScorer() takes ",
                    Name("settings"),
                    f" or keyword options, not both: got both (options {', '.join(options)})",
                ),
                [[Setting("settings", LEFT_OUT)], [Setting(name, LEFT_OUT) for name in options]],
            )
        self.settings = settings if settings is not None else Settings(**options)

    def score(self, source: str, prediction: str, reference: Any, evidence: Any = None) -> ExampleScore:
        """Score one example; ``reference`` is a string or a non-empty list of them, ``evidence``
        (with ``entities=``) a string or a list of them."""
        return self.examples([source], [prediction], [reference], None if evidence is None else [evidence])[0]

    def examples(
        self, sources: Sequence[str], predictions: Sequence[str], references: Sequence[Any], evidence: Any = None
    ) -> list[ExampleScore]:
        """One ``ExampleScore`` per example, in input order (inputs as ``compute`` takes them),
        with its ``entities.EntityScore`` under ``entities=``."""
        check_evidence_given(self.settings.entities, evidence)
        sources, predictions, references = self._checked(sources, predictions, references)
        checked_evidence = None if evidence is None else check_evidence(evidence, len(sources))
        with naming_examples(self.settings, sources, {"predictions": predictions}, references):
            examples = self._examples(sources, predictions, references)
        if self.settings.entities is None:
            return examples
        scores = score_entities(self.settings.entities, sources, [predictions], references, checked_evidence)[0]
        return [dataclasses.replace(example, entities=score) for example, score in zip(examples, scores)]

    def _checked(
        self, sources: Sequence[str], predictions: Sequence[str], references: Sequence[Any]
    ) -> tuple[list[str], list[str], list[list[str]]]:
        """The inputs checked (``inputs.check_inputs``; a leading BOM kept under a protocol, as
        the published scripts score it), their references counted as the protocol takes them."""
        rules = rules_of(self.settings.protocol)
        checked = check_inputs(sources, predictions, references, keep_bom=rules.keeps_bom)
        rules.check_one_reference(checked[2])
        return checked

    def corpus(
        self,
        sources: Sequence[str],
        predictions: Sequence[str],
        references: Sequence[Any],
        baseline_predictions: Sequence[str] | None = None,
        evidence: Any = None,
    ) -> dict[str, Any]:
        """``compute``'s result without the signature: corpus means (with intervals, and a paired
        test against ``baseline_predictions`` when given) or, without ``use_aggregator``, the
        per-example table. Warns ``NoTokensWarning`` for examples in which no token is found."""
        result, tokenless, total = self._corpus(sources, predictions, references, baseline_predictions, None, evidence)
        warn_tokenless(tokenless, total, deletions=self.settings.deletions)
        return result

    def _corpus(
        self,
        sources: Sequence[str],
        predictions: Sequence[str],
        references: Sequence[Any],
        baseline_predictions: Sequence[str] | None,
        group_by: Sequence[Any] | None = None,
        evidence: Any = None,
    ) -> tuple[dict[str, Any], int, int]:
        """``corpus``'s result (with the ``groups`` of the labels ``group_by``, if given), the
        number of examples without tokens (in either system) and of examples."""
        settings = self.settings
        check_corpus_options(settings, baseline_predictions is not None, group_by is not None)
        check_evidence_given(settings.entities, evidence)
        labels = None
        if group_by is not None:
            labels = check_group_labels(group_by, len(sources) if is_column(sources) else None)
        tables = self.tables(sources, predictions, references, baseline_predictions, evidence)
        table, baseline_table = tables.table, tables.baseline_table
        total = len(table["_both_empty"])
        if not settings.use_aggregator:
            return table, tables.tokenless, total
        corpus = Corpus(settings, paired=baseline_table is not None)
        corpus.add_tables(tables, references, labels)
        return corpus.result(), tables.tokenless, total

    def tables(
        self,
        sources: Sequence[str],
        predictions: Sequence[str],
        references: Sequence[Any],
        baseline_predictions: Sequence[str] | None = None,
        evidence: Any = None,
    ) -> "Tables":
        """The per-example table of the predictions (``compute(use_aggregator=False)``'s), that
        of ``baseline_predictions`` on the same examples (``None`` without them), the number of
        examples in which either system's additions have no token (not warned here) and, under
        ``average="micro"``, each system's ``micro.count_columns`` (``Tables``). Under ``entities=``
        the tables (and counts) hold the entity keys too, with the ``evidence`` of each example."""
        check_evidence_given(self.settings.entities, evidence)
        # The workers start first: they import the package while this process checks the inputs.
        with self._workers(table_checked, sources) as workers:
            sources, predictions, references = self._checked(sources, predictions, references)
            keep_bom = rules_of(self.settings.protocol).keeps_bom
            systems = {"predictions": predictions}
            checked_baseline = None
            if baseline_predictions is not None:
                checked_baseline = check_baseline_predictions(baseline_predictions, len(predictions), keep_bom)
                systems["baseline_predictions"] = checked_baseline
            with naming_examples(self.settings, sources, systems, references):
                table, tokenless, counts = merged_tables(workers.in_shards(sources, predictions, references))
                baseline_table = baseline_counts = None
                if checked_baseline is not None:
                    shards = workers.in_shards(sources, checked_baseline, references)
                    baseline_table, baseline_tokenless, baseline_counts = merged_tables(shards)
                    tokenless = [a or b for a, b in zip(tokenless, baseline_tokenless)]
        if self.settings.entities is not None:
            checked_evidence = None if evidence is None else check_evidence(evidence, len(sources))
            baseline = [] if checked_baseline is None else [checked_baseline]
            columns = entity_columns(self.settings, sources, [predictions, *baseline], references, checked_evidence)
            for (entity_table, entity_counts), system_table, system_counts in zip(
                columns, (table, baseline_table), (counts, baseline_counts)
            ):
                system_table.update(entity_table)  # type: ignore[union-attr]
                if system_counts is not None:
                    system_counts.update(entity_counts)  # type: ignore[arg-type]
        return Tables(table, baseline_table, sum(tokenless), counts, baseline_counts)

    def signature(self, references: Sequence[Any] | None = None, paired: bool = False) -> str:
        """The settings signature (see ``signature.py``); ``references`` give its ``refs`` field."""
        return signature(self.settings, references, paired)

    def _examples(self, sources: list[str], predictions: list[str], references: list[list[str]]) -> list[ExampleScore]:
        """Score checked inputs (``ExampleWorkers.in_shards``)."""
        with self._workers(score_checked, sources) as workers:
            return [example for shard in workers.in_shards(sources, predictions, references) for example in shard]

    def _workers(self, function: Callable[..., Any], sources: Any) -> ExampleWorkers:
        """The ``ExampleWorkers`` of ``function(settings, ...)`` for the examples of ``sources``:
        ``num_proc`` processes, no more than CPUs available or examples, this one among them (it
        ``helps``: ``num_proc - 1`` workers start, none for one). The settings travel with the
        function, sent to each worker once (and checked to pickle)."""
        count = process_count(self.settings.num_proc, len(sources) if is_column(sources) else 0)
        return ExampleWorkers(functools.partial(function, self.settings), count, helps=True)


def score_examples(
    sources: Sequence[str], predictions: Sequence[str], references: Sequence[Any], **options: Any
) -> list[ExampleScore]:
    """Score every example; see ``compute`` for the arguments. Returns one ``ExampleScore`` each."""
    return UpdateRougeScorer(**options).examples(sources, predictions, references)


# The public API takes every option of settings.OPTIONS as a keyword (as evaluate and sacreBLEU do): PLR0913 waived.
def compute(  # noqa: PLR0913
    sources: Sequence[str],
    predictions: Sequence[str],
    references: Sequence[Any],
    rouge_types: Sequence[str] | None = DEFAULTS["rouge_types"],
    use_stemmer: bool = DEFAULTS["use_stemmer"],
    tokenizer: Callable[[str], list[str]] | None = DEFAULTS["tokenizer"],
    use_aggregator: bool = DEFAULTS["use_aggregator"],
    confidence_level: float | None = DEFAULTS["confidence_level"],
    n_bootstrap: int = DEFAULTS["n_bootstrap"],
    seed: int = DEFAULTS["seed"],
    baseline_predictions: Sequence[str] | None = DEFAULTS["baseline_predictions"],
    group_by: Sequence[Any] | None = DEFAULTS["group_by"],
    return_signature: bool = DEFAULTS["return_signature"],
    engine: str = DEFAULTS["engine"],
    num_proc: int = DEFAULTS["num_proc"],
    stemmer: str | None = DEFAULTS["stemmer"],
    multi_ref: str = DEFAULTS["multi_ref"],
    remove_stopwords: bool = DEFAULTS["remove_stopwords"],
    max_words: int | None = DEFAULTS["max_words"],
    max_bytes: int | None = DEFAULTS["max_bytes"],
    alpha: float = DEFAULTS["alpha"],
    language: str | None = DEFAULTS["language"],
    additions: str = DEFAULTS["additions"],
    average: str = DEFAULTS["average"],
    protocol: str | None = DEFAULTS["protocol"],
    deletions: bool = DEFAULTS["deletions"],
    entities: Any = DEFAULTS["entities"],
    evidence: Sequence[Any] | None = DEFAULTS["evidence"],
) -> dict[str, Any]:
    """Compute UpdateROUGE: the scores of what each prediction adds to its source against what
    its references add (see the package's docstring for the metric).

    Args:
        sources: the shared source text of each example.
        predictions: the system's updated text of each example.
        references: the reference updated text of each example, or a non-empty list of them.
        OPTIONS

    Returns:
        ``update_<type>``, ``update_<type>_precision``, ``update_<type>_recall`` in [0, 1],
        ``_target_diff_len`` and ``_prediction_diff_len`` in characters, and ``_both_empty``:
        means (a count for ``_both_empty``) or per-example lists in input order; under
        ``average="micro"`` the corpus precision, recall and F of each type are the micro
        averages instead (``micro.py``), their intervals and test those of the micro F. With
        ``use_aggregator`` also: ``update_<type>_low`` and ``update_<type>_high``, the interval
        of the mean F1 (unless ``confidence_level`` is ``None``); with ``baseline_predictions``,
        ``update_<type>_delta`` (mean F1 of the system minus the baseline's, in [-1, 1]), its
        interval ``update_<type>_delta_low`` and ``update_<type>_delta_high`` (unless
        ``confidence_level`` is ``None``) and ``update_<type>_p_value`` (one-sided, that the
        system is not better; in (0, 1]). The method is in ``bootstrap.py``. With ``group_by``,
        ``groups``: label -> these corpus keys for the examples of that label. With
        ``deletions``, the same keys for what the texts delete, ``update_del_<type>`` in place
        of ``update_<type>``, and ``_both_kept``. With ``entities``, the entity keys of
        docs/entities.md (``entities.py``). With ``return_signature``, ``signature`` as well.
    """
    # Every parameter but the data is an option of the call (errors.advised tries advice on all of them).
    settings = checked_call({name: value for name, value in locals().items() if name in DEFAULTS})
    scorer = UpdateRougeScorer(settings)
    result, tokenless, total = scorer._corpus(
        sources, predictions, references, baseline_predictions, group_by, evidence
    )
    warn_tokenless(tokenless, total, deletions=settings.deletions)
    if return_signature:
        result["signature"] = scorer.signature(references, paired=baseline_predictions is not None)
    return result


compute.__doc__ = re.sub(
    r"^( *)OPTIONS\n",  # the docstring's indentation differs: Python 3.13 strips it when compiling
    lambda marker: describe_options(OPTIONS, indent=marker.group(1)),
    compute.__doc__ or "",
    flags=re.MULTILINE,
)
