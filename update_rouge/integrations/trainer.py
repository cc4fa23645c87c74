"""A ``compute_metrics`` for transformers' ``Seq2SeqTrainer`` with ``predict_with_generate=True``.

Needs only numpy; torch and transformers are the caller's. The sources come from the decoded
model inputs (``include_for_metrics=["inputs"]``, the task prefix stripped) or from ``sources=``
in the order of the eval dataset (and ``evidence=`` so, under ``entities=``). With
``batch_eval_metrics=True`` the helper keeps the batches of one evaluation until its last one,
and forgets them after it or any error inside it; ``attach(trainer)`` makes every evaluation
start empty, even after one interrupted elsewhere.
"""

import dataclasses
import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..corpus import Corpus
from ..entities import check_evidence_given
from ..errors import LEFT_OUT, Field, InputError, Name, OptionError, Setting, input_error
from ..metric import UpdateRougeScorer
from ..no_tokens import warn_tokenless
from ..settings import Settings
from .refusals import NOT_ONE_RESULT, refuse_given

IGNORED_ID = -100


def _as_ids(array: Any) -> np.ndarray:
    """Token ids as a 2-D numpy array; a tuple gives its first element, a tensor is moved to the CPU."""
    if isinstance(array, tuple):
        array = array[0]
    if hasattr(array, "detach"):
        array = array.detach().cpu().numpy()
    return np.asarray(array)


class UpdateRougeComputeMetrics:
    """Callable ``compute_metrics``; see ``make_compute_metrics``."""

    def __init__(
        self,
        processing_class: Any,
        sources: Sequence[str] | None = None,
        task_prefix: str | None = None,
        evidence: Sequence[Any] | None = None,
        **compute_kwargs: Any,
    ):
        refuse_given(
            compute_kwargs, NOT_ONE_RESULT, "a Trainer", "it logs corpus means and intervals, one float per key"
        )
        if sources is not None and task_prefix is not None:
            raise OptionError(
                "task_prefix",
                task_prefix,
                (Name("task_prefix"), " applies to the decoded inputs, which ", Name("sources"), " replace"),
                [[Setting("task_prefix", LEFT_OUT)], [Setting("sources", LEFT_OUT)]],
            )
        self.processing_class = processing_class
        self.sources = None if sources is None else list(sources)
        self.evidence = None if evidence is None else list(evidence)
        self.task_prefix = task_prefix
        self.settings = Settings(**compute_kwargs)
        check_evidence_given(self.settings.entities, evidence)
        self._scorer = UpdateRougeScorer(dataclasses.replace(self.settings, use_aggregator=False))
        self.reset()

    def _decode(self, array: Any, field: str) -> list[str]:
        """The texts of ``array``'s rows; ``InputError`` naming the example, the position and the
        id when the tokenizer cannot decode one (an id beyond its integer type, 2**32 for a fast
        tokenizer, raised a bare ``OverflowError``)."""
        ids = self._ids(array, field)
        decode = self.processing_class.batch_decode
        try:
            return decode(ids, skip_special_tokens=True)
        except (OverflowError, IndexError) as error:
            for row in range(len(ids)):
                try:
                    decode(ids[row : row + 1], skip_special_tokens=True)
                except (OverflowError, IndexError):
                    column = int(np.argmax(ids[row]))
                    raise input_error(
                        field,
                        self._offset + row,
                        f"holds the id {ids[row, column]} at position {column}, which the tokenizer cannot decode "
                        f"({type(error).__name__}: {error}); its ids are 0 to {len(self.processing_class) - 1}",
                    ) from error
            raise

    def _ids(self, array: Any, field: str) -> np.ndarray:
        """``array`` as a 2-D array of token ids with -100 replaced by the pad id; ``InputError``
        naming ``field`` (and the example, counted over the evaluation) for anything else."""
        ids = _as_ids(array)
        if np.issubdtype(ids.dtype, np.floating):
            nan = np.argwhere(np.isnan(ids))
            if len(nan):
                example = self._offset + int(nan[0][0]) if ids.ndim else None
                raise input_error(
                    field,
                    example,
                    "holds NaN, which is no token id: the model's output is not a number (a diverged model: "
                    "check its training loss)",
                )
            raise input_error(
                field,
                None,
                f"are floats of shape {ids.shape}, logits rather than token ids: set predict_with_generate=True "
                "in Seq2SeqTrainingArguments, or pass preprocess_logits_for_metrics=lambda logits, labels: "
                "logits.argmax(-1) to the Trainer",
            )
        if ids.ndim != 2 or not np.issubdtype(ids.dtype, np.integer):
            raise input_error(
                field, None, f"must be token ids of shape (examples, tokens), got {ids.dtype} of shape {ids.shape}"
            )
        ids = np.where(ids == IGNORED_ID, self.processing_class.pad_token_id, ids)
        negative = np.argwhere(ids < 0)
        if len(negative):
            row, column = negative[0]
            raise input_error(
                field,
                self._offset + int(row),
                f"holds the id {ids[row, column]} at position {column}: token ids are >= 0, and only {IGNORED_ID} "
                "is read as padding; pad with it or with the tokenizer's pad_token_id",
            )
        return ids

    def _strip_prefix(self, texts: list[str]) -> list[str]:
        if not self.task_prefix:
            return texts
        prefix_ids = self.processing_class(self.task_prefix, add_special_tokens=False)["input_ids"]
        decoded_prefix = self.processing_class.decode(prefix_ids, skip_special_tokens=True)
        # The longest form first, so that a form that is a prefix of the other cannot leave a remnant.
        forms = sorted({self.task_prefix.strip(), decoded_prefix.strip()}, key=len, reverse=True)
        stripped = []
        for index, text in enumerate(texts):
            form = next((form for form in forms if text.startswith(form)), None)
            if form is None:
                where = Field("inputs", self._offset + index)
                raise InputError(
                    where,
                    (
                        where,
                        f" decodes to {text[:60]!r}, which does not start with ",
                        Setting("task_prefix", self.task_prefix),
                        ": give as ",
                        Name("task_prefix"),
                        " the prefix your preprocessing adds (none: leave it out), or give ",
                        Name("sources"),
                    ),
                )
            stripped.append(text[len(form) :].lstrip())
        return stripped

    def _batch_of(self, name: str, values: list, count: int, last: bool) -> list:
        """The entries of ``values`` (``sources=`` or ``evidence=``, one per example of the eval
        dataset) of the batch of ``count`` examples; ``InputError`` where they are too few or, at
        the ``last`` batch, too many."""
        end = self._offset + count
        if end > len(values) or (last and end != len(values)):
            raise input_error(
                name,
                None,
                f"has {len(values)} entries but the evaluation has {end if last else 'more'} examples: "
                f"give one {name} entry per example of the eval dataset, in its order",
            )
        return values[self._offset : end]

    def _sources(self, inputs: Any, count: int, last: bool) -> list[str]:
        if self.sources is not None:
            return self._batch_of("sources", self.sources, count, last)
        if inputs is None:
            raise InputError(
                Field("inputs"),
                (
                    "no sources: the EvalPrediction has no ",
                    Field("inputs"),
                    '; set include_for_metrics=["inputs"] in the training arguments, or give ',
                    Name("sources"),
                ),
            )
        if hasattr(inputs, "keys"):  # batch_eval_metrics passes the whole batch of model inputs
            inputs = inputs[self.processing_class.model_input_names[0]]
        return self._strip_prefix(self._decode(inputs, "inputs"))

    def _add(self, eval_prediction: Any, last: bool) -> None:
        predictions = self._decode(eval_prediction.predictions, "predictions")
        references = self._decode(eval_prediction.label_ids, "label_ids")
        sources = self._sources(eval_prediction.inputs, len(predictions), last)
        evidence = None if self.evidence is None else self._batch_of("evidence", self.evidence, len(sources), last)
        try:
            tables = self._scorer.tables(sources, predictions, references, evidence=evidence)
        except InputError as error:  # LcsTableTooLarge and TokenizerError among them
            if not self._offset:
                raise
            # Indices in the batch become indices in the evaluation (batch_eval_metrics).
            raise error.shifted(self._offset) from error
        warn_tokenless(tables.tokenless, len(predictions), deletions=self.settings.deletions)
        self._corpus.add(tables.table, references, counts=tables.counts)
        self._offset += len(predictions)

    def __call__(self, eval_prediction: Any, compute_result: bool | None = None) -> dict[str, float]:
        """Scores of an ``EvalPrediction``: corpus means as floats, keys ``update_<type>`` etc.

        Without ``compute_result`` the prediction holds the whole eval set. With
        ``batch_eval_metrics=True`` batches are accumulated (``corpus.Corpus``) and the result,
        ``compute``'s on the whole eval set, is returned with the last one (``compute_result=True``;
        an empty dict before it).
        """
        try:
            self._add(eval_prediction, last=compute_result is not False)
        except BaseException:
            self.reset()
            raise
        if compute_result is False:
            return {}
        # An update_ent_outdated_kept defined in no example (None) is NaN: a Trainer logs floats.
        result = {key: math.nan if value is None else float(value) for key, value in self._corpus.result().items()}
        self.reset()
        return result

    def reset(self) -> None:
        """Forget the batches of an unfinished evaluation (``attach`` does it at each one's start)."""
        self._corpus = Corpus(self.settings)
        self._offset = 0

    def attach(self, trainer: Any) -> Any:
        """Make each of ``trainer``'s evaluations start with no batches; returns ``trainer``.

        Wraps ``trainer.evaluation_loop`` (once per evaluation), so that the batches of an
        evaluation interrupted outside ``compute_metrics`` never enter the next one.
        """
        loop = trainer.evaluation_loop
        if getattr(loop, "update_rouge_metrics", None) is self:
            return trainer

        @functools.wraps(loop)
        def evaluation_loop(*args: Any, **kwargs: Any) -> Any:
            self.reset()
            return loop(*args, **kwargs)

        evaluation_loop.update_rouge_metrics = self  # type: ignore[attr-defined]
        trainer.evaluation_loop = evaluation_loop
        return trainer


def make_compute_metrics(
    processing_class: Any,
    sources: Sequence[str] | None = None,
    task_prefix: str | None = None,
    evidence: Sequence[Any] | None = None,
    **compute_kwargs: Any,
) -> UpdateRougeComputeMetrics:
    """Build a ``compute_metrics`` for ``Seq2SeqTrainer(..., compute_metrics=...)``.

    Args:
        processing_class: the tokenizer the Trainer got as ``processing_class=``; it decodes
            predictions, labels and inputs after -100 is replaced by its pad id.
        sources: the raw source text of each eval example, in eval dataset order; use it
            when decoded inputs differ from the sources (truncated inputs, a lossy tokenizer).
        task_prefix: a prefix your preprocessing put before each input (``"update: "``),
            removed from the decoded inputs; an input without it raises ``InputError``.
        evidence: with ``entities=``, the evidence of each eval example (a string or a list of
            strings), in eval dataset order, as ``sources``.
        **compute_kwargs: further options of ``compute`` (``settings.OPTIONS``); not those of
            ``refusals.NOT_ONE_RESULT`` (``OptionError`` naming it).

    Returns:
        A callable taking an ``EvalPrediction`` (and ``compute_result`` for
        ``batch_eval_metrics=True``) and returning ``{"update_rouge1": float, ...}``; the Trainer
        reports them as ``eval_update_rouge1`` and so on, ``_both_empty`` as a float count. With
        ``deletions=True`` also the deletions' ``update_del_<type>`` (and ``_precision``,
        ``_recall``, ``_low``, ``_high``) and ``_both_kept``, a float count too. With
        ``entities=`` also ``compute``'s entity keys (``update_ent``, ..., float counts for
        ``_ent_both_empty`` and ``_ent_outdated_defined``; ``update_ent_outdated_kept`` NaN
        where no example defines it).
    """
    return UpdateRougeComputeMetrics(
        processing_class, sources=sources, task_prefix=task_prefix, evidence=evidence, **compute_kwargs
    )
