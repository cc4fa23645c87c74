"""The entity scores of ``entities=`` against an independent restatement of docs/entities.md's
definitions, written here with plain Python sets, on the bundled FRUIT, IteraTeR and Wiki triples
with a callable extractor (runs of capitalised words, and numbers: the Wiki triples are lower-cased); and a prediction that returns its source
unchanged, which adds no entity and keeps every outdated one; docs/entities.md's worked example."""

import contextlib
import io
import re
from pathlib import Path

import pytest
from conftest import read_jsonl

from update_rouge import compute

DATA = ("fruit_triples.jsonl", "iterater_triples.jsonl", "wiki_triples.jsonl")
_NAMES = re.compile(r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*|\d+(?:[.,]\d+)*")


def names(text):
    """Runs of capitalised words and numbers, as they appear (the scorer casefolds them)."""
    return _NAMES.findall(text)


def entity_set(text):
    return {" ".join(name.casefold().split()) for name in names(text)}


def restated(source, prediction, reference, evidence):
    """update_ent precision, recall, F1, outdated kept (None: undefined), unsupported, both empty."""
    s, p, r, v = entity_set(source), entity_set(prediction), entity_set(reference), entity_set(evidence)
    r_new, p_new = r - s, p - s
    if not r_new and not p_new:
        precision = recall = f1 = 1.0
    else:
        hits = len(r_new & p_new)
        precision = hits / len(p_new) if p_new else 0.0
        recall = hits / len(r_new) if r_new else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    gone = s - r
    kept = len(gone & p) / len(gone) if gone else None
    return precision, recall, f1, kept, len(p_new - v), not r_new and not p_new


def columns(name):
    rows = read_jsonl(name)
    return [row["source"] for row in rows], [row["prediction"] for row in rows], [row["reference"] for row in rows]


@pytest.mark.parametrize("name", DATA)
def test_every_example_equals_the_restatement(name):
    sources, predictions, references = columns(name)
    evidence = references[1:] + references[:1]  # another example's reference: some entities supported
    table = compute(
        sources,
        predictions,
        references,
        entities=names,
        evidence=evidence,
        rouge_types=["rouge1"],
        use_aggregator=False,
    )
    want = [restated(*texts) for texts in zip(sources, predictions, references, evidence)]
    keys = ("precision", "recall", "f1", "outdated_kept", "unsupported", "both_empty")
    got = zip(
        table["update_ent_precision"],
        table["update_ent_recall"],
        table["update_ent"],
        table["update_ent_outdated_kept"],
        table["update_ent_unsupported"],
        table["_ent_both_empty"],
    )
    for index, (mine, theirs) in enumerate(zip(got, want)):
        assert dict(zip(keys, mine)) == dict(zip(keys, theirs)), index
    result = compute(sources, predictions, references, entities=names, rouge_types=["rouge1"], confidence_level=None)
    defined = [row[3] for row in want if row[3] is not None]
    assert result["_ent_outdated_defined"] == len(defined) > 0
    assert result["update_ent_outdated_kept"] == pytest.approx(sum(defined) / len(defined), rel=1e-12)
    assert result["update_ent_recall"] == pytest.approx(sum(row[1] for row in want) / len(want), rel=1e-12)


@pytest.mark.parametrize("name", DATA)
def test_a_returned_source_adds_nothing_and_keeps_every_outdated_entity(name):
    sources, _, references = columns(name)
    table = compute(sources, sources, references, entities=names, rouge_types=["rouge1"], use_aggregator=False)
    adds = [bool(entity_set(r) - entity_set(s)) for s, r in zip(sources, references)]
    assert any(adds)
    assert table["update_ent_recall"] == [0.0 if add else 1.0 for add in adds]
    assert {value for value in table["update_ent_outdated_kept"] if value is not None} == {1.0}


def test_the_worked_example_of_the_docs_prints_what_they_show():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "entities.md").read_text(encoding="utf-8")
    section = doc.split("## Worked example\n", 1)[1].split("\n## ", 1)[0]
    (code,) = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    (shown,) = re.findall(r"```text\n(.*?)```", section, flags=re.S)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code, {})
    assert printed.getvalue() == shown
    # The sets the page names, restated: the returned source's whole-text precision and recall too.
    namespace: dict = {}
    exec(code.split("source = ", 1)[0], namespace)
    found = {text: {name.casefold() for name in namespace["names"](text)} for text in re.findall(r'= "(.*)"', code)}
    source, reference, prediction, evidence = found.values()
    assert (reference - source, prediction - source, source - reference) == (
        {"turin", "menabrea"},
        {"menabrea", "paris"},
        {"london"},
    )
    assert (len(source & reference) / len(source), len(source & reference) / len(reference)) == (2 / 3, 2 / 4)
    assert "whole-text\nentity precision |P ∩ R| / |P| = 2/3" in doc and "recall 2/4" in doc
    assert (prediction - source) - evidence == {"paris"}
