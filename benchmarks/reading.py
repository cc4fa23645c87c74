"""Seconds to read input files into examples, without scoring them: the readers alone.

The file repeats the 745 rows of tests/data/wiki_triples.jsonl (real Wikipedia updates) until it
has ``--rows`` rows, written as JSONL, as CSV (the same rows, one reference per cell) and as
three line-aligned text files. Each layout is read in this process through
``files.open_examples`` (the one-process reader: the demo's, and ``compute``'s callers), cut
into chunks only (``files.open_reader(...).chunks``: what the command line's main process does
for its workers) and cut with each chunk's ``rows()`` called here (what the workers add), every
row counted; the median of ``--repeat``
rounds is printed per layout and reader: wall seconds, examples per second, and CPU seconds
(``time.process_time``, which moves less than the wall time on a shared machine).

Usage: python benchmarks/reading.py [--rows 20000] [--repeat 5] [--layouts jsonl csv text] [--checkout DIR]
(``--checkout``: read with the package of another checkout, for a before-and-after figure in
one session.)
"""

import argparse
import csv
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "wiki_triples.jsonl"


def _write(folder: Path, rows: int) -> dict[str, list[str]]:
    """The files of ``rows`` examples in each layout, written under ``folder``."""
    base = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    examples = [base[index % len(base)] for index in range(rows)]
    jsonl = folder / "rows.jsonl"
    with jsonl.open("w", encoding="utf-8") as handle:
        for example in examples:
            row = {"source": example["source"], "reference": example["reference"], "prediction": example["source"]}
            handle.write(json.dumps(row) + "\n")
    table = folder / "rows.csv"
    with table.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["source", "reference", "prediction"])
        for example in examples:
            writer.writerow([example["source"], example["reference"], example["source"]])
    texts = []
    for field in ("source", "reference", "prediction"):
        path = folder / f"{field}.txt"
        key = "source" if field == "prediction" else field
        path.write_text("".join(" ".join(example[key].split()) + "\n" for example in examples), encoding="utf-8")
        texts.append(str(path))
    return {"jsonl": [str(jsonl)], "csv": [str(table)], "text": texts}


def _one_process(paths: list[str]) -> int:
    from update_rouge.files import open_examples

    _, read = open_examples(paths[0]) if len(paths) == 1 else open_examples(text_files=paths)
    return sum(1 for _ in read())


def _cut(paths: list[str]) -> list:
    from update_rouge.files import open_reader

    reader = open_reader(paths[0]) if len(paths) == 1 else open_reader(text_files=paths)
    return list(reader.chunks(lambda _: None, 1000))


def _chunks(paths: list[str]) -> int:
    return sum(len(chunk.rows()) for chunk in _cut(paths))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--layouts", nargs="+", choices=["jsonl", "csv", "text"], default=["jsonl", "csv", "text"])
    parser.add_argument("--checkout", type=Path, default=REPO)
    args = parser.parse_args()
    sys.path.insert(0, str(args.checkout.resolve()))
    with tempfile.TemporaryDirectory() as folder:
        layouts = _write(Path(folder), args.rows)
        for layout in args.layouts:
            paths = layouts[layout]
            size = sum(Path(path).stat().st_size for path in paths)
            readers = (("one process", _one_process), ("cut only", lambda p: len(_cut(p))), ("chunks", _chunks))
            for name, read in readers:
                times, cpu = [], []
                for _ in range(args.repeat):
                    began, began_cpu = time.perf_counter(), time.process_time()
                    count = read(paths)
                    times.append(time.perf_counter() - began)
                    cpu.append(time.process_time() - began_cpu)
                    assert count == args.rows or name == "cut only", (layout, name, count)
                median = statistics.median(times)
                print(
                    f"{layout:5} {name:11} {size / 1e6:6.1f} MB  {median:6.3f} s  "
                    f"{args.rows / median:9,.0f} examples/s  CPU {statistics.median(cpu):6.3f} s"
                )


if __name__ == "__main__":
    main()
