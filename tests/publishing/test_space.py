"""The Space folder (update_rouge.space, ``python -m update_rouge.space OUT_DIR``): exactly the
evaluate script, the modules it imports, the package, the demo, the card, the requirements and
the demo data, byte for byte as in the repository; a non-empty folder refused; a module the
folder would lack named. Loading the folder from a stand-in Hub: test_publish_hub.py."""

import ast
import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sandbox import NAME, clean_env

from update_rouge import metric_path
from update_rouge.space import main, metric_modules, requirements, write_space

REPO = Path(__file__).resolve().parents[2]


def test_the_space_folder_holds_the_script_its_modules_the_demo_card_and_requirements(tmp_path):
    out = tmp_path / NAME
    written = {str(path) for path in write_space(out)}
    script = (REPO / "update_rouge" / "update_rouge.py").read_text(encoding="utf-8")
    imported = {
        f"{node.module}.py" for node in ast.parse(script).body if isinstance(node, ast.ImportFrom) and node.level == 1
    }
    assert {"corpus.py", "metric.py", "wordnet_exceptions.py", "parallel.py"} <= imported
    # Only what compute needs is flat: the demo imports the package directory beside it.
    assert not {"chunk_scoring.py", "files.py", "matches.py", "outputs.py"} & imported
    package = {
        str(path.relative_to(REPO))
        for folder in ("demo", "update_rouge")
        for path in (REPO / folder).rglob("*")
        if (path.suffix == ".py" or path.name == "py.typed") and "__pycache__" not in path.parts
    }
    assert {
        "demo/page.py",
        "demo/events.py",
        "update_rouge/files/chunk_scoring.py",
        "update_rouge/cli/runner.py",
    } <= package
    assert written == imported | package | {
        "update_rouge.py",
        "app.py",
        "README.md",
        "requirements.txt",
        "tests/data/fruit_triples.jsonl",
        "tests/data/NOTICE.md",
        *(f"docs/{page.name}" for page in (REPO / "docs").glob("*.md")),
    }
    assert "docs/publishing.md" in written
    for name in written - {"requirements.txt"}:
        origin = REPO / "update_rouge" / name if name in imported | {"update_rouge.py"} else REPO / name
        assert (out / name).read_bytes() == origin.read_bytes(), name
    assert (out / "requirements.txt").read_text(encoding="utf-8").splitlines() == requirements()
    # The Space runs the rouge-score these tests check against.
    assert f"rouge-score=={importlib.metadata.version('rouge-score')}" in requirements()
    assert "gradio>=6,<7" in requirements()
    # The language menu offers zh, ja and th: their word segmenters (the multilingual extra) ship too.
    names = {re.split(r"[<>=!~;\[ ]", line, maxsplit=1)[0] for line in requirements()}
    assert {"jieba", "fugashi", "unidic-lite", "pythainlp", "rouge-score-rs"} <= names
    card = (out / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\n") and "\nsdk: gradio\n" in card and "\napp_file: app.py\n" in card
    # Flat on sys.path in the Space, no module may shadow the standard library.
    modules = {Path(name).stem for name in written if name.endswith(".py") and "/" not in name}
    assert len(modules) == len(imported) + 2  # update_rouge.py and app.py
    assert not modules & set(sys.stdlib_module_names)
    # In the folder, `import update_rouge` finds the package directory, not the flat script.
    found = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            "import os, update_rouge, demo; print(os.path.abspath(update_rouge.__file__)); print(os.path.abspath(demo.__file__))",
        ],
        cwd=out,
        env=clean_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert found == [str(out / "update_rouge" / "__init__.py"), str(out / "demo" / "__init__.py")]
    with pytest.raises(FileExistsError, match="not empty"):
        write_space(out)


def test_the_command_writes_the_folder_and_refuses_a_non_empty_one(tmp_path, capsys):
    out = tmp_path / NAME
    assert main([str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {sum(1 for path in out.rglob('*') if path.is_file())} files to {out}\n"
    assert (out / "update_rouge.py").read_bytes() == Path(metric_path()).read_bytes()
    assert main([str(out)]) == 2
    assert capsys.readouterr().err == f"error: OUT_DIR {out} is not empty\n"


def test_metric_modules_refuses_a_module_the_folder_would_lack(tmp_path):
    script = tmp_path / "update_rouge.py"
    script.write_text("import evaluate\nfrom .missing import thing\n", encoding="utf-8")
    with pytest.raises(FileNotFoundError, match="imports .missing"):
        metric_modules(script)
    assert metric_modules(Path(metric_path()))[0] == Path(metric_path())
