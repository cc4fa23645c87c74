"""Scoring with ``deletions=True`` against scoring without, in one process: one JSON line per round.

``compute`` on the 745 Wikipedia triples (``tests/data/wiki_triples.jsonl``), ``num_proc=1``, for
each ``additions`` mode (``sentences``, ``edits``) and each ``confidence_level`` (``None``, the
default 0.95): after one warm-up call of each, the calls without and with deletions alternate
ROUNDS times; each line gives both wall and CPU times (the process's, all threads) and the wall
ratio, and the last line of each case the ratio of the fastest of each and the medians of the
rounds' wall and CPU ratios (docs/speed.md quotes them; the bar is about 2). On a loaded shared
machine the median CPU ratio of the paired rounds is the steadiest figure.

Usage: python benchmarks/deletions.py [ROUNDS [ENGINE]] (3 and "auto" by default).
"""

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from update_rouge import compute  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "wiki_triples.jsonl"
CASES = [(additions, level) for additions in ("sentences", "edits") for level in (None, 0.95)]


def timed(columns: list[list[str]], options: dict) -> tuple[float, float]:
    """Wall and CPU seconds (the process's, all threads) of one ``compute`` call."""
    began, cpu = time.perf_counter(), time.process_time()
    compute(*columns, num_proc=1, **options)
    return time.perf_counter() - began, time.process_time() - cpu


def main(argv: list[str]) -> None:
    rounds = int(argv[0]) if argv else 3
    engine = argv[1] if len(argv) > 1 else "auto"
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    columns = [[row[key] for row in rows] for key in ("source", "prediction", "reference")]
    for additions, level in CASES:
        case = {"additions": additions, "confidence_level": level, "engine": engine}
        for deletions in (False, True):
            timed(columns, {**case, "deletions": deletions})
        best = {"without_s": float("inf"), "with_s": float("inf")}
        ratios: dict[str, list[float]] = {"wall": [], "cpu": []}
        for _ in range(rounds):
            times = {}
            for name, deletions in (("without", False), ("with", True)):
                wall, cpu = timed(columns, {**case, "deletions": deletions})
                times[f"{name}_s"], times[f"{name}_cpu_s"] = round(wall, 3), round(cpu, 3)
                best[f"{name}_s"] = min(best[f"{name}_s"], times[f"{name}_s"])
            for kind, suffix in (("wall", "_s"), ("cpu", "_cpu_s")):
                ratios[kind].append(times[f"with{suffix}"] / times[f"without{suffix}"])
            print(json.dumps({**case, **times, "ratio": round(ratios["wall"][-1], 2)}), flush=True)
        summary = {
            **case,
            "examples": len(rows),
            "best": best,
            "best_ratio": round(best["with_s"] / best["without_s"], 2),
            "median_ratio": round(statistics.median(ratios["wall"]), 2),
            "median_cpu_ratio": round(statistics.median(ratios["cpu"]), 2),
        }
        print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
