"""The UpdateROUGE Space: score one example or a file of them, and see what was counted.

Run with ``python app.py``. Gradio serves on 127.0.0.1 (``GRADIO_SERVER_NAME`` overrides it,
as a Hugging Face Space does) at the port in ``GRADIO_SERVER_PORT`` (7860 when unset). Analytics
are off and the default theme's fonts are bundled with gradio, so nothing is fetched from the
network. Every score shown is a fraction in [0, 1] with 4 decimals.
"""

import dataclasses
import json
import os
import tempfile
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

import gradio as gr
import pandas as pd

from app_batch_file import BatchFileError, read_batch_file
from app_metric import package_module

# The scoring code evaluate.load gives users (see app_metric).
DEFAULT_ROUGE_TYPES = package_module("scoring").DEFAULT_ROUGE_TYPES
OPTIONS = package_module("settings").OPTIONS
Settings = package_module("settings").Settings
UpdateRouge = package_module("scorer").UpdateRouge
Corpus = package_module("corpus_stream").Corpus
SEGMENT_PATTERN = package_module("extraction").SEGMENT_PATTERN

HERE = Path(__file__).parent
# The demo's examples; the Space folder holds them at the same path (update_rouge/space.py).
EXAMPLES_FILE = HERE / "tests" / "data" / "fruit_triples.jsonl"
ROUGE_TYPE_CHOICES = ("rouge1", "rouge2", "rougeL", "rougeLsum", "rougeSU4")
# The stemmer choices are the option table's (see update_rouge.settings).
STEMMER_CHOICES = next(option.choices for option in OPTIONS if option.name == "stemmer")
# Confidence levels of the corpus scores' bootstrap intervals ("none": no interval).
CONFIDENCE_LEVELS = {"none": None, "0.90": 0.90, "0.95": 0.95, "0.99": 0.99}
ADDED = "added"
SCORE_HEADERS = ["rouge type", "precision", "recall", "F1"]
HISTOGRAM_BINS = 10
CSV_NAME = "update_rouge_per_example.csv"


def fmt(value: float) -> str:
    """A score as shown everywhere in the demo: 4 decimals."""
    return f"{value:.4f}"


def highlight_additions(text: str, additions: Sequence[str]) -> List[Tuple[str, Optional[str]]]:
    """Cut ``text`` into pieces that concatenate back to it, labelling the additions ``ADDED``.

    ``additions`` must be the additions UpdateROUGE extracted from ``text`` (its segments that
    the source lacks, in order); each is located at the segment it came from. Kept text,
    including the white space around segments, is labelled ``None``.
    """
    pieces: List[Tuple[str, Optional[str]]] = []
    position = 0
    found = 0
    for match in SEGMENT_PATTERN.finditer(text):
        segment = match.group(0).strip()
        if found < len(additions) and segment == additions[found]:
            start = text.index(segment, match.start())
            pieces += [(text[position:start], None), (segment, ADDED)]
            position = start + len(segment)
            found += 1
    if found != len(additions):
        raise ValueError(f"{additions[found]!r} is not a segment of the text after the previous addition")
    pieces.append((text[position:], None))
    return [(piece, label) for piece, label in pieces if piece]


def _ordered_types(rouge_types: Sequence[str]) -> List[str]:
    return [rouge_type for rouge_type in ROUGE_TYPE_CHOICES if rouge_type in rouge_types]


def score_one(source: str, reference: str, prediction: str, rouge_types: Sequence[str], stemmer: str):
    """Score one example.

    Returns the reference and the prediction as highlighted pieces (``highlight_additions``), a
    table of precision, recall and F1 per rouge type, and a note on what each side added.
    Raises ``gr.Error`` for unusable options.
    """
    try:
        scorer = UpdateRouge(rouge_types=_ordered_types(rouge_types), stemmer=stemmer)
        example = scorer.score(source, prediction, reference)
    except ValueError as error:
        raise gr.Error(str(error)) from None
    reference_additions = example.reference_additions[0]
    scores = pd.DataFrame(
        [[rouge_type, fmt(s.precision), fmt(s.recall), fmt(s.fmeasure)] for rouge_type, s in example.scores.items()],
        columns=SCORE_HEADERS,
    )
    note = (
        f"The reference adds {len(reference_additions)} segment(s) to the source, "
        f"the prediction {len(example.prediction_additions)}."
    )
    if example.both_empty:
        note += " Neither adds anything, so by UpdateROUGE's rule every score is 1.0."
    return (
        highlight_additions(reference, reference_additions),
        highlight_additions(prediction, example.prediction_additions),
        scores,
        note,
    )


def f1_histogram(per_example: Optional[pd.DataFrame], rouge_type: Optional[str]) -> Optional[pd.DataFrame]:
    """Count the examples per F1 bin of one rouge type (``None`` when nothing was scored).

    Bin k of ``HISTOGRAM_BINS`` holds k/10 <= F1 < (k+1)/10; the last bin also holds 1.0.
    Columns: ``F1`` (the bin, as "0.4-0.5") and ``examples`` (a count).
    """
    if per_example is None or not rouge_type:
        return None
    counts = [0] * HISTOGRAM_BINS
    for f1 in per_example[f"update_{rouge_type}"]:
        counts[min(int(f1 * HISTOGRAM_BINS), HISTOGRAM_BINS - 1)] += 1
    labels = [f"{k / HISTOGRAM_BINS:.1f}-{(k + 1) / HISTOGRAM_BINS:.1f}" for k in range(HISTOGRAM_BINS)]
    return pd.DataFrame({"F1": labels, "examples": counts})


def write_csv_atomically(table: pd.DataFrame, directory: Path) -> Path:
    """Write ``table`` (full float precision) as ``CSV_NAME`` in ``directory``, which holds either
    nothing by that name or the whole file, never a partial one. Returns the file's path."""
    path = directory / CSV_NAME
    partial = directory / f"{CSV_NAME}.part"
    table.to_csv(partial, index=False)
    os.replace(partial, path)
    return path


def score_file(path: Optional[str], rouge_types: Sequence[str], stemmer: str, confidence_level: str = "0.95"):
    """Score every example of an uploaded JSONL or CSV file (see ``app_batch_file``).

    Returns a status message, an update showing or hiding the results, the corpus scores
    (every key ``compute`` returns, with bootstrap intervals at ``confidence_level``, a key of
    ``CONFIDENCE_LEVELS``), the per-example scores to 4 decimals, the F1 histogram
    (``f1_histogram``) of the first rouge type, an update of the histogram's rouge type choice,
    the per-example scores at full precision (for later histograms) and the path of a CSV of
    them. On a problem the message names it (and the line, for the file's content), the
    results are hidden and every other output is empty: no partial results.
    """
    if path is None:
        return _failed("Upload a .jsonl or .csv file first.")
    try:
        examples = read_batch_file(path)
        types = _ordered_types(rouge_types)
        settings = Settings(
            rouge_types=types,
            stemmer=stemmer,
            confidence_level=CONFIDENCE_LEVELS[confidence_level],
        )
        scorer = UpdateRouge(dataclasses.replace(settings, use_aggregator=False))
        table = scorer.corpus(examples.sources, examples.predictions, examples.references)
    except (BatchFileError, ValueError) as error:
        return _failed(f"**Error:** {error}")
    scored = Corpus(settings)
    scored.add(table, examples.references)
    corpus_result = scored.result()
    corpus = pd.DataFrame(
        [[key, fmt(value) if key.startswith("update_") else f"{value:g}"] for key, value in corpus_result.items()],
        columns=["key", "value"],
    )
    per_example = pd.DataFrame({"line": examples.lines, **table})
    csv_path = write_csv_atomically(per_example, Path(tempfile.mkdtemp(prefix="update_rouge_")))
    shown = per_example.apply(lambda column: column.map(fmt) if column.name.startswith("update_") else column)
    status = f"Scored {len(examples.lines)} examples from {Path(path).name}."
    histogram_choice = gr.update(choices=types, value=types[0])
    return (
        status,
        gr.update(visible=True),
        corpus,
        shown,
        f1_histogram(per_example, types[0]),
        histogram_choice,
        per_example,
        str(csv_path),
    )


def _failed(message: str):
    """``score_file``'s outputs for a file that could not be scored: only the message."""
    return message, gr.update(visible=False), None, None, None, gr.update(choices=[], value=None), None, None


def metric_card(readme: str) -> str:
    """The README without its YAML front matter (the Space's settings)."""
    if readme.startswith("---\n"):
        end = readme.find("\n---\n", 4)
        if end != -1:
            return readme[end + len("\n---\n") :].lstrip()
    return readme


def fruit_examples() -> Tuple[List[List[str]], List[str]]:
    """The FRUIT sample triples as [source, reference, prediction] rows, and their ids."""
    with open(EXAMPLES_FILE, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return [[row["source"], row["reference"], row["prediction"]] for row in rows], [row["id"] for row in rows]


def build_demo() -> gr.Blocks:
    examples, example_ids = fruit_examples()
    with gr.Blocks(title="UpdateROUGE", analytics_enabled=False) as demo:
        gr.Markdown(
            "# UpdateROUGE\n"
            "ROUGE over the sentences an updated text **adds** to its source: text that the "
            "source already contains is not scored."
        )
        with gr.Row():
            rouge_types = gr.CheckboxGroup(
                list(ROUGE_TYPE_CHOICES), value=list(DEFAULT_ROUGE_TYPES), label="Rouge types"
            )
            stemmer = gr.Radio(list(STEMMER_CHOICES), value="none", label="Stemmer")
        with gr.Tab("One example"):
            with gr.Row():
                source = gr.Textbox(label="Source", lines=6)
                reference = gr.Textbox(label="Reference", lines=6)
                prediction = gr.Textbox(label="Prediction", lines=6)
            gr.Examples(
                examples,
                [source, reference, prediction],
                label="FRUIT sample triples",
                example_labels=example_ids,
                cache_examples=False,
            )
            score_button = gr.Button("Score", variant="primary")
            note = gr.Markdown(label="note", elem_id="note")
            scores = gr.Dataframe(headers=SCORE_HEADERS, label="Scores", interactive=False, elem_id="scores")
            color_map = {ADDED: "#fcd34d"}
            with gr.Row():
                reference_view = gr.HighlightedText(
                    label="Reference, additions highlighted",
                    color_map=color_map,
                    show_legend=True,
                    elem_id="reference-view",
                )
                prediction_view = gr.HighlightedText(
                    label="Prediction, additions highlighted",
                    color_map=color_map,
                    show_legend=True,
                    elem_id="prediction-view",
                )
        with gr.Tab("A file of examples"):
            gr.Markdown(
                "A `.jsonl` file (one object per line) or a `.csv` file (with a header row) with "
                "`source`, `reference` and `prediction`; a reference may be a JSON list of "
                'several references, e.g. `["first", "second"]`.'
            )
            upload = gr.File(label="Examples file", file_types=[".jsonl", ".csv"], elem_id="batch-file")
            confidence = gr.Radio(
                list(CONFIDENCE_LEVELS), value="0.95", label="Bootstrap interval of the corpus scores (confidence level)"
            )
            file_button = gr.Button("Score file", variant="primary")
            status = gr.Markdown(label="status", elem_id="batch-status")
            with gr.Column(visible=False) as results:
                corpus = gr.Dataframe(
                    label="Corpus scores (means over examples)", interactive=False, elem_id="corpus-scores"
                )
                histogram_of = gr.Dropdown([], label="Histogram of the per-example F1 of")
                histogram = gr.BarPlot(x="F1", y="examples", sort="x", label="Histogram", elem_id="histogram")
                per_example = gr.Dataframe(label="Per-example scores", interactive=False, elem_id="per-example-scores")
                download = gr.File(label="Per-example scores (CSV)", interactive=False, elem_id="download")
            per_example_state = gr.State()
        gr.Markdown(metric_card((HERE / "README.md").read_text(encoding="utf-8")))
        score_button.click(
            score_one,
            [source, reference, prediction, rouge_types, stemmer],
            [reference_view, prediction_view, scores, note],
            api_name="score_one",
        )
        file_button.click(
            score_file,
            [upload, rouge_types, stemmer, confidence],
            [status, results, corpus, per_example, histogram, histogram_of, per_example_state, download],
            api_name="score_file",
        )
        histogram_of.input(f1_histogram, [per_example_state, histogram_of], histogram, api_name=False)
    return demo


if __name__ == "__main__":
    build_demo().launch()
