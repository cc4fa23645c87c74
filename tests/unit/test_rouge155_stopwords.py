"""The shipped stopword list of ROUGE-1.5.5's -s (rouge155_stopwords, generated): what
scripts/generate_rouge155_stopwords.py makes from tests/data/rouge155-stopwords/."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_generated_stopword_module_is_current():
    check = subprocess.run([sys.executable, "scripts/generate_rouge155_stopwords.py", "--check"], cwd=ROOT)
    assert check.returncode == 0
