"""One huge addition per side: time and peak memory of rougeLsum's LCS in the pure-Python engine.

Each side is a single addition without a period (one segment, one line) made of real Wikipedia
words (the tokens of ``tests/data/wiki_triples.jsonl``, references then sources, read in a
cycle: the reference from the start, the prediction from the middle). Every measurement runs
``compute`` (rouge1, rouge2, rougeLsum; empty source, so each text is all addition) in a fresh
subprocess, which reports its wall time, its CPU time (user + system: what matters on a shared
machine) and its peak resident memory (``ru_maxrss``).

- ``--words N`` (default 150,000; the goal: at most 600 MB and 30 s with ``engine="python"``).
- The same numbers as rouge-score on a pair it can do (``--check-words``, default 3,000).
- ``--old-lcs FILE``: also run an older ``update_rouge/lcs.py`` (for example
  ``git show fbd1589:update_rouge/lcs.py > /tmp/old_lcs.py``), interleaved with the current
  one: on ``--old-words`` words (default 40,000; hits, time, memory) and on the small inputs of
  the engine benchmark (``compute(engine="python")`` on the Wikipedia triples; time, scores).
- ``--megabytes M``: also run a pair of M MB each (5 for the issue's case) with the Python
  engine, and ask the explicit ``engine="rust"`` / ``"rouge-score"`` for it (refused up front).

Usage: python benchmarks/huge_addition.py [--words 150000] [--old-lcs FILE] [--megabytes 5]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "wiki_triples.jsonl"


def wiki_words():
    """Every token of the bundled Wikipedia triples: references first, then sources."""
    rows = [json.loads(line) for line in open(DATA, encoding="utf-8")]
    text = " ".join([r["reference"] for r in rows] + [r["source"] for r in rows]).lower()
    return re.findall(r"[a-z0-9]+", text)


def texts(n_words=None, n_chars=None):
    """(reference, prediction): period-less texts of ``n_words`` words, or of at least ``n_chars`` characters."""
    words = wiki_words()

    def text(start):
        chosen, length = [], -1
        while (len(chosen) < n_words) if n_chars is None else (length < n_chars):
            chosen.append(words[(start + len(chosen)) % len(words)])
            length += len(chosen[-1]) + 1
        return " ".join(chosen)

    return text(0), text(len(words) // 2)


CHILD = """
import importlib.util, json, resource, sys, time
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from huge_addition import DATA
from rouge_score import rouge_scorer
from update_rouge import compute, engines
from update_rouge.tokens import DefaultTokenizer
spec = json.loads(sys.argv[3])
if "lcs" in spec:  # an lcs.py to run instead of the package's own
    module_spec = importlib.util.spec_from_file_location("lcs_under_test", spec["lcs"])
    lcs = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(lcs)
    engines.summary_lcs_hits, engines.lcs_length = lcs.summary_lcs_hits, lcs.lcs_length
if spec["mode"] == "small":
    rows = [json.loads(line) for line in open(DATA, encoding="utf-8")]
    sources, predictions, references = ([r[key] for r in rows] for key in ("source", "prediction", "reference"))
else:
    with open(spec["texts"], encoding="utf-8") as file:
        reference, prediction = json.load(file)
result = {}
usage = resource.getrusage(resource.RUSAGE_SELF)
cpu_start = usage.ru_utime + usage.ru_stime
start = time.perf_counter()
try:
    if spec["mode"] == "small":
        scores = compute(sources=sources, predictions=predictions, references=references, engine="python")
        result["scores"] = {k: v for k, v in scores.items() if k.startswith("update_rouge")}
    elif spec["mode"] == "compute":
        scores = compute(sources=[""], predictions=[prediction], references=[reference], engine=spec["engine"],
                         use_aggregator=False)
        result["scores"] = {k[len("update_"):]: scores[k][0] for k in ("update_rouge1", "update_rouge2", "update_rougeLsum")}
    elif spec["mode"] == "rouge-score":
        score = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeLsum"]).score(reference, prediction)
        result["scores"] = {k: v.fmeasure for k, v in score.items()}
    else:
        tokenize = DefaultTokenizer().tokenize
        result["hits"] = lcs.summary_lcs_hits([tokenize(reference)], [tokenize(prediction)])
except (ValueError, MemoryError) as error:
    result["error"] = f"{type(error).__name__}: {error}"
result["seconds"] = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_SELF)
result["cpu_seconds"] = usage.ru_utime + usage.ru_stime - cpu_start
result["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(result))
"""


def run(spec):
    """Run one measurement in a fresh interpreter; its result dict (time, peak RSS, scores or error).

    The texts (``words`` or ``chars`` in ``spec``) are made here and handed over in a file, so
    that the child's peak memory is that of reading two texts and scoring them.
    """
    if "words" in spec or "chars" in spec:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as file:
            json.dump(texts(spec.pop("words", None), spec.pop("chars", None)), file)
        spec["texts"] = file.name
    try:
        return _run_child(spec)
    finally:
        if "texts" in spec:
            os.unlink(spec["texts"])


def _run_child(spec):
    completed = subprocess.run(
        [sys.executable, "-c", CHILD, str(ROOT), str(Path(__file__).parent), json.dumps(spec)],
        capture_output=True,
        text=True,
    )
    if completed.returncode:
        return {"error": f"exit {completed.returncode}: {completed.stderr.strip().splitlines()[-1:]}"}
    return json.loads(completed.stdout)


def show(label, result):
    if "error" in result:
        print(
            f"  {label}: {result['error'][:300]} ({result.get('seconds', 0):.2f} s, peak {result.get('peak_mib', 0):.0f} MiB)"
        )
        return
    numbers = result.get("scores", result.get("hits"))
    seconds = f"{result['seconds']:.2f} s ({result['cpu_seconds']:.2f} s CPU)"
    print(f"  {label}: {seconds}, peak RSS {result['peak_mib']:.0f} MiB, {numbers}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=150_000)
    parser.add_argument("--check-words", type=int, default=3_000)
    parser.add_argument("--old-lcs", type=Path)
    parser.add_argument("--old-words", type=int, default=40_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--megabytes", type=float)
    args = parser.parse_args()

    print(f"{args.check_words:,} words each: engine='python' against rouge-score itself")
    ours, reference = (
        run({"mode": "compute", "engine": "python", "words": args.check_words}),
        run({"mode": "rouge-score", "words": args.check_words}),
    )
    show("python engine", ours)
    show("rouge-score", reference)
    print(f"  f-measures equal: {ours.get('scores') == reference.get('scores')}")

    if args.old_lcs:
        print(
            f"{args.old_words:,} words each, summary_lcs_hits only, {args.repeats} interleaved runs: old vs current lcs.py"
        )
        current_file = ROOT / "update_rouge" / "lcs.py"
        for repeat in range(args.repeats):
            for label, path in (("old", args.old_lcs), ("current", current_file)):
                show(f"{label} (run {repeat + 1})", run({"mode": "lcs", "lcs": str(path), "words": args.old_words}))
        print(f"small inputs: compute(engine='python') on the {DATA.name} triples, {args.repeats} interleaved runs")
        scores = {}
        for repeat in range(args.repeats):
            for label, path in (("old", args.old_lcs), ("current", current_file)):
                result = run({"mode": "small", "lcs": str(path)})
                scores.setdefault(label, result.get("error") or result["scores"])
                print(f"  {label} (run {repeat + 1}): {result['seconds']:.2f} s ({result['cpu_seconds']:.2f} s CPU)")
        print(f"  corpus scores and intervals equal: {scores['old'] == scores['current']}")

    print(f"{args.words:,} words each, compute(engine='python'), rouge1 + rouge2 + rougeLsum (f-measures):")
    show("python engine", run({"mode": "compute", "engine": "python", "words": args.words}))

    if args.megabytes:
        chars = int(args.megabytes * 1_000_000)
        print(f"{args.megabytes:g} MB each:")
        for engine in ("rust", "rouge-score", "python"):
            show(f"engine={engine!r}", run({"mode": "compute", "engine": engine, "chars": chars}))


if __name__ == "__main__":
    main()
