"""ROUGE-1.5.5's ROUGE-W, stopword removal, length limits and F weight, against the Perl original.

The expected values come from outside the package: ROUGE-1.5.5's own doubles for seven command
lines in tests/data/rouge155_config_golden.jsonl, and small cases worked out by hand from the
definitions in ROUGE-1.5.5.pl (the arithmetic is written next to each).
"""

from pathlib import Path

import pytest
from conftest import read_jsonl
from rouge_score.scoring import Score

from update_rouge import compute
from update_rouge.engines import inexact_reason, make_engine
from update_rouge.example_scoring import score_changes
from update_rouge.rouge155_options import (
    STOPWORDS,
    alpha_score,
    check_text_options,
    limited_lines,
    limited_text,
)
from update_rouge.settings import Settings
from update_rouge.tokens import tokenizer_for

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = read_jsonl("rouge155_config_golden.jsonl")
METRICS = {
    "ROUGE-1": "rouge1",
    "ROUGE-2": "rouge2",
    "ROUGE-L": "rougeLsum",
    "ROUGE-W-1.2": "rougeW",
    "ROUGE-SU4": "rougeSU4",
}
# key -> the arguments of compute that ask for ROUGE-1.5.5's command line of that key
SETTINGS = {
    "w1.2": {},
    "stopwords": {"remove_stopwords": True},
    "stem_stopwords": {"remove_stopwords": True, "stemmer": "rouge155"},
    "words100": {"max_words": 100},
    "bytes75": {"max_bytes": 75},
    "alpha0.25": {"alpha": 0.25},
    "su4_stopwords": {"remove_stopwords": True},
}
QUICK_ROWS = 60


def _check_golden(key, rows):
    types = [METRICS[metric] for metric in rows[0][key]]
    result = compute(
        sources=[""] * len(rows),
        predictions=[row["prediction"] for row in rows],
        references=[row["reference"] for row in rows],
        rouge_types=types,
        use_aggregator=False,
        **SETTINGS[key],
    )
    for index, row in enumerate(rows):
        for metric, expected in row[key].items():
            name = f"update_{METRICS[metric]}"
            got = (result[f"{name}_precision"][index], result[f"{name}_recall"][index], result[name][index])
            assert got == pytest.approx(expected, abs=1e-9, rel=0), (key, row["id"], metric)


@pytest.mark.parametrize("key", sorted(SETTINGS))
def test_rouge155_golden_first_rows(key):
    _check_golden(key, GOLDEN[:QUICK_ROWS])


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(SETTINGS))
def test_rouge155_golden_every_row(key):
    _check_golden(key, GOLDEN)


def _single(rouge_type, reference, prediction, **options):
    ((scores, _, _),) = score_changes([[reference]], [prediction], Settings(rouge_types=[rouge_type], **options))
    return scores[rouge_type]


def test_limits_by_hand():
    # Bytes: 5 + 5 reaches 8 at the second line, cut to 8 - 5 = 3 bytes ("ef "); the LCS lines
    # never add up bytes: every line under 8 bytes is kept whole.
    assert limited_text("ab cd\nef gh\nij", None, 8) == "ab cd\nef "
    assert limited_lines("ab cd\nef gh\nij", None, 8) == ["ab cd", "ef gh", "ij"]
    assert limited_lines("ab\nabcdefghij\nxy", None, 4) == ["ab", "abcd"]
    # Words: the line that reaches the limit is cut to the words still allowed.
    assert limited_text("a b c\nd e f", 4, None) == "a b c\nd"
    assert limited_text("a b c\nd e f", 3, None) == "a b c"
    assert limited_lines("a b c\nd e f", 4, None) == ["a b c", "d"]
    # Words are white-space fields before punctuation is removed.
    assert limited_text("x U.S.-led (see y", 3, None) == "x U.S.-led (see"
    # Bytes are UTF-8 bytes; a cut character is dropped.
    assert limited_text("a\u00e9 b", None, 2) == "a"


def test_limits_reach_scores():
    # Prediction "a b c d" cut to 2 words "a b" against reference "a b": all match.
    assert _single("rouge1", ["a b"], ["a b c d"], max_words=2) == Score(1.0, 1.0, 1.0)
    assert _single("rouge1", ["a b"], ["a b c d"]).precision == 0.5


def test_stopwords_list_and_tokens():
    lines = (ROOT / "tests/data/rouge155-stopwords/smart_common_words.txt").read_text().splitlines()
    # 598 lines, "may" and "would" listed twice.
    assert len(lines) == 598 and len(STOPWORDS) == 596 and STOPWORDS == set(lines)
    assert tokenizer_for("none", None, True).tokenize("The cat and the hat") == ["cat", "hat"]
    assert tokenizer_for("porter", None, True).tokenize("The running dogs") == ["run", "dog"]
    assert tokenizer_for("none", str.split, True).tokenize("the Cat") == ["Cat"]
    # Under -m -s ROUGE-1.5.5 stems without the WordNet exception lists ("studied" -> "studi").
    assert tokenizer_for("rouge155", None, True).tokenize("The studied") == ["studi"]
    assert tokenizer_for("rouge155").tokenize("The studied") == ["the", "study"]


def test_alpha_by_hand():
    # P = 1/2, R = 1/4, alpha = 0.25: F = PR / (0.75 P + 0.25 R) = (1/8) / (7/16) = 2/7.
    assert alpha_score(Score(0.5, 0.25, 0.0), 0.25).fmeasure == pytest.approx(2 / 7, rel=1e-15)
    assert alpha_score(Score(0.5, 0.25, 0.0), 1.0).fmeasure == pytest.approx(0.5, rel=1e-15)
    assert alpha_score(Score(0.5, 0.25, 0.0), 0.0).fmeasure == pytest.approx(0.25, rel=1e-15)
    assert alpha_score(Score(0.0, 0.0, 0.0), 0.3).fmeasure == 0.0


def test_default_alpha_and_engines_with_alpha():
    rows = GOLDEN[:20]
    texts = dict(
        sources=[""] * len(rows),
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
    )
    assert compute(**texts, use_aggregator=False, alpha=0.5) == compute(**texts, use_aggregator=False)
    python = compute(**texts, use_aggregator=False, alpha=0.3, engine="python")
    assert compute(**texts, use_aggregator=False, alpha=0.3, engine="rouge-score") == python


def test_engine_choice():
    tokenizer = tokenizer_for()
    assert make_engine("auto", ["rougeW"], tokenizer).name == "python"
    stopwords = check_text_options(remove_stopwords=True)
    assert make_engine("auto", ["rouge1"], tokenizer_for("none", None, True), options=stopwords).name == "python"
    with pytest.raises(ValueError, match="ROUGE-W runs on the python engine"):
        make_engine("rouge-score", ["rouge1", "rougeW"], tokenizer)
    with pytest.raises(ValueError, match="cannot remove stopwords or limit lengths"):
        make_engine("rouge-score", ["rouge1"], tokenizer, options=check_text_options(max_bytes=75))
    assert inexact_reason("rouge-score", ["rouge1"], options=check_text_options(alpha=0.2)) is None
    assert inexact_reason("python", ["rougeW", "rougeSU4"], True, stopwords) is None


@pytest.mark.parametrize(
    "options, message",
    [
        ({"max_words": 0}, "max_words must be a positive integer"),
        ({"max_bytes": 7.5}, "max_bytes must be a positive integer"),
        ({"max_words": 10, "max_bytes": 75}, "not both"),
        ({"alpha": 1.5}, r"alpha must be a number in \[0, 1\]"),
        ({"remove_stopwords": "yes"}, "remove_stopwords must be True or False"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        compute(sources=[""], predictions=["a"], references=["a"], **options)
