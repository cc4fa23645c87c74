"""update_rouge/unicode_tables.py is what its generator makes from the ``regex`` version it pins.

The quick run checks what holds of the tables whatever the Unicode data (shapes, inclusions,
disjointness, a few known members); the slow test installs the pinned ``regex`` into a throwaway
virtual environment, runs scripts/generate_unicode_tables.py there and compares, naming the code
points that differ. No test uses the ``regex`` that happens to be installed.
"""

import ast
import itertools
import subprocess
from pathlib import Path

import pytest
from sandbox import make_venv

from update_rouge import unicode_tables

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "scripts" / "generate_unicode_tables.py"
NAMES = ("SENTENCE_TERMINALS", "WORD", "MARK", "HAN_KANA", "THAI", "LAO", "KHMER", "MYANMAR")
SPACELESS = ("HAN_KANA", "THAI", "LAO", "KHMER", "MYANMAR")


def code_points(ranges):
    return {code for first, last in ranges for code in range(first, last + 1)}


def constants(module_text: str):
    """The constants a generated module's text assigns, by name."""
    tree = ast.parse(module_text)
    return {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }


def pinned_regex_version() -> str:
    return constants(GENERATOR.read_text(encoding="utf-8"))["REGEX_VERSION"]


def describe(codes) -> str:
    if not codes:
        return "none"
    shown = ", ".join(f"U+{code:04X}" for code in sorted(codes)[:5])
    return f"{len(codes)} ({shown}{', ...' if len(codes) > 5 else ''})"


def table_differences(generated, shipped) -> str:
    """One line per differing set: how many code points only each side has, and the first few."""
    lines = []
    for name in NAMES:
        made, have = code_points(generated[name]), code_points(shipped[name])
        if made != have:
            lines.append(
                f"{name}: only in the generator's output {describe(made - have)}, only shipped {describe(have - made)}"
            )
    return "\n".join(lines)


@pytest.mark.parametrize("name", NAMES)
def test_each_table_is_sorted_ranges_that_neither_overlap_nor_touch(name):
    table = getattr(unicode_tables, name)
    assert table, f"{name} is empty"
    assert all(0 <= first <= last <= 0x10FFFF for first, last in table), name
    touching = [(a, b) for a, b in zip(table, table[1:]) if a[1] + 1 >= b[0]]
    assert not touching, f"{name}: ranges out of order, overlapping or adjacent: {touching[:3]}"


def test_the_sets_nest_as_the_tokenizer_needs():
    word, mark = code_points(unicode_tables.WORD), code_points(unicode_tables.MARK)
    terminals = code_points(unicode_tables.SENTENCE_TERMINALS)
    assert mark <= word, f"marks outside WORD: {describe(mark - word)}"
    assert not terminals & word, f"sentence terminals inside WORD: {describe(terminals & word)}"
    for one, other in itertools.combinations(SPACELESS, 2):
        both = code_points(getattr(unicode_tables, one)) & code_points(getattr(unicode_tables, other))
        assert not both, f"{one} and {other} share {describe(both)}"
    for name in SPACELESS:
        outside = code_points(getattr(unicode_tables, name)) - word
        assert not outside, f"{name} outside WORD: {describe(outside)}"


def test_known_members_of_unicode_17():
    assert unicode_tables.UNICODE_VERSION == "17.0.0"
    terminals = code_points(unicode_tables.SENTENCE_TERMINALS)
    assert len(terminals) == 170
    assert {ord(c) for c in ".!?。！？।॥؟۔။።‼｡"} <= terminals
    assert not {ord(c) for c in ",;:…\u037e"} & terminals
    assert {ord(c) for c in "aZ9éж中ー\u0903\u0e48"} <= code_points(unicode_tables.WORD)
    assert ord("ー") in code_points(unicode_tables.HAN_KANA) and ord("ก") in code_points(unicode_tables.THAI)


def test_the_generator_pins_the_regex_version_named_in_the_module():
    header = (ROOT / "update_rouge" / "unicode_tables.py").read_text(encoding="ascii").split('"""')[1]
    assert f"``regex`` module {pinned_regex_version()};" in header, header


@pytest.mark.slow
def test_the_shipped_tables_are_what_the_generator_makes_with_the_pinned_regex(tmp_path):
    python = make_venv(tmp_path / "venv", [f"regex=={pinned_regex_version()}"])
    made = subprocess.run([str(python), str(GENERATOR)], capture_output=True, text=True, check=True, timeout=600)
    shipped_text = (ROOT / "update_rouge" / "unicode_tables.py").read_text(encoding="ascii")
    differences = table_differences(constants(made.stdout), constants(shipped_text))
    assert not differences, f"update_rouge/unicode_tables.py is stale; regenerate it:\n{differences}"
    assert made.stdout == shipped_text, "same sets, but the module's text differs from the generator's output"
