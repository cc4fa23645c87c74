"""Speed of UpdateROUGE's engines against the published per-example loop, measured in one run.

Reference loop (the published approach): per example, regex extraction with ``in`` on the
source, then rouge-score's ``RougeScorer.score`` on the newline-joined additions. Ours: ``compute``
with the pure-Python engine (the default install), with the rouge-score-rs accelerator
(``engine="rust"``, if installed), with and without rouge-score's Porter stemmer. Each timing is
the median of ``--repeats`` repetitions, the contenders interleaved so that machine noise hits
them alike; the ratios are reference time / our time.

Also a pair of 4,000-token additions built from real Wikipedia text, as one line and as 177
lines, scored with rougeLsum (and rougeL for the single line): rouge-score vs our engine, and
the engine's peak traced memory (tracemalloc) for the single-line pair.

Usage: python benchmarks/engine.py [--repeats 5] [--rows N]
"""

import argparse
import json
import re
import statistics
import time
import tracemalloc
from pathlib import Path

from rouge_score import rouge_scorer

from update_rouge import compute
from update_rouge.engines import make_engine
from update_rouge.rust_engine import rust_available
from update_rouge.tokens import tokenizer_for

DATA = Path(__file__).parent.parent / "tests" / "data"
TYPES = ["rouge1", "rouge2", "rougeLsum"]


def reference_loop(rows, use_stemmer):
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    scores = []
    for row in rows:
        source = row["source"]

        def additions(text):
            segments = (m.group(0).strip() for m in re.finditer(r"[^.]+\.?", text))
            return "\n".join(s for s in segments if s and s not in source)

        target, prediction = additions(row["reference"]), additions(row["prediction"])
        scores.append(scorer.score(target, prediction) if target or prediction else None)
    return scores


def ours(rows, use_stemmer, engine):
    return compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        use_stemmer=use_stemmer,
        engine=engine,
        use_aggregator=False,
    )


def median_times(contenders, repeats):
    """Median wall time of each contender (name -> callable), repetitions interleaved."""
    times = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, run in contenders.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def long_pair(n_tokens, n_lines):
    """Two additions of ``n_tokens`` real Wikipedia words each, in ``n_lines`` lines."""
    words = re.findall(r"[a-z0-9]+", " ".join(r["reference"] for r in json_rows("wiki_triples.jsonl")[:60]))

    def text(offset):
        chunk = words[offset : offset + n_tokens]
        per_line = -(-n_tokens // n_lines)
        return "\n".join(" ".join(chunk[i : i + per_line]) for i in range(0, n_tokens, per_line))

    return text(0), text(len(words) // 2)


def json_rows(name):
    return [json.loads(line) for line in open(DATA / name, encoding="utf-8")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rows", type=int, default=None, help="use only the first N wiki triples")
    args = parser.parse_args()
    rows = json_rows("wiki_triples.jsonl")[: args.rows]
    print(f"wiki_triples.jsonl: {len(rows)} examples, median of {args.repeats} interleaved repetitions")
    for use_stemmer in (False, True):
        contenders = {
            "reference loop": lambda: reference_loop(rows, use_stemmer),
            "python engine": lambda: ours(rows, use_stemmer, "python"),
        }
        if rust_available():
            contenders["rust engine"] = lambda: ours(rows, use_stemmer, "rust")
        medians = median_times(contenders, args.repeats)
        base = medians["reference loop"]
        label = "porter stemming" if use_stemmer else "no stemming"
        for name, seconds in medians.items():
            print(f"  {label:16s} {name:15s} {seconds:8.3f} s  {base / seconds:6.1f}x")

    for n_lines in (1, 177):
        target, prediction = long_pair(4000, n_lines)
        types = ["rougeL", "rougeLsum"] if n_lines == 1 else ["rougeLsum"]
        reference = rouge_scorer.RougeScorer(types)
        engine = make_engine("python", types, tokenizer_for())
        assert engine.score(target, prediction) == reference.score(target, prediction)
        medians = median_times(
            {
                "rouge-score": lambda: reference.score(target, prediction),
                "python engine": lambda: engine.score(target, prediction),
            },
            args.repeats,
        )
        ratio = medians["rouge-score"] / medians["python engine"]
        print(
            f"4,000-token pair, {n_lines} line(s), {'+'.join(types)}: rouge-score {medians['rouge-score']:.3f} s, "
            f"python engine {medians['python engine']:.4f} s, {ratio:.0f}x"
        )
        if n_lines == 1:
            tracemalloc.start()
            engine.score(target, prediction)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(f"  peak traced memory of the python engine on it: {peak / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
