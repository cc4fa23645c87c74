"""Peak memory of the command line on generated JSONL files of short examples.

Usage: python scripts/cli_memory.py [ROWS ...] [--num-proc N]

For each row count, writes a JSONL file of short, varied examples to a temporary directory,
runs ``python -m update_rouge FILE --per-example OUT`` on it, and prints the row count, the
wall time and the peak resident set size (maximum over the process and its workers, from
``wait4``). Memory that does not grow with the row count shows that the CLI streams.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def write_examples(path: Path, rows: int) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for i in range(rows):
            source = f"Item {i} is red. It sits on shelf {i % 13}."
            reference = f"{source} It weighs {i % 97} grams. It was made in {1900 + i % 120}."
            prediction = f"{source} It weighs {i % 89} grams." if i % 5 else source
            handle.write(json.dumps({"source": source, "reference": reference, "prediction": prediction}) + "\n")


def measure(path: Path, num_proc: int) -> tuple:
    command = [sys.executable, "-m", "update_rouge", str(path), "--per-example", str(path.with_suffix(".scores.jsonl"))]
    command += ["--num-proc", str(num_proc), "--no-progress"]
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed")
    return time.perf_counter() - start, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", nargs="*", type=int, default=[10_000, 1_000_000])
    parser.add_argument("--num-proc", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        for rows in args.rows:
            path = Path(directory) / f"{rows}.jsonl"
            write_examples(path, rows)
            seconds, peak_mib = measure(path, args.num_proc)
            size_mib = path.stat().st_size / 2**20
            print(f"{rows:>9} rows ({size_mib:.0f} MiB): {seconds:.0f} s, peak RSS {peak_mib:.0f} MiB", flush=True)


if __name__ == "__main__":
    main()
