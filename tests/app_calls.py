"""The demo's handlers called as gradio calls them, for tests/entry_points/test_demo_*.py and
test_app_*.py: each wrapper checks that a handler names exactly the components it should, and the
texts and files they share."""

from conftest import DATA_DIR

from demo import file_handlers, handlers
from demo.options import ScreenOptions

DAN = (
    "Dan is a baker.",
    "Dan is a baker. Dan loves chocolate cakes.",
    "Dan is a baker. Dan loves chocolate chip cookies.",
)
DEFAULT_TYPES = ["rouge1", "rouge2", "rougeLsum"]
FRUIT = DATA_DIR / "fruit_triples.jsonl"
KEPT = "in the source"


def table_rows(frame):
    return frame.values.tolist()


FILE_RESULTS = {
    "status",
    "results",
    "summary",
    "signature",
    "cite",
    "per_example",
    "histogram",
    "histogram_of",
    "per_example_state",
    "download_json",
    "download_csv",
    "paired",
    "paired_box",
}
ONE_EXAMPLE = ("reference_view", "prediction_view", "scores", "note")


def score_file(path, *options, **keywords):
    """``file_handlers.score_file``'s results, checked to name every result component and no other;
    the summary and paired tables as tables, their labels in ``labels`` (and CSS classes in ``classes``)."""
    out = file_handlers.score_file(str(path) if path is not None else None, *options, **keywords)
    assert set(out) == FILE_RESULTS, f"score_file gave {sorted(out)}"
    # The tables come with their labels (the average; the rows shown): the tables, and the labels apart.
    out["labels"], out["classes"] = {}, {}
    for name in ("summary", "paired", "per_example"):
        if isinstance(out[name], dict):
            out["labels"][name] = out[name]["label"]
            out["classes"][name] = out[name].get("elem_classes")
            out[name] = out[name]["value"]
    return out


def score_one(*arguments):
    """``handlers.score_one``'s results in ``ONE_EXAMPLE``'s order, checked to be those four."""
    out = handlers.score_one(*arguments)
    assert set(out) == set(ONE_EXAMPLE), f"score_one gave {sorted(out)}"
    return tuple(out[name] for name in ONE_EXAMPLE)


def show_matches(source, reference, prediction, rouge_type, stemmer, **options):
    """``handlers.show_matches``'s two token views and note for these texts and options (the
    others the page's defaults), checked to show their box."""
    texts = handlers.Texts(source, reference, prediction)
    out = handlers.show_matches(texts, rouge_type, ScreenOptions.of(stemmer=stemmer, **options))
    assert out.pop("matches_box") == {"__type__": "update", "visible": True}
    assert set(out) == {"reference_matches", "prediction_matches", "match_note"}, f"show_matches gave {sorted(out)}"
    return out["reference_matches"], out["prediction_matches"], out["match_note"]


def pct(value):
    return f"{100 * value:.1f}"


GOOD_LINE = '{"source": "a.", "reference": "a. b.", "prediction": "a. c."}\n'
