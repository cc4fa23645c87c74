"""How rouge-score's Porter stemming and ours differ from ROUGE-1.5.5 -m on the bundled triples.

Scores every row of tests/data/{fruit,iterater,wiki}_triples.jsonl with compute() for each
stemmer and prints two Markdown tables:

1. per rouge type, over the examples with additions on either side: on how many examples
   stemmer="porter" (rouge-score's, what use_stemmer=True gives) and stemmer="rouge155" (ours)
   differ from the per-example precision, recall or F1 of the original Perl ROUGE-1.5.5 -m
   (tests/data/rouge155_golden.jsonl, field rouge155_stem; by more than 1e-9), and the largest
   absolute difference among the three;
2. per file and type, the corpus score users report (mean F1 over all rows, no-additions rows
   included as 1.0) with each stemmer.

Usage, from the repository root (so that the checkout is what runs):
    python -m scripts.compare_stemmers
"""

import json
from pathlib import Path

from update_rouge import compute

DATA_DIR = Path(__file__).resolve().parent.parent / "tests" / "data"
FILES = ("fruit_triples.jsonl", "iterater_triples.jsonl", "wiki_triples.jsonl")
TYPES = ("rouge1", "rouge2", "rougeLsum")
STEMMERS = ("none", "porter", "rouge155")
TOLERANCE = 1e-9


def read_jsonl(name):
    with open(DATA_DIR / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def score_files():
    """{stemmer: {file: compute(..., use_aggregator=False) result}}."""
    results = {stemmer: {} for stemmer in STEMMERS}
    for name in FILES:
        rows = read_jsonl(name)
        for stemmer in STEMMERS:
            results[stemmer][name] = compute(
                sources=[r["source"] for r in rows],
                predictions=[r["prediction"] for r in rows],
                references=[r["reference"] for r in rows],
                rouge_types=list(TYPES),
                stemmer=stemmer,
                use_aggregator=False,
            )
    return results


def differences_from_rouge155(results, stemmer, rouge_type):
    """(examples differing, largest absolute difference in P, R or F1, examples compared)."""
    index = {(name, row["id"]): i for name in FILES for i, row in enumerate(read_jsonl(name))}
    differing, largest, compared = 0, 0.0, 0
    for row in read_jsonl("rouge155_golden.jsonl"):
        if not row["reference_additions"] and not row["prediction_additions"]:
            continue
        compared += 1
        ours = results[stemmer][row["file"]]
        i = index[(row["file"], row["id"])]
        key = f"update_{rouge_type}"
        got = (ours[f"{key}_precision"][i], ours[f"{key}_recall"][i], ours[key][i])
        gaps = [abs(a - b) for a, b in zip(got, row["rouge155_stem"][rouge_type])]
        differing += max(gaps) > TOLERANCE
        largest = max(largest, *gaps)
    return differing, largest, compared


def main():
    results = score_files()
    print(
        "| type | `porter` differs from ROUGE-1.5.5 -m | largest difference | `rouge155` differs | largest difference |"
    )
    print("|---|---|---|---|---|")
    for rouge_type in TYPES:
        porter = differences_from_rouge155(results, "porter", rouge_type)
        ours = differences_from_rouge155(results, "rouge155", rouge_type)
        print(
            f"| {rouge_type} | {porter[0]} of {porter[2]} ({porter[0] / porter[2]:.1%}) | {porter[1]:.4f} "
            f"| {ours[0]} of {ours[2]} | {ours[1]:.2g} |"
        )
    print()
    print("| data | type | `none` | `porter` | `rouge155` (= ROUGE-1.5.5 -m) | `porter` - `rouge155` |")
    print("|---|---|---|---|---|---|")
    for name in FILES:
        for rouge_type in TYPES:
            means = {}
            for stemmer in STEMMERS:
                values = results[stemmer][name][f"update_{rouge_type}"]
                means[stemmer] = sum(values) / len(values)
            print(
                f"| {name} ({len(values)}) | {rouge_type} | {means['none']:.4f} | {means['porter']:.4f} "
                f"| {means['rouge155']:.4f} | {means['porter'] - means['rouge155']:+.5f} |"
            )


if __name__ == "__main__":
    main()
