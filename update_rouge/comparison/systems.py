"""Several systems against one baseline on the same examples: means, intervals and paired tests.

The comparison a paper reports (sacreBLEU's ``--paired-bs`` / ``--paired-ar``):

- Scores: each system by ``metric.score_examples`` with the same options, so its means are
  ``compute``'s (under ``average="micro"``, its micro F, with ``micro.micro_bootstrap_statistics``'
  intervals and test).
- Intervals: ``bootstrap.py``'s percentile bootstrap for every system (the baseline too), all on
  the one resample matrix that ``seed`` draws.
- ``method="bootstrap"``: ``bootstrap.py``'s paired test of each system against the baseline on
  those resamples: with one system it equals ``compute(..., baseline_predictions=...)`` bit for
  bit, and a system's numbers do not depend on which other systems are compared.
- ``method="randomization"``: ``significance.py``'s paired approximate randomization, every
  system and key on the same ``n_trials`` trials drawn from ``seed``. Both tests are one-sided
  (the system is not better than the baseline), with p-values ``(1 + k) / (R + 1)``.
- ``correction="holm"``: per key, the p-values of the ``m`` systems compared with the baseline
  are Holm-Bonferroni adjusted (``significance.holm``).
- ``deletions=True`` and ``entities=``: ``update_del_<type>`` and ``update_ent`` are compared as a
  rouge type is, on the same resamples or trials, each a family of ``m`` tests of its own; every
  distinct text is extracted once for all the systems (``entities.entity_columns``).
"""

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..bootstrap import check_bootstrap_options
from ..corpus import corpus_statistics
from ..entities import ENTITY_KEY, check_evidence_given, entity_columns
from ..errors import Field, InputError, Name, OptionError, Setting, advised, unknown_options
from ..example_pipeline import examples_counts
from ..example_tables import f1_columns, per_example_table
from ..inputs import check_evidence, check_inputs
from ..metric import UpdateRougeScorer
from ..micro import as_arrays
from ..no_tokens import tokenless_examples, warn_tokenless
from ..protocols import check_protocol_paired
from ..settings import DEFAULTS, OPTION_BY_NAME, Settings
from ..signature import signature
from .significance import DEFAULT_N_TRIALS, check_n_trials, holm, micro_randomization_p_values, randomization_p_values

METHODS = ("bootstrap", "randomization")
CORRECTIONS = (None, "holm")
SIGNATURE_KEY = "signature"
# compute's options that have no meaning for a comparison (it has its own baseline and signature).
_NOT_COMPARE_OPTIONS = ("use_aggregator", "baseline_predictions", "group_by", "return_signature")
TEST_DEFAULTS = {"method": "bootstrap", "correction": None, "n_trials": DEFAULT_N_TRIALS}
"""The test's options of a comparison, at their defaults (``SignificanceTest``'s)."""
_COMPARE_OPTIONS = (*TEST_DEFAULTS, *(name for name in OPTION_BY_NAME if name not in _NOT_COMPARE_OPTIONS))


@dataclass(frozen=True)
class SignificanceTest:
    """How systems are tested against the baseline: ``method`` (one of ``METHODS``), the p-value
    ``correction`` (one of ``CORRECTIONS``) and the randomization's ``n_trials``; checked when built."""

    method: str = "bootstrap"
    correction: str | None = None
    n_trials: int = DEFAULT_N_TRIALS

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise OptionError(
                "method",
                self.method,
                (Name("method"), f" must be one of {', '.join(METHODS)}, got {self.method!r}"),
                [[Setting("method", method)] for method in METHODS],
            )
        if self.correction not in CORRECTIONS:
            raise OptionError(
                "correction",
                self.correction,
                (Name("correction"), f" must be None or 'holm', got {self.correction!r}"),
                [[Setting("correction", correction)] for correction in CORRECTIONS],
            )
        check_n_trials(self.n_trials)

    @property
    def bootstrap(self) -> bool:
        return self.method == "bootstrap"


def check_systems(names: Sequence[Any], baseline: Any) -> None:
    """``OptionError`` unless the system ``names`` (non-empty strings other than ``"signature"``)
    are at least two, ``baseline`` among them."""
    for name in names:
        if not isinstance(name, str) or not name or name == SIGNATURE_KEY:
            raise OptionError(
                "systems",
                name,
                (Name("systems"), f" names must be non-empty strings other than {SIGNATURE_KEY!r}: rename {name!r}"),
            )
    if len(names) < 2:
        raise OptionError(
            "systems",
            list(names),
            (
                Name("systems"),
                f" must hold the baseline and at least one other system to compare with it, got {len(names)}: "
                "add the system to compare",
            ),
        )
    if baseline not in names:
        raise OptionError(
            "baseline",
            baseline,
            (Setting("baseline", baseline), f" is not one of the systems ({', '.join(map(repr, names))})"),
            [[Setting("baseline", name)] for name in names],
        )


def check_comparison(names: Sequence[Any], call: Mapping[str, Any]) -> tuple["SignificanceTest", Settings]:
    """The test and the settings of a comparison of the systems ``names``, its ``call`` holding
    ``baseline``, the test's options (``TEST_DEFAULTS``) and ``compute``'s: ``UnknownOptionError``
    for an unknown one, else ``OptionError`` whose advice works for the whole call (``errors.advised``)."""
    return advised(functools.partial(_comparison, names), call, {**DEFAULTS, **TEST_DEFAULTS})


def _comparison(names: Sequence[Any], call: dict[str, Any]) -> tuple["SignificanceTest", Settings]:
    check_systems(names, call.pop("baseline"))
    unknown_options(call, _COMPARE_OPTIONS, "compare()")
    evidence = call.pop("evidence", None)
    test = SignificanceTest(**{name: call.pop(name, default) for name, default in TEST_DEFAULTS.items()})
    settings = Settings.from_options(call)
    check_evidence_given(settings.entities, evidence)
    check_protocol_paired(settings.protocol)
    check_bootstrap_options(
        settings.confidence_level, settings.n_bootstrap, settings.seed, use_aggregator=True, paired=test.bootstrap
    )
    return test, settings


class ScoredSystems(NamedTuple):
    """``score_systems``'s result, per system name in the given order: ``tables``, its per-example
    table, and ``columns``, what ``compare_scores`` takes: per output key the F1 of each example
    or, under ``average="micro"``, its counts (``micro.CountColumns``)."""

    tables: dict[str, dict[str, list]]
    columns: dict[str, Mapping[str, Any]]


def score_systems(
    sources: Sequence[str],
    references: Sequence[Any],
    systems: Mapping[str, Sequence[str]],
    settings: Settings,
    evidence: Sequence[Any] | None = None,
) -> ScoredSystems:
    """Score every system on the examples (see ``ScoredSystems``), under ``entities`` with the
    ``evidence`` of each example (as ``compute`` takes it).

    Every system's texts are checked first (errors name it as ``systems['name'][index]``);
    examples in which the tokenizer finds no token, for any system, get one ``NoTokensWarning``.
    """
    if not systems:
        raise OptionError(
            "systems", systems, (Name("systems"), " is empty: give a mapping of system names to their predictions")
        )
    checked = [
        check_inputs(sources, predictions, references, predictions_field=f"systems[{name!r}]")
        for name, predictions in systems.items()
    ]
    entity: Sequence[Any] = [None] * len(checked)
    if settings.entities is not None:
        checked_evidence = None if evidence is None else check_evidence(evidence, len(checked[0][0]))
        _, systems_checked, _ = zip(*checked)
        entity = entity_columns(settings, checked[0][0], systems_checked, checked[0][2], checked_evidence)
    scorer = UpdateRougeScorer(settings)
    active_tokenizer = settings.additions_tokenizer()
    tables: dict[str, dict[str, list]] = {}
    columns: dict[str, Mapping[str, Any]] = {}
    tokenless: list[bool] = []
    for (name, predictions), entity_scores in zip(systems.items(), entity):
        examples = scorer.examples(sources, predictions, references)
        flags = tokenless_examples(examples, active_tokenizer)
        tokenless = flags if not tokenless else [a or b for a, b in zip(tokenless, flags)]
        tables[name] = per_example_table(examples, settings.rouge_types, settings.deletions)
        counts = examples_counts(examples, settings.rouge_types)
        if entity_scores is not None:
            entity_table, entity_counts = entity_scores
            tables[name].update(entity_table)
            if counts is not None:
                counts[ENTITY_KEY] = entity_counts[ENTITY_KEY]
        columns[name] = f1_columns(tables[name], settings.rouge_types) if counts is None else as_arrays(counts)
    warn_tokenless(sum(tokenless), len(tokenless), deletions=settings.deletions)
    return ScoredSystems(tables, columns)


def compare_scores(
    scores: Mapping[str, Mapping[str, Any]],
    baseline: str,
    test: SignificanceTest | None = None,
    settings: Settings | None = None,
) -> dict[str, dict[str, float]]:
    """The statistics of ``compare`` from per-example scores (no texts, no scoring).

    ``scores`` maps each system name to its per-example columns keyed by output key (F1 per
    example, as ``corpus.f1_columns`` gives them; under ``average="micro"`` the ``n x 3`` counts
    of ``micro.CountColumns``); every system has the same keys and examples. ``test`` defaults to
    the paired bootstrap; ``settings`` (default ``Settings()``) give ``confidence_level``,
    ``n_bootstrap``, ``seed`` (of the randomization's trials too), ``average`` and ``alpha``. Returns, per system in the order
    of ``scores``, each key's mean (micro F under ``average="micro"``) and, unless
    ``confidence_level`` is ``None``, ``<key>_low`` and ``<key>_high``; for each system other
    than ``baseline`` also ``<key>_delta`` (its value minus the baseline's) and
    ``<key>_p_value`` (one-sided, Holm-adjusted with ``correction="holm"``) and, with the
    bootstrap test and a ``confidence_level``, ``<key>_delta_low`` and ``<key>_delta_high``.
    """
    test = test if test is not None else SignificanceTest()
    settings = settings if settings is not None else Settings()
    confidence_level, n_bootstrap, seed = settings.confidence_level, settings.n_bootstrap, settings.seed
    check_bootstrap_options(confidence_level, n_bootstrap, seed, use_aggregator=True, paired=test.bootstrap)
    names = list(scores)
    check_systems(names, baseline)
    keys = _check_alike(scores, baseline)
    others = [name for name in names if name != baseline]
    results: dict[str, dict[str, float]] = {}
    for name in names:
        paired_with = scores[baseline] if test.bootstrap and name != baseline else None
        results[name] = _statistics(scores[name], paired_with, settings)
    if not test.bootstrap:
        p_values = _randomization_p_values(scores, baseline, test.n_trials, settings).reshape(len(others), len(keys))
        for name, row in zip(others, p_values):
            for key, p_value in zip(keys, row):
                results[name][f"{key}_delta"] = results[name][key] - results[baseline][key]
                results[name][f"{key}_p_value"] = float(p_value)
    if test.correction == "holm":
        for key in keys:
            adjusted = holm([results[name][f"{key}_p_value"] for name in others])
            for name, p_value in zip(others, adjusted):
                results[name][f"{key}_p_value"] = float(p_value)
    return results


def _check_alike(scores: Mapping[str, Mapping[str, Any]], baseline: str) -> list[str]:
    """The baseline's keys; ``InputError`` of the system's scores unless every system has them,
    each with the same number of examples, more than none."""
    keys = list(scores[baseline])
    n_examples = len(scores[baseline][keys[0]]) if keys else 0
    for name, columns in scores.items():
        if list(columns) != keys or any(len(columns[key]) != n_examples for key in keys):
            where = Field(f"scores[{name!r}]")
            raise InputError(
                where, (where, f" must have the keys {keys} of the baseline, each with {n_examples} examples")
            )
    if n_examples == 0:
        raise InputError(
            Field("scores"),
            (Field("scores"), " hold no examples: there is nothing to compare; give each key one score per example"),
        )
    return keys


def _randomization_p_values(
    scores: Mapping[str, Mapping[str, Any]], baseline: str, n_trials: int, settings: Settings
) -> np.ndarray:
    """The paired approximate randomization's p-value of each system but ``baseline`` and each
    key, in that order (one flat array)."""
    others = [name for name in scores if name != baseline]
    keys = list(scores[baseline])
    if settings.average == "micro":
        pairs = [(np.asarray(scores[name][key]), np.asarray(scores[baseline][key])) for name in others for key in keys]
        return micro_randomization_p_values(pairs, settings.alpha, n_trials, settings.seed)
    differences = np.array(
        [
            np.asarray(scores[name][key], dtype=float) - np.asarray(scores[baseline][key], dtype=float)
            for name in others
            for key in keys
        ]
    )
    return randomization_p_values(differences, n_trials, settings.seed)


def _statistics(system: Mapping[str, Any], baseline: Mapping[str, Any] | None, settings: Settings) -> dict[str, float]:
    """One system's values, intervals and (with ``baseline``) paired bootstrap test, as
    ``compute`` gives them under ``settings.average``."""
    results = corpus_statistics(system, baseline, settings)
    # compare reports each type's value (micro F under micro), not micro precision and recall.
    return {key: value for key, value in results.items() if not key.endswith(("_precision", "_recall"))}


def comparison_signature(
    references: Sequence[Any] | None, n_systems: int, test: SignificanceTest, settings: Settings
) -> str:
    """The signature of a comparison of ``n_systems`` systems (the baseline included).

    ``signature.signature`` of the settings, then ``test:paired-bs``, or
    ``test:paired-ar|trials:<R>`` followed by ``seed:<seed>`` when no bootstrap already states
    the seed, then ``correction:none|holm`` and ``comparisons:<systems - 1>`` (the tests per
    rouge type).
    """
    fields = [signature(settings, references, paired=test.bootstrap)]
    fields += ["test:paired-bs"] if test.bootstrap else ["test:paired-ar", f"trials:{test.n_trials}"]
    if not test.bootstrap and settings.confidence_level is None:
        fields.append(f"seed:{settings.seed}")
    fields += [f"correction:{test.correction or 'none'}", f"comparisons:{n_systems - 1}"]
    return "|".join(fields)


# The public API: compute's options as keywords besides the systems and the test: PLR0913 waived.
def compare(  # noqa: PLR0913
    sources: Sequence[str],
    references: Sequence[Any],
    systems: Mapping[str, Sequence[str]],
    baseline: str,
    method: str = "bootstrap",
    correction: str | None = None,
    n_trials: int = DEFAULT_N_TRIALS,
    return_signature: bool = False,
    **options: Any,
) -> dict[str, Any]:
    """Compare several systems with a baseline on the same examples (see the module docstring).

    Args:
        sources, references: as for ``compute``, shared by every system.
        systems: system name -> its predictions (one text per example); names are non-empty
            strings other than ``"signature"``; ``baseline`` is one of them.
        method: ``"bootstrap"`` (paired bootstrap, ``n_bootstrap`` resamples) or
            ``"randomization"`` (paired approximate randomization, ``n_trials`` trials).
        correction: ``None`` or ``"holm"`` (Holm-Bonferroni over the systems, per rouge type;
            with ``deletions=True`` per output key, the deletions' apart).
        return_signature: add the signature under the key ``"signature"`` (see
            ``comparison_signature``).
        options: ``compute``'s options (``settings.OPTIONS``), with the same meaning; ``seed`` also
            seeds the trials. Not ``use_aggregator``, ``baseline_predictions`` or
            ``return_signature``. ``average="micro"`` works with both methods: the bootstrap
            resamples the examples' counts, the randomization swaps them (see the module's docstring).

    Returns:
        Per system name, in the order of ``systems``: ``update_<type>`` (mean F1, or micro F),
        ``update_<type>_low`` and ``_high`` (its interval, unless ``confidence_level`` is
        ``None``) and, for every system but the baseline, ``update_<type>_delta`` (in [-1, 1])
        and ``update_<type>_p_value`` (in (0, 1]), plain floats. With ``deletions=True`` the
        same keys for the deletions, ``update_del_<type>`` (``compute``'s under
        ``baseline_predictions``, bit for bit, with the bootstrap test); with ``entities=``
        (and ``evidence=``, one entry per example shared by every system) those of ``update_ent``
        (the same).
    """
    call = {**options, "baseline": baseline, "method": method, "correction": correction, "n_trials": n_trials}
    test, settings = check_comparison(list(systems), call)
    scored = score_systems(sources, references, systems, settings, options.get("evidence"))
    results: dict[str, Any] = compare_scores(scored.columns, baseline, test, settings)
    if return_signature:
        results[SIGNATURE_KEY] = comparison_signature(references, len(systems), test, settings)
    return results
