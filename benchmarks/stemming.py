"""What stemming costs, as ratios to the unstemmed run measured in the same process.

1. compute() with the pure-Python engine (the default install) on the rows of
   tests/data/wiki_triples.jsonl (default types rouge1, rouge2, rougeLsum) with stemmer "none",
   "rouge155" and "porter", interleaved, --repeats times.
2. Tokenizing alone: the newline-joined additions of every row of the file (both sides), by
   rouge-score's tokenizer without stemming, by ours for "rouge155" and by rouge-score's with
   its Porter stemmer. This is the part stemming adds to, whatever engine counts the n-grams.

Before every "rouge155" run the memoized stems are cleared, so each run stems its vocabulary
from scratch (a cold start). Times are CPU seconds of this process (``time.process_time``),
which other work on a shared machine does not inflate; the printed figure is the median of
the per-repetition ratios.

Usage, from the repository root (so that the checkout is what is measured):
    python -m benchmarks.stemming [--rows N] [--repeats K]
"""

import argparse
import json
import statistics
import time
from pathlib import Path

from rouge_score.tokenizers import DefaultTokenizer

from update_rouge import compute, extract_additions
from update_rouge.extraction import join_segments
from update_rouge.rouge155_tokens import Rouge155Tokenizer, clear_cache

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "wiki_triples.jsonl"
STEMMERS = ("none", "rouge155", "porter")
TOKENIZERS = {
    "none": DefaultTokenizer(use_stemmer=False),
    "rouge155": Rouge155Tokenizer(),
    "porter": DefaultTokenizer(use_stemmer=True),
}


def cpu_seconds(run, stemmer):
    if stemmer == "rouge155":
        clear_cache()
    start = time.process_time()
    run(stemmer)
    return time.process_time() - start


def report(title, run, repeats):
    times = {stemmer: [] for stemmer in STEMMERS}
    for _ in range(repeats):
        for stemmer in STEMMERS:
            times[stemmer].append(cpu_seconds(run, stemmer))
    print(
        f"{title}: median CPU seconds of {repeats} runs: "
        + ", ".join(f"{stemmer} {statistics.median(times[stemmer]):.3f}" for stemmer in STEMMERS)
    )
    for stemmer in STEMMERS[1:]:
        ratios = [t / base for t, base in zip(times[stemmer], times["none"])]
        print(
            f"  ratio {stemmer} / none: median {statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f})"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=None, help="rows scored by compute() (default all 745)")
    parser.add_argument("--repeats", type=int, default=5, help="repetitions of each stemmer (default 5)")
    args = parser.parse_args()
    with open(DATA, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]

    subset = rows[: args.rows]
    columns = {field: [row[field] for row in subset] for field in ("source", "prediction", "reference")}
    report(
        f"compute() on {len(subset)} rows of {DATA.name}",
        lambda stemmer: compute(
            sources=columns["source"],
            predictions=columns["prediction"],
            references=columns["reference"],
            stemmer=stemmer,
            engine="python",
            confidence_level=None,
        ),
        args.repeats,
    )

    texts = [
        join_segments(extract_additions(row[side], row["source"]))
        for row in rows
        for side in ("reference", "prediction")
    ]
    tokens = sum(len(TOKENIZERS["none"].tokenize(text)) for text in texts)
    report(
        f"tokenizing the additions of all {len(rows)} rows ({tokens} tokens)",
        lambda stemmer: [TOKENIZERS[stemmer].tokenize(text) for text in texts],
        args.repeats,
    )


if __name__ == "__main__":
    main()
