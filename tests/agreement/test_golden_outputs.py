"""The results on the bundled data are the recorded ones, bit for bit, whatever the Python and dependencies.

tests/data/golden_outputs.json holds, per configuration of scripts/record_golden_outputs.py
(every scoring data file, every option family), the signature without its version fields and
the sha256 of the per-example and corpus results with every float written exactly. The same
hashes must come out on every Python and dependency set of the version matrix (.ci/matrix)
whenever the signature's versions are the recorded ones; under other versions (a Thai
segmenter of another release, say) different numbers come with a different signature, which is
reported as a skip naming both.
"""

import importlib.util
import json
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from rouge_score.scoring import fmeasure

from update_rouge import compute

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("record_golden_outputs", ROOT / "scripts" / "record_golden_outputs.py")
assert _spec is not None and _spec.loader is not None
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)
RECORDED = json.loads(golden.RECORD.read_text(encoding="ascii"))
SEGMENTER_PACKAGES = {"zh": ["jieba"], "ja": ["fugashi", "unidic-lite"], "th": ["pythainlp"]}


def missing_segmenter(language):
    missing = []
    for package in SEGMENTER_PACKAGES.get(language, []):
        try:
            version(package)
        except PackageNotFoundError:
            missing.append(package)
    return missing


def test_every_configuration_is_recorded_and_every_family_is_there():
    names = [name for name, *_ in golden.CONFIGURATIONS]
    assert sorted(names) == sorted(RECORDED["configurations"]), "run python scripts/record_golden_outputs.py"
    files = {data_file for _, data_file, _, _ in golden.CONFIGURATIONS}
    assert set(golden.SCORING_FILES) | {golden.MULTILINGUAL, golden.MULTI_REFERENCE, golden.THAI} == files
    settings = "\n".join(entry["settings"] for entry in RECORDED["configurations"].values())
    for field in (
        "stem:porter",
        "stem:rouge155",
        "stem:snowball",
        "lang:zh",
        "lang:ja",
        "lang:th",
        "lang:hi",
        "lang:ru",
        "rougeSU4",
        "rougeW-1.5",
        "stopwords:rouge155",
        "words:100",
        "bytes:75",
        "alpha:0.25",
        "multiref:pooled",
        "multiref:best_recall",
        "ci:0.9",
        "test:paired-ar",
        "test:paired-bs",
        "additions:edits",
        "del:sentences",
        "del:edits",
    ):
        assert field in settings, f"no configuration has {field}"


@pytest.mark.parametrize("name", [name for name, *_ in golden.CONFIGURATIONS])
def test_the_results_are_the_recorded_ones(name):
    options = next(entry[3] for entry in golden.CONFIGURATIONS if entry[0] == name)
    language = options.get("language")
    missing = missing_segmenter(language)
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed (the multilingual extra): {name} cannot be scored")
    recorded, now = RECORDED["configurations"][name], golden.outputs(name)
    differing = golden.differences(recorded, now)
    if differing and differing != ["settings"] and recorded["versions"] != now["versions"]:
        # The promise is the same numbers under the same signature; this one names other versions.
        pytest.skip(
            f"{name}: {', '.join(differing)} differ under a signature with other versions "
            f"(recorded {recorded['versions']}, now {now['versions']}), as the signature says they may"
        )
    assert not differing, (
        f"{name}: {', '.join(differing)} differ from tests/data/golden_outputs.json "
        f"(recorded with {RECORDED['recorded_with']}; now {golden.versions()}); "
        "python scripts/record_golden_outputs.py --check lists every configuration that differs"
    )


# average="micro" on the bundled data: the summed counts (hits, reference grams or tokens,
# prediction grams or tokens) per rouge type, made once by tests/unit/test_micro.py's independent
# counter (rouge-score's tokenizer, Counter, rouge-score's LCS and union LCS; examples without
# additions skipped), not by the package. The micro values are their ratios and F1.
MICRO_SUMS = {
    ("iterater_triples.jsonl", False): {
        "rouge1": (2385, 5069, 4027),
        "rouge2": (1637, 5029, 3987),
        "rougeL": (1914, 5069, 4027),
        "rougeLsum": (2310, 5069, 4027),
    },
    ("iterater_triples.jsonl", True): {
        "rouge1": (2436, 5069, 4027),
        "rouge2": (1670, 5029, 3987),
        "rougeL": (1940, 5069, 4027),
        "rougeLsum": (2347, 5069, 4027),
    },
    ("fruit_triples.jsonl", False): {
        "rouge1": (150, 381, 201),
        "rouge2": (131, 378, 198),
        "rougeL": (139, 381, 201),
        "rougeLsum": (149, 381, 201),
    },
    ("wiki_triples.jsonl", False): {"rouge1": (236578, 278639, 440120), "rouge2": (216004, 277905, 439380)},
}


@pytest.mark.parametrize("data_file, stem", list(MICRO_SUMS))
def test_micro_values_are_the_recorded_sums_ratios(data_file, stem):
    rows = golden.read_rows(data_file)
    sums = MICRO_SUMS[data_file, stem]
    result = compute(
        [row["source"] for row in rows],
        [row["prediction"] for row in rows],
        [row["reference"] for row in rows],
        rouge_types=list(sums),
        use_stemmer=stem,
        average="micro",
        confidence_level=None,
    )
    for rouge_type, (hits, reference, prediction) in sums.items():
        precision, recall = hits / prediction, hits / reference
        key = f"update_{rouge_type}"
        assert result[f"{key}_precision"] == precision
        assert result[f"{key}_recall"] == recall
        assert result[key] == fmeasure(precision, recall)
