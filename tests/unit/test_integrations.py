"""update_rouge.integrations (the subpackage's ``__init__.py``) imports none of its modules, so
``import update_rouge`` needs no extra: importing the package, the subpackage and
``harness_corpus`` (what the harness modules share), and scoring, loads no harness."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_importing_the_package_and_its_integrations_pulls_no_harness():
    code = (
        "import sys, update_rouge, update_rouge.integrations, update_rouge.integrations.harness_corpus\n"
        "update_rouge.compute(['A.'], ['A. B.'], ['A. B.'])\n"
        "print(sorted(name for name in ('torch', 'torchmetrics', 'lm_eval', 'inspect_ai', 'lighteval') if name in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert (done.returncode, done.stdout) == (0, "[]\n"), done.stderr
