"""Golden values of the three published UpdateROUGE scripts, restated from their sources.

Writes tests/data/published_protocols_golden.json, which tests/agreement/test_published_protocols.py
compares ``compute(..., protocol=...)`` against. Each procedure below is restated from the
published source (read with ``git show``; no code is copied, and nothing of update_rouge is
imported: only rouge-score and NumPy, which the published scripts use):

- FRUIT: google-research/language at 865fae65f63ef7e6b2989d4ff8b47f61750415a8,
  ``language/fruit/metrics.py`` (``edit_rouge``) and ``language/fruit/rendering_utils.py``
  (``extract_additions``). Where neither side adds, the published code adds a bare ``100.0`` to
  the aggregator, which then fails; this script adds ``Score(1, 1, 1)`` there (the repair that
  ``protocol="fruit"`` documents) and says so in the JSON.
- EditEval: facebookresearch/EditEval at 013cd20aa73be0016041201454b3fcd7c2250fb4,
  ``src/metrics/update_rouge.py`` (``update_rouge``, ``scale=1.0``) and
  ``src/metrics/custom_metrics.py`` (``UpdateRougeMetric.evaluate``: one ``update_rouge`` call per
  reference slot, averaged).
- autometrics: SALT-NLP/autometrics at 0e9764543141ed3e48bdd80fc4dd3f8033c22015,
  ``autometrics/metrics/reference_based/UpdateROUGE.py`` (``UpdateROUGE._calculate_impl``,
  ``scale=1.0``).

The published scripts draw their bootstrap from NumPy's global generator, unseeded; the golden
values are what they return when ``np.random.seed(seed)`` runs right before the call (this script
sets the global generator; the package never does).

Usage: python scripts/published_protocols.py [--check]   (--check: fail if the file differs)
"""

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np
from rouge_score import rouge_scorer, scoring

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
OUTPUT = DATA / "published_protocols_golden.json"
TYPES = ["rouge1", "rouge2", "rougeLsum"]

# The inputs: a file of triples, a slice of its rows, and how each example's references are made
# ("one": its reference; "with-source": its reference, then its source as a second reference, which
# adds nothing; "same-source": the references of every row with the same source, padded with the
# source to two).
CASES = [
    {"file": "fruit_triples.jsonl", "rows": [0, None, 1], "references": "one"},
    {"file": "iterater_triples.jsonl", "rows": [0, None, 1], "references": "one"},
    {"file": "iterater_triples.jsonl", "rows": [5, 30, 1], "references": "one"},
    {"file": "iterater_triples.jsonl", "rows": [0, None, 1], "references": "same-source"},
    {"file": "wiki_triples.jsonl", "rows": [0, 80, 1], "references": "one"},
    {"file": "wiki_triples.jsonl", "rows": [81, 241, 2], "references": "one"},
    {"file": "wiki_triples.jsonl", "rows": [0, 40, 1], "references": "with-source"},
    {"file": "wiki_triples.jsonl", "rows": [0, 60, 1], "references": "neither-adds-first"},
]
SEEDS = [0, 1, 12345, 4294967295]


def load_case(case):
    """The sources, predictions and references (a list per example) of one of ``CASES``."""
    with open(DATA / case["file"], encoding="utf-8") as file:
        rows = [json.loads(line) for line in file]
    start, stop, step = case["rows"]
    rows = rows[start:stop:step]
    kind = case["references"]
    if kind == "neither-adds-first":  # the first 5 examples leave the source as it was on both sides
        rows = [
            {**row, "reference": row["source"], "prediction": row["source"]} if i < 5 else row
            for i, row in enumerate(rows)
        ]
    sources = [row["source"] for row in rows]
    predictions = [row["prediction"] for row in rows]
    if kind in ("one", "neither-adds-first"):
        references = [[row["reference"]] for row in rows]
    elif kind == "with-source":
        references = [[row["reference"], row["source"]] for row in rows]
    else:
        by_source = {}
        for row in rows:
            by_source.setdefault(row["source"], []).append(row["reference"])
        references = [(by_source[row["source"]] + [row["source"]])[:2] for row in rows]
    return sources, predictions, references


# FRUIT and EditEval: each match of [^.]+\.? is tested as it is, then stripped (empty ones too).
def fruit_editeval_additions(source, target):
    return [match.group(0).strip() for match in re.finditer(r"[^.]+\.?", target) if match.group(0) not in source]


def fruit_editeval_scores(sources, targets, predictions):
    """The scores each example adds to the aggregator, and the joined lengths (EditEval's stats)."""
    scorer = rouge_scorer.RougeScorer(TYPES)
    per_example, target_lengths, prediction_lengths = [], [], []
    for prediction, source, target in zip(predictions, sources, targets):
        target_text = " ".join(fruit_editeval_additions(source, target))
        prediction_text = " ".join(fruit_editeval_additions(source, prediction))
        target_lengths.append(len(target_text))
        prediction_lengths.append(len(prediction_text))
        scores = scorer.score(target=target_text, prediction=prediction_text)
        if target_text.strip() or prediction_text.strip():
            per_example.append({f"update_{k}": v for k, v in scores.items()})
        else:  # EditEval's Score(1, 1, 1); FRUIT's published bare 100.0 fails later: the repair
            per_example.append({f"update_{k}": scoring.Score(1.0, 1.0, 1.0) for k in scores})
    return per_example, target_lengths, prediction_lengths


def aggregate(per_example, confidence_level, n_bootstrap):
    aggregator = scoring.BootstrapAggregator(confidence_interval=confidence_level, n_samples=n_bootstrap)
    for scores in per_example:
        aggregator.add_scores(scores)
    return aggregator.aggregate()


def corpus_of_slots(slots, scale, confidence_level, n_bootstrap):
    """custom_metrics.py's average over reference slots (sum in slot order over their number) of
    each aggregated value, times ``scale`` as the published scripts multiply."""
    keys = {}
    for key in slots[0][0]:
        for name, field in (("", "fmeasure"), ("_precision", "precision"), ("_recall", "recall")):
            keys[f"{key}{name}"] = [getattr(aggregated[key].mid, field) * scale for aggregated, _, _ in slots]
        keys[f"{key}_low"] = [aggregated[key].low.fmeasure * scale for aggregated, _, _ in slots]
        keys[f"{key}_high"] = [aggregated[key].high.fmeasure * scale for aggregated, _, _ in slots]
    corpus = {key: float(sum(values) / len(values)) for key, values in keys.items()}
    if len(slots) == 1:  # EditEval's stats (np.mean of the joined lengths); multi-reference drops them
        corpus["_target_diff_len"] = float(np.mean(slots[0][1]))
        corpus["_prediction_diff_len"] = float(np.mean(slots[0][2]))
    return corpus


def published_corpus(protocol, scored_slots, seed, bootstrap):
    """``np.random.seed(seed)``, then FRUIT's ``edit_rouge`` or EditEval's ``UpdateRougeMetric`` (one
    ``update_rouge`` call per reference slot, each with its own aggregator, on the one generator).
    ``scored_slots``: ``fruit_editeval_scores`` of each slot (the scoring draws no random numbers,
    so it is done once per case)."""
    confidence_level, n_bootstrap = bootstrap
    scale = 100 if protocol == "fruit" else 1.0
    np.random.seed(seed)
    slots = []
    for per_example, target_lengths, prediction_lengths in scored_slots:
        slots.append((aggregate(per_example, confidence_level, n_bootstrap), target_lengths, prediction_lengths))
    return corpus_of_slots(slots, scale, confidence_level, n_bootstrap)


# autometrics: each match is stripped first, empty ones dropped, then tested; the first reference.
def autometrics_additions(source, target):
    stripped = (match.group(0).strip() for match in re.finditer(r"[^.]+\.?", target))
    return " ".join(segment for segment in stripped if segment and segment not in source)


def autometrics_per_example(sources, predictions, references):
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=False)
    table = {f"update_{t}": [] for t in TYPES} | {"_target_diff_len": [], "_prediction_diff_len": []}
    for source, output, refs in zip(sources, predictions, references):
        target = autometrics_additions(source, refs[0] if refs else "")
        prediction = autometrics_additions(source, output)
        if target.strip() or prediction.strip():
            scores = scorer.score(target=target, prediction=prediction)
            values = [scores[t].fmeasure * 1.0 for t in TYPES]
        else:
            values = [1.0, 1.0, 1.0]
        for t, value in zip(TYPES, values):
            table[f"update_{t}"].append(value)
        table["_target_diff_len"].append(len(target))
        table["_prediction_diff_len"].append(len(prediction))
    return table


def scored_slots(sources, predictions, references):
    """``fruit_editeval_scores`` of each reference slot."""
    return [
        fruit_editeval_scores(sources, [refs[slot] for refs in references], predictions)
        for slot in range(len(references[0]))
    ]


def per_example_slots(slots_scored):
    """FRUIT's and EditEval's per-example scores, per reference slot: F, precision, recall lists."""
    slots = []
    for per_example, target_lengths, prediction_lengths in slots_scored:
        table = {}
        for t in TYPES:
            key = f"update_{t}"
            table[key] = [float(scores[key].fmeasure) for scores in per_example]
            table[f"{key}_precision"] = [float(scores[key].precision) for scores in per_example]
            table[f"{key}_recall"] = [float(scores[key].recall) for scores in per_example]
        table["_target_diff_len"] = target_lengths
        table["_prediction_diff_len"] = prediction_lengths
        slots.append(table)
    return slots


def golden():
    cases = []
    for case in CASES:
        sources, predictions, references = load_case(case)
        entry = {"case": case, "per_example": {}, "corpus": []}
        entry["per_example"]["autometrics"] = autometrics_per_example(sources, predictions, references)
        slots = scored_slots(sources, predictions, references)
        entry["per_example"]["fruit-editeval-slots"] = per_example_slots(slots)
        several = len(references[0]) > 1
        for protocol in ("editeval",) if several else ("fruit", "editeval"):
            for seed in SEEDS:
                for bootstrap in [(0.95, 1000)] + ([(0.9, 200)] if seed == 1 else []):
                    corpus = published_corpus(protocol, slots, seed, bootstrap)
                    cases_entry = {"protocol": protocol, "seed": seed, "confidence_level": bootstrap[0]}
                    cases_entry |= {"n_bootstrap": bootstrap[1], "values": corpus}
                    entry["corpus"].append(cases_entry)
        cases.append(entry)
    return {
        "about": __doc__.split("\n\n")[0],
        "sources": {
            "fruit": "google-research/language@865fae65f63ef7e6b2989d4ff8b47f61750415a8",
            "editeval": "facebookresearch/EditEval@013cd20aa73be0016041201454b3fcd7c2250fb4",
            "autometrics": "SALT-NLP/autometrics@0e9764543141ed3e48bdd80fc4dd3f8033c22015",
        },
        "fruit_repair": "where neither side adds, Score(1, 1, 1) in place of the published bare 100.0",
        "cases": cases,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the golden file is not current")
    args = parser.parse_args()
    state = np.random.get_state()
    try:
        text = json.dumps(golden(), indent=1) + "\n"
    finally:
        np.random.set_state(state)
    if args.check:
        if OUTPUT.read_text(encoding="utf-8") != text:
            sys.exit(f"{OUTPUT} is not current: run python scripts/published_protocols.py")
        return
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    main()
