"""UpdateROUGE in lighteval 0.13: the sample-level computation, the metric object lighteval expects,
and a task config for a local FRUIT-style JSONL file (both of lighteval's backends).

Needs the optional extra ``pip install 'update-rouge[lighteval]'``.

``update_rouge_metric(**options)`` is a ``SampleLevelMetricGrouping`` named ``update_<type>`` per
type (and ``update_del_<type>`` with ``deletions=True``). Its ``UpdateRougeComputation`` reads the
source from ``Doc.specific["source"]`` (``source_key=``), the reference(s) from the gold choices
and the prediction from the model's first final text; each sample's value is its F1 per type,
carrying the sample's triple and position. The corpus value of the first key scores all the
triples at once and returns every reported key (``update_<type>``, ``_low`` and ``_high``), so
the results are ``compute``'s exact means and seeded bootstrap interval of the same triples.

``fruit_jsonl_task(name, data_dir)`` is a ``LightevalTaskConfig`` for a folder holding
``test.jsonl`` (``source``, ``reference`` as a string or a list of strings, optional ``id``):
this metric for the accelerate/custom-model pipeline, ``inspect.update_rouge_scorer`` for the
inspect backend (``lighteval eval``).
"""

from typing import Any, cast

from ..extras import MissingExtra

try:
    from inspect_ai.dataset import Sample
    from lighteval.metrics.metrics_sample import SampleLevelComputation
    from lighteval.metrics.utils.metric_utils import SampleLevelMetricGrouping
    from lighteval.models.model_output import ModelResponse
    from lighteval.tasks.lighteval_task import LightevalTaskConfig
    from lighteval.tasks.requests import Doc, SamplingMethod
except ImportError as error:
    raise MissingExtra(
        "the lighteval metric needs the optional extra: pip install 'update-rouge[lighteval]'"
    ) from error

from .. import UpdateRougeScorer
from .harness_corpus import (
    Triple,
    as_references,
    as_triple,
    corpus_result,
    harness_settings,
    missing_source,
    named_settings,
    reported_keys,
    sample_keys,
    sample_values,
    settings_name,
)
from .inspect import update_rouge_scorer

PROMPT = "Update the text below with new information.\n\nText: {source}\n\nUpdated text:"
"""The FRUIT task's prompt (both backends)."""


class SampleValue(float):
    """A sample's F1 of one type, carrying the sample's settings name, (source, prediction,
    references) triple and position in the dataset (lighteval's ``Doc.id``, ``-1`` unless it is
    decimal digits, ``str.isdecimal``) for the corpus value. Pickles with them (for gathering across processes)."""

    name: str
    triple: Triple
    position: int

    def __new__(cls, value: float, name: str, triple: Triple, position: int) -> "SampleValue":
        made = super().__new__(cls, value)
        made.name, made.triple, made.position = name, triple, position
        return made

    def __reduce__(self) -> Any:
        return (SampleValue, (float(self), self.name, self.triple, self.position))


class UpdateRougeComputation(SampleLevelComputation):
    """The per-sample step of ``update_rouge_metric``: one ``SampleValue`` per ``update_<type>``
    (and ``update_del_<type>``: ``harness_corpus.sample_keys``)."""

    def __init__(self, source_key: str = "source", **options: Any):
        self.source_key = source_key
        self.settings = harness_settings(options)
        self.name = settings_name(self.settings)
        self._scorer = UpdateRougeScorer(self.settings)

    def compute(self, doc: Doc, model_response: ModelResponse, **kwargs: Any) -> dict[str, SampleValue]:
        where = f"the doc of task {doc.task_name!r} ({doc.query[:40]!r})"
        source = (doc.specific or {}).get(self.source_key)
        if source is None:
            raise missing_source(where, f"Doc.specific[{self.source_key!r}]")
        golds = [doc.gold_index] if isinstance(doc.gold_index, int) else list(doc.gold_index)
        texts = model_response.final_text
        triple = as_triple(source, texts[0] if texts else None, [doc.choices[i] for i in golds], where)
        example = self._scorer.score(triple[0], triple[1], list(triple[2]))
        position = int(doc.id) if str(doc.id).isdecimal() else -1
        return {
            key: SampleValue(value, self.name, triple, position)
            for key, value in sample_values(self.settings, example).items()
        }


def corpus_values(values: list[SampleValue]) -> dict[str, float]:
    """Every reported key of the samples' corpus: ``compute``'s means and interval ends of their
    triples in dataset order (lighteval shuffles its documents; the bootstrap's resamples follow
    the examples' order, so the samples are put back in the order of their ``Doc.id``)."""
    settings = named_settings((value.name for value in values), "update_rouge_metric")
    ordered = sorted(values, key=lambda value: value.position)
    result = corpus_result(settings, [value.triple for value in ordered])
    return {key: float(result[key]) for key in reported_keys(settings)}


def update_rouge_metric(source_key: str = "source", **options: Any) -> SampleLevelMetricGrouping:
    """The lighteval metric (see the module docstring); ``options`` are ``compute``'s settings."""
    computation = UpdateRougeComputation(source_key, **options)
    names = sample_keys(computation.settings)
    return SampleLevelMetricGrouping(
        metric_name=names,
        higher_is_better=cast(
            Any, dict.fromkeys(names, True)
        ),  # annotated Callable; lighteval's own metrics give bools
        category=SamplingMethod.GENERATIVE,
        sample_level_fn=computation,
        corpus_level_fn={name: corpus_values for name in names},
    )


def fruit_doc(line: dict[str, Any], task_name: str = "") -> Doc:
    """A FRUIT-style line as a lighteval ``Doc``: the prompt, the reference(s) as gold choices,
    the source (and id) in ``specific``."""
    references = list(as_references(line.get("reference"), "the line's 'reference'"))
    return Doc(
        task_name=task_name,
        query=PROMPT.format(source=line["source"]),
        choices=references,
        gold_index=list(range(len(references))),
        specific={"source": line["source"], "id": line.get("id")},
    )


def fruit_sample(line: dict[str, Any]) -> Sample:
    """A FRUIT-style line as an inspect ``Sample`` (lighteval's inspect backend)."""
    references = list(as_references(line.get("reference"), "the line's 'reference'"))
    return Sample(
        input=PROMPT.format(source=line["source"]),
        target=references,
        id=line.get("id"),
        metadata={"source": line["source"]},
    )


def fruit_jsonl_task(name: str, data_dir: str, generation_size: int = 512, **options: Any) -> LightevalTaskConfig:
    """A task config reading ``data_dir/test.jsonl`` (FRUIT-style lines) with ``update_rouge_metric``
    and, for the inspect backend, ``update_rouge_scorer``, both with ``options``."""
    return LightevalTaskConfig(
        name=name,
        prompt_function=fruit_doc,
        hf_repo=data_dir,
        hf_subset="default",
        hf_avail_splits=["test"],
        evaluation_splits=["test"],
        metrics=[update_rouge_metric(**options)],
        generation_size=generation_size,
        stop_sequence=["\n\n"],
        sample_fields=fruit_sample,
        scorer=cast(Any, update_rouge_scorer(**options)),  # annotated None; lighteval's inspect backend takes a scorer
    )
