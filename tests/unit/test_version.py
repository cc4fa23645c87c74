"""The package's version (update_rouge.version): one home, which pyproject.toml reads and the
package exports, in the form PEP 440 gives a release."""

import re
from pathlib import Path

import pytest

import update_rouge


def test_the_package_version_has_one_home():
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11 on")
    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "update_rouge.version.__version__"}
    assert update_rouge.__version__ == update_rouge.version.__version__
    # A release version as PEP 440 writes it (the value itself lives only in version.py).
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", update_rouge.__version__)


def test_the_documents_pin_the_tag_of_this_version():
    # The README's example pinned v0.1.0 while documenting 0.2.0's options.
    root = Path(__file__).resolve().parents[2]
    tag = f"v{update_rouge.__version__}"
    for name in ("README.md", "docs/publishing.md"):
        text = (root / name).read_text(encoding="utf-8")
        pinned = re.findall(r'revision="([^"]+)"', text) + re.findall(r"tag create \S+ (\S+)", text)
        assert pinned and set(pinned) == {tag}, f"{name} pins {sorted(set(pinned))}, not {tag}"
