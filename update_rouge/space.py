"""Write the Hugging Face Space of UpdateROUGE from a checkout: ``python -m update_rouge.space OUT_DIR``.

evaluate's Hub loader (``evaluate.load("<namespace>/update_rouge")``) fetches ``update_rouge.py``
from the root of the Space repository and, for every relative import in it, ``x.py`` from the
same root, and nothing else. So the Space folder holds, at its root:

- ``update_rouge.py`` and every module it imports, flat beside it (read with evaluate's own
  import parser);
- ``app.py`` and the package ``demo/`` it serves;
- ``update_rouge/``, the package, which the demo imports (a package directory wins over a module
  of the same name), while evaluate reads the flat script by its path;
- ``README.md`` (the metric card, with the Space's YAML header) and ``requirements.txt`` (the
  dependencies and the extras of ``SPACE_EXTRAS``);
- the data the demo shows (``DEMO_DATA``) and ``docs/*.md``, at their paths in the checkout.

Name the folder ``update_rouge`` to load it with ``evaluate.load(OUT_DIR)``. The generator needs a
checkout (it reads app.py, demo/, README.md and pyproject.toml beside the package).
"""

import argparse
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO = PACKAGE_DIR.parent
SCRIPT = PACKAGE_DIR / "update_rouge.py"
APP = REPO / "app.py"
DEMO_DIR = REPO / "demo"
CARD = REPO / "README.md"
PYPROJECT = REPO / "pyproject.toml"
# Files of the checkout the demo reads at run time, as paths relative to the repository root.
DEMO_DATA = ("tests/data/fruit_triples.jsonl", "tests/data/NOTICE.md")
# The extras the demo needs for what its menus offer: ``demo`` (gradio, pandas, the accelerator) and
# ``multilingual`` (the word segmenters of the languages zh, ja and th in its language menu).
SPACE_EXTRAS = ("demo", "multilingual")


def metric_modules(script: Path = SCRIPT) -> list[Path]:
    """The script and every module it imports relatively, as evaluate's Hub loader finds them.

    Raises ``ValueError`` for an import evaluate would fetch from elsewhere (a ``# From:`` URL)
    and ``FileNotFoundError`` for an imported module that is not beside the script.
    """
    # Imported here: evaluate's package imports transformers' pipelines (and torch, where
    # installed), seconds that a caller of ``requirements`` or the command line's help need not pay.
    from evaluate.loading import get_imports

    modules = [script]
    for import_type, name, path, _ in get_imports(str(script)):
        if import_type == "external":
            raise ValueError(f"{script.name} imports {name} from {path}: a Space must hold its modules")
        if import_type == "internal":
            module = script.parent / f"{path}.py"
            if not module.is_file():
                raise FileNotFoundError(f"{script.name} imports .{name}, but {module} does not exist")
            modules.append(module)
    return modules


def demo_files() -> list[str]:
    """The demo's files, relative to the repository root: ``app.py``, the package ``demo/`` and
    the package ``update_rouge/`` (its Python modules and ``py.typed``), sorted."""
    packages = [
        path
        for folder in (DEMO_DIR, PACKAGE_DIR)
        for path in folder.rglob("*")
        if path.suffix == ".py" or path.name == "py.typed"
    ]
    return ["app.py", *sorted(str(path.relative_to(REPO)) for path in packages if "__pycache__" not in path.parts)]


def requirements(pyproject: Path = PYPROJECT) -> list[str]:
    """The Space's pip requirements: the package's dependencies, then each extra of ``SPACE_EXTRAS``."""
    try:
        import tomllib
    except ModuleNotFoundError:
        import tomli as tomllib
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    return [*project["dependencies"], *(line for extra in SPACE_EXTRAS for line in extras[extra])]


def write_space(out_dir: Path) -> list[Path]:
    """Write the Space folder into ``out_dir`` (created; it must not exist or be empty).

    Returns the written files, relative to ``out_dir``. Raises ``FileExistsError`` for a
    non-empty ``out_dir`` (a stale module left there would be uploaded too) and ``ValueError``
    when a flat module of the evaluate script would land on the demo's ``app.py`` or ``demo/``.
    """
    out_dir = Path(out_dir)
    if out_dir.exists() and any(out_dir.iterdir()):
        raise FileExistsError(f"OUT_DIR {out_dir} is not empty")
    copies = {module.name: module for module in metric_modules()}
    clashes = sorted({Path(name).stem for name in copies} & {"app", "demo"})
    if clashes:
        raise ValueError(f"the evaluate script imports {clashes}, which the demo's files would replace")
    copies.update({relative: REPO / relative for relative in demo_files()})
    copies.update({relative: REPO / relative for relative in DEMO_DATA})
    copies.update({f"docs/{page.name}": page for page in sorted((REPO / "docs").glob("*.md"))})
    copies["README.md"] = CARD
    written = []
    for relative, source in copies.items():
        target = out_dir / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        written.append(Path(relative))
    (out_dir / "requirements.txt").write_text("".join(f"{line}\n" for line in requirements()), encoding="utf-8")
    written.append(Path("requirements.txt"))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m update_rouge.space",
        description="Write the Hugging Face Space folder (evaluate script, its modules, demo, card).",
    )
    parser.add_argument("out_dir", metavar="OUT_DIR", type=Path, help="a new or empty folder, e.g. build/update_rouge")
    args = parser.parse_args(argv)
    try:
        written = write_space(args.out_dir)
    except (FileExistsError, FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {len(written)} files to {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
