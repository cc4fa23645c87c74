"""The metric as users get it: `evaluate.load("<namespace>/update_rouge")` from a Space.

The Space folder is written by `python -m update_rouge.space` and served by a local stand-in
for the Hub (tests/sandbox.py). A fresh Python process with an empty Hugging Face cache, in
a directory outside the repository and with this package made unimportable, loads the metric
through evaluate's own Hub code path and scores; the scores must equal the package's, and the
ROUGE-1.5.5 values for the multi-reference modes. Its HTTP proxy is a trap that records any
connection to another host.
"""

import importlib.metadata
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TRIPLE_FILES, read_jsonl
from sandbox import NAME, NAMESPACE, ConnectionTrap, FakeHub, clean_env, proxy_variables

from update_rouge import compute
from update_rouge.space import metric_modules

REPO = Path(__file__).resolve().parents[2]
ALL_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeS", "rougeSU", "rougeSU4"]
MULTI_REF_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeS", "rougeSU4"]
# Rows of wiki_triples.jsonl used (all of the others): enough long real texts, in seconds.
WIKI_ROWS = 100
MULTI_REF_ROWS = 60
# The second revision's script differs in one line: its default rouge types are rouge1 only.
DEFAULT_TYPES_LINE = (
    "        return compute(sources=sources, predictions=predictions, references=references, **options)\n"
)
REVISION_2_LINE = (
    "        return compute(sources=sources, predictions=predictions, references=references, "
    '**{"rouge_types": ("rouge1",), **options})\n'
)

# Runs in the fresh process: block this package, load the metric every way, score the cases.
LOADER = r"""
import importlib.abc, importlib.util, json, os, sys

class BlockPackage(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "update_rouge":
            raise ModuleNotFoundError(name)

sys.meta_path.insert(0, BlockPackage())
try:
    importlib.util.find_spec("update_rouge")
    raise SystemExit("update_rouge is importable")
except ModuleNotFoundError:
    pass
import evaluate

job = json.load(open(sys.argv[1], encoding="utf-8"))
modules_cache = os.path.realpath(os.environ["HF_MODULES_CACHE"])

def loaded(metric):
    path = os.path.realpath(sys.modules[type(metric).__module__].__file__)
    assert path.startswith(modules_cache + os.sep), path
    return metric

hub = loaded(evaluate.load(job["space"]))
out = {"cases": [hub.compute(**case) for case in job["cases"]], "revisions": {}}
for revision in job["revisions"]:
    metric = loaded(evaluate.load(job["space"], revision=revision))
    out["revisions"][revision] = metric.compute(**job["default_case"])
out["folder"] = loaded(evaluate.load(job["folder"])).compute(**job["default_case"])
json.dump(out, open(sys.argv[2], "w", encoding="utf-8"))
"""


def triples():
    rows = [row for name in TRIPLE_FILES if name != "wiki_triples.jsonl" for row in read_jsonl(name)]
    return rows + read_jsonl("wiki_triples.jsonl")[:WIKI_ROWS]


def cases():
    """The compute keyword arguments checked: each stemmer, each multi_ref mode, every type."""
    rows = triples()
    single = dict(
        sources=[row["source"] for row in rows],
        predictions=[row["prediction"] for row in rows],
        references=[row["reference"] for row in rows],
        rouge_types=ALL_TYPES,
    )
    found = [dict(single, stemmer=stemmer, use_aggregator=False) for stemmer in ("none", "porter", "rouge155")]
    found.append(dict(single, stemmer="rouge155", baseline_predictions=single["sources"]))
    multi = read_jsonl("rouge155_multiref_golden.jsonl")[:MULTI_REF_ROWS]
    for mode in ("max_f1", "pooled", "best_recall"):
        found.append(
            dict(
                sources=[""] * len(multi),
                predictions=[row["prediction"] for row in multi],
                references=[row["references"] for row in multi],
                rouge_types=MULTI_REF_TYPES,
                multi_ref=mode,
                use_aggregator=False,
            )
        )
    return found


def fruit_case():
    rows = read_jsonl("fruit_triples.jsonl")
    return dict(
        sources=[row["source"] for row in rows],
        predictions=[row["prediction"] for row in rows],
        references=[row["reference"] for row in rows],
    )


@pytest.mark.slow
def test_evaluate_load_from_the_hub_scores_as_the_package_and_revisions_pin(tmp_path):
    space = tmp_path / "main" / NAME
    command = [sys.executable, "-m", "update_rouge.space", str(space)]
    written = subprocess.run(command, cwd=REPO, env=clean_env(PYTHONPATH=str(REPO)), capture_output=True, timeout=300)
    assert written.returncode == 0, written.stderr
    second = tmp_path / "v2" / NAME
    shutil.copytree(space, second)
    script = (second / "update_rouge.py").read_text(encoding="utf-8")
    assert script.count(DEFAULT_TYPES_LINE) == 1
    (second / "update_rouge.py").write_text(script.replace(DEFAULT_TYPES_LINE, REVISION_2_LINE), encoding="utf-8")

    job = {
        "space": f"{NAMESPACE}/{NAME}",
        "folder": str(space),
        "cases": cases(),
        "default_case": fruit_case(),
        "revisions": ["v1", "v2"],
    }
    (tmp_path / "job.json").write_text(json.dumps(job), encoding="utf-8")
    (tmp_path / "loader.py").write_text(LOADER, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    trap = ConnectionTrap()
    try:
        with FakeHub({"main": space, "v1": space, "v2": second}) as hub:
            env = clean_env(
                HF_ENDPOINT=hub.endpoint,
                HF_HOME=str(tmp_path / "hf"),
                HF_MODULES_CACHE=str(tmp_path / "hf" / "modules"),
                # evaluate's download counter would HEAD s3.amazonaws.com; a mirror Hub has none.
                HF_UPDATE_DOWNLOAD_COUNTS="0",
                **proxy_variables(trap.port),
            )
            completed = subprocess.run(
                [sys.executable, str(tmp_path / "loader.py"), str(tmp_path / "job.json"), str(tmp_path / "out.json")],
                cwd=elsewhere,
                env=env,
                capture_output=True,
                text=True,
                timeout=900,
            )
    finally:
        trap.close()
    assert completed.returncode == 0, completed.stderr
    out = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))

    for case, got in zip(job["cases"], out["cases"]):
        assert got == json.loads(json.dumps(compute(**case))), {k: v for k, v in case.items() if k != "sources"}
    # Independent of the package: ROUGE-1.5.5's -f A and -f B values (rouge1 [P, R, F1]).
    golden = read_jsonl("rouge155_multiref_golden.jsonl")[:MULTI_REF_ROWS]
    for got, mode in zip(out["cases"][-2:], ("pooled", "best_recall")):
        for key, index in (("update_rouge1_precision", 0), ("update_rouge1_recall", 1), ("update_rouge1", 2)):
            assert got[key] == pytest.approx([row[mode]["rouge1"][index] for row in golden], abs=1e-12)

    package = json.loads(json.dumps(compute(**job["default_case"])))
    assert {key for key in package if key.startswith("update_")} >= {"update_rouge2", "update_rougeLsum"}
    assert out["revisions"]["v1"] == package
    assert out["folder"] == package
    assert out["revisions"]["v2"] == json.loads(json.dumps(compute(**job["default_case"], rouge_types=["rouge1"])))
    assert out["revisions"]["v2"] != out["revisions"]["v1"]

    # What was asked of the Hub: the script, then exactly the modules it imports, per revision.
    assert trap.connections == 0
    prefix = f"/spaces/{NAMESPACE}/{NAME}/resolve/"
    # Besides the Space's files, huggingface_hub (which evaluate uses for the user agent) asks
    # the endpoint once for its registry of agent harnesses; a 404 is fine with it.
    assert [request for request in hub.requests if not request[1].startswith(prefix)] == [
        ("GET", "/api/agent-harnesses", 404)
    ]
    fetched = {
        tuple(path[len(prefix) :].split("/", 1))
        for method, path, status in hub.requests
        if method == "GET" and status == 200 and path.startswith(prefix)
    }
    modules = {module.name for module in metric_modules()}
    for revision in ("main", "v1", "v2"):
        assert {name for rev, name in fetched if rev == revision} == modules
    # Unpinned, evaluate first asks for the tag of its own version (v<evaluate version>), which
    # this Space lacks, then falls back to main; nothing else was missing.
    missing = {path[len(prefix) :] for _, path, status in hub.requests if status == 404 and path.startswith(prefix)}
    # evaluate's version from its metadata: importing evaluate here would import transformers' pipelines
    assert missing == {f"v{importlib.metadata.version('evaluate')}/{NAME}.py"}
