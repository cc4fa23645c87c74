"""Examples per second on Ray (1 and 2 CPUs) against the command line (--num-proc 1 and 2), one run.

The input: tests/data/wiki_triples.jsonl repeated to ``--rows`` rows (default 50,000; 745 rows
a copy), each with its ``row`` number, written once to a temporary JSONL file. Every
configuration scores that file with the default options (rouge1, rouge2, rougeLsum, 95%
interval from 1,000 resamples) in a fresh driver process, ``--repeat`` times; the median wall
time is reported, with the driver's peak resident memory (``ru_maxrss``) after scoring minus
before, per example:

- ``cli-N``: ``update_rouge.cli.main([file, "--num-proc", N])`` (reading, scoring, intervals);
- ``ray-N``: a local Ray cluster of N CPUs (started before the clock, its start time reported
  apart), then ``ray.data.read_json`` -> ``score_dataset(concurrency=N)`` -> ``corpus_scores``;
  the reader reserves no CPU (``num_cpus=0``), else on one CPU it would wait for the CPU the
  scorer actor holds.

Every configuration must print the same result (checked). Usage:
python benchmarks/ray_throughput.py [--rows 50000] [--repeat 3] [--configs cli-1 cli-2 ray-1 ray-2]
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
WIKI = REPO / "tests" / "data" / "wiki_triples.jsonl"

# Run in a fresh interpreter: prints {"seconds", "bytes_per_example", "result", "startup"}.
DRIVER = r"""
import json, os, resource, sys, time
sys.path.insert(0, {repo!r})
kind, workers, path, rows = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
startup = 0.0
if kind == "ray":
    import ray
    from update_rouge.integrations.ray_batches import score_dataset
    from update_rouge.integrations.ray_scoring import corpus_scores
    began = time.perf_counter()
    ray.init(num_cpus=workers, include_dashboard=False, _node_ip_address="127.0.0.1", log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    startup = time.perf_counter() - began
else:
    import contextlib, io
    from update_rouge.cli import main
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
began = time.perf_counter()
if kind == "ray":
    result = corpus_scores(score_dataset(ray.data.read_json(path, num_cpus=0), concurrency=workers))
else:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([path, "--num-proc", str(workers)]) == 0
    result = json.loads(out.getvalue())
seconds = time.perf_counter() - began
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024 / rows
print(json.dumps({{"seconds": seconds, "bytes_per_example": grown, "result": result, "startup": startup}}))
"""


def write_input(path: Path, rows: int) -> None:
    with open(WIKI, encoding="utf-8") as wiki:
        examples = [json.loads(line) for line in wiki]
    with open(path, "w", encoding="utf-8") as handle:
        for number in range(rows):
            example = examples[number % len(examples)]
            keep = {key: example[key] for key in ("source", "reference", "prediction")}
            handle.write(json.dumps({"row": number, **keep}) + "\n")


def run(kind: str, workers: int, path: Path, rows: int) -> dict:
    environment = {**os.environ, "PYTHONPATH": str(REPO), "RAY_USAGE_STATS_ENABLED": "0"}
    completed = subprocess.run(
        [sys.executable, "-c", DRIVER.format(repo=str(REPO)), kind, str(workers), str(path), str(rows)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=3600,
        check=True,
    )
    # Ray may print to stdout as the driver exits: the result is the line the driver printed.
    return json.loads(next(line for line in completed.stdout.splitlines() if line.startswith('{"seconds"')))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--configs", nargs="+", default=["cli-1", "cli-2", "ray-1", "ray-2"], help="which of cli-1 cli-2 ray-1 ray-2"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "wiki_repeated.jsonl"
        write_input(path, args.rows)
        results = None
        print(f"{args.rows} rows, median of {args.repeat}; memory: driver peak RSS growth per example")
        for kind, workers in (config.split("-") for config in args.configs):
            workers = int(workers)
            runs = [run(kind, workers, path, args.rows) for _ in range(args.repeat)]
            for one in runs:
                results = results or one["result"]
                assert one["result"] == results, f"{kind}-{workers} printed another result"
            seconds = statistics.median(one["seconds"] for one in runs)
            memory = statistics.median(one["bytes_per_example"] for one in runs)
            startup = (
                f", cluster start {statistics.median(one['startup'] for one in runs):.1f} s" if kind == "ray" else ""
            )
            print(
                f"{kind}-{workers}: {args.rows / seconds:,.0f} examples/s ({seconds:.1f} s), "
                f"{memory:,.0f} B/example{startup}",
                flush=True,
            )


if __name__ == "__main__":
    main()
