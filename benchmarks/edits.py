"""``additions="edits"`` against the default ``additions="sentences"``, in one process: one JSON
line per round.

``compute`` on the Wikipedia triples (``tests/data/wiki_triples.jsonl``), ``num_proc=1``, no
interval (``confidence_level=None``): after one warm-up call of each mode, the two modes
alternate ROUNDS times; each line gives both CPU times (the process's, all threads) and their
ratio, and the last line the median of the rounds' CPU ratios (docs/speed.md quotes it; on a
shared machine the paired rounds' median CPU ratio is the steadiest figure).

Usage: python benchmarks/edits.py [ROUNDS [ENGINE]] (3 and "python" by default).
"""

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from update_rouge import compute  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "wiki_triples.jsonl"
MODES = ("sentences", "edits")


def cpu_seconds(columns: list[list[str]], options: dict) -> float:
    """CPU seconds (the process's, all threads) of one ``compute`` call."""
    began = time.process_time()
    compute(*columns, num_proc=1, confidence_level=None, **options)
    return time.process_time() - began


def main(argv: list[str]) -> None:
    rounds = int(argv[0]) if argv else 3
    engine = argv[1] if len(argv) > 1 else "python"
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    columns = [[row[key] for row in rows] for key in ("source", "prediction", "reference")]
    for mode in MODES:
        cpu_seconds(columns, {"additions": mode, "engine": engine})
    ratios = []
    for _ in range(rounds):
        times = {
            f"{mode}_cpu_s": round(cpu_seconds(columns, {"additions": mode, "engine": engine}), 3) for mode in MODES
        }
        ratios.append(times["edits_cpu_s"] / times["sentences_cpu_s"])
        print(json.dumps({"engine": engine, **times, "cpu_ratio": round(ratios[-1], 2)}), flush=True)
    summary = {"engine": engine, "examples": len(rows), "median_cpu_ratio": round(statistics.median(ratios), 2)}
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
