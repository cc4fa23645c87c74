"""average="micro": corpus precision, recall and F from counts summed over the examples.

The expected counts are made here without the package's engines: rouge-score's own tokenizer,
``collections.Counter`` of n-grams, rouge-score's LCS table and union LCS. Only the additions
(what each text adds to its source, ``extraction``, tested on its own) come from the package.
"""

import collections
import math
from typing import NamedTuple

import numpy as np
import pytest
from conftest import TRIPLE_FILES, read_jsonl
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer
from rouge_score.scoring import fmeasure

from update_rouge.extraction import SEGMENT_PATTERN, SourceIndex, join_segments
from update_rouge.files import corpus_of_rows
from update_rouge.metric import compute
from update_rouge.settings import Settings

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


TOKENIZERS = {stem: rouge_scorer.RougeScorer(["rouge1"], use_stemmer=stem)._tokenizer for stem in (False, True)}


def rouge_score_tokens(text, stem):
    return TOKENIZERS[stem].tokenize(text)


def independent_counts(reference, prediction, rouge_type, stem=False):
    """(hits, reference count, prediction count) of one text pair, as rouge-score counts them."""
    if rouge_type == "rougeLsum":
        ref_lines = [rouge_score_tokens(line, stem) for line in reference.split("\n") if line]
        pred_lines = [rouge_score_tokens(line, stem) for line in prediction.split("\n") if line]
        ref_total, pred_total = sum(map(len, ref_lines)), sum(map(len, pred_lines))
        if not ref_total or not pred_total:
            return 0, ref_total, pred_total
        left_ref = collections.Counter(t for line in ref_lines for t in line)
        left_pred = collections.Counter(t for line in pred_lines for t in line)
        hits = 0
        for line in ref_lines:
            for token in rouge_scorer._union_lcs(line, pred_lines):
                if left_pred[token] > 0 and left_ref[token] > 0:
                    hits += 1
                    left_pred[token] -= 1
                    left_ref[token] -= 1
        return hits, ref_total, pred_total
    ref, pred = rouge_score_tokens(reference, stem), rouge_score_tokens(prediction, stem)
    if rouge_type == "rougeL":
        hits = rouge_scorer._lcs_table(ref, pred)[-1][-1] if ref and pred else 0
        return hits, len(ref), len(pred)
    n = int(rouge_type[5:])
    ref_grams = collections.Counter(zip(*(ref[i:] for i in range(n))))
    pred_grams = collections.Counter(zip(*(pred[i:] for i in range(n))))
    hits = sum(min(count, pred_grams[gram]) for gram, count in ref_grams.items())
    return hits, sum(ref_grams.values()), sum(pred_grams.values())


def additions(source, text):
    return join_segments(SourceIndex(source, SEGMENT_PATTERN).additions(text))


def micro_by_hand(hits, reference, prediction):
    precision = hits / prediction if prediction else 0.0
    recall = hits / reference if reference else 0.0
    return precision, recall, fmeasure(precision, recall)


def triples(name):
    rows = read_jsonl(name)
    return [r["source"] for r in rows], [r["prediction"] for r in rows], [r["reference"] for r in rows]


# The wiki file (745 long examples) takes a minute even without its LCS types: a slow test.
FILES = [pytest.param(name, marks=pytest.mark.slow) if name.startswith("wiki") else name for name in TRIPLE_FILES]


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("name", FILES)
def test_micro_values_equal_independent_counts_on_the_bundled_data(name, stem):
    sources, predictions, references = triples(name)
    # The wiki file's long texts take over 15 minutes in rouge-score's pure-Python LCS table:
    # its LCS types are left to the other files.
    types = TYPES[:2] if name.startswith("wiki") else TYPES
    result = compute(
        sources,
        predictions,
        references,
        rouge_types=list(types),
        use_stemmer=stem,
        average="micro",
        confidence_level=None,
    )
    for rouge_type in types:
        sums = [0, 0, 0]
        for source, prediction, reference in zip(sources, predictions, references):
            ref_add, pred_add = additions(source, reference), additions(source, prediction)
            if not ref_add and not pred_add:
                continue  # the no-additions rule: the example contributes no counts
            for i, count in enumerate(independent_counts(ref_add, pred_add, rouge_type, stem)):
                sums[i] += count
        assert sums[0] > 0  # the data exercise the sums
        precision, recall, f = micro_by_hand(*sums)
        key = f"update_{rouge_type}"
        assert (result[f"{key}_precision"], result[f"{key}_recall"], result[key]) == (precision, recall, f)


def test_the_worked_example_of_the_docs():
    # docs/statistics.md: one prediction too short, one too long; each example's F1 is 1/3.
    sources = ["Intro.", "Intro."]
    references = ["Intro. Alpha beta gamma delta epsilon.", "Intro. Zeta."]
    predictions = ["Intro. Alpha.", "Intro. Zeta eta theta iota kappa."]
    macro = compute(sources, predictions, references, rouge_types=["rouge1"], confidence_level=None)
    micro = compute(sources, predictions, references, rouge_types=["rouge1"], confidence_level=None, average="micro")
    assert macro["update_rouge1_precision"] == (1.0 + 0.2) / 2 == 0.6
    assert macro["update_rouge1_recall"] == 0.6
    assert macro["update_rouge1"] == (fmeasure(1.0, 0.2) + fmeasure(0.2, 1.0)) / 2
    assert macro["update_rouge1"] < 0.34  # below both means
    assert (micro["update_rouge1_precision"], micro["update_rouge1_recall"]) == (2 / 6, 2 / 6)
    assert micro["update_rouge1"] == fmeasure(2 / 6, 2 / 6)


def test_several_references_use_the_counts_of_the_reference_each_mode_picks():
    sources = ["S."]
    # The prediction adds "a b". Reference 0 adds "a b c d": P 1, R 2/4, F1 2/3. Reference 1
    # adds "a x": P 1/2, R 1/2, F1 1/2. Both recalls are 0.5: best_recall keeps the first.
    references = [["S. A b c d.", "S. A x."]]
    predictions = ["S. A b."]
    options = dict(rouge_types=["rouge1"], confidence_level=None, average="micro")
    picked = {
        mode: compute(sources, predictions, references, multi_ref=mode, **options)
        for mode in ("max_f1", "best_recall", "pooled")
    }
    # max_f1: reference 0 (hits 2, reference 4, prediction 2).
    assert picked["max_f1"]["update_rouge1_recall"] == 2 / 4
    assert picked["max_f1"]["update_rouge1_precision"] == 2 / 2
    # best_recall: recalls 2/4 and 1/2 tie; the first reference.
    assert picked["best_recall"]["update_rouge1_recall"] == 2 / 4
    # pooled: hits 2 + 1, reference 4 + 2, prediction 2 counted once per reference.
    assert picked["pooled"]["update_rouge1_precision"] == 3 / 4
    assert picked["pooled"]["update_rouge1_recall"] == 3 / 6


def test_an_example_without_additions_contributes_no_counts():
    sources, predictions, references = triples("iterater_triples.jsonl")
    options = dict(confidence_level=None, average="micro")
    before = compute(sources, predictions, references, **options)
    after = compute(sources + ["Same."], predictions + ["Same."], references + ["Same."], **options)
    assert after["_both_empty"] == before["_both_empty"] + 1
    for rouge_type in ("rouge1", "rouge2", "rougeLsum"):
        for suffix in ("", "_precision", "_recall"):
            assert after[f"update_{rouge_type}{suffix}"] == before[f"update_{rouge_type}{suffix}"]
    # A corpus where nothing is added anywhere has no counts: 0.0 by rouge-score's convention.
    assert compute(["Same."], ["Same."], ["Same."], average="micro", confidence_level=None)["update_rouge1"] == 0.0


def test_one_example_micro_is_its_own_score_and_per_example_values_do_not_change():
    sources, predictions, references = triples("iterater_triples.jsonl")
    options = dict(rouge_types=list(TYPES), multi_ref="max_f1")
    assert compute(sources, predictions, references, use_aggregator=False, average="micro", **options) == compute(
        sources, predictions, references, use_aggregator=False, **options
    )
    one = compute(sources[:1], predictions[:1], references[:1], use_aggregator=False, **options)
    if one["_both_empty"][0]:
        pytest.skip("the first IteraTeR example adds nothing: it has no counts")
    micro = compute(sources[:1], predictions[:1], references[:1], confidence_level=None, average="micro", **options)
    for key, values in one.items():
        if key.startswith("update_"):
            assert micro[key] == values[0]


def test_alpha_weights_the_micro_f():
    sources, predictions, references = triples("iterater_triples.jsonl")
    result = compute(
        sources, predictions, references, rouge_types=["rouge1"], alpha=0.25, average="micro", confidence_level=None
    )
    precision, recall = result["update_rouge1_precision"], result["update_rouge1_recall"]
    assert result["update_rouge1"] == precision * recall / (0.75 * precision + 0.25 * recall)


@pytest.mark.parametrize("num_proc", [1, 2])  # 2: worker processes, and the resamples on two threads
def test_the_bootstrap_resamples_the_summed_counts_with_the_macro_resamples(num_proc):
    sources, predictions, references = triples("iterater_triples.jsonl")
    n, n_bootstrap, seed = len(sources), 200, 7
    result = compute(
        sources,
        predictions,
        references,
        rouge_types=["rouge1"],
        average="micro",
        n_bootstrap=n_bootstrap,
        seed=seed,
        baseline_predictions=sources,
        num_proc=num_proc,
    )
    counts = []
    for source, prediction, reference in zip(sources, predictions, references):
        ref_add, pred_add = additions(source, reference), additions(source, prediction)
        empty = not ref_add and not pred_add
        counts.append((0, 0, 0) if empty else independent_counts(ref_add, pred_add, "rouge1"))
    counts = np.array(counts)
    indices = np.random.default_rng(seed).integers(0, n, size=(n_bootstrap, n))
    f = [micro_by_hand(*counts[row].sum(axis=0).tolist())[2] for row in indices]
    assert result["update_rouge1_low"] == float(np.quantile(f, 0.025))
    assert result["update_rouge1_high"] == float(np.quantile(f, 0.975))
    # The baseline (the sources) adds nothing: no counts, micro F 0 in every resample.
    assert result["update_rouge1_delta"] == result["update_rouge1"]
    assert result["update_rouge1_p_value"] == (1 + sum(value <= 0 for value in f)) / (n_bootstrap + 1)


class PairedRow(NamedTuple):
    line: int
    source: str
    references: list
    prediction: str
    baseline: str


@pytest.mark.parametrize("multi_ref", ["max_f1", "pooled"])
def test_the_stream_gives_compute_micro_numbers_chunk_by_chunk(multi_ref):
    sources, predictions, references = triples("iterater_triples.jsonl")
    references = [[reference, prediction] for reference, prediction in zip(references, predictions[::-1])]
    baselines = sources[1:] + sources[:1]
    settings = Settings(average="micro", multi_ref=multi_ref, n_bootstrap=300)
    rows = [PairedRow(i + 1, *fields) for i, fields in enumerate(zip(sources, references, predictions, baselines))]
    corpus = corpus_of_rows(rows, settings, chunk_size=7, paired=True)
    expected = compute(
        sources,
        predictions,
        references,
        average="micro",
        multi_ref=multi_ref,
        n_bootstrap=300,
        baseline_predictions=baselines,
    )
    assert corpus.result() == expected
    assert math.isfinite(expected["update_rouge1_delta_low"])


def test_settings_refuse_what_micro_cannot_compute():
    with pytest.raises(ValueError, match="average must be one of macro, micro, got 'mean'"):
        Settings(average="mean")
    with pytest.raises(ValueError, match="average='micro' is not defined for ROUGE-W"):
        Settings(average="micro", rouge_types=["rouge1", "rougeW"])
    for engine in ("rust", "rouge-score"):
        with pytest.raises(ValueError, match=f"engine='{engine}' gives no raw counts.*average='micro'"):
            Settings(average="micro", engine=engine)


def test_the_signature_says_micro():
    sources, predictions, references = triples("fruit_triples.jsonl")
    signed = compute(sources, predictions, references, average="micro", return_signature=True)
    assert "|agg:micro|" in signed["signature"]
    assert "|agg:mean|" in compute(sources, predictions, references, return_signature=True)["signature"]


WORDS = st.sampled_from(["a", "b", "c", "d"])
SENTENCES = st.lists(WORDS, min_size=1, max_size=4).map(lambda words: " ".join(words) + ".")
EXAMPLES = st.lists(st.tuples(SENTENCES, SENTENCES, SENTENCES), min_size=1, max_size=6)


@settings(max_examples=60)
@given(EXAMPLES, st.randoms(use_true_random=False))
def test_micro_values_ignore_order_and_scale_with_the_corpus(examples, random):
    # Ratios of sums: the same for the examples in any order and for the corpus twice over
    # (2H / 2P is H / P exactly, both being correctly rounded divisions of the same rational).
    def micro(rows):
        sources = [source for source, _, _ in rows]
        updated = [[source + " " + text for text in texts] for source, *texts in rows]
        options = dict(rouge_types=["rouge1", "rougeL"], confidence_level=None, average="micro")
        return compute(sources, [p for p, _ in updated], [r for _, r in updated], **options)

    shuffled = random.sample(examples, len(examples))
    expected = {key: value for key, value in micro(examples).items() if key.startswith("update_")}
    for rows in (shuffled, examples + examples):
        assert {key: value for key, value in micro(rows).items() if key.startswith("update_")} == expected
