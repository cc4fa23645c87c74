"""The published protocols' bootstrap against ours, in one process: one JSON line per round.

``compute(..., n_bootstrap=N, seed=7)`` on the IteraTeR triples (40 examples), once without a
protocol (our bootstrap: one resample matrix for all rouge types) and once with ``protocol=P``
(rouge-score's aggregator replayed: N resamples per rouge type from the legacy generator),
alternated ROUNDS times after one warm-up call; each line gives both wall and CPU times (the
process's, all threads) and the wall ratio, and the last line the ratio of the fastest of each.

Usage: python benchmarks/protocol_bootstrap.py [N [P [ROUNDS]]] (1000000, fruit, 3 by default).
"""

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from update_rouge import compute  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "iterater_triples.jsonl"


def main(argv: list[str]) -> None:
    n_bootstrap = int(argv[0]) if argv else 1_000_000
    protocol = argv[1] if len(argv) > 1 else "fruit"
    rounds = int(argv[2]) if len(argv) > 2 else 3
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    columns = [[row[key] for row in rows] for key in ("source", "prediction", "reference")]
    compute(*columns)
    best = {"ours_s": float("inf"), "protocol_s": float("inf")}
    for _ in range(rounds):
        times = {}
        for name, options in (("ours_s", {}), ("protocol_s", {"protocol": protocol})):
            began, cpu = time.perf_counter(), time.process_time()
            compute(*columns, n_bootstrap=n_bootstrap, seed=7, **options)
            times[name] = round(time.perf_counter() - began, 3)
            times[name.replace("_s", "_cpu_s")] = round(time.process_time() - cpu, 3)
            best[name] = min(best[name], times[name])
        print(json.dumps({**times, "ratio": round(times["protocol_s"] / times["ours_s"], 2)}), flush=True)
    print(
        json.dumps(
            {
                "examples": len(rows),
                "n_bootstrap": n_bootstrap,
                "protocol": protocol,
                "best": best,
                "best_ratio": round(best["protocol_s"] / best["ours_s"], 2),
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
