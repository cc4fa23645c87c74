"""Speed of ROUGE-W (``update_rouge.wlcs``) and of the ROUGE-1.5.5 options' default path.

Measured, each the median of ``--repeats`` interleaved repetitions:

- the wiki triples (tests/data/wiki_triples.jsonl): each row's additions extracted once, then
  the Python engine counts rougeLsum alone and rougeW alone (tokenization included); the
  ratio rougeW / rougeLsum is what the issue bounds by 5;
- one pair of 4,000-token single-line texts (real Wikipedia words, ``engine.long_pair``), rougeW;
- the default path (``compute`` with the default types and no option) on the wiki triples,
  here and, with ``--compare-with DIR``, in a subprocess importing the package from DIR (for
  example a checkout of main), so the cost of the options on the default path shows.

Run from the repository root: python benchmarks/rouge_w.py [--repeats 5] [--compare-with DIR]
"""

import argparse
import os
import subprocess
import sys
import time

from engine import json_rows, long_pair, median_times

from update_rouge.engines import PythonEngine
from update_rouge.extraction import SourceIndex, join_segments
from update_rouge.tokens import tokenizer_for

DEFAULT_PATH = """
import json, statistics, sys, time
from update_rouge import compute
rows = [json.loads(line) for line in open("tests/data/wiki_triples.jsonl", encoding="utf-8")]
times = []
for _ in range({repeats}):
    start = time.perf_counter()
    compute(sources=[r["source"] for r in rows], predictions=[r["prediction"] for r in rows],
            references=[r["reference"] for r in rows], confidence_level=None)
    times.append(time.perf_counter() - start)
print(statistics.median(times))
"""


def wiki_pairs():
    pairs = []
    for row in json_rows("wiki_triples.jsonl"):
        index = SourceIndex(row["source"])
        reference, prediction = (join_segments(index.additions(row[side])) for side in ("reference", "prediction"))
        pairs.append((reference, prediction))
    return pairs


def default_path(tree, repeats):
    """Median seconds of the default compute on the wiki triples, the package imported from ``tree``."""
    environment = {**os.environ, "PYTHONPATH": tree}
    command = [sys.executable, "-c", DEFAULT_PATH.format(repeats=repeats)]
    output = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    return float(output.stdout.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--compare-with", default=None, help="another tree of the package, e.g. a checkout of main")
    args = parser.parse_args()

    pairs = wiki_pairs()
    tokenizer = tokenizer_for()
    engines = {name: PythonEngine([name], tokenizer) for name in ("rougeLsum", "rougeW")}
    contenders = {name: lambda engine=engine: engine.count_pairs(pairs) for name, engine in engines.items()}
    times = median_times(contenders, args.repeats)
    print(
        f"wiki triples ({len(pairs)} pairs): rougeLsum {times['rougeLsum']:.2f} s, rougeW {times['rougeW']:.2f} s, "
        f"ratio {times['rougeW'] / times['rougeLsum']:.2f}"
    )

    target, prediction = long_pair(4000, 1)
    start = time.perf_counter()
    engines["rougeW"].counts(target, prediction)
    print(f"4,000-token single-line pair, rougeW: {time.perf_counter() - start:.2f} s")

    trees = {"this tree": os.getcwd()}
    if args.compare_with:
        trees["compared"] = os.path.abspath(args.compare_with)
    results = {name: [] for name in trees}
    for _ in range(3):
        for name, tree in trees.items():
            results[name].append(default_path(tree, args.repeats))
    for name, values in results.items():
        median = sorted(values)[1]
        print(f"default compute on the wiki triples, {name}: {median:.2f} s (median of 3 runs of {args.repeats})")


if __name__ == "__main__":
    main()
