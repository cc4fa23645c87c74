"""language=: segments at every sentence terminal, word tokens in every script, Snowball stems.

Expected tokens and scores are worked out by hand in the comments (tokens of each side's
addition, matches, then P, R and F1); a reader of the language would cut the words the same way.
"""

import math
import pickle
import re
import warnings

import pytest
from conftest import read_jsonl
from hypothesis import given
from hypothesis import strategies as st

from update_rouge import NoTokensWarning, compute
from update_rouge.extraction import SEGMENT_PATTERN, SourceIndex, split_segments
from update_rouge.languages import ISO_639_1, SNOWBALL_LANGUAGES, LanguageTokenizer, patterns
from update_rouge.metric import score_examples
from update_rouge.sentences import SENTENCE_PATTERN, segment_pattern

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
TRIPLES = read_jsonl("multilingual_triples.jsonl")


def score(example, language, rouge_types=TYPES, **options):
    """Per-example scores of one example, failing on any NoTokensWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", NoTokensWarning)
        result = compute(
            sources=[example["source"]],
            predictions=[example["prediction"]],
            references=[example["reference"]],
            rouge_types=rouge_types,
            use_aggregator=False,
            language=language,
            **options,
        )
    return {key: values[0] for key, values in result.items()}


def f1(precision, recall):
    return 2 * precision * recall / (precision + recall)


# --- segments -----------------------------------------------------------------------------------


def test_the_default_segment_rule_is_the_published_one():
    assert segment_pattern(None) is SEGMENT_PATTERN
    assert SEGMENT_PATTERN.pattern == r"[^.]+\.?"


@pytest.mark.parametrize("terminal", [".", "!", "?", "。", "！", "？", "।", "॥", "؟", "۔", "။", "።", "‼", "｡"])
def test_sentence_terminals_end_segments(terminal):
    assert split_segments(f"one{terminal} two{terminal}three", SENTENCE_PATTERN) == [
        f"one{terminal}",
        f"two{terminal}",
        "three",
    ]


@pytest.mark.parametrize("other", [",", ";", ":", "、", "，", "…", "-", "\n", "\u037e"])
def test_other_punctuation_does_not_end_segments(other):
    # U+037E, the Greek question mark, lacks Sentence_Terminal in the Unicode data.
    assert split_segments(f"one{other} two", SENTENCE_PATTERN) == [f"one{other} two"]


@given(text=st.text(alphabet=st.sampled_from("ab1 .!?,;\n\t\x00\x7f"), max_size=40))
def test_the_ascii_shortcuts_find_what_the_full_patterns_find(text):
    assert SENTENCE_PATTERN.findall(text) == SENTENCE_PATTERN.full.findall(text)
    assert LanguageTokenizer("en").tokenize(text) == patterns().word_run.findall(text.lower())
    assert LanguageTokenizer("en").tokenize(text.upper() + "é") == patterns().word_run.findall(text.lower() + "é")


def test_a_chinese_update_adds_only_its_new_sentence():
    source = "北京是中国的首都。"
    updated = "北京是中国的首都。上海是中国最大的城市！你去过吗？"
    assert SourceIndex(source, SENTENCE_PATTERN).additions(updated) == ["上海是中国最大的城市！", "你去过吗？"]
    # The published rule sees one segment without a period: the whole text is added.
    assert SourceIndex(source).additions(updated) == [updated]


# --- tokens -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "language, text, tokens",
    [
        # NFKC turns full-width Latin and digits into ASCII; str.lower; L, M and N runs only.
        ("en", "ＡＢＣ-Def covid19, naïve x_y 3.5%", ["abc", "def", "covid19", "naïve", "x", "y", "3", "5"]),
        # Devanagari vowel signs are marks (M): they stay inside their words.
        ("hi", "दिल्ली भारत की राजधानी है।", ["दिल्ली", "भारत", "की", "राजधानी", "है"]),
        ("ru", "Город основан в 1147 году.", ["город", "основан", "в", "1147", "году"]),
        ("ar", "القطة نائمة على السرير.", ["القطة", "نائمة", "على", "السرير"]),
        ("zh", "上海是中国最大的城市。", ["上海", "是", "中国", "最大", "的", "城市"]),
        ("zh", "GPT4模型很好", ["gpt4", "模型", "很", "好"]),
        ("ja", "大阪は日本の大きな都市です。", ["大阪", "は", "日本", "の", "大きな", "都市", "です"]),
        ("th", "ผมรักภาษาไทยมาก", ["ผม", "รัก", "ภาษาไทย", "มาก"]),
        # Han under a language without a Han segmenter: one token per character.
        ("ko", "한국어 漢字", ["한국어", "漢", "字"]),
        # Lao and Khmer: characters, each with the marks that follow it.
        ("lo", "ສະບາຍດີ", ["ສ", "ະ", "ບ", "າ", "ຍ", "ດີ"]),
        ("km", "សួស្តី", ["សួ", "ស្", "តី"]),
    ],
)
def test_tokens(language, text, tokens):
    assert LanguageTokenizer(language).tokenize(text) == tokens


@pytest.mark.parametrize(
    "language, text, stems",
    [
        # основан / основана (founded, m./f.) share a stem; году -> год.
        (
            "ru",
            "Город основан в 1147 году, Москва основана",
            ["город", "основа", "в", "1147", "год", "москв", "основа"],
        ),
        ("en", "The cats were running", ["the", "cat", "were", "run"]),
        ("de", "Die Häuser", ["die", "haus"]),
    ],
)
def test_snowball_stems_tokens_longer_than_three_characters(language, text, stems):
    assert LanguageTokenizer(language, stem=True).tokenize(text) == stems


def test_stemming_a_language_without_a_snowball_stemmer_lists_the_supported_ones():
    with pytest.raises(ValueError) as error:
        compute(sources=["s。"], predictions=["s。p。"], references=["s。r。"], language="zh", use_stemmer=True)
    message = str(error.value)
    assert "no Snowball stemmer for language='zh'" in message
    assert message.endswith("; instead: leave out use_stemmer")
    for code in SNOWBALL_LANGUAGES:
        assert f"{code} (" in message


@pytest.mark.parametrize(
    "options, message",
    [
        (dict(language="cn"), "ISO 639-1 code"),
        (dict(language="EN"), "ISO 639-1 code"),
        (dict(language="en", stemmer="porter"), "cannot be combined with language='en'"),
        (dict(language="en", stemmer="rouge155"), "cannot be combined with language='en'"),
        (dict(language="en", tokenizer=str.split), "cannot be combined with a custom tokenizer"),
    ],
)
def test_bad_language_options_are_refused(options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        compute(sources=["s."], predictions=["s. p."], references=["s. r."], **options)


def test_a_tokenizer_pickles_without_its_segmenter():
    tokenizer = LanguageTokenizer("zh", stem=False)
    tokenizer.tokenize("上海是中国最大的城市")
    copy = pickle.loads(pickle.dumps(tokenizer))
    assert len(pickle.dumps(tokenizer)) < 200
    assert copy.tokenize("上海是中国最大的城市") == ["上海", "是", "中国", "最大", "的", "城市"]


LINE = st.text(alphabet=st.sampled_from("ab1 .,。上海中国城市ผมรักไทยदिल्लीé\u0301ＡＦ"), max_size=20)


@given(lines=st.lists(LINE, max_size=4))
@pytest.mark.parametrize("language", ["en", "zh", "th"])
def test_the_tokens_of_a_text_are_those_of_its_lines(language, lines):
    # splits_on_newlines: rougeLsum's per-line tokens agree with the other types' whole-text ones.
    tokenizer = LanguageTokenizer(language)
    assert tokenizer.splits_on_newlines
    assert tokenizer.tokenize("\n".join(lines)) == [token for line in lines for token in tokenizer.tokenize(line)]


# --- updates scored as a reader would expect ----------------------------------------------------

CHINESE = dict(
    source="北京是中国的首都。",
    reference="北京是中国的首都。上海是中国最大的城市。",
    prediction="北京是中国的首都。上海是最大的城市。",
)
JAPANESE = dict(
    source="東京は日本の首都です。",
    reference="東京は日本の首都です。大阪は日本で二番目に大きな都市です。",
    prediction="東京は日本の首都です。大阪は日本の大きな都市です。",
)
HINDI = dict(
    source="भारत एक विशाल देश है।",
    reference="भारत एक विशाल देश है। दिल्ली भारत की राजधानी है।",
    prediction="भारत एक विशाल देश है। दिल्ली भारत की राजधानी नहीं है।",
)
RUSSIAN = dict(
    source="Москва — столица России.",
    reference="Москва — столица России. Город основан в 1147 году.",
    prediction="Москва — столица России. Москва основана в 1147 году.",
)


def test_a_chinese_update():
    # reference: 上海 是 中国 最大 的 城市 (6); prediction: 上海 是 最大 的 城市 (5), all 5 in it.
    scores = score(CHINESE, "zh", rouge_types=TYPES + ["rougeS", "rougeSU4", "rouge3"])
    assert scores["update_rouge1_precision"] == 1.0
    assert scores["update_rouge1_recall"] == 5 / 6
    # bigrams: reference 上海是 是中国 中国最大 最大的 的城市; prediction 上海是 是最大 最大的 的城市: 3 match.
    assert scores["update_rouge2_precision"] == 3 / 4 and scores["update_rouge2_recall"] == 3 / 5
    # The prediction is a subsequence of the reference: LCS 5, as rouge1.
    assert scores["update_rougeL"] == scores["update_rougeLsum"] == f1(1.0, 5 / 6)
    # Skip-bigrams: C(6,2) = 15 in the reference, C(5,2) = 10 in the prediction, all 10 in it.
    assert math.isclose(scores["update_rougeS"], f1(1.0, 10 / 15))
    # trigrams: 上海是中国 ... (4) against 上海是最大 是最大的 最大的城市 (3): 最大的城市 matches.
    assert scores["update_rouge3_precision"] == 1 / 3 and scores["update_rouge3_recall"] == 1 / 4
    # Without language=, "。" ends nothing: both whole texts are one added segment, unseen by the tokenizer.
    with pytest.warns(NoTokensWarning, match="language="):
        result = compute(**{k + "s": [v] for k, v in CHINESE.items()}, use_aggregator=False)
    assert result["update_rouge1"] == [0.0]


def test_a_japanese_update():
    # reference: 大阪 は 日本 で 二 番 目 に 大きな 都市 です (11);
    # prediction: 大阪 は 日本 の 大きな 都市 です (7): all but の in the reference: 6 matches.
    scores = score(JAPANESE, "ja")
    assert scores["update_rouge1_precision"] == 6 / 7 and scores["update_rouge1_recall"] == 6 / 11
    # bigrams: 大阪は は日本 大きな都市 都市です match (4 of 6 and of 10).
    assert scores["update_rouge2_precision"] == 4 / 6 and scores["update_rouge2_recall"] == 4 / 10
    # LCS: 大阪 は 日本 大きな 都市 です = 6.
    assert scores["update_rougeL"] == f1(6 / 7, 6 / 11)


def test_a_hindi_update():
    # reference: दिल्ली भारत की राजधानी है (5); prediction: दिल्ली भारत की राजधानी नहीं है (6): 5 match.
    scores = score(HINDI, "hi")
    assert scores["update_rouge1_precision"] == 5 / 6 and scores["update_rouge1_recall"] == 1.0
    # bigrams: 4 in the reference, 5 in the prediction; राजधानी है is broken by नहीं: 3 match.
    assert scores["update_rouge2_precision"] == 3 / 5 and scores["update_rouge2_recall"] == 3 / 4
    assert scores["update_rougeLsum"] == f1(5 / 6, 1.0)


def test_a_russian_update_with_and_without_stems():
    # reference: город основан в 1147 году; prediction: москва основана в 1147 году: в 1147 году match.
    scores = score(RUSSIAN, "ru")
    assert scores["update_rouge1"] == f1(3 / 5, 3 / 5)
    # Stemmed: город основа в 1147 год / москв основа в 1147 год: основа joins them, 4 of 5.
    stemmed = score(RUSSIAN, "ru", use_stemmer=True)
    assert stemmed["update_rouge1"] == f1(4 / 5, 4 / 5)
    # bigrams: основа в, в 1147, 1147 год: 3 of 4.
    assert stemmed["update_rouge2"] == f1(3 / 4, 3 / 4)


# --- no silent zero, bundled data, default path -------------------------------------------------


def test_no_example_of_the_bundled_languages_is_tokenless_under_its_language():
    for example in TRIPLES:
        scores = score(example, example["language"])
        expected = 1.0 if example["kind"] == "same" else None
        if expected is not None:
            assert scores["update_rouge1"] == expected, example["id"]


def test_the_bundled_updates_are_tokenless_without_a_language_in_most_scripts():
    latin = ("da", "de", "en", "es", "fr", "it", "nl", "sk")
    non_latin = [example for example in TRIPLES if example["language"] not in latin]
    with pytest.warns(NoTokensWarning) as caught:
        compute(
            sources=[e["source"] for e in non_latin],
            predictions=[e["prediction"] for e in non_latin],
            references=[e["reference"] for e in non_latin],
        )
    message = str(caught[0].message)
    # All but the Greek and the Chinese ones, whose additions have digits rouge-score's tokenizer sees.
    assert message.startswith(f"{len(non_latin) - 3} of {len(non_latin)} examples")
    assert "pass language=" in message


def test_the_default_path_is_unchanged_by_the_language_keyword():
    rows = read_jsonl("wiki_triples.jsonl")[:60]
    inputs = dict(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
    )
    assert compute(**inputs, confidence_level=None) == compute(**inputs, confidence_level=None, language=None)


@pytest.mark.slow
def test_worker_processes_give_the_same_scores():
    inputs = dict(
        sources=[e["source"] for e in TRIPLES if e["language"] == "zh"] * 4,
        predictions=[e["prediction"] for e in TRIPLES if e["language"] == "zh"] * 4,
        references=[e["reference"] for e in TRIPLES if e["language"] == "zh"] * 4,
    )
    one = score_examples(**inputs, language="zh")
    two = score_examples(**inputs, language="zh", num_proc=2)
    assert [example.scores for example in one] == [example.scores for example in two]


def test_every_iso_code_is_accepted_and_the_list_has_183():
    assert len(ISO_639_1) == 183
    assert {"zh", "ja", "hi", "ru", "th", "lo", "km", "my"} <= ISO_639_1


def test_the_signature_records_the_language_and_its_rules():
    result = compute(
        sources=["a."],
        predictions=["a. b."],
        references=["a. b."],
        language="ru",
        use_stemmer=True,
        return_signature=True,
    )
    fields = dict(field.split(":", 1) for field in result["signature"].split("|"))
    assert fields["lang"] == "ru"
    assert fields["seg"] == r"[^\p{Sentence_Terminal}]+\p{Sentence_Terminal}?"
    assert fields["tok"] == "nfkc-lower-unicode13.0.0-lmn-unicode17.0.0"
    assert fields["stem"] == "snowball"
    assert "segmenter" not in fields, "Russian words are not segmented by a package"
    plain = compute(sources=["a."], predictions=["a. b."], references=["a. b."], return_signature=True)
    assert "lang:" not in plain["signature"] and r"seg:[^.]+\.?|" in plain["signature"]
