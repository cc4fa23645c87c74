"""The shipped WordNet 2.0 exception lists (wordnet_exceptions, generated): what
scripts/generate_wordnet_exceptions.py makes from tests/data/wordnet-2.0-exceptions/, with their licence."""

import subprocess
import sys
from pathlib import Path

from conftest import LISTS_DIR

from update_rouge.wordnet_exceptions import WORDNET_LICENSE

ROOT = Path(__file__).resolve().parents[2]


def test_shipped_module_is_generated_from_the_lists_and_carries_their_licence():
    completed = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "generate_wordnet_exceptions.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert WORDNET_LICENSE == (LISTS_DIR / "LICENSE").read_text(encoding="ascii")
    assert "WordNet 2.0 Copyright 2003 by Princeton University" in WORDNET_LICENSE
