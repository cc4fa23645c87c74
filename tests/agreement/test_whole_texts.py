"""The engines on long, multi-line texts: every bundled row's whole reference scored against its
whole source, compared with rouge-score's own scores.

rouge-score needs minutes for these texts, so its scores are recorded in
tests/data/rouge_score_whole_texts.jsonl by scripts/make_rouge_score_golden.py (rouge-score
0.1.2); the short files are re-scored with rouge-score live here, which checks the recording.
"""

import importlib.metadata

import pytest
from conftest import read_jsonl
from rouge_score import rouge_scorer

from update_rouge.engines import make_engine
from update_rouge.tokens import tokenizer_for

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
RECORDED = read_jsonl("rouge_score_whole_texts.jsonl")
TEXTS = {(name, row["id"]): row for name in {record["file"] for record in RECORDED} for row in read_jsonl(name)}


def test_the_recording_covers_every_row():
    assert len(RECORDED) == len(TEXTS) == 20 + 3 + 282 + 40 + 745 + 570
    assert {record["rouge_score"] for record in RECORDED} == {importlib.metadata.version("rouge-score")}


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["python", "rust"])
@pytest.mark.parametrize("stemmed", [False, True])
def test_engine_equals_recorded_rouge_score(engine, stemmed):
    scorer = make_engine(engine, TYPES, tokenizer_for("porter" if stemmed else "none"))
    rows = [TEXTS[(record["file"], record["id"])] for record in RECORDED]
    scores = scorer.score_pairs([(row["reference"], row["source"]) for row in rows])
    for record, got in zip(RECORDED, scores):
        expected = record["stemmed" if stemmed else "plain"]
        assert {t: list(got[t]) for t in TYPES} == expected, (record["file"], record["id"])


@pytest.mark.parametrize("name", ["fruit_triples.jsonl", "wnc_pairs.jsonl", "fruit_pairs.jsonl"])
def test_recording_equals_rouge_score_live(name):
    scorer = rouge_scorer.RougeScorer(TYPES)
    for record in (r for r in RECORDED if r["file"] == name):
        row = TEXTS[(name, record["id"])]
        live = scorer.score(target=row["reference"], prediction=row["source"])
        assert {t: list(live[t]) for t in TYPES} == record["plain"]
