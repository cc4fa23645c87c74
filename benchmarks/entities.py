"""Scoring with ``entities=`` against scoring without, in one process: one JSON line per round.

``compute`` on the 745 Wikipedia triples (``tests/data/wiki_triples.jsonl``), ``num_proc=1``, the
default options, with two extractors: a spaCy blank English pipeline with an entity ruler (its
cost is spaCy's tokenizer; a trained pipeline adds its model's) and a callable (a regular
expression: runs of capitalised words, and numbers). After one warm-up call of each, the calls
without and with entities alternate ROUNDS times; each line gives the CPU seconds (the
process's, all threads) and the last line of each extractor the median of the rounds' CPU ratios
(docs/speed.md quotes it). A second part times the spaCy extraction alone on the distinct texts,
with ``nlp.pipe`` in this process and in ``n_process=2`` (spaCy's own processes), to show which
is cheaper.

Usage: python benchmarks/entities.py [ROUNDS] (3 by default). Needs spaCy (``update-rouge[entities]``).
"""

import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import spacy

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from update_rouge import compute  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "wiki_triples.jsonl"
PATTERNS = [{"label": "PERSON", "pattern": [{"LOWER": word}]} for word in ("twain", "finn", "sawyer")]
NAMES = re.compile(r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*|\d+(?:[.,]\d+)*")


def names(text: str) -> list[str]:
    return NAMES.findall(text)


def cpu_seconds(call) -> float:
    began = time.process_time()
    call()
    return time.process_time() - began


def main(argv: list[str]) -> None:
    rounds = int(argv[0]) if argv else 3
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    columns = [[row[key] for row in rows] for key in ("source", "prediction", "reference")]
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns(PATTERNS)
    folder = Path(tempfile.mkdtemp()) / "ruler"
    nlp.to_disk(folder)
    for name, extractor in (("spacy blank+ruler", f"spacy:{folder}"), ("callable", names)):
        without = lambda: compute(*columns, num_proc=1)  # noqa: E731
        with_entities = lambda: compute(*columns, num_proc=1, entities=extractor)  # noqa: E731, B023
        without(), with_entities()
        ratios = []
        for _ in range(rounds):
            plain, entities = cpu_seconds(without), cpu_seconds(with_entities)
            ratios.append(entities / plain)
            print(json.dumps({"extractor": name, "without_cpu_s": round(plain, 3), "with_cpu_s": round(entities, 3)}))
        print(
            json.dumps(
                {"extractor": name, "examples": len(rows), "median_cpu_ratio": round(statistics.median(ratios), 2)}
            )
        )
    texts = list(dict.fromkeys(text for column in columns for text in column))
    for processes in (1, 2):
        began = time.perf_counter()
        list(nlp.pipe(texts, batch_size=256, n_process=processes))
        print(
            json.dumps(
                {"nlp.pipe n_process": processes, "texts": len(texts), "wall_s": round(time.perf_counter() - began, 2)}
            )
        )


if __name__ == "__main__":
    main(sys.argv[1:])
