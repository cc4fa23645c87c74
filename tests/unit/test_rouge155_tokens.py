"""ROUGE-1.5.5 -m tokens: against ROUGE-1.5.5's own tokens, the WordNet lists and NLTK's Porter.

Expected values come from outside the code under test: tests/data/rouge155_stems.tsv (made by
running ROUGE-1.5.5), the issue's examples, the .exc files read here, and NLTK's
``PorterStemmer(mode=MARTIN_EXTENSIONS)`` (Martin Porter's reference behaviour) on words where
ROUGE-1.5.5's step-4 change cannot apply.
"""

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA_DIR
from hypothesis import assume, given
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer
from rouge_score.tokenizers import DefaultTokenizer

from update_rouge import rouge155_tokens
from update_rouge.rouge155_porter import porter_stem
from update_rouge.rouge155_tokens import Rouge155Tokenizer, exception_table
from update_rouge.wordnet_exceptions import WORDNET_LICENSE

ROOT = Path(__file__).resolve().parents[2]
LISTS_DIR = DATA_DIR / "wordnet-2.0-exceptions"
TOKENIZER = Rouge155Tokenizer()
MARTIN = PorterStemmer(mode=PorterStemmer.MARTIN_EXTENSIONS)


def read_stems():
    with open(DATA_DIR / "rouge155_stems.tsv", encoding="utf-8") as handle:
        return [line.rstrip("\n").split("\t") for line in handle if not line.startswith("#")]


def read_exception_files():
    """Form -> base form as ROUGE-1.5.5 loads them: adj, adv, noun, verb, a later line replacing an earlier one."""
    table = {}
    for name in ("adj", "adv", "noun", "verb"):
        for line in (LISTS_DIR / f"{name}.exc").read_text(encoding="ascii").splitlines():
            form, base = line.split()[:2]
            table[form] = base
    return table


def test_every_word_gets_the_token_rouge155_uses():
    pairs = read_stems()
    assert len(pairs) == 31338
    wrong = [
        (word, expected, TOKENIZER.tokenize(word)) for word, expected in pairs if TOKENIZER.tokenize(word) != [expected]
    ]
    assert wrong == []


@pytest.mark.parametrize(
    "word, expected",
    [
        ("said", "say"),
        ("were", "be"),
        ("children", "child"),
        ("wrote", "write"),
        ("agreement", "agreem"),
        ("used", "us"),
        ("died", "di"),
        ("tuesday", "tuesdai"),
        ("departmental", "depart"),
    ],
)
def test_the_issues_examples(word, expected):
    assert TOKENIZER.tokenize(word) == [expected]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("İstanbul", ["stanbul"]),  # every byte of "İ" separates; rouge-score keeps an "i"
        ("naïve", ["na", "ve"]),
        ("ÉCOLE Normale", ["cole", "normal"]),  # only A-Z are lower-cased
        ("\u212aelvin", ["elvin"]),  # the Kelvin sign lower-cases to "k" in Unicode, not in ROUGE
        ("１２３ 123", ["123"]),  # full-width digits are not [0-9]
        ("DON'T stop-gap_runs", ["don", "t", "stop", "gap", "run"]),
        ("was were", ["was", "be"]),  # 3 characters or fewer: not looked up, not stemmed
        ("", []),
    ],
)
def test_tokens_follow_rouge155s_byte_rules(text, expected):
    assert TOKENIZER.tokenize(text) == expected


def test_rouge_score_lower_cases_unicode_where_rouge155_does_not():
    # The difference the byte rules exist for, shown on rouge-score itself.
    assert DefaultTokenizer().tokenize("İstanbul naïve") == ["i", "stanbul", "na", "ve"]


@pytest.mark.parametrize(
    "word, expected",
    [
        ("best", "well"),  # adj: good, adv: well; adv is read later
        ("better", "well"),  # adj line "better good well" gives good, then adv gives well
        ("testes", "testes"),  # noun: testis, verb: testes
        ("gasses", "gas"),  # noun and verb agree
        ("involucra", "involucrum"),  # twice in noun.exc: the later line wins
        ("offer", "offer"),  # twice in adj.exc: "offer off", then "offer offer"
        ("comics", "comic_strip"),  # several base forms: the first one
        ("axes", "ax"),
    ],
)
def test_exception_lists_precedence(word, expected):
    assert TOKENIZER.tokenize(word) == [expected]


def test_exception_table_reads_lists_in_order_and_the_last_line_wins():
    lists = [("adj", "aaaa first\nbbbb one two\n"), ("adv", "aaaa second\n\n"), ("noun", "aaaa third\naaaa fourth\n")]
    assert exception_table(lists) == {"aaaa": "fourth", "bbbb": "one"}


def test_every_listed_form_gets_its_base_form():
    table = read_exception_files()
    assert len(table) > 5900
    words = [form for form in table if form.isascii() and form.isalnum() and form.islower() and len(form) > 3]
    assert len(words) > 5000
    assert [TOKENIZER.tokenize(form) for form in words] == [[table[form]] for form in words]


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


def outside_rouge155s_step4_change(word):
    # The change only touches words that reach step 4 ending in "ment" or "ent", or whose first
    # step-4 suffix uncovers "sion"/"tion"; every such word contains "ent" or "ion".
    return "ent" not in word and "ion" not in word


def test_porter_equals_martins_reference_on_the_data_where_step4_is_unchanged():
    exceptions = read_exception_files()
    words = [word for word, _ in read_stems() if outside_rouge155s_step4_change(word) and word not in exceptions]
    assert len(words) > 25000
    assert [porter_stem(word) for word in words] == [MARTIN.stem(word) for word in words]


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789aeiouy", min_size=1, max_size=14))
def test_porter_equals_martins_reference_on_any_word_where_step4_is_unchanged(word):
    assume(outside_rouge155s_step4_change(word))
    assert porter_stem(word) == MARTIN.stem(word)


@pytest.mark.parametrize(
    "word, rouge155_stem, martin_stem",
    [
        ("agreement", "agreem", "agreement"),  # "ement" fails (m=1), then "ent" is removed
        ("departmental", "depart", "department"),  # "al", then "ment"
        ("commissioner", "commiss", "commission"),  # "er", then "ion"
    ],
)
def test_step4_change_is_where_rouge155_and_martin_differ(word, rouge155_stem, martin_stem):
    assert porter_stem(word) == rouge155_stem
    assert MARTIN.stem(word) == martin_stem


def test_stems_are_memoized(monkeypatch):
    calls = []

    def counting_stem(word):
        calls.append(word)
        return porter_stem(word)

    monkeypatch.setattr(rouge155_tokens, "porter_stem", counting_stem)
    rouge155_tokens.clear_cache()
    try:
        assert TOKENIZER.tokenize("walking walker walking") == ["walk", "walker", "walk"]
        assert TOKENIZER.tokenize("walker walking running said") == ["walker", "walk", "run", "say"]
        assert calls == ["walking", "walker"]  # once each; listed forms never reach Porter
    finally:
        rouge155_tokens.clear_cache()
