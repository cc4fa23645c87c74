"""What language= costs, as ratios to the default pipeline measured in the same process.

1. compute() on the rows of tests/data/wiki_triples.jsonl (the bundled English triples; default
   types rouge1, rouge2, rougeLsum, no intervals) with language=None (the published pipeline)
   and language="en", interleaved, --repeats times: once with engine="python" for both (the
   same counting code, so the ratio is the price of the language tokens and segments), once
   with the default engine="auto" (the Rust accelerator, where installed, serves only the
   published tokens, so language= runs on Python there).
2. Segmenters loaded once per process: the Chinese triples of
   tests/data/multilingual_triples.jsonl scored --repeats times with language="zh"; the time of
   the first call (which loads jieba's dictionary) against the median of the later ones, and how
   many times the segmenter was built (``segmenter.cache_info().misses``).

Times are CPU seconds of this process (``time.process_time``), which other work on a shared
machine does not inflate; the printed figures are medians of the per-repetition ratios.

Usage, from the repository root (so that the checkout is what is measured):
    python -m benchmarks.languages [--rows N] [--repeats K]
"""

import argparse
import json
import statistics
import time
from pathlib import Path

from update_rouge import compute
from update_rouge.word_segmenters import segmenter

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def read(name, rows=None):
    with open(DATA / name, encoding="utf-8") as lines:
        table = [json.loads(line) for line in lines]
    return table[:rows]


def inputs(table):
    return dict(
        sources=[row["source"] for row in table],
        predictions=[row["prediction"] for row in table],
        references=[row["reference"] for row in table],
        confidence_level=None,
    )


def cpu_seconds(**options):
    start = time.process_time()
    compute(**options)
    return time.process_time() - start


def compare_languages(table, repeats, engine):
    times = {None: [], "en": []}
    for _ in range(repeats):
        for language in times:
            times[language].append(cpu_seconds(**inputs(table), engine=engine, language=language))
    ratios = [en / default for en, default in zip(times["en"], times[None])]
    print(
        f"engine={engine!r}, {len(table)} rows: median CPU seconds of {repeats} runs: "
        f"language=None {statistics.median(times[None]):.3f}, language='en' {statistics.median(times['en']):.3f}; "
        f"ratio en / None: median {statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f})"
    )


def segmenter_loads(repeats):
    chinese = [row for row in read("multilingual_triples.jsonl") if row["language"] == "zh"]
    times = [cpu_seconds(**inputs(chinese), language="zh") for _ in range(repeats)]
    print(
        f"language='zh', {len(chinese)} rows: first call {times[0]:.3f} s (loads jieba), later calls median "
        f"{statistics.median(times[1:]):.4f} s; segmenters built in this process: {segmenter.cache_info().misses}"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=None, help="rows of wiki_triples.jsonl (default all 745)")
    parser.add_argument("--repeats", type=int, default=5, help="repetitions of each setting (default 5)")
    arguments = parser.parse_args()
    table = read("wiki_triples.jsonl", arguments.rows)
    segmenter_loads(arguments.repeats)
    for engine in ("python", "auto"):
        compare_languages(table, arguments.repeats, engine)


if __name__ == "__main__":
    main()
