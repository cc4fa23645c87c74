"""UpdateROUGE as a Hugging Face ``evaluate`` metric: declares the inputs and delegates.

``evaluate.load`` copies into its cache only this script and the modules it imports relatively
(it does not follow their own imports), so every module that ``compute`` needs, directly or
through another, is imported here, and no other (the demo and the command line import the
package; tests/publishing/test_architecture.py checks both ways).
"""

from typing import NamedTuple

import datasets
import evaluate

# Some names below are imported only so that evaluate copies their module. No comment may follow
# an import line here: evaluate would read it as a URL to fetch the module from.
from .bootstrap import DEFAULT_SEED
from .call_checks import checked_call
from .corpus import Corpus
from .edits import EditIndex
from .engines import ENGINES
from .entities import ENTITY_KEY
from .entity_extractors import DEFAULT_LABELS
from .environment import positive_integer
from .errors import InputError, OptionError, UnknownOptionError, UpdateRougeError, input_error, unknown_options
from .example_pipeline import score_checked
from .example_scoring import score_changes
from .example_tables import ExampleScore
from .example_workers import ExampleWorkers
from .extraction import SEGMENT_PATTERN
from .extras import MissingExtra
from .inputs import check_inputs
from .languages import ISO_639_1
from .lcs import lcs_length
from .lcs_limits import LcsTableTooLarge
from .metric import compute
from .micro import AVERAGES
from .no_tokens import NoTokensWarning
from .normalisation import normalise
from .option_numbers import is_real
from .parallel import starmap_in_order
from .protocols import PROTOCOLS
from .rouge155_options import DEFAULT_ALPHA
from .rouge155_porter import porter_stem
from .rouge155_stopwords import STOPWORDS_TEXT
from .rouge155_tokens import Rouge155Tokenizer
from .rouge_types import DEFAULT_ROUGE_TYPES
from .rust_engine import RustEngine
from .scores import Score
from .sentences import SENTENCE_PATTERN
from .settings import DEFAULTS, OPTIONS, compute_parameters, describe_options
from .signature import build_signature
from .skipbigrams import parse_skip_bigram_type
from .stemming import STEMMERS
from .stop_signals import STOP_SIGNALS
from .tokens import DefaultTokenizer
from .unicode_assigned import ASSIGNED
from .unicode_patterns import one_of
from .unicode_tables import UNICODE_VERSION
from .version import __version__
from .wlcs import weighted_lcs_counts
from .word_segmenters import segmenter_versions
from .wordnet_exceptions import EXCEPTION_LISTS

_CITATION = """\
@inproceedings{iv-etal-2022-fruit,
    title = "{FRUIT}: Faithfully Reflecting Updated Information in Text",
    author = "Iv, Robert and Passos, Alexandre and Singh, Sameer and Chang, Ming-Wei",
    booktitle = "Proceedings of the 2022 Conference of the North American Chapter of the Association for Computational Linguistics: Human Language Technologies",
    year = "2022",
    address = "Seattle, United States",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/2022.naacl-main.269/",
    doi = "10.18653/v1/2022.naacl-main.269",
    pages = "3670--3686"
}
@inproceedings{lin-2004-rouge,
    title = "{ROUGE}: A Package for Automatic Evaluation of Summaries",
    author = "Lin, Chin-Yew",
    booktitle = "Text Summarization Branches Out",
    year = "2004",
    address = "Barcelona, Spain",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/W04-1013",
    pages = "74--81"
}
"""

_DESCRIPTION = f"""\
UpdateROUGE scores only what an updated text adds to its source. The reference and the
prediction are split into segments with the regular expression `{SEGMENT_PATTERN.pattern}`;
stripped, non-empty segments that are not substrings of the source are the additions. Each
side's additions are joined one per line and scored with Google's rouge-score (so rougeLsum
sees one addition per line; an addition holding a newline splits there). When neither side adds anything the example scores 1.0. The
corpus score is the plain mean over examples.
"""

_KWARGS_DESCRIPTION = (
    """
Computes UpdateROUGE over a list of examples.
Args:
    sources (`list` of `str`): the text each example starts from.
    predictions (`list` of `str`): the system's updated texts.
    references (`list` of `str`, or `list` of `list` of `str`): the reference updated texts,
        one per example or a non-empty list per example (combined as `multi_ref` says).
"""
    + describe_options(OPTIONS)
    + """Returns:
    `update_<type>` (F1), `update_<type>_precision`, `update_<type>_recall`: in [0, 1].
    `_target_diff_len`, `_prediction_diff_len`: characters of the joined additions (>= 0).
    `_both_empty`: the number of examples (per example: whether) the no-additions rule applied.
    `update_<type>_low`, `update_<type>_high`: the bootstrap interval of the mean F1.
    `update_<type>_delta`: mean F1 minus the baseline's, with its bootstrap interval
        `update_<type>_delta_low`, `update_<type>_delta_high`; `update_<type>_p_value`: one-sided
        p-value that the system is not better than the baseline, (1 + k) / (n_bootstrap + 1)
        with k the resamples whose mean difference is <= 0.
    With `deletions=True`: the same keys for what each text deletes from its source,
        `update_del_<type>` (and `_precision`, `_recall`, `_low`, `_high`, `_delta`, ...), and
        `_both_kept`: the number of examples (per example: whether) neither side deleted anything.
    Under `protocol="fruit"` or `"editeval"`: `update_<type>` and its `_precision` and `_recall` are
        the bootstrap median of rouge-score's BootstrapAggregator (FRUIT's x 100, in [0, 100]; per
        example the scores stay in [0, 1]), `_low` and `_high` its interval; no paired test.
    With `entities=...` (docs/entities.md): `"""
    + ENTITY_KEY
    + """` (F1 of the prediction's new entities against the
        reference's; `_precision`, `_recall`, `_low`, `_high`, `_delta`, ...), `update_ent_outdated_kept`
        (the mean over the `_ent_outdated_defined` examples where it is defined), with `evidence=...`
        `update_ent_unsupported`, and `_ent_both_empty`: counts of examples (per example: values).
Examples:
    A reference that adds "Dan loves chocolate cakes." and a prediction that adds "Dan loves
    chocolate chip cookies.": 3 of the prediction's 5 words match 3 of the reference's 4.

    >>> import evaluate
    >>> update_rouge = evaluate.load("update_rouge")
    >>> results = update_rouge.compute(
    ...     sources=["Dan is a baker."],
    ...     predictions=["Dan is a baker. Dan loves chocolate chip cookies."],
    ...     references=["Dan is a baker. Dan loves chocolate cakes."],
    ... )
    >>> print(results["update_rouge1_precision"], results["update_rouge1_recall"])
    0.6 0.75
    >>> print(round(results["update_rouge1"], 4), round(results["update_rouge2"], 4))
    0.6667 0.5714

    Per example, with two references for the second example; the first example adds nothing
    on either side and scores 1.0:

    >>> results = update_rouge.compute(
    ...     sources=["The sky is blue.", "Paris is in France."],
    ...     predictions=["The sky is blue.", "Paris is in France. It is the capital."],
    ...     references=[
    ...         ["The sky is blue."],
    ...         ["Paris is in France. It is big.", "Paris is in France. It is the capital city."],
    ...     ],
    ...     rouge_types=["rouge1"],
    ...     use_aggregator=False,
    ... )
    >>> print([round(score, 4) for score in results["update_rouge1"]], results["_both_empty"])
    [1.0, 0.8889] [True, False]

    ROUGE-1.5.5's pooled references (`-f A`): with an empty source the texts are the additions.
    The prediction matches 5 of the first reference's 9 words and 7 of the second's 8, so the
    pooled recall is 12/17 and the precision 12 / (2 x 9):

    >>> results = update_rouge.compute(
    ...     sources=[""],
    ...     predictions=["The quick brown fox jumps over the lazy dog"],
    ...     references=[["A fast brown dog jumps over a sleeping fox", "A quick brown dog jumps over the fox"]],
    ...     rouge_types=["rouge1"],
    ...     multi_ref="pooled",
    ... )
    >>> print(round(results["update_rouge1_recall"], 5), round(results["update_rouge1_precision"], 5))
    0.70588 0.66667

    ROUGE-1.5.5's `-s`: without its stopwords ("the", "on", "a"), 2 of 3 words match ("slept",
    "mat"), where 3 of 6 match with them:

    >>> results = update_rouge.compute(
    ...     sources=[""],
    ...     predictions=["The cat slept on the mat."],
    ...     references=["A dog slept on a mat."],
    ...     rouge_types=["rouge1"],
    ...     remove_stopwords=True,
    ... )
    >>> print(round(results["update_rouge1_precision"], 4), round(results["update_rouge1_recall"], 4))
    0.6667 0.6667

    `language=` (here Russian) finds the words rouge-score's `[a-z0-9]` tokenizer drops: the
    prediction adds 3 of the reference's 4 new words.

    >>> results = update_rouge.compute(
    ...     sources=["Москва — столица России."],
    ...     predictions=["Москва — столица России. Это большой город."],
    ...     references=["Москва — столица России. Это очень большой город."],
    ...     rouge_types=["rouge1"],
    ...     language="ru",
    ... )
    >>> print(results["update_rouge1_precision"], results["update_rouge1_recall"])
    1.0 0.75

    A 95% interval for the mean (on by default, seeded, so the same on every run) and a paired
    test against a baseline that returns its sources unchanged:

    >>> kwargs = dict(
    ...     sources=["Dan is a baker.", "Ann is a nurse.", "Bo is a cat.", "It rained."],
    ...     predictions=[
    ...         "Dan is a baker. Dan loves cakes.", "Ann is a nurse. Ann works nights.",
    ...         "Bo is a cat. Bo is old.", "It rained. The river rose.",
    ...     ],
    ...     references=[
    ...         "Dan is a baker. Dan loves chocolate cakes.", "Ann is a nurse. Ann works at night.",
    ...         "Bo is a cat. Bo is ten years old.", "It rained. The river flooded.",
    ...     ],
    ...     rouge_types=["rouge1"],
    ... )
    >>> results = update_rouge.compute(**kwargs, baseline_predictions=kwargs["sources"])
    >>> print([round(results[key], 4) for key in ["update_rouge1", "update_rouge1_low", "update_rouge1_high"]])
    [0.7113, 0.6161, 0.8095]
    >>> print([round(results[key], 4) for key in ["update_rouge1_delta", "update_rouge1_delta_low", "update_rouge1_delta_high"]])
    [0.7113, 0.6161, 0.8095]
    >>> print(round(results["update_rouge1_p_value"], 4))
    0.001

    `deletions=True` also scores what each text removes from its source. The prediction adds
    the new fact but keeps the stale sentence the reference removed: its additions score 1.0,
    its deletions 0.0.

    >>> results = update_rouge.compute(
    ...     sources=["Dan is a baker. Dan lives in Rome."],
    ...     predictions=["Dan is a baker. Dan lives in Rome. Dan lives in Paris."],
    ...     references=["Dan is a baker. Dan lives in Paris."],
    ...     rouge_types=["rouge1"],
    ...     deletions=True,
    ... )
    >>> print(results["update_rouge1"], results["update_del_rouge1"], results["_both_kept"])
    1.0 0.0 0

    The signature of these settings (its last three fields are the versions of update-rouge,
    rouge-score and numpy):

    >>> print(update_rouge.signature(**kwargs).rsplit("|", 3)[0])
    refs:1|seg:[^.]+\\.?|join:\\n|tok:rouge-score|stem:none|types:rouge1|multiref:max_f1|agg:mean|boot:1000|seed:12345|ci:0.95
"""
)

_STRING = datasets.Value("string", id="sequence")


def _check_keys(kwargs, expected: str) -> None:
    """``UnknownOptionError`` (a ``TypeError``) naming the expected keys for any keyword but
    ``sources`` (such as ``source=``)."""
    unknown = sorted(set(kwargs) - {"sources"})
    if unknown:
        named = ", ".join(f"{key}=" for key in unknown)
        raise UnknownOptionError(
            unknown[0], kwargs[unknown[0]], (f"unexpected keyword argument(s) {named}: use {expected}",)
        )


class _Failed(NamedTuple):
    """The error ``compute`` raised inside evaluate's ``compute``, carried out of it as its result."""

    error: BaseException


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class UpdateRouge(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features(
                    {"predictions": _STRING, "references": datasets.Sequence(_STRING), "sources": _STRING}
                ),
                datasets.Features({"predictions": _STRING, "references": _STRING, "sources": _STRING}),
            ],
            codebase_urls=["https://pypi.org/project/update-rouge/"],
            reference_urls=["https://aclanthology.org/2022.naacl-main.269/", "https://aclanthology.org/W04-1013"],
        )

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Check the batch (naming field and index of any problem, or the batch whose form of
        references differs from the batches stored before it) before evaluate stores it."""
        _check_keys(kwargs, "add_batch(predictions=..., references=..., sources=...)")
        check_inputs(kwargs.get("sources"), predictions, references)
        several = not isinstance(next(iter(references)), str)
        self._check_reference_form(several, "add_batch")
        super().add_batch(predictions=predictions, references=references, **kwargs)
        self._forms.append(several)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Check the example before evaluate stores it; its source is passed as ``sources=``."""
        _check_keys(kwargs, "add(prediction=..., reference=..., sources=...) (sources= names the one source too)")
        check_inputs([kwargs.get("sources")], [prediction], [reference])
        several = not isinstance(reference, str)
        self._check_reference_form(several, "add")
        super().add(prediction=prediction, reference=reference, **kwargs)
        self._forms.append(several)

    def _check_reference_form(self, several: bool, call: str) -> None:
        """``InputError`` of ``references`` at the call's first example (counted since the last
        ``compute``), naming this call and the stored ones, when its references are lists and
        theirs strings, or the reverse: evaluate stores one form until ``compute``. ``_forms``
        holds the form of each call stored since the last ``compute``."""
        if len(self) == 0:  # nothing stored since the last compute
            self._forms: list[bool] = []
        forms = self._forms
        if forms and forms[0] != several:
            kinds = ("single references (strings)", "lists of references")
            raise input_error(
                "references",
                len(self),
                f"({call} call {len(forms) + 1} since the last compute) gives {kinds[several]}, but call 1 gave "
                f"{kinds[not several]}: every example until compute needs the same form; give every reference "
                "as a list (a single reference as a list of one)",
            )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """evaluate's ``compute``, with its options checked before evaluate stores anything, and
        evaluate's cache files and locks released when scoring fails.

        An unknown or bad option raises ``UnknownOptionError`` (a ``TypeError``) or
        ``OptionError`` (a ``ValueError``) naming it before the
        batches are touched, so batches given to ``add_batch`` stay for the next ``compute``.
        evaluate holds a file lock on its cache from ``_finalize`` until ``_compute`` returns, and
        releases it only then: so ``_compute`` returns an error of the scoring rather than raising
        it, and this method raises it once evaluate has released the lock and removed its cache
        files. An error in the data of ``compute`` itself (checked as ``add_batch`` checks it)
        leaves earlier ``add_batch`` batches stored.
        """
        options = {name: value for name, value in kwargs.items() if name not in self.features[0]}
        unknown_options(options, DEFAULTS, "compute()")
        checked_call(options)
        output = super().compute(predictions=predictions, references=references, **kwargs)
        if isinstance(output, _Failed):
            raise output.error
        return output

    def _compute(self, predictions, references, sources, **options):
        try:
            return compute(sources=sources, predictions=predictions, references=references, **options)
        except BaseException as error:
            return _Failed(error)

    _compute.__signature__ = compute_parameters(["self", "predictions", "references", "sources"])  # type: ignore[attr-defined]

    def signature(self, **compute_kwargs):
        """The settings signature of ``compute(**compute_kwargs)``, one string (see docs/statistics.md).

        Pass the same keyword arguments as to ``compute``; with ``references=`` the signature
        states the number of references per example, without them ``refs:unknown``.
        """
        return build_signature(**compute_kwargs)
