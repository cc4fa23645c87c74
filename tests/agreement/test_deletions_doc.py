"""docs/deletions.md's worked example: its code block, run as written, prints the lines the page
shows under it; and what the page explains holds, against values counted by hand from the
definition: what each text deletes, the fractions of each score and the corpus means."""

import contextlib
import io
import re
from pathlib import Path

import pytest

from update_rouge import compute
from update_rouge.edits import EditIndex
from update_rouge.extraction import SourceIndex
from update_rouge.tokens import DefaultTokenizer

DOC = Path(__file__).resolve().parents[2] / "docs" / "deletions.md"
SOURCE = "Dan is a baker. Dan lives in Paris. He has two cats."
REFERENCE = "Dan is a baker. Dan lives in Rome. He has two cats."
APPEND = "Dan is a baker. Dan lives in Paris. He has two cats. Dan lives in Rome."
REWRITE = "Dan is a baker. Dan lives in Rome."


def worked_example():
    """The page's section "Worked example": its python block and the text block after it."""
    section = DOC.read_text(encoding="utf-8").split("## Worked example\n", 1)[1].split("\n## ", 1)[0]
    (code,) = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    (shown,) = re.findall(r"```text\n(.*?)```", section, flags=re.S)
    return section, code, shown


def test_the_worked_example_prints_what_the_page_shows():
    _, code, shown = worked_example()
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code, {})
    assert printed.getvalue() == shown
    # The example is the one these tests count by hand.
    for text in (SOURCE, REFERENCE, APPEND, REWRITE):
        assert f'"{text}"' in code


def test_the_deletions_the_page_names_are_the_definitions():
    section, _, _ = worked_example()
    sentences = SourceIndex(SOURCE)
    assert sentences.deletions(REFERENCE) == ["Dan lives in Paris."]
    assert sentences.deletions(APPEND) == []
    assert sentences.deletions(REWRITE) == ["Dan lives in Paris.", "He has two cats."]
    edits = EditIndex(SOURCE, DefaultTokenizer())
    assert edits.deletions(REFERENCE) == ["paris"] and edits.additions(REFERENCE) == ["rome"]
    assert edits.deletions(APPEND) == [] and edits.additions(APPEND) == ["dan lives in rome"]
    assert edits.deletions(REWRITE) == ["paris he has two cats"]
    for named in ('"Dan lives in Paris."', '"He has two cats."', '"paris"', '"paris he has two cats"'):
        assert named in section


@pytest.mark.parametrize(
    ("additions", "prediction", "precision", "recall", "f1"),
    [
        # Nothing deleted where the reference deletes a sentence: 0.
        ("sentences", APPEND, 0.0, 0.0, 0.0),
        ("edits", APPEND, 0.0, 0.0, 0.0),
        # "dan lives in paris" / "he has two cats" (8 tokens) against "dan lives in paris" (4): 4 hits.
        ("sentences", REWRITE, 4 / 8, 4 / 4, 2 / 3),
        # "paris he has two cats" (5 tokens) against "paris": 1 hit.
        ("edits", REWRITE, 1 / 5, 1 / 1, 1 / 3),
    ],
)
def test_the_fractions_the_page_explains(additions, prediction, precision, recall, f1):
    got = compute([SOURCE], [prediction], [REFERENCE], rouge_types=["rouge1"], additions=additions, deletions=True)
    assert got["update_del_rouge1_precision"] == pytest.approx(precision, abs=1e-12)
    assert got["update_del_rouge1_recall"] == pytest.approx(recall, abs=1e-12)
    assert got["update_del_rouge1"] == pytest.approx(f1, abs=1e-12)
    assert got["_both_kept"] == 0


def test_the_corpus_values_the_page_explains():
    data = {"sources": [SOURCE] * 2, "predictions": [APPEND, REWRITE], "references": [REFERENCE] * 2}
    macro = compute(**data, rouge_types=["rouge1"], deletions=True, confidence_level=None)
    micro = compute(**data, rouge_types=["rouge1"], deletions=True, confidence_level=None, average="micro")
    # Macro: (0 + 2/3) / 2. Micro: 4 hits of 0 + 8 predicted and 4 + 4 reference deleted tokens.
    assert macro["update_del_rouge1"] == pytest.approx(1 / 3, abs=1e-12)
    assert micro["update_del_rouge1_precision"] == pytest.approx(4 / 8, abs=1e-12)
    assert micro["update_del_rouge1_recall"] == pytest.approx(4 / 8, abs=1e-12)
    # The additions of the append are the reference's: UpdateROUGE alone gives it 1.0.
    assert compute([SOURCE], [APPEND], [REFERENCE], rouge_types=["rouge1"])["update_rouge1"] == 1.0


def test_the_signature_the_page_shows():
    page = DOC.read_text(encoding="utf-8")
    (shown,) = re.findall(r"`(refs:1\|[^`]*)\|\.\.\.`", page)
    signature = compute([SOURCE], [REWRITE], [REFERENCE], deletions=True, return_signature=True)["signature"]
    assert signature.startswith(shown + "|") and "|del:sentences|" in shown
    edits = compute([SOURCE], [REWRITE], [REFERENCE], deletions=True, additions="edits", return_signature=True)
    assert "|del:edits|" in edits["signature"]


def test_a_corpus_that_deletes_nothing_is_what_the_page_says_under_micro_and_macro():
    # Every text keeps its whole source (each adds a sentence): no deletion counts anywhere.
    sources = ["Dan is a baker. He has a cat.", "The sky is blue."]
    texts = [source + " It rains." for source in sources]
    for average, want in (("macro", 1.0), ("micro", 0.0)):
        result = compute(sources, texts, texts, deletions=True, average=average, confidence_level=None)
        assert result["_both_kept"] == 2
        assert [result[f"update_del_{t}"] for t in ("rouge1", "rouge2", "rougeLsum")] == [want] * 3
    assert "nothing is deleted anywhere has micro deletion values 0.0 where the macro mean is 1.0" in " ".join(
        DOC.read_text(encoding="utf-8").split()
    )
