"""The demo's metric: the evaluate module users get from ``evaluate.load``, and its package.

In the Space folder the evaluate script ``update_rouge.py`` lies beside this file, with the
modules it imports flat beside it; in a checkout it is ``update_rouge/update_rouge.py``. Either
way it is loaded with ``evaluate.load``, which copies it and those modules into its own dynamic
modules package, and the demo takes every helper it needs from that package
(``package_module``): the demo scores with exactly the code ``evaluate.load`` gives users.
(In the Space, ``import update_rouge`` would meet the evaluate script, not the package.)
"""

import importlib
from pathlib import Path
from types import ModuleType

import evaluate

HERE = Path(__file__).resolve().parent
SCRIPT_CANDIDATES = (HERE / "update_rouge.py", HERE / "update_rouge" / "update_rouge.py")
SCRIPT = next(path for path in SCRIPT_CANDIDATES if path.is_file())
METRIC = evaluate.load(str(SCRIPT))
PACKAGE = type(METRIC).__module__.rpartition(".")[0]


def package_module(name: str) -> ModuleType:
    """The module ``name`` (e.g. ``"extraction"``) of the package ``evaluate.load`` made."""
    return importlib.import_module(f"{PACKAGE}.{name}")
