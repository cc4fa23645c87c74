"""Time and peak memory on one very large example, and extraction time on adversarial texts.

The large example (built deterministically, seed 0, from the words of tests/data/wiki_triples.jsonl):
a source of 1 MB of sentences; a reference that adds 20 new sentences; a prediction that adds
1 MB of new text, an undertrained model rambling, one of its segments 10,000 words long. It
is scored once with ``compute`` (default types, no interval) with the default engine ("auto":
the rouge-score-rs accelerator where installed) and with ``engine="python"`` (the default
install), and once with the published per-example loop (regex extraction, then rouge-score's ``RougeScorer.score``), each
in a fresh subprocess that reads the texts from a file and reports its wall time and peak
resident memory (``ru_maxrss``), next to that process's peak before scoring (imports, texts).

Adversarial extraction: texts of n and 2n characters (no period at all, "a." repeated, "zq."
repeated (not in the source), only periods, one long run of white space) against the 1 MB
source; the time should at most double.

Usage: python benchmarks/size.py [--skip-reference]
"""

import argparse
import json
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"
sys.path.insert(0, str(REPO))  # this checkout's update_rouge, not wherever it is installed
MB = 1_000_000
LONG_SEGMENT_WORDS = 10_000
REFERENCE_SENTENCES = 20


def _words():
    rows = [json.loads(line) for line in open(DATA / "wiki_triples.jsonl", encoding="utf-8")]
    return re.findall(r"[A-Za-z]+", " ".join(row["source"] for row in rows))


def large_example(seed=0):
    """(source, prediction, reference) of the large example; the same on every call."""
    rng = random.Random(seed)
    words = _words()

    def sentence(n_words):
        return " ".join(rng.choice(words) for _ in range(n_words)).capitalize() + "."

    def sentences(n_chars):
        parts, size = [], 0
        while size < n_chars:
            parts.append(sentence(rng.randint(6, 30)))
            size += len(parts[-1]) + 1
        return " ".join(parts)

    source = sentences(MB)
    reference = source + " " + " ".join(sentence(rng.randint(8, 20)) for _ in range(REFERENCE_SENTENCES))
    rambling = sentence(LONG_SEGMENT_WORDS)
    rambling = sentences(MB // 2) + "\n" + rambling + "\n" + sentences(MB - MB // 2 - len(rambling))
    return source, source + " " + rambling, reference


def _maxrss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_one(contender, example_path):
    """Score the example saved at ``example_path`` with ``contender``; print seconds and memory as JSON."""
    from rouge_score import rouge_scorer

    from update_rouge import compute
    from update_rouge.engines import ENGINES

    source, prediction, reference = json.loads(Path(example_path).read_text(encoding="utf-8"))
    before = _maxrss_mib()
    start = time.perf_counter()
    if contender in ENGINES:
        result = compute(
            sources=[source], predictions=[prediction], references=[reference], confidence_level=None, engine=contender
        )
    else:
        segments = lambda text: (m.group(0).strip() for m in re.finditer(r"[^.]+\.?", text))  # noqa: E731
        additions = lambda text: "\n".join(s for s in segments(text) if s and s not in source)  # noqa: E731
        scores = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeLsum"]).score(
            additions(reference), additions(prediction)
        )
        result = {f"update_{t}": s.fmeasure for t, s in scores.items()}
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "rss_before_mib": before, "peak_rss_mib": _maxrss_mib(), "result": result}))


def measure(contender, example_path, timeout):
    completed = subprocess.run(
        [sys.executable, __file__, "--run", contender, str(example_path)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"{contender} failed:\n{completed.stderr}")
    return json.loads(completed.stdout)


def adversarial_texts(n):
    return {
        "no period": "word " * (n // 5),
        '"a." repeated': "a." * (n // 2),
        '"zq." repeated': "zq." * (n // 3),
        "only periods": "." * n,
        "white-space run": "a" + " " * n + "b.",
    }


def time_extraction(source, n):
    from update_rouge.extraction import SourceIndex

    timings = {}
    for name, text in adversarial_texts(n).items():
        start = time.perf_counter()
        SourceIndex(source).additions(text)
        timings[name] = time.perf_counter() - start
    return timings


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", nargs=2, metavar=("CONTENDER", "EXAMPLE"), help=argparse.SUPPRESS)
    parser.add_argument("--skip-reference", action="store_true", help="do not run the published loop")
    args = parser.parse_args()
    if args.run:
        run_one(*args.run)
        return
    source, prediction, reference = large_example()
    longest = max(len(line.split()) for line in prediction[len(source) :].split("."))
    print(
        f"source {len(source):,} chars, prediction adds {len(prediction) - len(source):,} chars "
        f"(longest segment {longest:,} words), reference adds {REFERENCE_SENTENCES} sentences"
    )
    contenders = ["auto", "python"] + ([] if args.skip_reference else ["reference"])
    with tempfile.TemporaryDirectory() as directory:
        example_path = Path(directory) / "example.json"
        example_path.write_text(json.dumps([source, prediction, reference]), encoding="utf-8")
        measured = {contender: measure(contender, example_path, timeout=600) for contender in contenders}
    for contender, figures in measured.items():
        print(
            f"  {contender:9s} {figures['seconds']:7.2f} s, peak RSS {figures['peak_rss_mib']:6.0f} MiB "
            f"({figures['rss_before_mib']:.0f} MiB before scoring)  {figures['result']}"
        )

    print("extraction of adversarial texts against the 1 MB source (seconds for n and 2n characters):")
    n = 2 * MB
    small, large = time_extraction(source, n), time_extraction(source, 2 * n)
    for name in small:
        print(
            f"  {name:16s} n={n:,}: {small[name]:.3f} s, 2n: {large[name]:.3f} s, ratio {large[name] / small[name]:.2f}"
        )


if __name__ == "__main__":
    main()
