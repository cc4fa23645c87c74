"""Wall time of the demo scoring a 10,000-row file, with the engine the Space installs.

The file repeats the 745 rows of tests/data/wiki_triples.jsonl (real Wikipedia updates) until it
has 10,000 rows (JSONL; the size is printed). It is scored by ``demo.file_handlers.score_file``
(what the "Score file" button runs: reading through files.py, scoring, corpus summary with a 95 %
bootstrap interval, the JSON and CSV downloads) with the default rouge types, in a fresh
subprocess with ``engine="auto"``: the Space installs the rouge-score-rs accelerator (the demo
extra lists it), which "auto" uses for these types; ``--python`` makes it unimportable, so the
pure-Python engine scores instead. Each repetition is a new call in that process; the median is
reported (goal: under 10 s with the Space's engine), with, measured in the same process, the
scorer alone (rouge-score-rs's ``score_batch``, or rouge-score with ``--python``) on the same
additions joined beforehand, and the ratio of the two: the demo's own share of the time. The
scorer alone is timed on the distinct rows (745) and scaled to the file's rows, which repeat them
(rouge-score itself would take many minutes on the whole file).

Usage: python benchmarks/demo_file.py [--rows 10000] [--repeat 3] [--python]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "wiki_triples.jsonl"
GOAL_SECONDS = 10.0

CHILD = """
import json, sys, time
path, repeat, python_only, distinct = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "python", int(sys.argv[4])
if python_only:
    sys.modules["rouge_score_rs"] = None  # unimportable: the pure-Python engine scores
from demo import file_handlers, options as demo_options
from update_rouge import extraction, files
times = []
for _ in range(repeat):
    start = time.perf_counter()
    out = file_handlers.score_file(path, list(demo_options.DEFAULT_ROUGE_TYPES), "none", "0.95")
    times.append(time.perf_counter() - start)
    assert out["status"].startswith("Scored "), out["status"]
# The reference: the scorer alone on the joined additions of the distinct rows, extracted beforehand.
_, read = files.open_examples(path)
pairs = [
    (extraction.join_segments(extraction.extract_additions(row.references[0], row.source)),
     extraction.join_segments(extraction.extract_additions(row.prediction, row.source)))
    for _, row in zip(range(distinct), read())
]
types = list(demo_options.DEFAULT_ROUGE_TYPES)
alone = []
for _ in range(repeat):
    start = time.perf_counter()
    if python_only:
        from rouge_score import rouge_scorer
        scorer = rouge_scorer.RougeScorer(types)
        [scorer.score(target, prediction) for target, prediction in pairs]
    else:
        import rouge_score_rs
        rouge_score_rs.RougeScorer(types).score_batch(*map(list, zip(*pairs)))
    alone.append(time.perf_counter() - start)
print(json.dumps({"times": times, "alone": alone, "status": out["status"].splitlines()[0]}))
"""


def write_rows(path: Path, rows: int) -> int:
    """Write ``rows`` examples: the rows of wiki_triples.jsonl, repeated in order. Returns the
    number of distinct rows written."""
    examples = [line for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    with open(path, "w", encoding="utf-8") as handle:
        for index in range(rows):
            row = json.loads(examples[index % len(examples)])
            handle.write(json.dumps({key: row[key] for key in ("source", "reference", "prediction")}) + "\n")
    return min(rows, len(examples))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--python", action="store_true", help="without the accelerator (pure-Python engine)")
    args = parser.parse_args()
    engine = "python" if args.python else "auto"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rows.jsonl"
        distinct = write_rows(path, args.rows)
        env = {**os.environ, "PYTHONPATH": str(REPO), "UPDATE_ROUGE_DEMO_MAX_MB": "1000"}
        run = subprocess.run(
            [sys.executable, "-c", CHILD, str(path), str(args.repeat), engine, str(distinct)],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            return 1
        report = json.loads(run.stdout.splitlines()[-1])
        size = path.stat().st_size / 1e6
    median = statistics.median(report["times"])
    # The file repeats its distinct rows, so the scorer's time on all of them scales linearly.
    alone = statistics.median(report["alone"]) * args.rows / distinct
    reference = "rouge-score" if args.python else "rouge-score-rs"
    print(report["status"])
    print(
        f"{args.rows} rows, {size:.1f} MB, engine {engine}: median {median:.2f} s of {args.repeat} "
        f"({', '.join(f'{t:.2f}' for t in report['times'])}); goal < {GOAL_SECONDS:g} s: "
        f"{'met' if median < GOAL_SECONDS else 'NOT met'}"
    )
    print(
        f"{reference} alone on the same additions (extracted beforehand; timed on the {distinct} distinct "
        f"rows, scaled to {args.rows}): median {alone:.2f} s; "
        f"demo / scorer alone: {median / alone:.2f} (the demo also reads, extracts, bootstraps and writes)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
