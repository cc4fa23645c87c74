"""How UpdateROUGE's choices change scores against the two published implementations.

1. Join: the published implementations join additions with a space, so their rougeLsum is a
   sentence-level rougeL; ours joins with newlines. Prints how rougeLsum changes.
2. Strip: EditEval tests the unstripped segment (with its leading space) against the source,
   so a source sentence that starts the source can count as added. Prints how often that
   changes the additions and the scores.

Usage: python scripts/compare_published.py [tests/data/*_triples.jsonl ...]
"""

import json
import re
import sys
from pathlib import Path

from rouge_score import rouge_scorer

from update_rouge import compute, extract_additions

DEFAULT_FILES = [
    Path(__file__).parent.parent / "tests" / "data" / f"{n}_triples.jsonl" for n in ("fruit", "iterater", "wiki")
]
TYPES = ["rouge1", "rouge2", "rougeLsum"]


def editeval_additions(text, source):
    """EditEval's rule: the unstripped segment is tested against the source, then stripped."""
    return [m.group(0).strip() for m in re.finditer(r"[^.]+\.?", text) if m.group(0) not in source]


def published_scores(rows, additions, joiner):
    """Per-example F1 of the published recipe with a given extraction rule and joiner."""
    scorer = rouge_scorer.RougeScorer(TYPES)
    scores = {t: [] for t in TYPES}
    for row in rows:
        target = joiner.join(a for a in additions(row["reference"], row["source"]) if a)
        prediction = joiner.join(a for a in additions(row["prediction"], row["source"]) if a)
        result = scorer.score(target, prediction) if (target.strip() or prediction.strip()) else None
        for t in TYPES:
            scores[t].append(1.0 if result is None else result[t].fmeasure)
    return scores


def summarize(name, ours, theirs):
    cells = []
    for t in TYPES:
        a, b = ours[f"update_{t}"], theirs[t]
        changed = sum(abs(x - y) > 1e-12 for x, y in zip(a, b))
        mean_a, mean_b = sum(a) / len(a), sum(b) / len(b)
        cells.append(f"{t}: {changed}/{len(a)} examples differ, mean {mean_a:.4f} (ours) vs {mean_b:.4f}")
    print(f"  {name}: " + "; ".join(cells))


def main(paths):
    for path in paths:
        rows = [json.loads(line) for line in open(path, encoding="utf-8")]
        ours = compute(
            sources=[r["source"] for r in rows],
            predictions=[r["prediction"] for r in rows],
            references=[r["reference"] for r in rows],
            use_aggregator=False,
        )
        print(f"{Path(path).name} ({len(rows)} examples)")
        summarize("space join (autometrics)", ours, published_scores(rows, extract_additions, " "))
        summarize("unstripped test + space join (EditEval)", ours, published_scores(rows, editeval_additions, " "))
        extra = sum(
            editeval_additions(r[side], r["source"]) != extract_additions(r[side], r["source"])
            for r in rows
            for side in ("reference", "prediction")
        )
        print(f"  texts whose additions differ under EditEval's unstripped test: {extra}/{2 * len(rows)}")


if __name__ == "__main__":
    main(sys.argv[1:] or DEFAULT_FILES)
