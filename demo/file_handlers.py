"""The demo's handlers of a file of examples: scoring it (``score_file``, also an HTTP API
endpoint), the note when its inputs change, and opening one of its rows in the one-example view.

Files are read one example at a time by ``update_rouge.files`` (the command line's reader); the demo keeps
only the per-example scores, not the texts. Scoring a file stops with a message once
``MAX_REQUEST_SECONDS`` have passed, checked between chunks of ``CHUNK_SIZE`` examples; its
downloads are written by ``demo.downloads``. Results are keyed by component name, as in
``demo.handlers``.
"""

import functools
import json
import os
import time
import warnings
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import gradio as gr
import pandas as pd

from demo import deletions_view, render
from demo.downloads import JSON_NAME, download_folder, write_atomically, write_csv_atomically
from demo.handlers import STALE, Shown, Texts, score_example
from demo.histogram import histogram_svg
from demo.options import (
    MAX_SECONDS_VARIABLE,
    NO_LANGUAGE,
    DemoError,
    ScreenOptions,
    in_page_words,
    max_request_seconds,
    max_upload_mb,
    screen_default,
)
from demo.upload_limit import limit_bytes, too_big
from update_rouge import files
from update_rouge.comparison.systems import SignificanceTest, comparison_signature
from update_rouge.errors import OptionError
from update_rouge.extras import MissingExtra
from update_rouge.files import corpus_of_rows
from update_rouge.lcs_limits import LcsTableTooLarge
from update_rouge.no_tokens import NoTokensWarning
from update_rouge.protocols import check_protocol_paired, check_reference_counts, rules_of

# Examples scored at a time: the time limit is checked between chunks, so they are small.
CHUNK_SIZE = 50
MAX_UPLOAD_MB = max_upload_mb()
MAX_REQUEST_SECONDS = max_request_seconds()
# The per-example table shows a file's first rows (the page copies its whole table on every update
# of a loading status, so a table of thousands of rows froze the tab); the CSV download has them all.
SHOWN_ROWS = 500
PER_EXAMPLE_LABEL = 'Per-example F1, 0 to 1 (click a row to open it under "One example")'


def per_example_label(examples: int) -> str:
    """The per-example table's label for a file of ``examples``: says when only its first rows are shown."""
    if examples <= SHOWN_ROWS:
        return PER_EXAMPLE_LABEL
    return f"{PER_EXAMPLE_LABEL}: the first {SHOWN_ROWS} of {examples} examples; all are in the per-example CSV"


# The names of score_file's results.
FILE_RESULTS = (
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
)


def file_inputs_changed(status: str, options: ScreenOptions, changed: str = "Options") -> Shown:
    """After the file or an option changed: ``failed_file`` with the error naming an unusable
    option, else with "``changed`` changed: press Score file again." where the ``status`` shown
    is not empty (results or an error were shown); else nothing changes."""
    try:
        options.settings()
    except DemoError as error:
        return failed_file(f"Error: {error}")
    return failed_file(STALE.format(changed, "Score file")) if status else {}


def failed_file(message: str) -> Shown:
    """``score_file``'s results for a file that could not be scored: only the message."""
    return {
        "status": message,
        "results": gr.update(visible=False),
        "summary": None,
        "signature": None,
        "cite": None,
        "per_example": None,
        "histogram": "",
        "histogram_of": gr.update(choices=[], value=None),
        "per_example_state": None,
        "download_json": None,
        "download_csv": None,
        "paired": None,
        "paired_box": gr.update(visible=False),
    }


def score_file(  # noqa: PLR0913 (an HTTP endpoint: its clients pass the options one by one)
    path: str | None,
    rouge_types: Sequence[str],
    stemmer: str,
    confidence_level: str = screen_default("confidence_level"),
    language: str = NO_LANGUAGE,
    remove_stopwords: bool = False,
    max_words: float | None = None,
    max_bytes: float | None = None,
    alpha: float = screen_default("alpha"),
    baseline_column: str = "",
    multi_ref: str = screen_default("multi_ref"),
    n_bootstrap: float | None = screen_default("n_bootstrap"),
    seed: float | None = screen_default("seed"),
    additions: str = screen_default("additions"),
    average: str = screen_default("average"),
    protocol: str = screen_default("protocol"),
    deletions: bool = False,
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (gradio finds the progress bar by this default)
) -> Shown:
    """Score every example of a JSONL or CSV file with source, reference and prediction.

    Args:
        path: the uploaded .jsonl or .csv file (at most UPDATE_ROUGE_DEMO_MAX_MB megabytes).
        rouge_types: the ROUGE variants to report.
        stemmer: one of the option table's stemmers (``update_rouge.settings.OPTIONS``).
        confidence_level: "0.90", "0.95", "0.99" or "none" (no bootstrap interval).
        language: an ISO 639-1 code, or "none (rouge-score's tokens)".
        remove_stopwords: drop ROUGE-1.5.5's English stopwords before scoring.
        max_words: keep the first N words of each side's additions (0: no limit).
        max_bytes: keep the first N bytes of each side's additions (0: no limit).
        alpha: the weight of precision in F (0.5: the usual F1).
        baseline_column: optional; the name of a column (JSONL key) of the file holding another
            system's predictions, for a paired test per rouge type (as compute's baseline_predictions).
        multi_ref: how an example's several references combine, one of the option table's modes.
        n_bootstrap: the bootstrap resamples of the examples (at most 10000 here).
        seed: the seed of the resamples (the same seed gives the same intervals and p-values).
        additions: "sentences" or "edits", as for score_one.
        average: "macro" (the mean of the examples' scores) or "micro" (P, R and F from the
            counts summed over the examples).
        protocol: "none", or a published script to reproduce: "fruit" (its corpus values x 100),
            "editeval" or "autometrics"; fruit and editeval take no baseline column.
        deletions: also score what each side removes from the source: every table, the
            histogram and the downloads add del_<type> (update_del_<type> in the JSON and CSV).
    Returns:
        A status (the number of examples, of examples where neither side adds anything,
        warnings, or the error with file and line), the corpus summary (F1 [95% interval], P, R in
        percent per rouge type), the signature, the text to cite the result with (the summary,
        the signature and the metric's BibTeX), the per-example F1 (4 decimals; after each
        example's file line, its ``id`` as text when the file's examples have ids; the first 500
        examples, the label saying so where there are more: the CSV has all), the F1
        histogram, the full result as JSON (compute(..., return_signature=True)) and the
        per-example scores as CSV, and with a baseline the paired test (delta of mean F1 in
        points with its bootstrap interval, p-value of "the system is not better").
    """
    options = ScreenOptions.of(locals())  # the parameters that are options (the others are ignored)
    return score_upload(path, options, baseline_column, progress)


def _reader(path: str, baseline_column: str) -> Callable[..., Iterator[Any]]:
    """The reader of the upload at ``path`` (``files.open_examples``'s), with each row's
    ``baseline_column`` as its baseline when one is named; ``DemoError`` for a file that is
    neither .jsonl nor .csv."""
    if not baseline_column:
        return files.open_examples(path)[1]
    file_format = files.FORMATS.get(Path(path).suffix.lower())
    if file_format is None:
        raise DemoError(f"{Path(path).name}: expected a .jsonl or .csv file")
    return functools.partial(_with_baseline, path, file_format, baseline_column)


def score_upload(path: str | None, options: ScreenOptions, baseline_column: str, progress: Any) -> Shown:
    """``score_file``'s results for the file at ``path`` scored with ``options``, with the paired
    test against ``baseline_column`` when one is named; ``progress`` is called as gradio's bar."""
    if path is None:
        return failed_file(f"Upload a .jsonl or .csv file (at most {MAX_UPLOAD_MB:g} MB) first.")
    name = Path(path).name
    try:
        problem = _upload_size_problem(path)
        if problem:
            raise DemoError(problem)
        settings = options.settings()
        baseline_column = (baseline_column or "").strip()
        if baseline_column:
            check_protocol_paired(settings.protocol)
        read = _reader(path, baseline_column)
        total_bytes = max(1, os.path.getsize(path))
        done = [0]

        def advance(count: int) -> None:
            done[0] += count

        lines: list[int] = []
        columns: dict[str, list[float]] = {}

        def collect(chunk_lines: list[int], table: dict[str, list]) -> None:
            lines.extend(chunk_lines)
            for key, values in table.items():
                columns.setdefault(key, []).extend(values)
            progress(min(1.0, done[0] / total_bytes), desc=f"Scored {len(lines)} examples")

        progress(0, desc="Scoring")
        score = functools.partial(corpus_of_rows, on_chunk=collect, chunk_size=CHUNK_SIZE, paired=bool(baseline_column))
        ids: dict[int, str] = {}
        words = [False]  # whether a reference or prediction of the file holds a letter or digit
        rows = _within_time(_noting(read(advance=advance), ids, words), MAX_REQUEST_SECONDS, name)
        rows = _same_reference_counts(rows, settings.protocol, name)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            corpus = score(rows, settings)
        tokenless = sum(w.message.count for w in caught if isinstance(w.message, NoTokensWarning))
        if not lines:
            raise DemoError(f"{name}: the file holds no examples")
        # compute's result: exact means, then intervals and paired test from one set of resamples.
        result = corpus.result()
        result["signature"] = corpus.signature()
    except LcsTableTooLarge as error:
        place = f"{name}:{error.index}: " if error.what == "line" and error.index is not None else f"{name}: "
        return failed_file(render.too_long_note(error, place))
    except (DemoError, ValueError, MissingExtra) as error:
        # The upload's name, not the server's temporary path to it.
        return failed_file(f"Error: {in_page_words(error, {path: name})}")
    # With deletions each table, the histogram and the paired test add del_<type> (update_del_<type>).
    types = deletions_view.shown_types(settings.rouge_types, settings.deletions)
    id_column = {"id": [ids.get(line, "") for line in lines]} if ids else {}
    per_example = pd.DataFrame({"line": lines, **id_column, **columns})
    folder = download_folder()
    csv_path = write_csv_atomically(per_example, folder)
    json_path = write_atomically(
        folder, JSON_NAME, lambda p: p.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    )
    # A protocol's corpus values may be scaled already (FRUIT's: x 100); the table shows percent.
    percent = 100 / rules_of(settings.protocol).scale
    summary = render.summary_table(result, types, settings.confidence_level if settings.intervals else None, percent)
    signature = (
        comparison_signature(_reference_shape(corpus.reference_counts), 2, SignificanceTest(), settings)
        if baseline_column
        else result["signature"]
    )
    status = render.file_status(
        name,
        len(lines),
        result["_both_empty"],
        tokenless,
        settings.intervals,
        words[0],
        settings.deletions,
        settings.average == "micro",
    )
    status = "\n".join(
        part for part in (status, deletions_view.kept_status(len(lines), result, settings.average == "micro")) if part
    )
    return {
        "status": status,
        "results": gr.update(visible=True),
        "summary": gr.update(
            value=summary, label=render.summary_label(settings.average, settings.protocol, settings.intervals)
        ),
        "signature": signature,
        "cite": render.citation(summary, render.corpus_words(settings.average, settings.protocol), signature),
        "per_example": gr.update(
            value=_shown_rows(per_example, types),
            label=per_example_label(len(lines)),
            elem_classes=["with-ids"] if ids else [],  # its ids wrap on a phone (demo.style)
        ),
        "histogram": histogram_svg(per_example, types[0], settings.average, settings.protocol),
        "histogram_of": gr.update(choices=types, value=types[0]),
        "per_example_state": per_example,
        "download_json": str(json_path),
        "download_csv": str(csv_path),
        "paired": gr.update(
            value=render.paired_table(result, types) if baseline_column else None,
            label=render.paired_label(settings.average),
        ),
        "paired_box": gr.update(visible=bool(baseline_column)),
    }


def open_example(path: str | None, per_example: pd.DataFrame | None, options: ScreenOptions, row_index: int) -> Shown:
    """The example of row ``row_index`` of the per-example table, scored in the one-example view.

    Reads the file again up to the row's line (the demo does not keep the texts). Gives the
    source, the first reference and the prediction, the tab to show ("one"), ``score_one``'s
    results (whose notes say when the example has further references) and the three texts
    again, as scored.
    """
    if path is None or per_example is None:
        return {"reference_view": None, "prediction_view": None, "scores": None, "note": "", "scored_texts": None}
    line = int(per_example["line"][row_index])
    _, read = files.open_examples(path)
    row = next(row for row in read() if row.line == line)
    texts = Texts(row.source, row.references[0], row.prediction)
    shown = score_example(texts, options)
    protocol = options.settings().protocol if shown["scores"] is not None else None
    under = f" Scored under protocol {protocol}, as the table's row." if protocol else ""
    shown["note"] = f"Line {line} of {Path(path).name}.{under}\n{shown['note']}"
    if len(row.references) > 1:
        shown["note"] += f"\nThis example has {len(row.references)} references; the first is shown and scored here."
    return {**texts._asdict(), "tabs": gr.Tabs(selected="one"), **shown, "scored_texts": texts}


def _shown_rows(per_example: pd.DataFrame, types: Sequence[str]) -> pd.DataFrame:
    """The per-example table's rows as shown: the first ``SHOWN_ROWS``, F1 to 4 decimals."""
    shown = per_example.head(SHOWN_ROWS)
    kept = [column for column in ("line", "id") if column in shown]
    return pd.DataFrame({**{c: shown[c] for c in kept}, **{t: shown[f"update_{t}"].map(render.fmt) for t in types}})


def _reference_shape(counts: Collection[int]) -> list[list[str]]:
    """Two examples' worth of references with the fewest and the most of ``counts``: all a
    signature reads of the references."""
    return [[""] * min(counts), [""] * max(counts)]


class BaselineRow(NamedTuple):
    """A row of a file with a baseline column: as ``files.Row``, plus the baseline's prediction."""

    line: int
    source: str
    references: list[str]
    prediction: str
    baseline: str
    id: str | None = None


def _with_baseline(path: str, file_format: str, column: str, advance) -> Iterator[BaselineRow]:
    for row in files.read_systems(path, file_format, ["prediction", column], advance):
        predictions = row.predictions
        yield BaselineRow(row.line, row.source, row.references, predictions["prediction"], predictions[column], row.id)


def _noting(rows: Iterator[Any], ids: dict[int, str], words: list[bool]) -> Iterator[Any]:
    """``rows`` as they are, noting in ``ids`` each row's ``id`` (when it has one) by its line, and
    setting ``words[0]`` once a reference or prediction holds a letter or digit."""
    for row in rows:
        if row.id is not None:
            ids[row.line] = row.id
        if not words[0]:
            words[0] = any(character.isalnum() for text in (row.prediction, *row.references) for character in text)
        yield row


def _same_reference_counts(rows: Iterator[Any], protocol: str | None, name: str) -> Iterator[Any]:
    """``rows``, stopped where ``protocols.check_reference_counts`` refuses the first row whose
    number of references differs from the first row's, with ``DemoError`` naming its line."""
    first: tuple[int, int] | None = None  # the first row's line and number of references
    for row in rows:
        count = len(row.references)
        first = first or (row.line, count)
        try:
            check_reference_counts(protocol, (first[1], count))
        except OptionError as error:
            raise DemoError(
                f"{name}:{row.line}: {_references(count)}, but line {first[0]} has {_references(first[1])}: "
                f"{in_page_words(error)}"
            ) from None
        yield row


def _references(count: int) -> str:
    return f"{count} reference{'s' * (count != 1)}"


def _within_time(rows: Iterator[Any], seconds: float, name: str) -> Iterator[Any]:
    """``rows``, stopped with ``DemoError`` at the first row read once ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    for row in rows:
        if time.monotonic() >= deadline:
            raise DemoError(
                f"{name}: stopped at line {row.line} after {seconds:g} s, this demo's limit per file "
                f"({MAX_SECONDS_VARIABLE}). Score larger files with the update-rouge command."
            )
        yield row


def _upload_size_problem(path: str) -> str | None:
    size = os.path.getsize(path)
    return too_big(Path(path).name, size, MAX_UPLOAD_MB) if size > limit_bytes(MAX_UPLOAD_MB) else None
