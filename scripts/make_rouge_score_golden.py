"""Record rouge-score's own scores of whole texts, for the engine's differential tests.

For every row of every tests/data/*.jsonl file with texts (not the rouge155_* files), scores
the row's whole reference against its whole source with rouge-score 0.1.2 itself (no
additions extracted: long, multi-line texts), with and without its Porter stemmer, and writes
tests/data/rouge_score_whole_texts.jsonl: one line per row with the exact floats.
Running rouge-score on these long texts takes several minutes, hence the recording.

Usage: python scripts/make_rouge_score_golden.py
"""

import json
from importlib.metadata import version
from pathlib import Path

from rouge_score import rouge_scorer

DATA = Path(__file__).parent.parent / "tests" / "data"
OUTPUT = DATA / "rouge_score_whole_texts.jsonl"
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
FILES = ["fruit_pairs", "fruit_triples", "iterater_pairs", "iterater_triples", "wiki_triples", "wnc_pairs"]


def main():
    scorers = {stem: rouge_scorer.RougeScorer(TYPES, use_stemmer=stem) for stem in (False, True)}
    temporary = OUTPUT.with_suffix(".tmp")
    with open(temporary, "w", encoding="utf-8") as out:
        for name in FILES:
            for line in open(DATA / f"{name}.jsonl", encoding="utf-8"):
                row = json.loads(line)
                record = {"file": f"{name}.jsonl", "id": row["id"], "rouge_score": version("rouge-score")}
                for stem, scorer in scorers.items():
                    scores = scorer.score(target=row["reference"], prediction=row["source"])
                    record["stemmed" if stem else "plain"] = {t: list(scores[t]) for t in TYPES}
                out.write(json.dumps(record) + "\n")
    temporary.replace(OUTPUT)


if __name__ == "__main__":
    main()
