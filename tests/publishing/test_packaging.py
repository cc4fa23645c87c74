"""What the sdist and the wheel carry: the licence text, the typing marker, lm_eval's task files, the Python floor."""

import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

# The standard library has tomllib from Python 3.11 on; the 3.11 to 3.13 cells run these tests.
tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11 on")
ROOT = Path(__file__).resolve().parents[2]


def test_the_licence_file_is_apache_2_as_the_metadata_says():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["license"] == "Apache-2.0"
    assert pyproject["project"]["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.split()[:4] == ["Apache", "License", "Version", "2.0,"]
    assert "END OF TERMS AND CONDITIONS" in text
    assert (ROOT / "update_rouge" / "py.typed").exists()


@pytest.mark.slow
def test_sdist_and_wheel_carry_the_licence_and_the_typing_marker(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(".git", ".venv", ".venv-tests", "tests", "*.egg-info", "build", "__pycache__"),
    )
    out = tmp_path / "dist"
    out.mkdir()
    names = []
    for kind in ("sdist", "wheel"):
        build = f"import sys; from setuptools import build_meta; print(build_meta.build_{kind}(sys.argv[1]))"
        completed = subprocess.run(
            [sys.executable, "-c", build, str(out)], cwd=source, capture_output=True, text=True, timeout=300
        )
        assert completed.returncode == 0, completed.stderr
        names.append(completed.stdout.split()[-1])
    sdist_name, wheel_name = names
    with tarfile.open(out / sdist_name) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert {"LICENSE", "update_rouge/py.typed"} <= names
    with zipfile.ZipFile(out / wheel_name) as wheel:
        names = set(wheel.namelist())
        metadata = next(wheel.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    assert "update_rouge/py.typed" in names
    # Every module, those of the subpackages (cli/, integrations/) too: packages.find includes them.
    modules = {path.relative_to(ROOT).as_posix() for path in (ROOT / "update_rouge").rglob("*.py")}
    assert not modules - names, f"the wheel lacks {sorted(modules - names)}"
    # lm_eval's shipped tasks (package-data), the deletions' task and the file it includes
    tasks = {path.relative_to(ROOT).as_posix() for path in (ROOT / "update_rouge").rglob("*.yaml")}
    tasks |= {f"update_rouge/integrations/lm_eval_tasks/update_rouge_fruit{end}.yaml" for end in ("", "_deletions")}
    assert not tasks - names, f"the wheel lacks {sorted(tasks - names)}"
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    assert "Requires-Python: >=3.10" in metadata
    # PEP 639: the SPDX expression, and no licence classifier beside it.
    assert "License-Expression: Apache-2.0" in metadata.splitlines()
    assert "Classifier: License" not in metadata


def test_requirements_txt_agrees_with_pyproject():
    from update_rouge.space import requirements

    listed = [
        line.strip()
        for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert listed == requirements(), "requirements.txt differs from pyproject.toml's dependencies and Space extras"


def test_the_release_files_name_this_version_and_python_range():
    import yaml

    from update_rouge.version import __version__

    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    # The keys CITATION.cff 1.2.0 requires, and the version of the package.
    assert citation["cff-version"] == "1.2.0"
    assert {"message", "title", "authors"} <= set(citation)
    assert str(citation["version"]) == __version__, "CITATION.cff's version is not the package's"
    assert citation["preferred-citation"]["doi"] == "10.18653/v1/2022.naacl-main.269"
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = changelog.split("\n## ")[1:]
    assert releases and releases[0].startswith(__version__), (
        "the newest release of CHANGELOG.md is not the package's version"
    )
    for release in releases:
        assert "**Numbers changed:" in release, (
            f"CHANGELOG.md's {release.splitlines()[0]!r} does not say whether numbers changed"
        )
    assert f"\n## {__version__}" in changelog
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pythons = {
        c.rsplit(" ", 1)[1] for c in project["classifiers"] if c.startswith("Programming Language :: Python :: 3.")
    }
    assert pythons == {"3.10", "3.11", "3.12", "3.13"}
    assert project["requires-python"] == ">=3.10"
    assert {"Homepage", "Changelog"} <= set(project["urls"])
    assert "rouge" in project["keywords"]
