"""How UpdateROUGE scales with worker processes, one run: the command line, ``compute`` and Ray,
both engines, and the pure-Python engine against the tokenization floor.

The input: tests/data/wiki_triples.jsonl repeated to ``--rows`` rows (``ray_throughput.write_input``).
Each configuration (way, engine, N workers) scores it with the default options in a fresh
driver process:

- ``cli``: ``update-rouge FILE --engine E --num-proc N --per-example OUT`` as the installed command
  runs it (``update_rouge.cli.run_program()``, the command's arguments in ``sys.argv``);
- ``compute``: the file's columns read first (not timed), then ``compute(..., num_proc=N)``;
- ``ray``: a local Ray cluster of N CPUs (its start not timed, and its N worker processes
  started by a task each before the clock starts: a cluster in use), then the command line as above
  with ``--ray`` (its chunks scored by N Ray actors, ``integrations.ray_chunks``);
- ``ray-data``: the same cluster, ``score_dataset(ray.data.read_json(FILE), concurrency=N)`` and
  ``corpus_scores``, Ray Data's path;
- ``ray-jsonl``: the same cluster, ``score_jsonl(FILE, concurrency=N)`` and ``corpus_scores``:
  Ray Data without a reader stage, the file's byte ranges read and parsed in the scoring tasks.

The configurations run interleaved, ``--repeat`` rounds of all of them (every other round in
the reverse order), so that machine noise hits them alike; seconds and peak memory are medians. Every configuration must print the same
result, and the command line the same per-example file (checked). Peak memory is the largest sum
of the resident memory of the driver and all its descendant processes, sampled every 100 ms
(Linux); speed-up is the time with the fewest workers asked for (1 by default) over the time
with N, taken in each round (the two runs seconds apart, on a machine whose speed drifts by tens
of per cent over minutes) and its median given, with the lowest and highest; efficiency is that
speed-up per added worker (throughput / (N x one worker's)). The package's modules are compiled
to bytecode first, as an installation does: spawned workers would otherwise each compile them
again where ``PYTHONDONTWRITEBYTECODE`` is set.

The rust engine runs two ways (``--rust-threads``): ``auto``, as the package sizes its threads
(its Rayon pool on every CPU in one process, on CPUs / N in each of N workers: what a user
gets), and ``one``, one thread in every process, so that N workers use N cores and the
efficiency measures how the work spreads over processes.

Each run also reports the driver process's CPU seconds (``resource.getrusage(RUSAGE_SELF)``, its
imports included) against its ended children's (``RUSAGE_CHILDREN``: the worker processes),
as a user can measure their own run: the main process's share of the whole tree's CPU, and the
Amdahl bound it implies for 16 cores, 1 / (s + (1 - s) / 16), counting all of the main
process's CPU as serial (its bootstrap runs on N threads, so this overstates the serial share).

Then, in the same run, the floor of one core: on the bundled triples, the extraction of the
additions plus rouge-score's tokenizer on them alone, against ``compute(engine="python")`` end to
end (intervals included), as a ratio.

Usage: python benchmarks/scaling.py [--rows 6000] [--repeat 3] [--workers 1 2 ...]
[--ways cli compute ray] [--engines python rust] [--rust-threads auto one]. N defaults to 1, 2, 4, ... up to the CPUs
available, and the CPUs available themselves.
"""

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from ray_throughput import WIKI, write_input

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from update_rouge.parallel import available_cpus  # noqa: E402
from update_rouge.rust_engine import rust_available  # noqa: E402

# Run in a fresh interpreter: prints {"seconds", "result", "main_cpu", "workers_cpu"}.
DRIVER = r"""
import contextlib, io, json, resource, sys, time
way, engine, workers, path, per_example = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
if way.startswith("ray"):
    import ray
    ray.init(num_cpus=workers, include_dashboard=False, _node_ip_address="127.0.0.1", log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    # A warm cluster: its N worker processes started (each ran a task), as on a cluster in use.
    warm_up = ray.remote(num_cpus=1)(lambda: time.sleep(0.5))
    ray.get([warm_up.remote() for _ in range(workers)])
if way == "ray-data":
    from update_rouge.integrations.ray_batches import score_dataset
    from update_rouge.integrations.ray_scoring import corpus_scores
    began = time.perf_counter()
    dataset = score_dataset(ray.data.read_json(path, num_cpus=0), concurrency=workers, engine=engine)
    result = corpus_scores(dataset)
elif way == "ray-jsonl":
    from update_rouge.integrations.ray_batches import score_jsonl
    from update_rouge.integrations.ray_scoring import corpus_scores
    began = time.perf_counter()
    result = corpus_scores(score_jsonl(path, concurrency=workers, engine=engine))
elif way == "compute":
    from update_rouge import compute
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    columns = {name + "s": [row[name] for row in rows] for name in ("source", "reference", "prediction")}
    began = time.perf_counter()
    result = compute(**columns, engine=engine, num_proc=workers)
else:
    from update_rouge.cli import run_program
    sys.argv = ["update-rouge", path, "--engine", engine, "--per-example", per_example]
    sys.argv += ["--ray"] if way == "ray" else ["--num-proc", str(workers)]
    began = time.perf_counter()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert run_program() == 0
    result = json.loads(out.getvalue())
seconds = time.perf_counter() - began
# The CPU of this process (its imports included) and of its children that ended (the workers).
own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
cpu = {"main_cpu": own.ru_utime + own.ru_stime, "workers_cpu": children.ru_utime + children.ru_stime}
print(json.dumps({"seconds": seconds, "result": result, **cpu}))
"""


SAMPLE_SECONDS = 0.1
"""How often the peak memory is sampled: the sampling takes about 1% of a core."""


def tree_rss(pid: int) -> int:
    """The resident bytes of process ``pid`` and all its descendants (0 once it is gone), from one
    pass over ``/proc/*/stat`` (about 1 ms here; walking each thread's ``children`` file took
    4 ms of CPU a sample on a Ray cluster's many threads, a sixth of a core at 50 samples a
    second, which the runs with every core busy then lacked)."""
    parents, pages = {}, {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            parents[int(name)], pages[int(name)] = int(fields[1]), int(fields[21])
    children: dict = {}
    for child, parent in parents.items():
        children.setdefault(parent, []).append(child)
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        total += pages.get(current, 0)
        pending += children.get(current, [])
    return total * os.sysconf("SC_PAGE_SIZE")


def run(way: str, engine: str, threads: str, workers: int, path: Path, per_example: Path) -> dict:
    environment = {**os.environ, "PYTHONPATH": str(REPO), "RAY_USAGE_STATS_ENABLED": "0"}
    environment.pop("RAYON_NUM_THREADS", None)
    if threads == "one":  # one thread in every process: N workers use N cores, no more
        environment["RAYON_NUM_THREADS"] = "1"
    command = [sys.executable, "-c", DRIVER, way, engine, str(workers), str(path), str(per_example)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    peak = [0]

    def sample() -> None:
        while process.poll() is None:
            peak[0] = max(peak[0], tree_rss(process.pid))
            time.sleep(SAMPLE_SECONDS)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = process.communicate(timeout=3600)
    sampler.join()
    if process.returncode != 0:
        raise RuntimeError(f"{way} {engine} {workers} failed: {err[-2000:]}")
    # Ray may print to stdout as the driver exits: the result is the line the driver printed.
    measured = json.loads(next(line for line in out.splitlines() if line.startswith('{"seconds"')))
    return {**measured, "peak": peak[0]}


def floor_ratio(repeat: int) -> str:
    """The pure-Python engine end to end on the bundled triples over extraction plus rouge-score's
    tokenizer on the additions alone (medians of ``repeat`` interleaved timings)."""
    from rouge_score import tokenizers

    from update_rouge import compute
    from update_rouge.extraction import SEGMENT_PATTERN, SourceIndex, join_segments

    rows = [json.loads(line) for line in open(WIKI, encoding="utf-8")]
    columns = {name + "s": [row[name] for row in rows] for name in ("source", "reference", "prediction")}
    tokenizer = tokenizers.DefaultTokenizer(use_stemmer=False)

    def floor() -> None:
        for row in rows:
            index = SourceIndex(row["source"], SEGMENT_PATTERN)
            for text in (row["reference"], row["prediction"]):
                tokenizer.tokenize(join_segments(index.additions(text)))

    times: dict = {"floor": [], "python engine": []}
    for _ in range(repeat):
        began = time.perf_counter()
        floor()
        times["floor"].append(time.perf_counter() - began)
        began = time.perf_counter()
        compute(**columns, engine="python")
        times["python engine"].append(time.perf_counter() - began)
    floor_s, engine_s = (statistics.median(times[key]) for key in ("floor", "python engine"))
    return (
        f"one core, {len(rows)} bundled triples: extraction + rouge-score tokenizer {floor_s:.2f} s, "
        f"compute(engine='python') end to end {engine_s:.2f} s: {engine_s / floor_s:.2f}x the floor"
    )


def main() -> None:
    cpus = available_cpus()
    default_workers = sorted({*(2**k for k in range(cpus.bit_length()) if 2**k <= cpus), cpus})
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=6000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, nargs="+", default=default_workers)
    parser.add_argument(
        "--ways", nargs="+", default=["cli", "compute"], choices=["cli", "compute", "ray", "ray-data", "ray-jsonl"]
    )
    engines = ["python", "rust"] if rust_available() else ["python"]
    parser.add_argument("--engines", nargs="+", default=engines, choices=["python", "rust"])
    parser.add_argument(
        "--rust-threads",
        nargs="+",
        default=["auto", "one"],
        choices=["auto", "one"],
        help="rust engine: score_batch's threads as the package sizes them (auto: all CPUs in one process, "
        "CPUs / N in each of N workers), or one thread in every process (one: one core per worker)",
    )
    args = parser.parse_args()
    setups = [(e, t) for e in args.engines for t in (args.rust_threads if e == "rust" else ["auto"])]
    compileall.compile_dir(REPO / "update_rouge", quiet=1)
    configs = [(way, *setup, n) for way in args.ways for setup in setups for n in args.workers]
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "wiki_repeated.jsonl"
        write_input(path, args.rows)
        runs: dict = {config: [] for config in configs}
        per_example: dict = {}
        for round_number in range(args.repeat):
            # Every other round backwards: a drift of the machine's speed favours no N.
            for config in configs if round_number % 2 == 0 else configs[::-1]:
                out = Path(directory) / f"per_example_{config[3]}.jsonl"
                runs[config].append(run(*config, path, out))
                print(f"{' '.join(map(str, config))}: {runs[config][-1]['seconds']:.2f} s", file=sys.stderr, flush=True)
                if config[0] in ("cli", "ray"):
                    per_example.setdefault("cli", out.read_bytes())
                    assert out.read_bytes() == per_example["cli"], f"{config}: another per-example file"
        print(f"{args.rows} rows of the bundled Wikipedia triples, {cpus} CPU(s), median of {args.repeat}")
        print(
            f"{'way':8} {'engine':10} {'N':>3} {'seconds':>8} {'examples/s':>11} {'speed-up':>8} {'(range)':>11} "
            f"{'efficiency':>10} {'peak MB':>8} {'main CPU s':>10} {'main share':>10} {'bound at 16':>11}"
        )
        results = [one["result"] for config in configs for one in runs[config]]
        assert all(result == results[0] for result in results), "another result"
        for way in args.ways:
            for engine, threads in setups:
                # The fewest workers asked for (1 by default): the work of one.
                fewest = args.workers[0]
                for n in args.workers:
                    seconds = statistics.median(one["seconds"] for one in runs[(way, engine, threads, n)])
                    peak = statistics.median(one["peak"] for one in runs[(way, engine, threads, n)]) / 1e6
                    ratios = speed_ups(runs[(way, engine, threads, fewest)], runs[(way, engine, threads, n)])
                    speed_up = statistics.median(ratios)
                    efficiency = speed_up * fewest / n
                    label = engine if engine == "python" else f"{engine}/{threads}"
                    spread = f"{ratios[0]:.2f}-{ratios[-1]:.2f}"
                    main_cpu, share = main_share(runs[(way, engine, threads, n)])
                    print(
                        f"{way:8} {label:10} {n:>3} {seconds:>8.2f} {args.rows / seconds:>11,.0f} {speed_up:>8.2f} "
                        f"{spread:>11} {efficiency:>10.2f} {peak:>8.0f} {main_cpu:>10.2f} {share:>10.2%} "
                        f"{amdahl(share, 16):>10.1f}x"
                    )
    print(floor_ratio(args.repeat))


def main_share(runs: list) -> tuple[float, float]:
    """The driver process's CPU seconds (``RUSAGE_SELF``: its imports, reading, handing out,
    merging, writing and the bootstrap) and their share of the CPU of the whole process tree
    (with ``RUSAGE_CHILDREN``: the worker processes), medians over the runs. With one process
    (or Ray, whose processes are not the driver's children) the share is 100% or meaningless."""
    own = statistics.median(one["main_cpu"] for one in runs)
    share = statistics.median(one["main_cpu"] / (one["main_cpu"] + one["workers_cpu"]) for one in runs)
    return own, share


def amdahl(serial: float, cores: int) -> float:
    """The most ``cores`` can speed up work of which the share ``serial`` is serial: 1 / (s + (1 - s) / N)."""
    return 1 / (serial + (1 - serial) / cores)


def speed_ups(base: list, runs: list) -> list:
    """Each round's seconds with the fewest workers over its seconds with N, sorted."""
    return sorted(one["seconds"] / other["seconds"] for one, other in zip(base, runs))


if __name__ == "__main__":
    main()
