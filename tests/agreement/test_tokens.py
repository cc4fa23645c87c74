"""The tokens of rouge-score's tokenizer (tokens.tokenizer_for, with and without Porter stemming)
against rouge-score's own, token for token, on any code point and on the engines' generated texts,
whole and line by line (rougeLsum's lines)."""

from conftest import quick_and_full, texts
from hypothesis import strategies as st
from rouge_score import tokenizers

from update_rouge.tokens import tokenizer_for

# Any code point (lone surrogates included), or the engines' generated texts (conftest.texts), with line ends.
_any_text = st.one_of(st.text(st.characters(blacklist_categories=())), texts())


def _tokens_equal_rouge_score(text, use_stemmer):
    ours, theirs = tokenizer_for("porter" if use_stemmer else "none"), tokenizers.DefaultTokenizer(use_stemmer)
    assert ours.tokenize(text) == theirs.tokenize(text)
    # rougeLsum's lines: rouge-score tokenizes each non-empty line of the text.
    assert ours.tokenize_lines(text) == [theirs.tokenize(line) for line in text.split("\n") if line]


test_tokens_equal_rouge_score, test_tokens_equal_rouge_score_full = quick_and_full(4000, _any_text, st.booleans())(
    _tokens_equal_rouge_score
)
