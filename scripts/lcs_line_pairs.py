"""Time the summary-level LCS walks on N one-token lines a side (pairs = N*N, cells = N*N)."""

import sys
import time

from update_rouge import compute


def run(n, rouge_type, engine="python", additions="sentences"):
    if additions == "sentences":
        src = "x."
        ref = src + " " + " ".join(f"a{i % 50}." for i in range(n))
        pred = src + " " + " ".join(f"a{(i * 7) % 50}." for i in range(n))
    else:
        words = [f"w{i}" for i in range(2 * n)]
        src = " ".join(words)
        ref = " ".join(w if i % 2 else f"r{i % 50}" for i, w in enumerate(words))
        pred = " ".join(w if i % 2 else f"r{(i * 7) % 50}" for i, w in enumerate(words))
    t = time.perf_counter()
    compute([src], [pred], [ref], rouge_types=[rouge_type], engine=engine, additions=additions, confidence_level=None)
    return time.perf_counter() - t


for spec in sys.argv[1:]:
    n, rt, engine, additions = spec.split(":")
    n = int(n)
    took = run(n, rt, engine, additions)
    print(
        f"{n} lines a side, {rt}, engine={engine}, additions={additions}: {took:.2f} s, {took / n / n * 1e9:.0f} ns per line pair",
        flush=True,
    )
