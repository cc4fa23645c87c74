"""What the evaluation-harness integrations (``inspect``, ``lm_eval``, ``lighteval``) share: their
settings, the keys they report, and the corpus result of the triples a harness collected.

A harness collects one (source, prediction, references) triple per sample, then asks for corpus
values one key at a time; ``corpus_result`` scores the triples once per collection with
``compute``'s scorer (the same numbers, intervals and signature). Needs no extra.
"""

import dataclasses
import threading
from collections.abc import Iterable, Sequence
from typing import Any

from .. import Settings, UpdateRougeScorer
from ..entities import ENTITY_KEY
from ..errors import Field, InputError, Name, OptionError, Setting
from ..example_tables import DELETIONS_PREFIX, ExampleScore, score_keys
from ..inputs import _describe
from .refusals import NOT_ONE_RESULT, refuse_given

HARNESS_TYPES = ("rouge1", "rouge2", "rougeLsum")
"""The rouge types a harness reports unless ``rouge_types`` is given."""

Triple = tuple[str, str, tuple[str, ...]]
"""One sample as a harness keeps it: source, prediction, references (a tuple: hashable)."""


def harness_settings(options: dict[str, Any]) -> Settings:
    """The ``Settings`` of ``compute``-style ``options``, ``HARNESS_TYPES`` unless ``rouge_types``
    is given. Raises ``OptionError`` for an option ``compute`` refuses, for the options that are
    not one corpus value per key (``refusals.NOT_ONE_RESULT``) and for ``evidence``."""
    refuse_given(options, NOT_ONE_RESULT, "an evaluation harness", "it reports one corpus value per key and run")
    why = "a harness's sample carries its source and references, no evidence; use update_rouge.compute(...)"
    refuse_given(options, ("evidence",), "an evaluation harness", why)
    return Settings(**{"rouge_types": HARNESS_TYPES, **options})


def sample_keys(settings: Settings) -> list[str]:
    """The keys of a sample's values: ``update_<type>`` (its F1) of each type, with
    ``deletions=True`` ``update_del_<type>`` (its deletions' F1) of each type and, with
    ``entities=``, ``update_ent`` (its entities' F1)."""
    keys = score_keys(settings.rouge_types, settings.deletions)
    return keys + ([ENTITY_KEY] if settings.entities is not None else [])


def sample_values(settings: Settings, example: ExampleScore) -> dict[str, float]:
    """A sample's value of each key of ``sample_keys``: the F1 of its additions (and deletions,
    and entities)."""
    values = {f"update_{t}": float(example.scores[t].fmeasure) for t in settings.rouge_types}
    if settings.deletions:
        deleted = example.deletions.scores  # type: ignore[union-attr]
        values.update({f"{DELETIONS_PREFIX}{t}": float(deleted[t].fmeasure) for t in settings.rouge_types})
    if example.entities is not None:
        values[ENTITY_KEY] = example.entities.fmeasure
    return values


def reported_keys(settings: Settings) -> list[str]:
    """The keys a harness reports: each of ``sample_keys`` (the mean F1 of each type; with
    ``deletions=True`` the deletions' ``update_del_<type>`` too; with ``entities=``
    ``update_ent``) and, unless ``confidence_level``
    is ``None``, its interval ``<key>_low`` and ``<key>_high``."""
    keys = sample_keys(settings)
    if settings.intervals:
        keys += [f"{key}_{end}" for key in keys for end in ("low", "high")]
    return keys


def as_references(value: Any, where: str) -> tuple[str, ...]:
    """A sample's reference(s) (a string or a non-empty sequence of strings) as a tuple;
    ``InputError`` of the field ``reference`` whose message starts with ``where`` otherwise."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Sequence) and value and all(isinstance(text, str) for text in value):
        return tuple(value)
    problem = f"{where} must be a reference string or a non-empty list of them, got {_describe(value)}"
    raise InputError(Field("reference"), (problem,))


def as_triple(source: Any, prediction: Any, references: Any, where: str) -> Triple:
    """One sample's triple, its texts checked to be strings (``InputError`` of the field, naming ``where``)."""
    for field, text in (("source", source), ("prediction", prediction)):
        if not isinstance(text, str):
            raise InputError(Field(field), (f"{where}: the {field} must be a string, got {_describe(text)}",))
    return source, prediction, as_references(references, f"{where}: the reference")


def missing_source(where: str, held: str) -> InputError:
    """The refusal of a sample whose source is not where ``held`` (``Sample.metadata['source']``) says."""
    return InputError(
        Field("source"),
        (f"{where}: {held} must hold the source text: put it there, or name its key with ", Name("source_key")),
    )


_HOW = ("engine", "num_proc")
"""The settings of how a scorer runs, not of what it computes (every engine is bit-identical)."""
_NAMED: dict[str, Settings] = {}
_NAMED_LOCK = threading.Lock()


def settings_name(settings: Settings) -> str:
    """A name for ``settings`` that per-sample records carry (readable in a harness's logs): its
    signature (``UpdateRougeScorer.signature``, ``refs:unknown``). Remembered in this process, for
    ``named_settings``. Settings that differ only in ``engine`` or ``num_proc`` share the name (the
    last one's runs); two that differ otherwise with one signature (two custom tokenizers): the
    second raises ``OptionError`` naming the first option they differ in."""
    name = UpdateRougeScorer(settings).signature()
    with _NAMED_LOCK:
        known = _NAMED.get(name)
        differing = [] if known is None else _differing(known, settings)
        if differing:
            option = differing[0]
            raise OptionError(
                option,
                getattr(settings, option),
                (
                    Name(option),
                    f" differs from that of other settings in use in this process with the same signature, {name}, "
                    "which could not be told apart",
                ),
                [[Setting(option, getattr(known, option))]],
            )
        _NAMED[name] = settings
    return name


def _differing(known: Settings, settings: Settings) -> list[str]:
    """The fields of ``settings`` that decide the numbers (all but ``engine`` and ``num_proc``)
    and differ from ``known``'s."""
    fields = (field.name for field in dataclasses.fields(settings) if field.name not in _HOW)
    return [name for name in fields if getattr(known, name) != getattr(settings, name)]


def named_settings(names: Iterable[str], what: str) -> Settings:
    """The settings of ``names`` (``settings_name``), which must be one name known in this
    process; ``InputError`` naming ``what`` (the harness's key or metric) otherwise: no samples,
    samples of several settings, or settings this process has not created."""
    distinct = sorted(set(names))
    if not distinct:
        problem = "no samples were scored: there is no corpus result; score at least one sample"
    elif len(distinct) > 1:
        problem = (
            f"the samples were scored with {len(distinct)} different settings: {distinct}; "
            "aggregate the samples of each settings under their own task"
        )
    else:
        with _NAMED_LOCK:
            settings = _NAMED.get(distinct[0])
        if settings is not None:
            return settings
        problem = (
            f"the settings {distinct[0]!r} were not created in this process: create the scorer "
            "(the harness's UpdateROUGE helper, with the same options) before aggregating"
        )
    raise InputError(None, (f"{what}: {problem}",))


class _LastResult:
    """The last corpus result, keyed by its settings and triples (a harness asks once per key)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.key: tuple[Settings, tuple[Triple, ...]] | None = None
        self.result: dict[str, Any] = {}


_LAST = _LastResult()


def corpus_result(settings: Settings, triples: Sequence[Triple]) -> dict[str, Any]:
    """``compute``'s result, signature included, of ``triples`` under ``settings``: the means,
    intervals and signature ``compute(sources, predictions, references, **options,
    return_signature=True)`` gives the same inputs. The last result is kept, so asking for each
    key of one collection scores it once (``named_settings`` has refused no triples)."""
    triples = tuple(triples)
    key = (settings, triples)
    with _LAST.lock:
        if _LAST.key == key:
            return dict(_LAST.result)
        sources = [source for source, _, _ in triples]
        predictions = [prediction for _, prediction, _ in triples]
        references = [list(texts) for _, _, texts in triples]
        scorer = UpdateRougeScorer(settings)
        result = scorer.corpus(sources, predictions, references)
        result["signature"] = scorer.signature(references)
        _LAST.key, _LAST.result = key, result
        return dict(result)
