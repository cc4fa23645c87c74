"""The evaluate module: loading from a fresh cache, offline, and evaluate's doctest protocol."""

import ast
import doctest
import importlib
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path
from unittest.mock import patch

import pytest

import update_rouge

MODULE_DIR = Path(update_rouge.__file__).parent


def relative_imports(module_name):
    tree = ast.parse((MODULE_DIR / f"{module_name}.py").read_text(encoding="utf-8"))
    return {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 1}


def test_the_script_imports_every_module_it_needs_directly():
    # evaluate copies only the modules the script imports relatively, without following theirs.
    direct = relative_imports("update_rouge")
    needed, frontier = set(), set(direct)
    while frontier:
        module = frontier.pop()
        needed.add(module)
        frontier |= relative_imports(module) - needed
    assert needed <= direct, f"import these in update_rouge.py too: {sorted(needed - direct)}"


LOAD_IN_FRESH_PROCESS = """
import json, sys
sys.modules["update_rouge"] = None  # the installed package must not be what evaluate loads
import evaluate
metric = evaluate.load(sys.argv[1])
result = metric.compute(
    sources=["Dan is a baker."],
    predictions=["Dan is a baker. Dan loves chocolate chip cookies."],
    references=["Dan is a baker. Dan loves chocolate cakes."],
)
statistics = metric.compute(
    sources=["Dan is a baker.", "Ann is a nurse."],
    predictions=["Dan is a baker. Dan loves chocolate chip cookies.", "Ann is a nurse. Ann works nights."],
    references=["Dan is a baker. Dan loves chocolate cakes.", "Ann is a nurse. Ann works at night."],
    baseline_predictions=["Dan is a baker.", "Ann is a nurse."],
    rouge_types=["rouge1"],
    return_signature=True,
)
signature = metric.signature(references=[["a.", "b."], ["c."]], rouge_types=["rouge1"], seed=7)
edits = metric.compute(
    sources=["The team won 3 games in 2020. The coach is Smith."],
    predictions=["The team won 3 games in 2021. The coach is Smith."],
    references=["The team won 5 games in 2021. The coach is Smith."],
    rouge_types=["rouge1"],
    additions="edits",
)
two = {
    "sources": ["Dan is a baker.", "Ann is a nurse."],
    "predictions": ["Dan is a baker. Dan loves chocolate chip cookies.", "Ann is a nurse. Ann works nights."],
    "references": ["Dan is a baker. Dan loves chocolate cakes.", "Ann is a nurse. Ann works at night."],
}
published = {p: metric.compute(**two, protocol=p, seed=0) for p in ("fruit", "editeval", "autometrics")}
published_signature = metric.signature(references=two["references"], protocol="fruit", seed=0)
print(json.dumps({
    "edits": edits,
    "published": published,
    "published_inputs": two,
    "published_signature": published_signature,
    "module_file": sys.modules[type(metric).__module__].__file__,
    "result": result,
    "statistics": statistics,
    "signature": signature,
}))
"""


def run_offline_with_an_empty_cache(script, tmp_path):
    """Run ``script`` (given the module directory) in a fresh offline process; its last JSON line."""
    env = dict(os.environ, HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1", HF_HOME=str(tmp_path / "hf"))
    env.pop("HF_MODULES_CACHE", None)
    completed = subprocess.run(
        [sys.executable, "-c", script, str(MODULE_DIR)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    output = json.loads(completed.stdout.strip().splitlines()[-1])
    assert output["module_file"].startswith(str(tmp_path / "hf"))
    return output


@pytest.mark.slow
def test_evaluate_load_offline_with_an_empty_cache(tmp_path):
    output = run_offline_with_an_empty_cache(LOAD_IN_FRESH_PROCESS, tmp_path)
    assert output["result"]["update_rouge1_precision"] == 3 / 5
    assert output["result"]["update_rouge1_recall"] == 3 / 4
    # One example: every resample is that example, so the interval is the point itself.
    result = output["result"]
    assert result["update_rouge1_low"] == result["update_rouge1_high"] == result["update_rouge1"]
    assert result["update_rouge1"] == pytest.approx(2 / 3, abs=1e-12)
    statistics = output["statistics"]
    assert statistics["update_rouge1_low"] <= statistics["update_rouge1"] <= statistics["update_rouge1_high"]
    # The baseline adds nothing where both references add text: it scores 0 on both examples.
    assert statistics["update_rouge1_delta"] == statistics["update_rouge1"]
    assert statistics["update_rouge1_p_value"] == 1 / 1001
    assert statistics["signature"].startswith("refs:1|")
    assert f"|update-rouge:{update_rouge.__version__}|" in statistics["signature"]
    assert output["signature"].startswith("refs:1-2|")
    assert "|types:rouge1|" in output["signature"] and "|seed:7|" in output["signature"]
    # Issue 30's worked example: the reference adds "5" and "2021", the prediction "2021".
    assert output["edits"]["update_rouge1"] == 2 / 3 and output["edits"]["update_rouge1_recall"] == 1 / 2
    # protocol= through the evaluate module: compute's numbers; FRUIT's x 100 scale; the signature names it.
    for protocol, result in output["published"].items():
        assert result == update_rouge.compute(**output["published_inputs"], protocol=protocol, seed=0), protocol
    assert output["published"]["fruit"]["update_rouge1"] == 100 * output["published"]["editeval"]["update_rouge1"]
    assert "|protocol:fruit@865fae6|" in output["published_signature"]


STEM_IN_FRESH_PROCESS = """
import json, sys
sys.modules["update_rouge"] = None  # the installed package must not be what evaluate loads
import evaluate
metric = evaluate.load(sys.argv[1])
result = metric.compute(
    sources=["s."],
    predictions=["s. The children wrote."],
    references=["s. The child writes."],
    rouge_types=["rouge1"],
    stemmer="rouge155",
)
print(json.dumps({"module_file": sys.modules[type(metric).__module__].__file__, "result": result}))
"""


@pytest.mark.slow
def test_rouge155_stemming_finds_its_word_lists_when_loaded_from_an_empty_cache(tmp_path):
    output = run_offline_with_an_empty_cache(STEM_IN_FRESH_PROCESS, tmp_path)
    # children -> child and wrote -> write come from the WordNet lists; without them recall is 1/3.
    assert output["result"]["update_rouge1_recall"] == 1.0


def test_doctests_pass_evaluates_protocol(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    import evaluate

    factory = evaluate.loading.evaluation_module_factory(str(MODULE_DIR), module_type="metric")
    module = importlib.import_module(factory.module_path)
    metric_class = evaluate.loading.import_main_class(module.__name__)
    parameters = inspect.signature(metric_class._compute).parameters
    assert all(p.kind != p.VAR_KEYWORD for p in parameters.values())

    def load_local(name, *args, **kwargs):
        assert name == "update_rouge"
        return evaluate.loading.load(str(MODULE_DIR), *args, **kwargs)

    doctest.ELLIPSIS_MARKER = "[...]"
    with patch("evaluate.load", side_effect=load_local):
        results = doctest.testmod(module, verbose=False, raise_on_error=True)
    assert results.failed == 0
    assert results.attempted > 1


def test_metric_info_declares_both_reference_formats(tmp_path):
    import evaluate

    metric = evaluate.load(str(MODULE_DIR), cache_dir=str(tmp_path))
    assert metric.name == "update_rouge"
    reference_types = [type(features["references"]).__name__ for features in metric.features]
    # datasets 4 and later name a sequence feature "List".
    assert reference_types in (["Sequence", "Value"], ["List", "Value"])
    assert all(set(features) == {"sources", "predictions", "references"} for features in metric.features)


def test_compute_signature_and_evaluate_take_the_options_of_the_table():
    from update_rouge.settings import OPTIONS
    from update_rouge.update_rouge import UpdateRouge

    data = {"self", "sources", "predictions", "references"}

    def options(function):
        parameters = inspect.signature(function).parameters
        assert data - {"self"} <= set(parameters)
        return {name: parameter.default for name, parameter in parameters.items() if name not in data}

    table = {option.name: option.default for option in OPTIONS}
    assert options(UpdateRouge._compute) == options(update_rouge.compute) == table
    assert table["seed"] == update_rouge.bootstrap.DEFAULT_SEED
    for option in OPTIONS:
        assert f"    {option.name} ({option.type}, optional): " in UpdateRouge._info(None).inputs_description
    with pytest.raises(TypeError, match="unexpected keyword arguments: colour"):
        update_rouge.build_signature(colour="red")


def test_the_private_evaluate_state_the_script_releases_is_where_it_looks(evaluate_metric):
    # update_rouge.py's _release_cache frees what evaluate's _finalize took for a compute that
    # then failed: the private writer, filelocks and file_paths. The version matrix runs this on
    # the newest evaluate and on the lowest allowed (0.4.1), so a rename there fails here.
    evaluate_metric.add_batch(sources=["Dan bakes."], predictions=["Dan bakes. He sells."], references=["He sings."])
    assert evaluate_metric.writer is not None
    evaluate_metric._finalize()
    assert evaluate_metric.writer is None
    paths, locks = list(evaluate_metric.file_paths), list(evaluate_metric.filelocks)
    assert paths and all(os.path.exists(path) for path in paths), paths
    assert locks and all(lock.is_locked for lock in locks)
    evaluate_metric._release_cache()
    assert not any(os.path.exists(path) for path in paths), "the cache files were left behind"
    assert not any(lock.is_locked for lock in locks), "a cache lock is still held"
    assert evaluate_metric.data is None
