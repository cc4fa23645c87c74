"""The prices behind ``rust_engine.summary_way``: what rougeLsum of one pair costs the accelerator
(one thread) and the python engine, fitted on the pairs of the Wikipedia triples.

The pairs are each triple's joined additions and joined deletions (reference, prediction), left out
where the two are equal or every reference line is a prediction line (``summary_way`` takes those
from rouge1). Each pair is timed alone, the best of 3: the accelerator's ``score_batch`` of rougeLsum
on one thread, and ``PythonEngine.summary_score``. Least squares then fit the accelerator's time to
``cell * t * p + character * (t + p)`` and the python engine's to ``character * (t + p) + compared
* p`` (t, p: the two texts' characters; compared: the characters of the reference lines that no
prediction line repeats), and the prices print in units of the python engine's ``compared`` cell,
as ``rust_engine`` states them. Last, per thread count, the pairs ``summary_way`` sends to the
python engine and the summed seconds of the ways it picks against the accelerator's alone.

Usage: python benchmarks/summary_prices.py
"""

import json
import os
import sys
import time
from pathlib import Path

os.environ["RAYON_NUM_THREADS"] = "1"  # before the accelerator starts its pool
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import numpy  # noqa: E402
import rouge_score_rs  # noqa: E402

from update_rouge import rust_engine  # noqa: E402
from update_rouge.engines import PythonEngine  # noqa: E402
from update_rouge.extraction import SourceIndex, join_segments  # noqa: E402
from update_rouge.tokens import DefaultTokenizer  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "wiki_triples.jsonl"


def best_of_3(function, *arguments) -> float:
    times = []
    for _ in range(3):
        began = time.perf_counter()
        function(*arguments)
        times.append(time.perf_counter() - began)
    return min(times)


def main() -> None:
    pairs = []
    for row in map(json.loads, DATA.read_text(encoding="utf-8").splitlines()):
        index = SourceIndex(row["source"])
        for changes in (index.additions, index.deletions):
            pair = join_segments(changes(row["reference"])), join_segments(changes(row["prediction"]))
            if rust_engine.summary_way(*pair, 1) != "unigrams":
                pairs.append(pair)
    accelerator = rouge_score_rs.RougeScorer(["rougeLsum"], use_stemmer=False)
    python = PythonEngine(["rougeLsum"], DefaultTokenizer())
    rows = []
    for target, prediction in pairs:
        compared = rust_engine.compared_characters(target, prediction)
        rust_s = best_of_3(accelerator.score_batch, [target], [prediction])
        python_s = best_of_3(python.summary_score, target, prediction)
        rows.append((len(target), len(prediction), compared, rust_s, python_s))
    t, p, compared, rust_s, python_s = map(numpy.array, zip(*rows))
    (rust_cell, rust_character), *_ = numpy.linalg.lstsq(numpy.column_stack([t * p, t + p]), rust_s, rcond=None)
    (python_character, python_cell), *_ = numpy.linalg.lstsq(
        numpy.column_stack([t + p, compared * p]), python_s, rcond=None
    )
    print(f"{len(rows)} pairs; python cell {python_cell:.3g} s")
    print(
        f"prices in python cells: ACCELERATOR_PER_CELL {rust_cell / python_cell:.2f}, "
        f"ACCELERATOR_PER_CHARACTER {rust_character / python_cell:.0f}, "
        f"PYTHON_LINES_PER_CHARACTER {python_character / python_cell:.0f}"
    )
    for threads in (1, 2, 4, 16):
        ways = [rust_engine.summary_way(*pair, threads) for pair in pairs]
        picked = sum(py if way == "python" else rust / threads for way, rust, py in zip(ways, rust_s, python_s))
        print(
            f"{threads:>2} threads: {ways.count('python')} pairs to the python engine; "
            f"{picked:.3f} s against the accelerator's {rust_s.sum() / threads:.3f} s (its time / threads)"
        )


if __name__ == "__main__":
    main()
