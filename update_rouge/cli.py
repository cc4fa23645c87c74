"""Command line: score a JSONL file of examples and print the corpus scores as JSON.

Each line of the file is a JSON object with ``source``, ``reference`` (a string or a list of
strings) and ``prediction``. Exit status 2 for unusable input, with the file and line named.
"""

import argparse
import json
import sys
from typing import List, Optional

from .pipeline import compute
from .scoring import DEFAULT_MULTI_REF, DEFAULT_ROUGE_TYPES, MULTI_REF_MODES

FIELDS = ("source", "reference", "prediction")


def read_examples(path: str):
    """Read the examples of a JSONL file; raise ``ValueError`` naming the file and line."""
    sources, references, predictions = [], [], []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{path}:{number}: not valid JSON ({error.msg})") from None
            missing = [field for field in FIELDS if not isinstance(row, dict) or field not in row]
            if missing:
                raise ValueError(f"{path}:{number}: missing field(s) {', '.join(missing)}")
            sources.append(row["source"])
            references.append(row["reference"])
            predictions.append(row["prediction"])
    return sources, predictions, references


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="update-rouge", description="Score what updated texts add to their sources.")
    parser.add_argument("file", help="JSONL file, one object per line with source, reference and prediction")
    parser.add_argument(
        "--rouge-types",
        nargs="+",
        default=list(DEFAULT_ROUGE_TYPES),
        help="rouge1 to rouge9, rougeL, rougeLsum, rougeS, rougeSU, rougeS<d>, rougeSU<d> (e.g. rougeSU4)",
    )
    parser.add_argument("--use-stemmer", action="store_true", help="apply rouge-score's Porter stemmer")
    parser.add_argument(
        "--multi-ref",
        choices=MULTI_REF_MODES,
        default=DEFAULT_MULTI_REF,
        help="how several references combine: rouge-score's best F1, or ROUGE-1.5.5's pooled (-f A) or best recall (-f B)",
    )
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        sources, predictions, references = read_examples(args.file)
        result = compute(
            sources=sources,
            predictions=predictions,
            references=references,
            rouge_types=args.rouge_types,
            use_stemmer=args.use_stemmer,
            multi_ref=args.multi_ref,
        )
    except (OSError, ValueError) as error:
        print(f"update-rouge: error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2))
    return 0
