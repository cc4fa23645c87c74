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
    with pytest.raises(TypeError, match="unexpected keyword argument .colour."):
        update_rouge.build_signature(colour="red")


def test_a_compute_that_fails_while_scoring_raises_its_error_and_leaves_no_cache_file(tmp_path):
    # evaluate removes its cache files and releases their locks only when _compute returns: the
    # script's _compute returns the scoring's error and its compute raises it after that.
    import evaluate

    def fail_on_bakes(text):
        if "bakes" in text:
            raise KeyError("bakes")
        return text.split()

    metric = evaluate.load(str(MODULE_DIR), cache_dir=str(tmp_path))
    metric.add_batch(sources=["Dan."], predictions=["Dan. He bakes."], references=["Dan. He sings."])
    assert list(tmp_path.rglob("*.arrow")), "evaluate stored no cache file: the test would prove nothing"
    with pytest.raises(ValueError, match=r"^tokenizer raised KeyError: 'bakes', on the additions of predictions\[0\]"):
        metric.compute(tokenizer=fail_on_bakes)
    assert not list(tmp_path.rglob("*.arrow")), "the cache files were left behind"
    result = metric.compute(sources=["Dan."], predictions=["Dan. He bakes."], references=["Dan. He sings."])
    assert result["update_rouge1"] == 0.5


WRITERS = ("setattr", "delattr", "__setattr__", "__delattr__")


def written_targets(node):
    """The targets ``node`` assigns, augments, annotates or deletes (none for other nodes)."""
    if isinstance(node, (ast.Assign, ast.Delete)):
        return list(node.targets)
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        return [node.target]
    return []


def assigned_attributes(tree):
    """(line, object, name) of every attribute the code assigns, augments, annotates or deletes,
    and of every ``setattr``/``delattr``/``__setattr__`` call; object is the source of the
    expression whose attribute is written (``self``, ``_compute``, ...)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in WRITERS:
            found.append((node.lineno, ast.unparse(node), "(call)"))
        targets = written_targets(node)
        while targets:
            target = targets.pop()
            if isinstance(target, (ast.Tuple, ast.List, ast.Starred)):
                targets.extend(target.elts if not isinstance(target, ast.Starred) else [target.value])
            elif isinstance(target, ast.Attribute):
                found.append((target.lineno, ast.unparse(target.value), target.attr))
    return found


def test_the_script_writes_no_attribute_of_evaluates_objects():
    # The rule: update_rouge.py writes (assigns, augments, annotates, deletes, setattr) only
    # (a) attributes of `self` that evaluate's EvaluationModule does not have: not on the class
    # (dir(evaluate.Metric)) and never assigned to `self` in evaluate/module.py, where its instance
    # state (writer, data, filelocks, file_paths, ...) is set; and (b) `__signature__` of a function
    # the script defines. Anything else would depend on evaluate's private state, which a new
    # evaluate release may rename. Each line of `bad` below breaks the rule and must be found.
    import evaluate
    import evaluate.module

    theirs = set(dir(evaluate.Metric)) | {
        name for _, obj, name in assigned_attributes(ast.parse(inspect.getsource(evaluate.module))) if obj == "self"
    }
    assert {"writer", "data", "filelocks", "file_paths", "filelock"} <= theirs

    def broken(source):
        tree = ast.parse(source)
        functions = {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
        return [
            (line, obj, name)
            for line, obj, name in assigned_attributes(tree)
            if not (obj == "self" and name not in theirs) and not (obj in functions and name == "__signature__")
        ]

    bad = [
        "self.filelocks, self.file_paths = [], []",
        "self.writer = None",
        "self._module_info = 1",
        "del self.data",
        "setattr(self, '_forms', [])",
        "evaluate.MetricInfo._x = 1",
        "info = evaluate.MetricInfo()\ninfo.features += 1",
        "def f(): pass\nf.__doc__ = ''",
    ]
    for source in bad:
        assert broken(source), source
    assert broken((MODULE_DIR / "update_rouge.py").read_text(encoding="utf-8")) == []
