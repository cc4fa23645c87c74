"""Patterns from tables of code point ranges (unicode_patterns.one_of): the compiled sentence
terminal and word patterns match exactly the characters of their tables, astral ones included."""

import pytest

from update_rouge.languages import patterns
from update_rouge.sentences import SENTENCE_TERMINAL
from update_rouge.unicode_tables import SENTENCE_TERMINALS, WORD


@pytest.mark.parametrize(
    "pattern, table", [(SENTENCE_TERMINAL, SENTENCE_TERMINALS), (patterns().word_run, WORD)], ids=["terminal", "word"]
)
def test_the_compiled_patterns_match_exactly_the_table_characters(pattern, table):
    members = {code for first, last in table for code in range(first, last + 1)}
    for code in [*range(0, 0x110000, 5), *members, *(last + 1 for _, last in table)]:
        assert bool(pattern.fullmatch(chr(code))) == (code in members), hex(code)
