"""UpdateROUGE as a Hugging Face ``evaluate`` metric: declares the inputs and delegates.

``evaluate.load`` copies into its cache only this script and the modules it imports relatively
(it does not follow their own imports), so every module of the package is imported here.
"""

import datasets
import evaluate

# Imported only so that evaluate copies the module. No comment may follow an import line here:
# evaluate would read it as a URL to fetch the module from.
from .aggregation import ExampleScore
from .extraction import SEGMENT_PATTERN
from .pipeline import compute
from .rouge155 import Rouge155Tokenizer
from .rouge155_porter import porter_stem
from .scoring import DEFAULT_ROUGE_TYPES
from .stemming import STEMMERS
from .validation import check_inputs
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
sees one addition per line). When neither side adds anything the example scores 1.0. The
corpus score is the plain mean over examples.
"""

_KWARGS_DESCRIPTION = f"""
Computes UpdateROUGE over a list of examples.
Args:
    sources (`list` of `str`): the text each example starts from.
    predictions (`list` of `str`): the system's updated texts.
    references (`list` of `str`, or `list` of `list` of `str`): the reference updated texts,
        one per example or a non-empty list per example (the reference with the highest F1 is
        used for each rouge type, as in rouge-score's `score_multi`).
    rouge_types (`list` of `str`, optional): defaults to {list(DEFAULT_ROUGE_TYPES)}; any type
        rouge-score accepts: `rouge1` to `rouge9`, `rougeL`, `rougeLsum`.
    use_stemmer (`bool`, optional): `True` is an alias of `stemmer="porter"`, as in evaluate's
        rouge. Defaults to `False`.
    tokenizer (`callable`, optional): text -> list of tokens, replacing rouge-score's tokenizer
        (which keeps only [a-z0-9] and so sees no token in most non-Latin scripts); it cannot
        be combined with a stemmer.
    use_aggregator (`bool`, optional): `True` (default) returns means over examples, `False`
        one value per example, in input order.
    stemmer (`str`, optional): one of {", ".join(f"`{name}`" for name in STEMMERS)}. `none` (the
        default) does not stem; `porter` is rouge-score's Porter stemmer (NLTK), which differs
        from the original ROUGE-1.5.5's; `rouge155` tokenizes and stems as ROUGE-1.5.5 `-m`
        (WordNet 2.0 exception lists, then its Porter variant), so stemmed scores equal the
        Perl original's.
Returns:
    `update_<type>` (F1), `update_<type>_precision`, `update_<type>_recall`: in [0, 1].
    `_target_diff_len`, `_prediction_diff_len`: characters of the joined additions (>= 0).
    `_both_empty`: the number of examples (per example: whether) neither side added anything.
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
"""

_STRING = datasets.Value("string", id="sequence")


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
            codebase_urls=["https://github.com/google-research/google-research/tree/master/rouge"],
            reference_urls=["https://aclanthology.org/2022.naacl-main.269/", "https://aclanthology.org/W04-1013"],
        )

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Check the batch (naming field and index of any problem) before evaluate stores it."""
        check_inputs(kwargs.get("sources"), predictions, references)
        super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Check the example before evaluate stores it; its source is passed as ``sources=``."""
        check_inputs([kwargs.get("sources")], [prediction], [reference])
        super().add(prediction=prediction, reference=reference, **kwargs)

    def _compute(
        self,
        predictions,
        references,
        sources,
        rouge_types=None,
        use_stemmer=False,
        tokenizer=None,
        use_aggregator=True,
        stemmer=None,
    ):
        return compute(
            sources=sources,
            predictions=predictions,
            references=references,
            rouge_types=rouge_types,
            use_stemmer=use_stemmer,
            tokenizer=tokenizer,
            use_aggregator=use_aggregator,
            stemmer=stemmer,
        )
