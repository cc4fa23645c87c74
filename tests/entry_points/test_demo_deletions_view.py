"""The demo with "Score deletions too" (``deletions=True``, ``demo.deletions_view``): the source
struck through where each side drops it, the del_<type> rows of the example's and the corpus
tables, the paired test, the histogram, the per-example table, the downloads, the status, the
control's name in errors and Reproduce.

Expected deletion scores are hand counts of the segments each side drops; a file's are
``compute``'s (the package's numbers, checked against the definition in
tests/agreement/test_deletions.py), which the demo must show as they are.
"""

import csv
import html
import json
import re

from app_calls import DAN, DEFAULT_TYPES, FRUIT, pct, score_file, score_one, table_rows

from demo import deletions_view, events, handlers, reproduce
from demo import options as demo_options
from update_rouge import OptionError, compute
from update_rouge.errors import LEFT_OUT

# The reference drops "Bob runs fast." and "Carl eats soup."; the prediction keeps the stale
# "Bob runs fast." and drops "Carl eats soup." alone.
SOURCE = "Anna sings. Bob runs fast. Carl eats soup."
REFERENCE = "Anna sings. Dana arrives."
PREDICTION = "Anna sings. Bob runs fast. Dana arrives."
TEXTS = handlers.Texts(SOURCE, REFERENCE, PREDICTION)
# Hand counts of the deletions: the prediction's 3 tokens (carl eats soup) all among the
# reference's 6 (bob runs fast carl eats soup): P 3/3, R 3/6, F1 2/3; bigrams, the joined lines'
# (rouge-score's tokens run across the newline): 2 of the prediction's 2 among the reference's 5,
# F1 2 * 0.4 / 1.4; rougeLsum: the second line's LCS of 3 tokens, as rouge1.
DELETION_ROWS = [
    ["del_rouge1", "1.0000", "0.5000", "0.6667"],
    ["del_rouge2", "1.0000", "0.4000", "0.5714"],
    ["del_rougeLsum", "1.0000", "0.5000", "0.6667"],
]
CONTROL = '"Score deletions too"'
# score_one's options from the stemmer to additions, as the page opens: deletions follows them.
DEFAULT_OPTIONS = ("none", demo_options.NO_LANGUAGE, False, 0, 0, 0.5, "sentences")


def struck(view, side):
    """The texts of the source's (not the legend's) elements struck through for ``side``."""
    source = view[view.index('<p class="source"') :]
    return [html.unescape(text) for text in re.findall(rf'<del class="deleted-{side}"[^>]*>(.*?)</del>', source)]


def test_the_example_table_adds_each_types_deletion_scores_after_the_additions():
    reference_view, prediction_view, scores, note = score_one(*TEXTS, DEFAULT_TYPES, *DEFAULT_OPTIONS, True)
    rows = table_rows(scores)
    # Both add "Dana arrives.": the additions score 1.0.
    assert rows[:3] == [[t, "1.0000", "1.0000", "1.0000"] for t in DEFAULT_TYPES]
    assert rows[3:] == DELETION_ROWS
    assert "The reference drops 2 segment(s) of the source, the prediction 1." in note.splitlines()
    assert ("Dana arrives.", "added") in reference_view
    # Both keep the whole source: by the no-deletions rule every deletion score is 1.0, and the notes say why.
    _, _, scores, note = score_one(*DAN, ["rouge1"], *DEFAULT_OPTIONS, True)
    assert table_rows(scores)[1] == ["del_rouge1", "1.0000", "1.0000", "1.0000"]
    assert note.splitlines()[-2:] == [
        "The reference drops 0 segment(s) of the source, the prediction 0.",
        "Neither drops anything, so by the same rule every deletion score is 1.0.",
    ]
    # Without the control, no deletion row and no word of deletions.
    _, _, scores, note = score_one(*TEXTS, DEFAULT_TYPES, "none")
    assert [row[0] for row in table_rows(scores)] == DEFAULT_TYPES and "drops" not in note


def test_the_source_view_strikes_through_what_each_side_drops():
    view = handlers.show_deletions(TEXTS, demo_options.ScreenOptions.of(deletions=True))["source_view"]
    assert struck(view, "reference") == ["Bob runs fast."]  # the stale sentence the prediction kept
    assert struck(view, "both") == ["Carl eats soup."]
    assert struck(view, "prediction") == []
    # The source is all there, in order, with a legend of the three marks before it.
    assert re.sub(r"<[^>]+>", "", view[view.index('<p class="source"') :]) == SOURCE
    assert "dropped by the reference only (the prediction kept it)" in view[: view.index('<p class="source"')]
    # A side that drops what the other keeps is marked as the prediction's.
    swapped = handlers.Texts(SOURCE, PREDICTION, REFERENCE)
    view = handlers.show_deletions(swapped, demo_options.ScreenOptions.of(deletions=True))["source_view"]
    assert struck(view, "prediction") == ["Bob runs fast."] and struck(view, "reference") == []
    # Without deletions, or with a refused option, there is no view.
    assert handlers.show_deletions(TEXTS, demo_options.ScreenOptions.of()) == {"source_view": ""}
    refused = demo_options.ScreenOptions.of(deletions=True, protocol="fruit")
    assert handlers.show_deletions(TEXTS, refused) == {"source_view": ""}


def test_with_edits_the_source_view_strikes_through_the_deleted_runs_of_words():
    texts = handlers.Texts("Dan lives in Paris with Eve.", "Dan lives in Rome with Eve.", "Dan lives in Paris.")
    options = demo_options.ScreenOptions.of(deletions=True, additions="edits")
    view = handlers.show_deletions(texts, options)["source_view"]
    # The reference replaces "paris"; the prediction deletes "with eve": one run each, as written.
    assert struck(view, "reference") == ["Paris"] and struck(view, "prediction") == ["with Eve"]
    assert re.sub(r"<[^>]+>", "", view[view.index('<p class="source"') :]) == texts.source
    note = handlers.score_example(texts, options)["note"]
    # Both notes count runs (the additions' said "segment(s)" beside the deletions' "run(s)").
    assert note.splitlines()[:2] == [
        "The reference adds 1 run(s) to the source, the prediction 0.",
        "The reference drops 1 run(s) of the source, the prediction 1.",
    ]


def test_deletions_that_cannot_be_placed_are_listed_struck_through():
    deleted = {"reference": ["paris"], "prediction": []}
    view = deletions_view.source_html("Dan in Paris.", None, deleted)
    assert deletions_view.UNPLACED in view
    assert re.findall(r'<ul class="reference-deletions"><li><del class="deleted-reference"[^>]*>paris</del>', view)
    # A token the source does not hold as a word start: no guessed place.
    assert deletions_view.token_units("ab.", {"reference": "x."}, {"reference": ["b"]}, _Tokens(["b"])) is None


class _Tokens:
    def __init__(self, tokens):
        self.tokens = tokens

    def tokenize(self, text):
        return list(self.tokens) if text == "ab." else []


def test_the_page_names_the_control_by_its_label_and_its_advice_works():
    assert deletions_view.shown_types(["rouge1"], True) == ["rouge1", "del_rouge1"]
    with_protocol = demo_options.ScreenOptions.of(deletions=True, protocol="autometrics")
    out = score_file(FRUIT, DEFAULT_TYPES, "none", protocol="autometrics", deletions=True)
    assert out["status"] == (
        f'Error: protocol "autometrics" reproduces a published script, which has no {CONTROL} option; '
        f'instead: untick {CONTROL}, or set protocol back to "none"'
    )
    try:
        compute([""], [""], [""], deletions=True, protocol="autometrics")
    except OptionError as error:
        refusal = error
    # Each alternative, followed on the page's controls, is accepted.
    for changes in refusal.instead:
        followed = {
            s.option: demo_options.screen_default(s.option) if s.value is LEFT_OUT else s.value for s in changes
        }
        assert demo_options.ScreenOptions.of(vars(with_protocol), **followed).settings()
    assert demo_options.SCREEN.change(refusal.instead[0][0]) == f"untick {CONTROL}"


def test_a_file_shows_each_types_deletion_scores_in_every_table_and_download(tmp_path):
    examples = [json.loads(line) for line in FRUIT.read_text(encoding="utf-8").splitlines()]
    sources = [e["source"] for e in examples]
    # A baseline that keeps the source as it is: it adds and drops nothing.
    path = tmp_path / "with_base.jsonl"
    path.write_text("".join(json.dumps({**e, "base": e["source"]}) + "\n" for e in examples), encoding="utf-8")
    out = score_file(path, ["rouge1"], "none", "0.95", baseline_column="base", deletions=True)
    want = compute(sources, [e["prediction"] for e in examples], [e["reference"] for e in examples], deletions=True)
    want["signature"] = out["signature"]
    with open(out["download_json"], encoding="utf-8") as handle:
        got = json.load(handle)
    assert got["update_del_rouge1"] == want["update_del_rouge1"] and got["_both_kept"] == want["_both_kept"] == 0
    summary = table_rows(out["summary"])
    key = "update_del_rouge1"
    interval = f"{pct(got[key])} [{pct(got[f'{key}_low'])}, {pct(got[f'{key}_high'])}]"
    assert summary[1] == ["del_rouge1", interval, pct(want[f"{key}_precision"]), pct(want[f"{key}_recall"])]
    assert summary[0][0] == "rouge1" and len(summary) == 2
    # The paired test has a row per deletion type too.
    assert [row[0] for row in table_rows(out["paired"])] == ["rouge1", "del_rouge1"]
    assert f"\ndel_rouge1: F1 [95% interval] {interval}, P " in out["cite"]
    assert out["status"].endswith(
        "In 0 of 3 example(s) neither side drops anything from the source (each deletion score is 1.0 there)."
    )
    # The per-example table and CSV: each example's deletion F1 beside its additions'.
    per_example = compute(
        sources,
        [e["prediction"] for e in examples],
        [e["reference"] for e in examples],
        deletions=True,
        use_aggregator=False,
    )
    assert list(out["per_example"].columns) == ["line", "id", "rouge1", "del_rouge1"]
    assert out["per_example"]["del_rouge1"].tolist() == [f"{v:.4f}" for v in per_example[key]]
    with open(out["download_csv"], encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert [float(row[key]) for row in table] == per_example[key]
    # The histogram offers the deletion type and draws its column.
    assert out["histogram_of"]["choices"] == ["rouge1", "del_rouge1"]
    svg = events.histogram_svg(out["per_example_state"], "del_rouge1")
    assert "Histogram of the F1 of del_rouge1 over 3 examples" in svg
    counts = [int(n) for n in re.findall(r'data-count="(\d+)"', svg)]
    bins = [min(int(v * 10), 9) for v in per_example[key]]
    assert counts == [bins.count(k) for k in range(10)]


def test_without_deletions_a_file_shows_no_deletion_column():
    out = score_file(FRUIT, ["rouge1"], "none", "0.95")
    assert list(out["per_example"].columns) == ["line", "id", "rouge1"]
    assert [row[0] for row in table_rows(out["summary"])] == ["rouge1"] and "drops" not in out["status"]


def test_the_reproduce_code_of_one_example_passes_deletions():
    code = reproduce.reproduce_example(demo_options.ScreenOptions.of(deletions=True), tuple(TEXTS))
    assert "    deletions=True,\n" in code
    assert "deletions" not in reproduce.reproduce_example(demo_options.ScreenOptions.of(), tuple(TEXTS))
    assert (
        reproduce.reproduce(demo_options.ScreenOptions.of(deletions=True))
        .rstrip()
        .endswith("# update-rouge examples.jsonl --deletions")
    )
    assert "|del:sentences" in reproduce.example_signature(demo_options.ScreenOptions.of(deletions=True))


def test_deletions_without_a_token_are_warned_in_the_notes_and_in_the_file_status():
    from demo import render

    # Only the deletions ("天气很好。", which the prediction drops) hold no token of rouge-score's.
    _, _, _, note = score_one("Ok. 天气很好。", "Ok. New fact.", "Ok. New fact.", DEFAULT_TYPES, *DEFAULT_OPTIONS, True)
    assert "1 of 1 example has additions or deletions in which the tokenizer finds no token" in note
    status = render.file_status("f.jsonl", 4, 0, 2, deletions=True)
    assert "2 of 4 examples have additions or deletions in which the tokenizer finds no token" in status
