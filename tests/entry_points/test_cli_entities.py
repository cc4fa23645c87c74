"""The entity scores at the command line (docs/entities.md): ``update-rouge FILE --entities spacy:NAME``
with the evidence of each example read from ``--evidence-field NAME`` (JSONL and CSV) equals
``compute(..., entities=..., evidence=...)`` bit for bit, in chunks too, in the JSON, the per-example
file and the tables; on a spaCy blank English pipeline with an entity ruler (no model download)."""

import csv
import json

import pytest
from conftest import run_main

from update_rouge import compare, compute

spacy = pytest.importorskip("spacy")

NAMES = ("dan", "eve", "bob", "acme", "paris")
SOURCES = ["Dan lives here.", "Eve works at Acme.", "Eve works at Acme.", "Bob is in Paris."]
PREDICTIONS = ["Dan lives here. Bob came.", "Eve works at Bob.", "Eve works at Acme.", "Bob is in Paris. Eve too."]
REFERENCES = [["Dan lives here. Eve came."], ["Eve works at Dan."], ["Eve works.", "Eve works at Paris."], ["Bob."]]
EVIDENCE = [["Bob came."], "Dan", [], ["Eve", "Paris"]]
QUICK = {"rouge_types": ["rouge1"], "n_bootstrap": 50}
FLAGS = ["--rouge-types", "rouge1", "--n-bootstrap", "50"]


@pytest.fixture(scope="module")
def ruler(tmp_path_factory):
    """``spacy:<folder>`` of a blank English pipeline whose entity ruler knows ``NAMES``."""
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns([{"label": "PERSON", "pattern": [{"LOWER": name}]} for name in NAMES])
    folder = tmp_path_factory.mktemp("ruler") / "pipeline"
    nlp.to_disk(folder)
    return f"spacy:{folder}"


def write_jsonl(path):
    rows = zip(SOURCES, REFERENCES, PREDICTIONS, EVIDENCE)
    path.write_text(
        "".join(json.dumps({"source": s, "reference": r, "prediction": p, "ev": e}) + "\n" for s, r, p, e in rows)
    )
    return path


def write_csv(path):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["source", "reference", "prediction", "ev"])
        for row in zip(SOURCES, REFERENCES, PREDICTIONS, EVIDENCE):
            writer.writerow([cell if isinstance(cell, str) else json.dumps(cell) for cell in row])
    return path


def scored(argv, capsys):
    status, out, err = run_main(argv, capsys)
    assert status == 0, err
    return out


@pytest.mark.parametrize("write", [write_jsonl, write_csv])
@pytest.mark.parametrize("average", ["macro", "micro"])
def test_the_entity_scores_of_a_file_are_computes_bit_for_bit_in_chunks_too(
    tmp_path, capsys, monkeypatch, ruler, write, average
):
    path = write(tmp_path / ("d.jsonl" if write is write_jsonl else "d.csv"))
    options = {**QUICK, "entities": ruler, "average": average}
    want = compute(SOURCES, PREDICTIONS, REFERENCES, evidence=EVIDENCE, return_signature=True, **options)
    argv = [path, *FLAGS, "--entities", ruler, "--evidence-field", "ev", "--average", average, "--signature"]
    got = json.loads(scored(argv, capsys))
    assert got == want and want["update_ent_unsupported"] > 0 and ";" not in json.dumps(got)
    # In chunks of one example, as many processes read a file: the same numbers.
    monkeypatch.setattr("update_rouge.cli.score.CHUNK_LINES", 1)
    out = tmp_path / "per_example.jsonl"
    assert json.loads(scored([*argv, "--per-example", out], capsys)) == want
    per_example = compute(SOURCES, PREDICTIONS, REFERENCES, evidence=EVIDENCE, use_aggregator=False, **options)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    for key in ("update_ent", "update_ent_outdated_kept", "update_ent_unsupported", "_ent_both_empty"):
        assert [line[key] for line in lines] == per_example[key], key
    # Without evidence: no unsupported count, as compute without it.
    without = json.loads(scored([path, *FLAGS, "--entities", ruler, "--average", average], capsys))
    assert without == compute(SOURCES, PREDICTIONS, REFERENCES, **options)
    assert "update_ent_unsupported" not in without


def test_the_tables_give_the_ent_row_and_the_other_entity_keys(tmp_path, capsys, ruler):
    path = write_jsonl(tmp_path / "d.jsonl")
    want = compute(SOURCES, PREDICTIONS, REFERENCES, evidence=EVIDENCE, entities=ruler, **QUICK)
    text = scored([path, *FLAGS, "--entities", ruler, "--evidence-field", "ev", "-f", "text"], capsys)
    ent = f"ent     {want['update_ent']:.4f}  [{want['update_ent_low']:.4f}, {want['update_ent_high']:.4f}]"
    assert ent in text and "the ent row: the same for the named entities they add" in text
    assert (
        f"Entities: neither side adds one in {want['_ent_both_empty']} of the 4 (each such example scores 1.0); "
        f"outdated kept {want['update_ent_outdated_kept']:.4f} (of the entities the reference drops, in the "
        f"{want['_ent_outdated_defined']} examples that drop one); unsupported {want['update_ent_unsupported']:.4f} "
        "per example (in neither source nor evidence)."
    ) in text
    markdown = scored([path, *FLAGS, "--entities", ruler, "-f", "markdown", "--width", "6"], capsys)
    assert f"| ent | {want['update_ent']:.6f} |" in markdown and "unsupported" not in markdown
    assert scored([path, *FLAGS, "--entities", ruler, "-b"], capsys).splitlines()[-1] == f"{want['update_ent']:.4f}"


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["--evidence-field", "ev"], "--evidence-field is read only by the entity scores: it needs --entities; "),
        (["--entities", "RULER", "--protocol", "fruit"], "--protocol fruit reproduces a published script"),
        (["--entities", "RULER", "--evidence-field", "evidence"], "missing field(s) evidence (the line has source, "),
        (["--entities", "nope"], "--entities must be a spaCy pipeline as 'spacy:NAME'"),
    ],
)
def test_what_the_entity_flags_cannot_do_is_refused_in_one_line_naming_them(tmp_path, capsys, ruler, words, said):
    path = write_jsonl(tmp_path / "d.jsonl")
    status, out, err = run_main([path, *[ruler if word == "RULER" else word for word in words]], capsys)
    assert (status, out) == (2, "") and said in err and err.count("\n") == 1


def test_evidence_must_be_text_in_every_example(tmp_path, capsys, ruler):
    path = write_jsonl(tmp_path / "d.jsonl")
    path.write_text(path.read_text() + '{"source": "a", "reference": "b", "prediction": "c", "ev": null}\n')
    status, _, err = run_main([path, "--entities", ruler, "--evidence-field", "ev"], capsys)
    assert (status, err) == (
        2,
        f"update-rouge: error: {path}:5: ev must be a string or an array of strings, got null\n",
    )
    status, _, err = run_main(
        ["--sources", path, "--references", path, "--predictions", path, "--evidence-field", "ev"], capsys
    )
    assert status == 2 and "--evidence-field reads a field of each example: give a JSONL or CSV FILE" in err


@pytest.mark.parametrize("write", [write_jsonl, write_csv])
def test_update_rouge_compare_gives_compares_entity_scores_bit_for_bit(tmp_path, capsys, ruler, write):
    path = write(tmp_path / ("d.jsonl" if write is write_jsonl else "d.csv"))
    systems = {"copy": SOURCES, "model": PREDICTIONS}
    want = compare(
        SOURCES, REFERENCES, systems, "copy", entities=ruler, evidence=EVIDENCE, return_signature=True, **QUICK
    )
    out = tmp_path / "per_example.jsonl"
    argv = ["compare", path, "--system", "copy=source", "--system", "model=prediction", "-f", "json", *FLAGS]
    got = json.loads(scored([*argv, "--entities", ruler, "--evidence-field", "ev", "--per-example", out], capsys))
    assert got == want and "update_ent_delta" in got["model"]
    # Each system's per-example scores hold every entity key, the evidence's count among them.
    unsupported = [
        json.loads(line)["scores"]["model"]["update_ent_unsupported"] for line in out.read_text().splitlines()
    ]
    per_example = compute(
        SOURCES, PREDICTIONS, REFERENCES, entities=ruler, evidence=EVIDENCE, use_aggregator=False, **QUICK
    )
    assert unsupported == per_example["update_ent_unsupported"] and sum(unsupported) > 0
    text = scored([*argv[:-6], *FLAGS, "--entities", ruler], capsys)
    assert "update_ent" in text and f"{want['model']['update_ent']:.4f}" in text
    status, _, err = run_main([*argv, "--evidence-field", "ev"], capsys)
    assert status == 2 and "--evidence-field is read only by the entity scores: it needs --entities" in err
