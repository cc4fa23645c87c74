"""The word segmenters of ``language=`` (word_segmenters): a missing one names the pip line, none
is imported until a language needs it, and the signature names each with its version."""

import subprocess
import sys

import pytest

from update_rouge.word_segmenters import check_segmenter_installed


def test_a_missing_segmenter_names_the_pip_line(monkeypatch):
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "jieba" else real_find_spec(name))
    with pytest.raises(ImportError) as error:
        check_segmenter_installed("zh")
    assert "pip install 'update-rouge[multilingual]'" in str(error.value)
    assert "pip install jieba" in str(error.value)


@pytest.mark.slow
def test_the_core_imports_no_segmenter_until_a_language_needs_it():
    code = (
        "import sys; from update_rouge import compute;"
        "compute(sources=['a.'], predictions=['a. b.'], references=['a. b.'], language='en');"
        "print(sorted(m for m in ('jieba', 'fugashi', 'pythainlp') if m in sys.modules))"
    )
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert output.strip() == "[]"


@pytest.mark.parametrize(
    "language, packages", [("zh", ["jieba"]), ("ja", ["fugashi", "unidic-lite"]), ("th", ["pythainlp"])]
)
def test_the_signature_names_the_segmenter_and_its_version(language, packages):
    from importlib.metadata import version

    from update_rouge import build_signature

    fields = dict(field.split(":", 1) for field in build_signature(language=language).split("|"))
    assert fields["segmenter"] == "+".join(f"{package}-{version(package)}" for package in packages)
    assert list(fields).index("segmenter") == list(fields).index("tok") + 1
