"""Scoring with ``deletions=True`` against scoring without, in one process: one JSON line per round.

``compute`` on the 745 Wikipedia triples (``tests/data/wiki_triples.jsonl``), ``num_proc=1``, for
each ``additions`` mode (``sentences``, ``edits``) and each ``confidence_level`` (``None``, the
default 0.95): after one warm-up call of each, the calls without and with deletions alternate
ROUNDS times; each line gives both wall times and their ratio, and the last line of each case the
ratio of the fastest of each (the figure docs/speed.md quotes; the bar is about 2).

Usage: python benchmarks/deletions.py [ROUNDS [ENGINE]] (3 and "auto" by default).
"""

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from update_rouge import compute  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "wiki_triples.jsonl"
CASES = [(additions, level) for additions in ("sentences", "edits") for level in (None, 0.95)]


def timed(columns: list[list[str]], options: dict) -> float:
    began = time.perf_counter()
    compute(*columns, num_proc=1, **options)
    return time.perf_counter() - began


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
        for _ in range(rounds):
            times = {}
            for name, deletions in (("without_s", False), ("with_s", True)):
                times[name] = round(timed(columns, {**case, "deletions": deletions}), 3)
                best[name] = min(best[name], times[name])
            print(json.dumps({**case, **times, "ratio": round(times["with_s"] / times["without_s"], 2)}), flush=True)
        summary = {
            **case,
            "examples": len(rows),
            "best": best,
            "best_ratio": round(best["with_s"] / best["without_s"], 2),
        }
        print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
