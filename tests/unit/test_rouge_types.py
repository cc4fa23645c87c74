"""rouge_types: the one parse of a rouge type, and the rule that no other module tests names."""

import ast
from pathlib import Path

import pytest

from update_rouge.rouge_types import (
    LCS,
    NGRAM,
    SKIP_BIGRAM,
    SUMMARY_LCS,
    WEIGHTED_LCS,
    check_rouge_types,
    parse_rouge_type,
)
from update_rouge.skipbigrams import SkipBigramType

PACKAGE = Path(__file__).resolve().parents[2] / "update_rouge"


@pytest.mark.parametrize(
    "name, family, lines, in_rouge_score, lcs_limited, micro",
    [
        ("rouge1", NGRAM, False, True, False, True),
        ("rouge9", NGRAM, False, True, False, True),
        ("rougeL", LCS, False, True, True, True),
        ("rougeLsum", SUMMARY_LCS, True, True, True, True),
        ("rougeSU4", SKIP_BIGRAM, False, False, False, True),
        ("rougeS", SKIP_BIGRAM, False, False, False, True),
        ("rougeW", WEIGHTED_LCS, True, False, False, False),
        ("rougeW-1.5", WEIGHTED_LCS, True, False, False, False),
    ],
)
def test_each_family_answers_what_the_package_asks(name, family, lines, in_rouge_score, lcs_limited, micro):
    parsed = parse_rouge_type(name)
    assert (parsed.name, parsed.family) == (name, family)
    assert parsed.reads_lines is lines
    assert parsed.in_rouge_score is in_rouge_score
    assert parsed.is_rouge_score_lcs is lcs_limited
    assert parsed.has_micro_counts is micro
    assert parsed.shows_matches is in_rouge_score


def test_the_parameters_are_parsed():
    assert parse_rouge_type("rouge7").n == 7
    assert parse_rouge_type("rougeSU4").skip_bigram == SkipBigramType(unigrams=True, distance=4)
    assert parse_rouge_type("rougeS").skip_bigram == SkipBigramType(unigrams=False, distance=None)
    assert parse_rouge_type("rougeW").weight == 1.2
    assert parse_rouge_type("rougeW-2.5").weight == 2.5


@pytest.mark.parametrize("name", ["rouge0", "rouge10", "rougel", "ROUGE1", "rougeLSum", "rougeW-0.5", 1])
def test_bad_names_are_refused_naming_them(name):
    with pytest.raises(ValueError, match=r"rouge type"):
        parse_rouge_type(name)
    with pytest.raises(ValueError, match=r"rouge type"):
        check_rouge_types([name])


def _is_type_name(value: object) -> bool:
    try:
        parse_rouge_type(value)
    except ValueError:
        return False
    return True


def _compares_a_rouge_type_name(node: ast.AST) -> bool:
    if not isinstance(node, ast.Compare):
        return False
    for operand in [node.left, *node.comparators]:
        constants = operand.elts if isinstance(operand, (ast.Tuple, ast.List, ast.Set)) else [operand]
        for constant in constants:
            if isinstance(constant, ast.Constant) and _is_type_name(constant.value):
                return True
    return False


def test_no_module_but_rouge_types_tests_a_type_by_its_name():
    found = []
    # The package and the demo beside it (demo/, which scores with the package).
    paths = [*sorted(PACKAGE.rglob("*.py")), *sorted((PACKAGE.parent / "demo").rglob("*.py"))]
    assert any(path.parent.name == "demo" for path in paths)
    for path in paths:
        if path.name == "rouge_types.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if _compares_a_rouge_type_name(node):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert not found, f"ask rouge_types.parse_rouge_type instead of comparing names: {found}"
