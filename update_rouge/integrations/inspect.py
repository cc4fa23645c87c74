"""UpdateROUGE as an inspect_ai scorer (also for lighteval's inspect backend, whose
``LightevalTaskConfig(scorer=...)`` takes it).

Needs the optional extra ``pip install 'update-rouge[inspect]'``.

``update_rouge_scorer(**options)`` scores each sample's model output against the reference(s) of
its target, reading the source from ``Sample.metadata["source"]`` (``source_key=``); ``options``
are ``compute``'s settings. A sample's value is a dict of its F1 per key (``update_rouge1``,
``update_del_rouge1``, ...), its metadata the source, references and the settings signature; the
metric ``update_rouge_corpus`` scores all the samples at once, so the log's metrics are
``compute``'s corpus means and seeded bootstrap interval (``update_<type>_low``, ``_high``) of
the same triples. Run with one epoch (the default): with several, inspect reduces each sample's
values before the metric sees them.
"""

from typing import Any

from ..extras import MissingExtra

try:
    from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
    from inspect_ai.solver import TaskState
except ImportError as error:
    raise MissingExtra("the inspect_ai scorer needs the optional extra: pip install 'update-rouge[inspect]'") from error

from .. import UpdateRougeScorer
from .harness_corpus import (
    Triple,
    as_triple,
    corpus_result,
    harness_settings,
    missing_source,
    named_settings,
    reported_keys,
    sample_values,
    settings_name,
)


@metric
def update_rouge_corpus() -> Metric:
    """The corpus values of ``update_rouge_scorer``'s samples: ``compute``'s means and interval
    ends (``harness_corpus.reported_keys``) of their triples, under the samples' settings."""

    def corpus(scores: list[SampleScore]) -> Value:
        triples: list[Triple] = []
        names = []
        for sample in scores:
            record = sample.score.metadata or {}
            names.append(record.get("signature", ""))
            where = f"sample {sample.sample_id!r}"
            triples.append(as_triple(record.get("source"), sample.score.answer, record.get("references"), where))
        settings = named_settings(names, "update_rouge_corpus")
        result = corpus_result(settings, triples)
        return {key: float(result[key]) for key in reported_keys(settings)}

    return corpus


@scorer(metrics=[update_rouge_corpus()], name="update_rouge")
def update_rouge_scorer(source_key: str = "source", **options: Any) -> Scorer:
    """UpdateROUGE of each sample (see the module docstring); ``options`` are ``compute``'s
    settings, checked here (``OptionError`` as ``compute`` raises it)."""
    settings = harness_settings(options)
    name = settings_name(settings)
    one = UpdateRougeScorer(settings)

    async def score(state: TaskState, target: Target) -> Score:
        where = f"sample {state.sample_id!r}"
        source = (state.metadata or {}).get(source_key)
        if source is None:
            raise missing_source(where, f"Sample.metadata[{source_key!r}]")
        source, prediction, references = as_triple(source, state.output.completion, list(target), where)
        example = one.score(source, prediction, list(references))
        return Score(
            value=dict(sample_values(settings, example)),
            answer=prediction,
            metadata={"source": source, "references": list(references), "signature": name},
        )

    return score
