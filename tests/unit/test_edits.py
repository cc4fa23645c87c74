"""``additions="edits"``: the diff against an independent implementation, its properties, the
worked example of issue 30, agreement with rouge-score run directly, and every entry point.

The independent implementation (``walk_runs``) is a plain O(n * m) table of suffix LCS lengths
walked from the start as docs and ``edits.py`` state it; it is checked in turn against
rouge-score's own ``_lcs_table`` and ``_backtrack_norec`` run on the reversed lists.
"""

import functools
import json
import re

import pytest
from conftest import DATA_DIR, TRIPLE_FILES, quick_and_full, read_jsonl
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer
from rouge_score import rouge_scorer, tokenize

from update_rouge import compute
from update_rouge.cli import main
from update_rouge.edits import edit_runs
from update_rouge.lcs_limits import LcsTableTooLarge
from update_rouge.metric import score_examples
from update_rouge.tokens import TokenizerError

SOURCE = "The team won 3 games in 2020. The coach is Smith."
REFERENCE = "The team won 5 games in 2021. The coach is Smith."
PREDICTION = "The team won 3 games in 2021. The coach is Smith."
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def walk_runs(text, source):
    """The runs of ``text`` outside the LCS with ``source`` picked by the walk from the start."""
    n, m = len(text), len(source)
    suffix = [[0] * (m + 1) for _ in range(n + 1)]  # suffix[i][j]: LCS length of text[i:], source[j:]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            if text[i] == source[j]:
                suffix[i][j] = suffix[i + 1][j + 1] + 1
            else:
                suffix[i][j] = max(suffix[i + 1][j], suffix[i][j + 1])
    kept, i, j = set(), 0, 0
    while i < n and j < m:
        if text[i] == source[j]:
            kept.add(i)
            i, j = i + 1, j + 1
        elif suffix[i][j + 1] > suffix[i + 1][j]:
            j += 1
        else:
            i += 1
    runs, run = [], []
    for position, token in enumerate(text):
        if position in kept:
            if run:
                runs.append(run)
            run = []
        else:
            run.append(token)
    return runs + ([run] if run else [])


def rouge_score_runs(text, source):
    """The same runs from rouge-score's backtracking (``lcs_ind``) on the reversed lists."""
    reversed_text, reversed_source = text[::-1], source[::-1]
    table = rouge_scorer._lcs_table(reversed_text, reversed_source)
    kept = {len(text) - 1 - p for p in rouge_scorer._backtrack_norec(table, reversed_text, reversed_source)}
    runs, run = [], []
    for position, token in enumerate(text):
        if position in kept:
            runs, run = runs + ([run] if run else []), []
        else:
            run.append(token)
    return runs + ([run] if run else [])


tokens = st.lists(st.sampled_from("abcd"), max_size=25)


def _runs_equal_the_plain_table_walk_and_rouge_score_backtracking(text, source):
    expected = walk_runs(text, source)
    assert edit_runs(text, source) == expected
    assert rouge_score_runs(text, source) == expected


(
    test_runs_equal_the_plain_table_walk_and_rouge_score_backtracking,
    test_runs_equal_the_plain_table_walk_and_rouge_score_backtracking_full,
) = quick_and_full(400, tokens, tokens, quick_examples=60)(
    _runs_equal_the_plain_table_walk_and_rouge_score_backtracking
)


def test_hand_computed_runs():
    # Walk: a=a kept; x vs b: skipping either keeps 2 -> x is added; b=b, c=c kept; y added.
    assert edit_runs(list("axbcy"), list("abc")) == [["x"], ["y"]]
    # Text appended after the source is one run, never matched into the source.
    assert edit_runs(list("axxy"), list("ax")) == [["x", "y"]]
    # a vs b: skipping either leaves an LCS of 1, not strictly more for the source: a is added.
    assert edit_runs(list("ab"), list("ba")) == [["a"]]
    assert edit_runs([], list("ab")) == [] and edit_runs(list("ab"), []) == [["a", "b"]]


def one(mode, **options):
    return compute([SOURCE], [PREDICTION], [REFERENCE], additions=mode, use_aggregator=False, **options)


def test_worked_example_of_issue_30():
    sentences, edits = one("sentences", rouge_types=["rouge1"]), one("edits", rouge_types=["rouge1"])
    assert sentences["update_rouge1"] == [6 / 7]  # one sentence of 7 tokens against one, 6 shared
    assert edits["update_rouge1_precision"] == [1.0]
    assert edits["update_rouge1_recall"] == [1 / 2]
    assert edits["update_rouge1"] == [2 / 3]
    [example] = score_examples([SOURCE], [PREDICTION], [REFERENCE], additions="edits")
    assert example.reference_additions == [["5", "2021"]]
    assert example.prediction_additions == ["2021"]
    assert edits["_target_diff_len"] == [len("5\n2021")] and edits["_prediction_diff_len"] == [len("2021")]


def test_every_engine_gives_the_worked_example():
    for engine in ("python", "rust", "rouge-score"):
        assert one("edits", engine=engine, rouge_types=TYPES)["update_rougeLsum"] == [2 / 3], engine


words = st.sampled_from(["the", "team", "won", "3", "5", "games", "coach", "is", "smith", "in", "2020", "2021"])
sentence = st.lists(words, min_size=1, max_size=6).map(lambda ws: " ".join(ws) + ".")
text = st.lists(sentence, min_size=1, max_size=4).map(" ".join)


@settings(max_examples=100, deadline=None)
@given(text, text)
def test_the_same_text_scores_one_and_the_source_adds_nothing(source, reference):
    # rouge2 is left out: a one-token addition has no bigram, which rouge-score scores 0.
    types = ["rouge1", "rougeL", "rougeLsum"]
    result = compute([source], [reference], [reference], additions="edits", rouge_types=types, use_aggregator=False)
    assert all(result[f"update_{t}"] == [1.0] for t in types)
    unchanged = compute([source], [source], [source], additions="edits", use_aggregator=False)
    assert unchanged["_both_empty"] == [1] and unchanged["update_rouge1"] == [1.0]
    assert score_examples([source], [source], [reference], additions="edits")[0].prediction_additions == []


@settings(max_examples=100, deadline=None)
@given(st.lists(words, min_size=1, max_size=15), st.data())
def test_a_pure_deletion_adds_nothing(source_words, data):
    kept = data.draw(st.lists(st.booleans(), min_size=len(source_words), max_size=len(source_words)))
    deleted = " ".join(word for word, keep in zip(source_words, kept) if keep) + "."
    source = " ".join(source_words) + "."
    [example] = score_examples([source], [deleted], [deleted], additions="edits")
    assert example.prediction_additions == [] and example.both_empty
    # A deletion against a changed reference: no additions, so no hits, but not the rule.
    [changed] = score_examples([source], [deleted], [source + " new words."], additions="edits")
    assert not changed.both_empty and changed.scores["rouge1"].fmeasure == 0.0


@settings(max_examples=100, deadline=None)
@given(text, st.lists(sentence, min_size=1, max_size=3), st.lists(sentence, min_size=1, max_size=3))
def test_appending_whole_sentences_adds_the_same_tokens_as_sentences(source, new_reference, new_prediction):
    assume(not any(new in source for new in new_reference + new_prediction))
    reference, prediction = source + " " + " ".join(new_reference), source + " " + " ".join(new_prediction)
    by_mode = {
        mode: score_examples([source], [prediction], [reference], additions=mode, rouge_types=TYPES)[0]
        for mode in ("sentences", "edits")
    }
    for side in ("prediction_additions", "reference_additions"):
        flat = {mode: tokenize.tokenize(json.dumps(getattr(example, side)), None) for mode, example in by_mode.items()}
        assert flat["edits"] == flat["sentences"], side
    # One run of the same tokens: the types that read the joined additions as one text agree.
    for rouge_type in ("rouge1", "rouge2", "rougeL"):
        assert by_mode["edits"].scores[rouge_type] == by_mode["sentences"].scores[rouge_type]


@functools.cache
def sample(name):
    """Every row of the small files, every 25th of the large one; rows whose plain table (source
    by reference tokens) is over 300,000 cells are left out to keep ``walk_runs`` quick."""
    rows = read_jsonl(name)
    rows = rows if len(rows) <= 50 else rows[::25]

    def cells(row):
        return len(tokenize.tokenize(row["source"], None)) * len(tokenize.tokenize(row["reference"], None))

    return [row for row in rows if cells(row) <= 300_000]


@functools.cache
def expected_scores(name, use_stemmer):
    """rouge-score run directly on the runs ``walk_runs`` finds in rouge-score's tokens."""
    stemmer = PorterStemmer() if use_stemmer else None
    scorer = rouge_scorer.RougeScorer(TYPES)  # the runs are stems already: score them unstemmed
    results = []
    for row in sample(name):
        source = tokenize.tokenize(row["source"], stemmer)
        reference, prediction = (
            "\n".join(" ".join(run) for run in walk_runs(tokenize.tokenize(row[side], stemmer), source))
            for side in ("reference", "prediction")
        )
        scores = {t: (1.0, 1.0, 1.0) for t in TYPES}
        if reference or prediction:
            scores = {t: tuple(s) for t, s in scorer.score(reference, prediction).items()}
        results.append((len(reference), scores))
    return results


@pytest.mark.parametrize("use_stemmer", [False, True])
@pytest.mark.parametrize("engine", ["python", "rust", "rouge-score"])
# The Wikipedia sample's long texts take seconds per engine: in the full run only.
@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n == "wiki_triples.jsonl" else n for n in TRIPLE_FILES]
)
def test_every_triple_equals_rouge_score_on_the_independent_runs(name, engine, use_stemmer):
    rows = sample(name)
    result = compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        rouge_types=TYPES,
        use_stemmer=use_stemmer,
        additions="edits",
        use_aggregator=False,
        engine=engine,
    )
    for i, (reference_length, scores) in enumerate(expected_scores(name, use_stemmer)):
        got = {t: tuple(result[f"update_{t}{part}"][i] for part in ("_precision", "_recall", "")) for t in TYPES}
        assert got == scores, (name, i)
        assert result["_target_diff_len"][i] == reference_length


def test_language_runs_are_scored_as_their_tokens():
    [example] = score_examples(
        ["Команда выиграла 3 игры."],
        ["Команда выиграла 5 игр."],
        ["Команда выиграла 5 игр, браво."],
        language="ru",
        additions="edits",
    )
    # Tokens: команда выиграла | 5 игр (браво) against 3 игры: nothing after the prefix is shared.
    assert example.reference_additions == [["5 игр браво"]] and example.prediction_additions == ["5 игр"]
    assert example.scores["rouge1"] == (1.0, 2 / 3, 0.8)


def test_stemmed_runs_hold_stems():
    [example] = score_examples(
        ["The teams won games."],
        ["The teams won matches."],
        ["The teams won matches."],
        additions="edits",
        use_stemmer=True,
    )
    assert example.prediction_additions == ["match"] and example.scores["rouge1"].fmeasure == 1.0


def test_a_diff_beyond_the_lcs_limit_names_the_example(monkeypatch):
    monkeypatch.setenv("UPDATE_ROUGE_MAX_PYTHON_LCS_CELLS", "20")
    small, large = "a b.", " ".join(f"w{i}" for i in range(10)) + "."
    with pytest.raises(LcsTableTooLarge, match=r"^example 1: additions='edits' of 11 x 10 tokens"):
        compute([small, large], [small, "x " + large[::-1]], [small, large + " y."], additions="edits")


def test_a_token_holding_white_space_is_refused_naming_the_field():
    with pytest.raises(TokenizerError, match=re.escape("no white space, got 'x y', on the text of references[0]")):
        compute(["s"], ["t"], ["x y"], tokenizer=lambda text: [text], additions="edits")


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="additions must be one of sentences, edits, got 'words'"):
        compute([SOURCE], [PREDICTION], [REFERENCE], additions="words")


def test_the_signature_names_the_mode_and_sentences_keeps_it_unchanged():
    edits = compute([SOURCE], [PREDICTION], [REFERENCE], additions="edits", return_signature=True)["signature"]
    default = compute([SOURCE], [PREDICTION], [REFERENCE], return_signature=True)["signature"]
    assert "|additions:edits|" in edits and "seg:" not in edits
    assert "additions" not in default and "|seg:[^.]+\\.?|" in default


def test_the_command_line_offers_the_option(tmp_path, capsys):
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps({"source": SOURCE, "reference": REFERENCE, "prediction": PREDICTION}) + "\n")
    assert main([str(path), "--additions", "edits", "--rouge-types", "rouge1"]) == 0
    assert json.loads(capsys.readouterr().out)["update_rouge1"] == 2 / 3
    assert main([str(DATA_DIR / "fruit_triples.jsonl"), "--additions", "edits"]) == 0
    rows = read_jsonl("fruit_triples.jsonl")
    expected = compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        additions="edits",
    )
    assert json.loads(capsys.readouterr().out) == expected


@pytest.mark.slow
def test_worker_processes_give_the_same_numbers():
    data = {
        key: [r[field] for r in read_jsonl("iterater_triples.jsonl")]
        for key, field in (("sources", "source"), ("predictions", "prediction"), ("references", "reference"))
    }
    one_process = compute(**data, additions="edits", use_aggregator=False)
    assert compute(**data, additions="edits", use_aggregator=False, num_proc=2) == one_process


def test_deleted_runs_are_the_source_tokens_the_diff_does_not_keep():
    from update_rouge.edits import deleted_runs

    # "a x b c y" against "a b c": nothing deleted; against "a q b r": q and r deleted, each its own run.
    assert deleted_runs(list("axbcy"), list("abc")) == []
    assert deleted_runs(list("ab"), list("aqbr")) == [["q"], ["r"]]
    # A replaced word is deleted and added: "3" -> "5".
    assert deleted_runs("won 5 games".split(), "won 3 games".split()) == [["3"]]
    assert edit_runs("won 5 games".split(), "won 3 games".split()) == [["5"]]
    # The walk keeps the first "a" of the source for the text's "a": the second is deleted.
    assert deleted_runs(["a"], ["a", "b", "a"]) == [["b", "a"]]
    assert deleted_runs([], list("ab")) == [["a", "b"]] and deleted_runs(list("ab"), []) == []


def test_with_deletions_each_text_is_diffed_once(monkeypatch):
    # Additions and deletions come from the same diff: with deletions on, an example of one
    # prediction and two references costs three diffs, as it does with deletions off.
    import update_rouge.edits as edits

    calls = []

    def counted(text_tokens, source_tokens):
        calls.append(tuple(text_tokens))
        return kept_positions(text_tokens, source_tokens)

    kept_positions = edits.kept_positions
    monkeypatch.setattr(edits, "kept_positions", counted)
    data = {
        "sources": ["The team won 3 games in 2020. The coach is Smith.", "a b c."],
        "predictions": ["The team won 3 games in 2021.", "a c."],
        "references": [["The team won 5 games in 2021. The coach is Smith.", "The coach is Jones."], ["a b.", "b c."]],
    }
    got = compute(**data, additions="edits", deletions=True, use_aggregator=False)
    assert len(calls) == 6 and len(set(calls)) == 6
    # The numbers still come from those diffs. The prediction deletes "2020 the coach is smith";
    # the second reference "team won 3 games in 2020 the" and "smith": 3 shared tokens, P 3/5,
    # R 3/8, F1 6/13, above the first reference's ("3", "2020": P 1/5, R 1/2, F1 2/7).
    assert got["update_del_rouge1_precision"][0] == pytest.approx(3 / 5)
    assert got["update_del_rouge1_recall"][0] == pytest.approx(3 / 8)
    assert got["update_del_rouge1"][0] == pytest.approx(6 / 13)


def test_an_exact_one_word_edit_scores_zero_on_rouge2_as_docs_edits_md_warns():
    # docs/edits.md ("One-word edits score 0 on rouge2") and docs/deletions.md: a one-token run has
    # no bigram, and rouge-score scores two sides without bigrams 0.0.
    source, updated = "The cat sat on the mat.", "The cat sat on the red mat."
    types = ["rouge1", "rouge2", "rougeLsum"]
    added = compute([source], [updated], [updated], additions="edits", rouge_types=types, confidence_level=None)
    assert [added[f"update_{t}"] for t in types] == [1.0, 0.0, 1.0]
    assert added["_both_empty"] == 0
    scorer = rouge_scorer.RougeScorer(["rouge2"])
    assert scorer.score("red", "red")["rouge2"].fmeasure == 0.0
    dropped = compute(
        ["The cat sat on the red mat."],
        ["The cat sat on the mat."],
        ["The cat sat on the mat."],
        additions="edits",
        rouge_types=types,
        deletions=True,
        confidence_level=None,
    )
    assert [dropped[f"update_del_{t}"] for t in types] == [1.0, 0.0, 1.0]
    assert dropped["_both_kept"] == 0
