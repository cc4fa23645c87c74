"""``deletions=True`` against the definition (docs/deletions.md), restated here from scratch.

The expected values come from outside the package: each side's deletions found by this file's own
reading of the definition (the source's segments ``[^.]+\\.?``, stripped, non-empty, in source
order, that are not substrings of the text; with ``additions="edits"`` the runs of source tokens
outside the LCS that a plain dynamic-programming walk of the stated diff keeps), joined one per
line and scored by rouge-score's ``RougeScorer`` directly; 1.0 where neither side deletes. Checked
per example and as corpus means on the bundled real data and on generated inputs (hypothesis).
"""

import functools
import math
import re

import pytest
from conftest import TRIPLE_FILES, columns, read_jsonl
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer, tokenize

from update_rouge import compute

TYPES = ["rouge1", "rouge2", "rougeLsum"]
KEYS = [f"update_del_{t}{m}" for t in TYPES for m in ("", "_precision", "_recall")]


def sentence_deletions(source, text):
    """The source's segments that ``text`` does not contain, in source order, duplicates kept."""
    segments = (match.group(0).strip() for match in re.finditer(r"[^.]+\.?", source))
    return [segment for segment in segments if segment and segment not in text]


def walk_pairs(text_tokens, source_tokens):
    """The stated diff, by its table: L(i, j) the LCS length of t[i:] and s[j:]; from (0, 0)
    take equal tokens, else skip the source token if L(i, j + 1) > L(i + 1, j), else the text's."""
    n, m = len(text_tokens), len(source_tokens)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            if text_tokens[i] == source_tokens[j]:
                table[i][j] = table[i + 1][j + 1] + 1
            else:
                table[i][j] = max(table[i + 1][j], table[i][j + 1])
    i = j = 0
    pairs = []
    while i < n and j < m:
        if text_tokens[i] == source_tokens[j]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif table[i][j + 1] > table[i + 1][j]:
            j += 1
        else:
            i += 1
    return pairs


def edit_deletions(source, text):
    """The runs of source tokens (rouge-score's tokenizer) that the walk does not pair, each
    joined by spaces."""
    source_tokens, text_tokens = tokenize.tokenize(source, None), tokenize.tokenize(text, None)
    paired = {j for _, j in walk_pairs(text_tokens, source_tokens)}
    runs, run = [], []
    for j, token in enumerate(source_tokens):
        if j in paired:
            if run:
                runs.append(" ".join(run))
            run = []
        else:
            run.append(token)
    return runs + ([" ".join(run)] if run else [])


class WhiteSpaceTokenizer:
    """A run's text gives back its tokens (rouge-score's tokens hold no white space)."""

    def tokenize(self, text):
        return text.split()


@functools.cache
def scorer(edits):
    tokenizer = WhiteSpaceTokenizer() if edits else None
    return rouge_scorer.RougeScorer(TYPES, use_stemmer=False, tokenizer=tokenizer)


def expected_row(source, prediction, reference, edits=False):
    """The deletion scores of one example, from the definition and rouge-score alone."""
    deletions = edit_deletions if edits else sentence_deletions
    target, predicted = deletions(source, reference), deletions(source, prediction)
    if not target and not predicted:
        return dict.fromkeys(KEYS, 1.0), True
    scores = scorer(edits).score("\n".join(target), "\n".join(predicted))
    row = {}
    for t in TYPES:
        row[f"update_del_{t}"] = scores[t].fmeasure
        row[f"update_del_{t}_precision"] = scores[t].precision
        row[f"update_del_{t}_recall"] = scores[t].recall
    return row, False


def check(sources, predictions, references, edits=False):
    additions = "edits" if edits else "sentences"
    got = compute(sources, predictions, references, deletions=True, additions=additions, use_aggregator=False)
    rows = [expected_row(*texts, edits=edits) for texts in zip(sources, predictions, references)]
    for i, (row, kept) in enumerate(rows):
        assert {key: got[key][i] for key in KEYS} == pytest.approx(row, abs=1e-12), f"example {i}"
        assert got["_both_kept"][i] is kept, f"example {i}"
    corpus = compute(sources, predictions, references, deletions=True, additions=additions, confidence_level=None)
    for key in KEYS:
        want = math.fsum(row[key] for row, _ in rows) / len(rows)
        assert corpus[key] == pytest.approx(want, abs=1e-12), key
    assert corpus["_both_kept"] == sum(kept for _, kept in rows)


@pytest.mark.parametrize("name", [name for name in TRIPLE_FILES if name != "multilingual_triples.jsonl"])
def test_sentence_deletions_equal_the_definition_on_the_bundled_data(name):
    rows = read_jsonl(name)
    if len(rows) > 100:
        rows = rows[::5]
    data = columns(rows)
    check(data["sources"], data["predictions"], data["references"])


@pytest.mark.parametrize("name", ["fruit_triples.jsonl", "iterater_triples.jsonl"])
def test_edit_deletions_equal_the_stated_diff_on_the_bundled_data(name):
    data = columns(read_jsonl(name))
    check(data["sources"], data["predictions"], data["references"], edits=True)


WORDS = st.sampled_from(["a", "b", "cat", "sat", "the", "new", "old", "1", "2"])
SENTENCE = st.lists(WORDS, min_size=0, max_size=5).map(" ".join).map(lambda s: s + ".")
TEXT = st.lists(SENTENCE, min_size=0, max_size=5).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT, TEXT), min_size=1, max_size=4), st.booleans())
def test_deletions_equal_the_definition_on_generated_texts(triples, edits):
    sources, predictions, references = (list(column) for column in zip(*triples))
    check(sources, predictions, references, edits=edits)


def test_an_append_that_keeps_the_stale_sentence_scores_low_and_the_rewrite_high():
    source = "The mayor is Ann Lee. The city has 5,000 people."
    reference = "The mayor is Bo Chan. The city has 5,000 people."
    appended = "The mayor is Ann Lee. The city has 5,000 people. The mayor is Bo Chan."
    rewritten = reference
    got = compute([source] * 2, [appended, rewritten], [reference] * 2, deletions=True, use_aggregator=False)
    # Both add "The mayor is Bo Chan."; only the rewrite deletes the stale sentence, as the reference does.
    assert got["update_rouge1"] == [1.0, 1.0]
    assert got["update_del_rouge1"] == [0.0, 1.0]
    assert got["_both_kept"] == [False, False]


def test_the_additions_keys_are_the_same_with_deletions_on():
    data = columns(read_jsonl("iterater_triples.jsonl"))
    baseline = data["sources"]
    without = compute(**data, baseline_predictions=baseline, n_bootstrap=200)
    with_deletions = compute(**data, baseline_predictions=baseline, n_bootstrap=200, deletions=True)
    assert {key: with_deletions[key] for key in without} == without
    assert {key for key in with_deletions if key not in without} == {
        *KEYS,
        "_both_kept",
        *(f"update_del_{t}_{s}" for t in TYPES for s in ("low", "high", "delta", "delta_low", "delta_high", "p_value")),
    }


def test_several_references_take_the_best_f1_deletions_by_type():
    data = columns(read_jsonl("iterater_triples.jsonl"))
    sources, predictions = data["sources"], data["predictions"]
    references = [
        [reference, data["references"][(i + 1) % len(sources)]] for i, reference in enumerate(data["references"])
    ]
    got = compute(sources, predictions, references, deletions=True, use_aggregator=False)
    for i, (source, prediction, pair) in enumerate(zip(sources, predictions, references)):
        rows = [expected_row(source, prediction, reference) for reference in pair]
        predicted = sentence_deletions(source, prediction)
        if not predicted and any(kept for _, kept in rows):
            assert got["update_del_rouge1"][i] == 1.0 and got["_both_kept"][i], f"example {i}"
            continue
        for t in TYPES:
            best = max((row for row, _ in rows), key=lambda row: row[f"update_del_{t}"])  # the first on ties
            want = [best[f"update_del_{t}{m}"] for m in ("", "_precision", "_recall")]
            assert [got[f"update_del_{t}{m}"][i] for m in ("", "_precision", "_recall")] == pytest.approx(want), i
