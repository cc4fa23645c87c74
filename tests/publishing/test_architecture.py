"""The layout rules of docs/architecture.md: every module listed there, no import cycle, and the
Hub rule (what the evaluate script imports, at any depth, is flat in ``update_rouge/``)."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "update_rouge"
DEMO = ROOT / "demo"


def _modules() -> dict[str, Path]:
    """Dotted names (relative to the package) of every module of the package."""
    names = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:
            names[".".join(parts)] = path
    return names


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that ``name`` imports, at any depth of its code (lazy imports count)."""
    package = name.split(".")[:-1] if path.name != "__init__.py" else name.split(".")
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("update_rouge"):
                target = node.module[len("update_rouge") :].lstrip(".")
            else:
                continue
            for alias in node.names:
                full = f"{target}.{alias.name}" if target else alias.name
                found.add(full if full in known else target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("update_rouge."):
                    found.add(alias.name[len("update_rouge.") :])
    return {module for module in found if module in known and module != name}


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` as a list of modules (first repeated at the end), or []."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = 1
        stack.append(module)
        for imported in sorted(graph[module]):
            if state.get(imported) == 1:
                return stack[stack.index(imported) :] + [imported]
            if imported not in state:
                cycle = visit(imported)
                if cycle:
                    return cycle
        stack.pop()
        state[module] = 2
        return []

    for module in sorted(graph):
        if module not in state:
            cycle = visit(module)
            if cycle:
                return cycle
    return []


def _closure(start: str, graph: dict[str, set[str]]) -> set[str]:
    """``start`` and every module it imports, directly or through others, in ``graph``."""
    found, pending = set(), [start]
    while pending:
        module = pending.pop()
        if module not in found:
            found.add(module)
            pending.extend(graph[module] - found)
    return found


def _not_flat(modules: set[str], paths: dict[str, Path]) -> list[str]:
    """The ``modules`` that are not a ``.py`` file directly in ``update_rouge/`` (a subpackage's
    module or a subpackage itself), sorted."""
    return sorted(
        module for module in modules if paths[module].parent != PACKAGE or paths[module].name == "__init__.py"
    )


def test_the_package_has_no_import_cycle():
    modules = _modules()
    graph = {name: _imports(name, path, set(modules)) for name, path in modules.items()}
    cycle = _cycle(graph)
    assert not cycle, f"import cycle: {' -> '.join(cycle)}"


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_the_evaluate_script_imports_only_flat_modules_at_any_depth():
    # The Hub rule: evaluate.load("<org>/update_rouge") fetches update_rouge.py and the modules
    # beside it that it imports, flat; a module it needs from a subpackage would be missing.
    modules = _modules()
    graph = {name: _imports(name, path, set(modules)) for name, path in modules.items()}
    needed = _closure("update_rouge", graph)
    assert {"metric", "settings", "engines"} <= needed  # the parse found the script's imports
    outside = _not_flat(needed, modules)
    assert not outside, f"the evaluate script imports, directly or not, modules that are not flat: {', '.join(outside)}"


def test_the_evaluate_script_imports_directly_exactly_what_compute_needs():
    # evaluate copies only the modules the script imports directly: each module it needs at any
    # depth must be among them; and it imports no module only the demo or the command line needs.
    modules = _modules()
    graph = {name: _imports(name, path, set(modules)) for name, path in modules.items()}
    needed = set().union(*(_closure(name, graph) for name in ("metric", "settings", "signature", "inputs")))
    assert {"metric", "settings", "engines", "parallel"} <= needed
    direct = graph["update_rouge"]
    assert needed - direct == set(), f"imported through others but not by the script: {sorted(needed - direct)}"
    assert direct - needed == set(), f"the script imports modules compute does not need: {sorted(direct - needed)}"
    assert not {"files", "files.chunk_scoring", "files.lines", "files.outputs", "matches"} & direct


def test_the_flat_check_finds_a_subpackage_module():
    modules = _modules()
    graph = {
        "update_rouge": {"metric"},
        "metric": {"integrations.trainer"},
        "integrations.trainer": {"cli"},
        "cli": set(),
    }
    assert _closure("update_rouge", graph) == set(graph)
    assert _not_flat(set(graph), modules) == ["cli", "integrations.trainer"]


def test_the_architecture_page_lists_every_module():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = page.split("## One line per module (`update_rouge/`)", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([\w/]+)\.py` \|", section, flags=re.MULTILINE))
    files = {str(path.relative_to(PACKAGE).with_suffix("")) for path in PACKAGE.rglob("*.py")}
    files -= {"__init__", "__main__"}
    files |= {"app", *(f"demo/{path.stem}" for path in DEMO.glob("*.py") if path.stem != "__init__")}  # the demo
    missing = sorted(files - listed)
    stale = sorted(listed - files)
    assert not missing, f"docs/architecture.md's module table lacks: {', '.join(missing)}"
    assert not stale, f"docs/architecture.md lists modules that do not exist: {', '.join(stale)}"


GROUPS = ("unit", "agreement", "entry_points", "reliability", "publishing")


def test_every_test_file_sits_in_a_group_folder():
    tests = ROOT / "tests"
    loose = sorted(path.name for path in tests.glob("test_*.py"))
    assert not loose, f"test files outside tests/{{{','.join(GROUPS)}}}/ (see tests/README.md): {', '.join(loose)}"
    folders = sorted(path.name for path in tests.iterdir() if path.is_dir() and any(path.glob("test_*.py")))
    assert folders == sorted(GROUPS), f"test folders {folders}, tests/README.md describes {sorted(GROUPS)}"


def _tests_index() -> dict[str, list[str]]:
    """tests/README.md's table "Where a module's tests are": each row's module (the demo's without
    their ``demo `` prefix) -> the test files it names, in order (``folder/test_x.py``)."""
    index = (ROOT / "tests" / "README.md").read_text(encoding="utf-8")
    section = index.split("## Where a module's tests are", 1)[1]
    rows = dict(re.findall(r"^\| (?:demo )?`([\w.]+)` \| (.+) \|$", section, flags=re.MULTILINE))
    return {name: re.findall(r"`([\w/]+\.py)`", cell) for name, cell in rows.items()}


def test_the_tests_index_names_every_module_and_only_files_that_exist():
    named = _tests_index()
    demo = {"app", "demo", *(f"demo.{path.stem}" for path in DEMO.glob("*.py") if path.stem != "__init__")}
    expected = set(_modules()) | demo | {"__main__"}
    missing, stale = sorted(expected - set(named)), sorted(set(named) - expected)
    assert not missing, f"tests/README.md names no tests for: {', '.join(missing)}"
    assert not stale, f"tests/README.md has rows for modules that do not exist: {', '.join(stale)}"
    absent = sorted(
        f"{name}: {file}" for name, files in named.items() for file in files if not (ROOT / "tests" / file).is_file()
    )
    assert not absent, f"tests/README.md names test files that do not exist: {'; '.join(absent)}"
    assert all(named.values()), f"rows without a file: {sorted(name for name, files in named.items() if not files)}"


def own_test_files(module: str) -> set[str]:
    """The names a module's own test file may have: ``test_<last dotted part>.py``, or
    ``test_<whole dotted name, "." as "_">.py`` where the last part alone would be unclear
    (``comparison.report``: ``test_comparison_report.py``); underscores around a part dropped
    (``__main__``: ``test_main.py``)."""
    parts = [part.strip("_") for part in module.split(".")]
    return {f"test_{parts[-1]}.py", f"test_{'_'.join(parts)}.py"}


# The rows of tests/README.md's table whose first file is not yet named after the module, each with
# its reason. The test below fails for any other row whose first file breaks the rule, and for a row
# listed here that follows it (remove it from the list then).
FIRST_FILE_NOT_YET_OWN = {
    # One file, entry_points/test_ray.py, for the three: its tests share one Ray cluster per test
    # module, and a file per module would start a cluster for each (10 s or more each in CI).
    "integrations.ray_chunks",
    "integrations.ray_counts",
    "integrations.ray_scoring",
    # A package without code (its __init__.py is a docstring): nothing of its own to test. compare
    # is comparison.systems's (test_comparison_systems.py), the tables comparison.report's.
    "comparison",
    # Tested only through the three harness modules' tests, each needing its harness's extra and
    # checking that harness's module: a harness-free test of its own is to be written, not moved.
    "integrations.harness_corpus",
    # A package without code (its __init__.py is a docstring), as comparison: each of its modules
    # has its own test_demo_<module>.py, and the whole page is tested served and in Chromium.
    "demo",
}


def test_the_first_file_of_each_row_is_named_after_its_module():
    named = _tests_index()
    first = {name: Path(files[0]).name for name, files in named.items() if files}
    wrong = sorted(
        f"{name}: {named[name][0]} (name it {' or '.join(sorted(own_test_files(name)))})"
        for name, file in first.items()
        if name not in FIRST_FILE_NOT_YET_OWN and file not in own_test_files(name)
    )
    assert not wrong, f"tests/README.md: the first file of a row is the module's own test_<name>.py: {'; '.join(wrong)}"
    done = sorted(name for name in FIRST_FILE_NOT_YET_OWN if first.get(name) in own_test_files(name))
    assert not done, f"these rows follow the rule now: remove them from FIRST_FILE_NOT_YET_OWN: {', '.join(done)}"
    gone = sorted(set(FIRST_FILE_NOT_YET_OWN) - set(named))
    assert not gone, f"FIRST_FILE_NOT_YET_OWN lists rows tests/README.md does not have: {', '.join(gone)}"


def test_the_architecture_page_names_exactly_the_modules_the_evaluate_script_needs():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    paragraph = page.split("So every module the evaluate script imports", 1)[1].split("The rest lives in", 1)[0]
    named = set(re.findall(r"`(\w+)`", paragraph)) - {"update_rouge"}
    modules = _modules()
    graph = {name: _imports(name, path, set(modules)) for name, path in modules.items()}
    needed = _closure("update_rouge", graph) - {"update_rouge"}
    assert named == needed, (
        f"docs/architecture.md's Hub rule paragraph lacks {sorted(needed - named)} and names {sorted(named - needed)} "
        "that the evaluate script does not import"
    )
