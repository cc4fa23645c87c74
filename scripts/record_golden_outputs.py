"""Record (or check) tests/data/golden_outputs.json: hashes of UpdateROUGE's results on the bundled data.

    python scripts/record_golden_outputs.py            # write the file
    python scripts/record_golden_outputs.py --check    # exit 1 and list the configurations that differ

Each configuration (``CONFIGURATIONS``: a data file of tests/data and compute's options, one or
more per option family) is scored twice, per example (``use_aggregator=False``) and over the
corpus (the mean, the bootstrap interval and, where asked, the paired test or a comparison).
The file keeps, per configuration, the signature without its version fields (``settings``),
those fields (``versions``: rouge-score, numpy, nltk, segmenter, as far as the signature has
them) and the sha256 of each result written exactly (``exact``: every float as ``float.hex``). tests/agreement/test_golden_outputs.py
checks the running installation against it; record only after the hashes agree on every
Python of the version matrix (.ci/matrix).
"""

import argparse
import hashlib
import json
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "tests" / "data"
RECORD = DATA_DIR / "golden_outputs.json"
ROWS = 24
ALL_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
# Signature fields that hold a package's version: the same settings, recorded elsewhere.
VERSION_FIELDS = ("update-rouge", "rouge-score", "numpy", "nltk", "segmenter")
SCORING_FILES = (
    "fruit_pairs.jsonl",
    "fruit_triples.jsonl",
    "iterater_pairs.jsonl",
    "iterater_triples.jsonl",
    "wiki_triples.jsonl",
    "wnc_pairs.jsonl",
)
MULTILINGUAL = "multilingual_triples.jsonl"
MULTI_REFERENCE = "rouge155_multiref_golden.jsonl"
# No bundled file has Thai: three updates written for this test (sentences ended with ".").
THAI = "thai (inline)"
THAI_ROWS = [
    {"source": "วันนี้อากาศดี.", "reference": "วันนี้อากาศดี. เราไปเที่ยวทะเลกัน.", "prediction": "วันนี้อากาศดี. เราไปทะเลกัน."},
    {
        "source": "ผมรักภาษาไทยมาก.",
        "reference": "ผมรักภาษาไทยมาก. ผมเรียนทุกวัน.",
        "prediction": "ผมรักภาษาไทยมาก. ผมอ่านหนังสือทุกวัน.",
    },
    {"source": "ตลาดเปิดตอนเช้า.", "reference": "ตลาดเปิดตอนเช้า. แม่ซื้อผลไม้สด.", "prediction": "ตลาดเปิดตอนเช้า. แม่ซื้อปลาสด."},
]


def read_rows(name: str) -> list[dict[str, Any]]:
    with open(DATA_DIR / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def examples(name: str, language: Any = None) -> dict[str, list]:
    """The first ``ROWS`` rows of ``name`` (of ``language`` only, for the multilingual file) as
    compute's sources, predictions and references. A file of pairs has no prediction: each row
    is given the next row's reference, an unrelated update. The multi-reference file holds
    additions only: its sources are empty."""
    rows = THAI_ROWS if name == THAI else read_rows(name)
    if language is not None:
        rows = [row for row in rows if row["language"] == language]
    rows = rows[:ROWS]
    if name == MULTI_REFERENCE:
        return {
            "sources": [""] * len(rows),
            "predictions": [row["prediction"] for row in rows],
            "references": [row["references"] for row in rows],
        }
    predictions = [row.get("prediction", rows[(index + 1) % len(rows)]["reference"]) for index, row in enumerate(rows)]
    return {
        "sources": [row["source"] for row in rows],
        "predictions": predictions,
        "references": [row["reference"] for row in rows],
    }


def _configurations() -> list[tuple[str, str, Any, dict[str, Any]]]:
    """(name, data file, language of the multilingual file's rows, options) per configuration."""
    found: list[tuple[str, str, Any, dict[str, Any]]] = []
    for name in SCORING_FILES:
        stem = name.removesuffix(".jsonl")
        found.append((f"{stem}/default", name, None, {}))
        found.append((f"{stem}/porter", name, None, {"use_stemmer": True, "rouge_types": ALL_TYPES}))
    found += [
        ("iterater_triples/rouge155-stemmer", "iterater_triples.jsonl", None, {"stemmer": "rouge155"}),
        (
            "wiki_triples/skip-bigrams",
            "wiki_triples.jsonl",
            None,
            {"rouge_types": ["rougeS", "rougeSU", "rougeS4", "rougeSU4"]},
        ),
        ("iterater_triples/rougeW", "iterater_triples.jsonl", None, {"rouge_types": ["rougeW", "rougeW-1.5"]}),
        ("iterater_triples/stopwords", "iterater_triples.jsonl", None, {"remove_stopwords": True, "use_stemmer": True}),
        ("iterater_triples/words100", "iterater_triples.jsonl", None, {"max_words": 100}),
        ("iterater_triples/bytes75", "iterater_triples.jsonl", None, {"max_bytes": 75}),
        ("iterater_triples/alpha0.25", "iterater_triples.jsonl", None, {"alpha": 0.25}),
        (
            "iterater_triples/interval90",
            "iterater_triples.jsonl",
            None,
            {"confidence_level": 0.9, "n_bootstrap": 500, "seed": 7},
        ),
        ("iterater_triples/edits", "iterater_triples.jsonl", None, {"additions": "edits", "rouge_types": ALL_TYPES}),
        (
            "wiki_triples/edits-porter",
            "wiki_triples.jsonl",
            None,
            {"additions": "edits", "use_stemmer": True, "rouge_types": ALL_TYPES},
        ),
        ("iterater_triples/paired-bootstrap", "iterater_triples.jsonl", None, {"baseline_predictions": "sources"}),
        ("iterater_triples/randomization", "iterater_triples.jsonl", None, {"compare": "randomization"}),
        ("iterater_triples/compare-bootstrap", "iterater_triples.jsonl", None, {"compare": "bootstrap"}),
        ("iterater_triples/deletions", "iterater_triples.jsonl", None, {"deletions": True, "rouge_types": ALL_TYPES}),
        (
            "wiki_triples/deletions-edits-micro",
            "wiki_triples.jsonl",
            None,
            {"deletions": True, "additions": "edits", "average": "micro", "baseline_predictions": "sources"},
        ),
    ]
    for mode in ("max_f1", "pooled", "best_recall"):
        found.append(
            (f"rouge155_multiref_golden/{mode}", MULTI_REFERENCE, None, {"multi_ref": mode, "rouge_types": ALL_TYPES})
        )
    from update_rouge.languages import SNOWBALL_LANGUAGES

    languages = sorted({row["language"] for row in read_rows(MULTILINGUAL)})
    for language in languages:
        found.append(
            (
                f"multilingual_triples/{language}",
                MULTILINGUAL,
                language,
                {"language": language, "rouge_types": ALL_TYPES},
            )
        )
        if language in SNOWBALL_LANGUAGES:
            found.append(
                (
                    f"multilingual_triples/{language}-snowball",
                    MULTILINGUAL,
                    language,
                    {"language": language, "use_stemmer": True},
                )
            )
    found.append(("thai/th", THAI, None, {"language": "th", "rouge_types": ALL_TYPES}))
    found.append(("thai/th-edits", THAI, None, {"language": "th", "additions": "edits", "rouge_types": ALL_TYPES}))
    return found


CONFIGURATIONS = _configurations()
SEGMENTED = {"zh", "ja", "th"}


def exact(value: Any) -> Any:
    """``value`` with every float written as ``float.hex`` (bit-exact), numpy scalars as Python's."""
    if hasattr(value, "item") and not isinstance(value, (list, dict, str)):
        value = value.item()
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, dict):
        return {str(key): exact(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [exact(item) for item in value]
    raise TypeError(f"cannot write {type(value).__name__} exactly")


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(exact(value), sort_keys=True).encode("ascii")).hexdigest()


def settings_part(signature: str) -> str:
    """``signature`` without its version fields."""
    return "|".join(field for field in signature.split("|") if field.split(":", 1)[0] not in VERSION_FIELDS)


def version_part(signature: str) -> dict[str, str]:
    """The version fields of ``signature`` that can change a number (all but update-rouge's)."""
    fields = dict(field.split(":", 1) for field in signature.split("|"))
    return {name: fields[name] for name in VERSION_FIELDS if name in fields and name != "update-rouge"}


def differences(recorded: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """Which of the settings and the two hashes differ between two records of a configuration."""
    return [key for key in ("settings", "per_example", "corpus") if recorded.get(key) != now.get(key)]


def outputs(name: str) -> dict[str, str]:
    """The record of configuration ``name``: its settings signature and the two hashes."""
    from update_rouge import compare, compute

    _, data_file, language, options = next(entry for entry in CONFIGURATIONS if entry[0] == name)
    data = examples(data_file, language)
    options = dict(options)
    if options.get("baseline_predictions") == "sources":
        options["baseline_predictions"] = data["sources"]
    method = options.pop("compare", None)
    per_example_options = {key: value for key, value in options.items() if key != "baseline_predictions"}
    per_example = compute(**data, **per_example_options, use_aggregator=False)
    if method is None:
        corpus = compute(**data, **options, return_signature=True)
    else:
        systems = {"system": data["predictions"], "source": data["sources"]}
        corpus = compare(
            data["sources"],
            data["references"],
            systems,
            "source",
            method=method,
            n_trials=2000,
            return_signature=True,
            **options,
        )
    signature = corpus.pop("signature")
    return {
        "settings": settings_part(signature),
        "versions": version_part(signature),
        "per_example": digest(per_example),
        "corpus": digest(corpus),
    }


def versions() -> dict[str, str]:
    names = ("rouge-score", "nltk", "numpy", "jieba", "fugashi", "unidic-lite", "pythainlp", "rouge-score-rs")
    found = {"python": sys.version.split()[0]}
    for package in names:
        try:
            found[package] = version(package)
        except Exception:
            found[package] = "not installed"
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 and list what differs")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    current = {name: outputs(name) for name, *_ in CONFIGURATIONS}
    if not args.check:
        RECORD.write_text(
            json.dumps({"recorded_with": versions(), "configurations": current}, indent=1, sort_keys=True) + "\n",
            encoding="ascii",
        )
        return 0
    recorded = json.loads(RECORD.read_text(encoding="ascii"))["configurations"]
    differing = sorted(
        name for name in set(current) | set(recorded) if differences(recorded.get(name, {}), current.get(name, {}))
    )
    for name in differing:
        print(f"{name}: recorded {recorded.get(name)}, now {current.get(name)}", file=sys.stderr)
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
