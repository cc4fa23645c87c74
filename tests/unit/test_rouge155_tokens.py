"""ROUGE-1.5.5 -m tokens: against ROUGE-1.5.5's own tokens and the WordNet lists.

Expected values come from outside the code under test: tests/data/rouge155_stems.tsv (made by
running ROUGE-1.5.5), the issue's examples and the .exc files (read by conftest.py). The Porter
stemmer against NLTK's is in test_rouge155_porter.py; the shipped lists in test_wordnet_exceptions.py.
"""

import pytest
from conftest import read_exception_files, read_stems
from rouge_score.tokenizers import DefaultTokenizer

from update_rouge import rouge155_tokens
from update_rouge.rouge155_porter import porter_stem
from update_rouge.rouge155_tokens import Rouge155Tokenizer, exception_table

TOKENIZER = Rouge155Tokenizer()


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
