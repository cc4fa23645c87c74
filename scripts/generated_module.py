"""The command line shared by the scripts that generate a module of the package from data files."""

import argparse
import sys
from collections.abc import Callable
from pathlib import Path


def generate(description: str, module: Path, source: Path, render: Callable[[], str], script: str) -> int:
    """Write ``render()`` to ``module``; with ``--check``, only compare and return 1 if it is stale.

    ``source`` (the data the module is made from) and ``script`` (the generator's file) name
    what to run in the message of a stale module.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if the module is stale")
    args = parser.parse_args()
    text = render()
    if args.check:
        current = module.read_text(encoding="ascii") if module.exists() else ""
        if current != text:
            print(f"{module} differs from {source}; run {Path(script).name}", file=sys.stderr)
            return 1
        return 0
    module.write_text(text, encoding="ascii")
    return 0
