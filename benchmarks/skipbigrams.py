"""Speed of ROUGE-S/SU counting (``update_rouge.skipbigrams``) against counting every position pair.

The straightforward reading of ROUGE-S (what ROUGE-1.5.5 itself does) lists every pair of
positions i < j of each text in a ``Counter`` and intersects the two: quadratic in the number of
tokens. Ours counts per distinct token pair. Measured, each the median of ``--repeats``
interleaved repetitions, the ratio being the position-pair time / our time:

- two consecutive versions of a Wikipedia article (the Hanseatic League row of
  tests/data/wiki_triples.jsonl, the one whose versions both reach 2,000 tokens), their first
  2,000 tokens each: rougeS and rougeSU (unlimited distance), and rougeSU4;
- the hardest case for ours at that length: 2,000 distinct words, all shared, in two orders;
- all 787 rows of tests/data/rouge155_skipbigram_golden.jsonl with the four types it holds,
  through the Python engine (tokenization included), ours only.

Run from the repository root: python benchmarks/skipbigrams.py [--repeats 5]
"""

import argparse
import random
from collections import Counter

from engine import json_rows, median_times

from update_rouge.engines import make_engine
from update_rouge.skipbigrams import SkipBigramType, skip_bigram_counts
from update_rouge.tokens import tokenizer_for

UNLIMITED = [SkipBigramType(unigrams=False, distance=None), SkipBigramType(unigrams=True, distance=None)]
SU4 = [SkipBigramType(unigrams=True, distance=4)]


def position_pair_counts(reference, prediction, kinds):
    """Every gram listed by position, then clipped: the quadratic reading of the definition."""

    def grams(tokens, kind):
        limit = len(tokens) if kind.distance is None else kind.distance + 1
        pairs = Counter(
            (tokens[i], tokens[j]) for i in range(len(tokens)) for j in range(i + 1, min(i + limit + 1, len(tokens)))
        )
        if kind.unigrams:
            pairs.update((token,) for token in tokens[:-1])
        return pairs

    results = []
    for kind in kinds:
        reference_grams, prediction_grams = grams(reference, kind), grams(prediction, kind)
        hits = sum((reference_grams & prediction_grams).values())
        results.append((hits, sum(reference_grams.values()), sum(prediction_grams.values())))
    return results


def compare(label, reference, prediction, kinds, repeats):
    assert skip_bigram_counts(reference, prediction, kinds) == position_pair_counts(reference, prediction, kinds)
    medians = median_times(
        {
            "position pairs": lambda: position_pair_counts(reference, prediction, kinds),
            "ours": lambda: skip_bigram_counts(reference, prediction, kinds),
        },
        repeats,
    )
    ratio = medians["position pairs"] / medians["ours"]
    print(
        f"{label}: position pairs {medians['position pairs']:.3f} s, ours {medians['ours'] * 1000:.1f} ms, {ratio:.0f}x"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"median of {args.repeats} interleaved repetitions")

    tokenize = tokenizer_for().tokenize
    row = next(row for row in json_rows("wiki_triples.jsonl") if row["id"] == "wikiver3-Hanseatic_League-4-5-6")
    reference, prediction = (tokenize(row[field])[:2000] for field in ("reference", "prediction"))
    shared = len(set(reference) & set(prediction))
    print(f"Wikipedia versions: {len(reference)} and {len(prediction)} tokens, {shared} distinct tokens shared")
    compare("  rougeS + rougeSU (unlimited)", reference, prediction, UNLIMITED, args.repeats)
    compare("  rougeSU4", reference, prediction, SU4, args.repeats)

    words = [f"w{i}" for i in range(2000)]
    shuffled = words[:]
    random.Random(0).shuffle(shuffled)
    compare("2,000 distinct shared words, rougeS + rougeSU", words, shuffled, UNLIMITED, args.repeats)

    rows = json_rows("rouge155_skipbigram_golden.jsonl")
    engine = make_engine("python", ["rougeS", "rougeSU", "rougeS4", "rougeSU4"], tokenizer_for())
    pairs = [(row["reference"], row["prediction"]) for row in rows]
    seconds = median_times({"ours": lambda: engine.count_pairs(pairs)}, args.repeats)["ours"]
    tokens = sum(len(tokenize(text)) for pair in pairs for text in pair)
    print(f"golden file: {len(rows)} rows, {tokens:,} tokens, four types: {seconds:.2f} s")


if __name__ == "__main__":
    main()
