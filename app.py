"""The UpdateROUGE Space: score one example or a file of them, and see what was counted.

Run with ``python app.py``. Gradio serves on 127.0.0.1 (``GRADIO_SERVER_NAME`` overrides it,
as a Hugging Face Space does) at the port in ``GRADIO_SERVER_PORT`` (7860 when unset). Analytics
are off and the default theme's fonts are bundled with gradio, so nothing is fetched from the
network. Every score shown is a fraction in [0, 1] with 4 decimals.

Uploads larger than ``UPDATE_ROUGE_DEMO_MAX_MB`` megabytes (environment variable, default 50)
are refused. Files are read one example at a time by ``files.py`` (the command line's reader);
the demo keeps only the per-example scores, not the texts. Scoring a file stops with a message
once ``UPDATE_ROUGE_DEMO_MAX_SECONDS`` (default 120) have passed, checked between chunks of
``CHUNK_SIZE`` examples; when served, one example's rougeL, rougeLsum or ROUGE-W is limited to
``DEMO_MAX_LCS_CELLS`` (about 10 s) unless ``UPDATE_ROUGE_MAX_PYTHON_LCS_CELLS`` is set. The
downloads it writes live in one folder per process, removed when the process exits, holding the
``DOWNLOAD_FOLDERS_KEPT`` newest requests' files.
"""

import atexit
import dataclasses
import functools
import html
import json
import math
import os
import shutil
import signal
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

import gradio as gr
import pandas as pd

from app_metric import package_module

# The scoring code evaluate.load gives users (see app_metric).
DEFAULT_ROUGE_TYPES = package_module("rouge_types").DEFAULT_ROUGE_TYPES
OPTIONS = {option.name: option for option in package_module("settings").OPTIONS}
DEFAULTS = package_module("settings").DEFAULTS
Settings = package_module("settings").Settings
UpdateRouge = package_module("scorer").UpdateRouge
score_rows = package_module("corpus_stream").score_rows
SEGMENT_PATTERN = package_module("extraction").SEGMENT_PATTERN
NoTokensWarning = package_module("no_tokens").NoTokensWarning
MissingExtra = package_module("extras").MissingExtra
LANGUAGES = package_module("languages").ISO_639_1
files = package_module("files")
corpus_mean = package_module("corpus").mean
matches = package_module("matches")
join_additions = package_module("extraction").join_additions

HERE = Path(__file__).parent
# The demo's examples; the Space folder holds them at the same path (update_rouge/space.py).
EXAMPLES_FILE = HERE / "tests" / "data" / "fruit_triples.jsonl"
ROUGE_TYPE_CHOICES = ("rouge1", "rouge2", "rougeL", "rougeLsum", "rougeSU4", "rougeW")
# The stemmer choices are the option table's (see update_rouge.settings).
STEMMER_CHOICES = OPTIONS["stemmer"].choices
NO_LANGUAGE = "none (rouge-score's tokens)"
LANGUAGE_CHOICES = [NO_LANGUAGE, *sorted(LANGUAGES)]
# Confidence levels of the corpus scores' bootstrap intervals ("none": no interval).
CONFIDENCE_LEVELS = {"none": None, "0.90": 0.90, "0.95": 0.95, "0.99": 0.99}
ADDED = "added"
KEPT = "in the source"
MATCHED = "matched"
# The types whose matched tokens the one-example view shows (see update_rouge.matches).
MATCH_TYPE_CHOICES = [t for t in ROUGE_TYPE_CHOICES if matches.explained(t)]
SCORE_HEADERS = ["rouge type", "P", "R", "F1"]
SUMMARY_HEADERS = ["rouge type", "F1 [low, high]", "P", "R"]
PAIRED_HEADERS = ["rouge type", "delta F1 (points) [interval]", "p-value"]
HISTOGRAM_BINS = 10
# Examples scored at a time: the time limit is checked between chunks, so they are small.
CHUNK_SIZE = 50
MAX_UPLOAD_VARIABLE = "UPDATE_ROUGE_DEMO_MAX_MB"


MAX_SECONDS_VARIABLE = "UPDATE_ROUGE_DEMO_MAX_SECONDS"
# What max_words and max_bytes, and alpha, must be (the demo's messages).
LIMIT_RULE = "a whole number >= 0 (0: no limit)"
ALPHA_RULE = "a number in [0, 1]"
# The demo's default LCS limit (about 10 s of one core for one example), unless the variable is set.
DEMO_MAX_LCS_CELLS = 20_000_000_000
# Download folders kept: older ones are removed when a new one is made.
DOWNLOAD_FOLDERS_KEPT = 10


def _positive_setting(variable: str, default: str, unit: str, environ) -> float:
    """The number in ``environ[variable]`` (``default`` when unset); ``ValueError`` naming the
    variable unless it is a finite number > 0."""
    text = environ.get(variable, default)
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise ValueError(f"{variable} must be a number of {unit} > 0, got {text!r}")
    return value


def max_upload_mb(environ=os.environ) -> float:
    """The upload cap in megabytes (10**6 bytes): ``UPDATE_ROUGE_DEMO_MAX_MB``, 50 when unset."""
    return _positive_setting(MAX_UPLOAD_VARIABLE, "50", "megabytes", environ)


def max_request_seconds(environ=os.environ) -> float:
    """The most seconds a file is scored for: ``UPDATE_ROUGE_DEMO_MAX_SECONDS``, 120 when unset."""
    return _positive_setting(MAX_SECONDS_VARIABLE, "120", "seconds", environ)


def serve_limits(environ=os.environ) -> None:
    """Lower the LCS limit to ``DEMO_MAX_LCS_CELLS`` in ``environ`` unless it is set there: run
    when the demo is served, so that one example holds the (one-at-a-time) queue seconds, not minutes."""
    environ.setdefault(package_module("engines").MAX_PYTHON_LCS_CELLS_VARIABLE, str(DEMO_MAX_LCS_CELLS))


MAX_UPLOAD_MB = max_upload_mb()
MAX_REQUEST_SECONDS = max_request_seconds()
CSV_NAME = "update_rouge_per_example.csv"
JSON_NAME = "update_rouge_result.json"


class DemoError(ValueError):
    """A problem the demo reports as text next to the results (not as a stack trace)."""


def fmt(value: float) -> str:
    """A score as shown everywhere in the demo: 4 decimals."""
    return f"{value:.4f}"


def _downloads_root() -> Path:
    """This process's folder for downloads, created on first use and removed at exit."""
    global _DOWNLOADS
    if _DOWNLOADS is None:
        _DOWNLOADS = Path(tempfile.mkdtemp(prefix="update_rouge_demo_"))
        atexit.register(shutil.rmtree, _DOWNLOADS, True)
    return _DOWNLOADS


_DOWNLOADS: Optional[Path] = None


def _download_folder() -> Path:
    """A new folder for one request's downloads in ``_downloads_root()``, after removing the
    oldest folders there beyond ``DOWNLOAD_FOLDERS_KEPT - 1`` (gradio serves copies of the files
    it was given, so a removed folder takes nothing from a page already shown)."""
    root = _downloads_root()
    folders = sorted((path for path in root.iterdir() if path.is_dir()), key=lambda path: path.stat().st_mtime_ns)
    for old in folders[: max(0, len(folders) - DOWNLOAD_FOLDERS_KEPT + 1)]:
        shutil.rmtree(old, ignore_errors=True)
    return Path(tempfile.mkdtemp(dir=root))


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


def check_text(value: Any, field: str) -> str:
    """``value`` if it is a string; else ``gr.Error`` naming ``field`` (the HTTP API's guard)."""
    if not isinstance(value, str):
        got = "null" if value is None else type(value).__name__
        raise gr.Error(f"{field} must be a string, got {got}", print_exception=False)
    return value


def settings_from(
    rouge_types: Sequence[str],
    stemmer: str,
    language: str = NO_LANGUAGE,
    remove_stopwords: bool = False,
    max_words: Optional[float] = None,
    max_bytes: Optional[float] = None,
    alpha: float = 0.5,
    confidence_level: str = "0.95",
) -> Any:
    """The ``Settings`` of the options on screen; 0 or empty for max_words/max_bytes is no limit.

    Raises ``DemoError`` naming the option for unusable values.
    """
    options = dict(
        rouge_types=_ordered_types(rouge_types),
        stemmer=stemmer,
        language=None if language in (None, NO_LANGUAGE) else language,
        remove_stopwords=bool(remove_stopwords),
        max_words=_limit(max_words, "max_words"),
        max_bytes=_limit(max_bytes, "max_bytes"),
        alpha=_alpha(alpha),
        confidence_level=CONFIDENCE_LEVELS.get(confidence_level, DEFAULTS["confidence_level"]),
    )
    try:
        return Settings(**options)
    except (TypeError, ValueError) as error:
        raise DemoError(str(error)) from None


def _limit(value: Any, name: str) -> Optional[int]:
    """A length limit as the screen or the HTTP API gives it (a number or its text); ``DemoError``
    naming ``name`` for anything but a whole number >= 0 (NaN, infinities, words, booleans)."""
    if value in (None, "", 0) and not isinstance(value, bool):
        return None
    try:
        number = value if isinstance(value, int) and not isinstance(value, bool) else float(value)
    except (TypeError, ValueError):
        number = math.nan
    if isinstance(value, bool) or not math.isfinite(number) or number != int(number) or number < 0:
        raise DemoError(f"{name} must be {LIMIT_RULE}, got {value!r}")
    return int(number) or None


def _alpha(value: Any) -> float:
    """alpha as the screen or the HTTP API gives it; ``DemoError`` naming it unless a number."""
    if value is None:
        return DEFAULTS["alpha"]
    try:
        if isinstance(value, bool):
            raise TypeError
        return float(value)
    except (TypeError, ValueError):
        raise DemoError(f"alpha must be {ALPHA_RULE}, got {value!r}") from None


def option_number(value: Any, option: str, rule: str, **kwargs: Any) -> gr.Number:
    """A ``gr.Number`` for option ``option`` (kept as its ``option`` attribute) whose value gradio's
    own conversion fails on (NaN or an infinity where a whole number is expected, text) is refused
    with ``gr.Error`` naming the option and ``rule``, not gradio's bare ``ValueError`` ("cannot
    convert float NaN to integer"). Its ``preprocess`` is wrapped, not overridden in a subclass:
    gradio writes a ``.pyi`` file beside the module of every component subclass."""
    number = gr.Number(value, **kwargs)
    convert = number.preprocess

    def preprocess(payload: Any) -> Any:
        try:
            return convert(payload)
        except (TypeError, ValueError, OverflowError):
            raise gr.Error(f"{option} must be {rule}, got {payload!r}", print_exception=False) from None

    number.preprocess = preprocess  # type: ignore[method-assign]
    number.option = option  # type: ignore[attr-defined]
    return number


def _ordered_types(rouge_types: Sequence[str]) -> List[str]:
    chosen = list(rouge_types or [])
    return [t for t in ROUGE_TYPE_CHOICES if t in chosen] + [t for t in chosen if t not in ROUGE_TYPE_CHOICES]


def _options_of(settings: Any) -> Dict[str, Any]:
    """The keyword options of ``compute`` that differ from the defaults, in the table's order."""
    chosen = {
        "rouge_types": list(settings.rouge_types),
        "stemmer": settings.stemmer,
        "language": settings.language,
        "remove_stopwords": settings.remove_stopwords,
        "max_words": settings.max_words,
        "max_bytes": settings.max_bytes,
        "alpha": settings.alpha,
        "confidence_level": settings.confidence_level,
    }
    defaults = {**DEFAULTS, "rouge_types": list(DEFAULT_ROUGE_TYPES), "stemmer": "none"}
    return {name: value for name, value in chosen.items() if value != defaults[name]}


def reproduce(*options: Any) -> str:
    """Python and command-line code that computes what the demo shows for these options."""
    try:
        settings = settings_from(*options)
    except DemoError as error:
        return f"# {error}"
    chosen = _options_of(settings)
    arguments = "".join(f", {name}={value!r}" for name, value in chosen.items())
    cli = []
    for name, value in chosen.items():
        flag = OPTIONS[name].cli_flag
        if value is True:
            cli.append(flag)
        elif isinstance(value, list):
            cli.append(f"{flag} {' '.join(value)}")
        else:
            cli.append(f"{flag} {'none' if value is None else value}")
    return (
        "import evaluate\n\n"
        'update_rouge = evaluate.load("update_rouge")  # or the path of update_rouge/update_rouge.py\n'
        "result = update_rouge.compute(\n"
        f"    sources=sources, predictions=predictions, references=references{arguments},\n"
        "    return_signature=True,\n"
        ")\n\n"
        "# The same on a file, from the command line (pip install update-rouge):\n"
        f"# update-rouge examples.jsonl {' '.join(cli)}".rstrip()
        + "\n"
    )


def highlight_additions(
    text: str, additions: Sequence[str], pattern: Any = SEGMENT_PATTERN
) -> List[Tuple[str, Optional[str]]]:
    """Cut ``text`` into pieces that concatenate back to it: each addition labelled ``ADDED``,
    each other segment (text the source contains) ``KEPT``, white space between them ``None``.

    ``additions`` must be the additions UpdateROUGE extracted from ``text`` with the segment
    ``pattern`` (its segments that the source lacks, in order). Segments are whole sentences
    cut at periods, so a highlight never starts or ends inside a word.
    """
    pieces: List[Tuple[str, Optional[str]]] = []
    position = 0
    found = 0
    for match in pattern.finditer(text):
        segment = match.group(0).strip()
        if not segment:
            continue
        start = text.index(segment, match.start())
        added = found < len(additions) and segment == additions[found]
        pieces += [(text[position:start], None), (segment, ADDED if added else KEPT)]
        position = start + len(segment)
        found += added
    if found != len(additions):
        raise ValueError(f"{additions[found]!r} is not a segment of the text after the previous addition")
    pieces.append((text[position:], None))
    return [(piece, label) for piece, label in pieces if piece]


def _score_quietly(call, *args):
    """``call(*args)`` and the text of the ``NoTokensWarning`` it gave, if any."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call(*args)
    tokenless = [w.message for w in caught if isinstance(w.message, NoTokensWarning)]
    return result, tokenless


def score_one(
    source: str,
    reference: str,
    prediction: str,
    rouge_types: Sequence[str],
    stemmer: str,
    language: str = NO_LANGUAGE,
    remove_stopwords: bool = False,
    max_words: Optional[float] = None,
    max_bytes: Optional[float] = None,
    alpha: float = 0.5,
):
    """Score one example with UpdateROUGE.

    Args:
        source: the text before the update.
        reference: the correct updated text.
        prediction: the system's updated text.
        rouge_types: the ROUGE variants to report, e.g. ["rouge1", "rouge2", "rougeLsum"].
        stemmer: "none", "porter" (rouge-score's) or "rouge155" (ROUGE-1.5.5's -m).
        language: an ISO 639-1 code such as "de", or "none (rouge-score's tokens)".
        remove_stopwords: drop ROUGE-1.5.5's English stopwords before scoring.
        max_words: keep only the first N words of each side's additions (0: no limit).
        max_bytes: keep only the first N bytes of each side's additions (0: no limit).
        alpha: the weight of precision in F (0.5: the usual F1).
    Returns:
        The reference and the prediction cut into pieces labelled "added" (scored) or
        "in the source" (not scored), a table of precision, recall and F1 per rouge type, and
        notes (what each side added, the no-additions rule, warnings, or the error).
    """
    texts = [
        check_text(value, field)
        for value, field in ((source, "source"), (reference, "reference"), (prediction, "prediction"))
    ]
    try:
        settings = settings_from(rouge_types, stemmer, language, remove_stopwords, max_words, max_bytes, alpha)
        scorer = UpdateRouge(dataclasses.replace(settings, use_aggregator=False))
        table, tokenless = _score_quietly(scorer.corpus, [texts[0]], [texts[2]], [texts[1]])
        example = scorer.score(texts[0], texts[2], texts[1])
    except (ValueError, MissingExtra) as error:
        return None, None, None, f"Error: {error}"
    pattern = package_module("languages").segment_pattern(settings.language)
    reference_additions = example.reference_additions[0]
    scores = pd.DataFrame(
        [[rouge_type, fmt(s.precision), fmt(s.recall), fmt(s.fmeasure)] for rouge_type, s in example.scores.items()],
        columns=SCORE_HEADERS,
    )
    notes = [
        f"The reference adds {len(reference_additions)} segment(s) to the source, "
        f"the prediction {len(example.prediction_additions)}."
    ]
    if not texts[0].strip():
        notes.append("The source is empty, so every segment of both texts counts as added.")
    if example.both_empty:
        notes.append("Neither adds anything, so by UpdateROUGE's rule every score is 1.0.")
    elif texts[1].strip() == texts[2].strip():
        notes.append("The prediction is identical to the reference.")
    notes += [f"Warning: {message}" for message in tokenless]
    return (
        highlight_additions(texts[1], reference_additions, pattern),
        highlight_additions(texts[2], example.prediction_additions, pattern),
        scores,
        "\n".join(notes),
    )


def show_matches(source: str, reference: str, prediction: str, rouge_type: str, *options: Any):
    """The tokens of the reference's and the prediction's additions as ``rouge_type`` scores them,
    each labelled ``MATCHED`` where it counts as a match (``update_rouge.matches``), one line
    per addition for rougeLsum; and a note with the counts behind precision and recall.

    ``options`` are ``settings_from``'s after the rouge types (the stemmer, then the advanced ones).
    """
    try:
        settings = settings_from([rouge_type], *options)
        example = UpdateRouge(settings).score(source, prediction, reference)
        if example.both_empty:
            return None, None, "Neither side adds anything: there is nothing to match."
        found = matches.token_matches(
            join_additions(example.reference_additions[0]),
            join_additions(example.prediction_additions),
            rouge_type,
            settings,
        )
    except (ValueError, MissingExtra) as error:
        return None, None, f"Error: {error}"
    hits, in_reference, in_prediction = found.counts
    unit = "tokens" if rouge_type in ("rouge1", "rougeL", "rougeLsum") else f"{rouge_type[5:]}-grams"
    how = {
        "rougeL": "the longest common subsequence of the two token sequences",
        "rougeLsum": "each reference addition's union of longest common subsequences with the prediction's "
        "additions, clipped by token counts",
    }.get(rouge_type, f"the {unit} both sides contain (as often as the side with fewer has them)")
    note = (
        f"{rouge_type} counts {hits} matched {unit}: {how}. Precision {hits}/{in_prediction} of the "
        f"prediction's {unit}, recall {hits}/{in_reference} of the reference's. Tokens are shown as scored "
        "(lower-cased, and stemmed or without stopwords where those options are on)."
    )
    return _token_pieces(found.target), _token_pieces(found.prediction), note


def _token_pieces(lines) -> List[Tuple[str, Optional[str]]]:
    """``HighlightedText`` pieces of marked token lines: tokens apart by spaces, lines by newlines."""
    pieces: List[Tuple[str, Optional[str]]] = []
    for number, line in enumerate(lines):
        if number:
            pieces.append(("\n", None))
        for position, (token, matched) in enumerate(line):
            if position:
                pieces.append((" ", None))
            pieces.append((token, MATCHED if matched else None))
    return pieces


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


# The histogram's drawing area, in SVG user units (the figure scales to the width it is given).
PLOT_WIDTH, PLOT_HEIGHT = 560, 200
PLOT_LEFT, PLOT_TOP = 64, 28


def _count_ticks(top: int) -> List[int]:
    """Tick values of a count axis from 0 to at least ``top``: steps of 1, 2 or 5 times a power of
    ten, at most 6 ticks; the last tick is the axis's end."""
    top, power = max(top, 1), 1
    while True:
        for size in (power, 2 * power, 5 * power):
            steps = -(-top // size)
            if steps <= 5:
                return list(range(0, steps * size + 1, size))
        power *= 10


def histogram_svg(per_example: Optional[pd.DataFrame], rouge_type: Optional[str]) -> str:
    """The histogram of ``rouge_type``'s per-example F1 as an SVG figure ("" when nothing was scored).

    Bars are the ``f1_histogram`` bins on an F1 axis from 0 to 1; the count axis starts at 0;
    both axes are labelled; a dashed line marks the corpus mean (the exact mean, as in the
    summary), labelled with it. Each bar's tooltip gives its bin and count.
    """
    histogram = f1_histogram(per_example, rouge_type)
    if histogram is None or per_example is None:
        return ""
    values = per_example[f"update_{rouge_type}"].tolist()
    mean = corpus_mean(values)
    counts = histogram["examples"].tolist()
    ticks = _count_ticks(max(counts))
    bottom = PLOT_TOP + PLOT_HEIGHT

    def x_at(f1: float) -> float:
        return PLOT_LEFT + f1 * PLOT_WIDTH

    def y_at(count: float) -> float:
        return bottom - count / ticks[-1] * PLOT_HEIGHT

    name = html.escape(rouge_type or "")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {PLOT_LEFT + PLOT_WIDTH + 24} {bottom + 68}" '
        f'role="img" aria-label="Histogram of the F1 of {name} over {len(values)} examples; corpus mean '
        f'{fmt(mean)}" style="width: 100%; height: auto; max-width: 720px; font: 13px sans-serif">',
    ]
    for count in ticks:
        y = y_at(count)
        parts.append(
            f'<line class="grid" x1="{PLOT_LEFT}" x2="{PLOT_LEFT + PLOT_WIDTH}" y1="{y:.1f}" y2="{y:.1f}" '
            'stroke="currentColor" stroke-opacity="0.15"/>'
            f'<text class="y-tick" x="{PLOT_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" fill="currentColor">{count}</text>'
        )
    width = PLOT_WIDTH / HISTOGRAM_BINS
    for k, (label, count) in enumerate(zip(histogram["F1"], counts)):
        top = y_at(count)
        parts.append(
            f'<rect class="bar" data-bin="{label}" data-count="{count}" x="{PLOT_LEFT + k * width + 1:.1f}" '
            f'y="{top:.1f}" width="{width - 2:.1f}" height="{bottom - top:.1f}" fill="#60a5fa">'
            f"<title>F1 {label}: {count} example{'s' if count != 1 else ''}</title></rect>"
        )
    for k in range(HISTOGRAM_BINS + 1):
        x = x_at(k / HISTOGRAM_BINS)
        parts.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{bottom}" y2="{bottom + 5}" stroke="currentColor"/>'
            f'<text class="x-tick" x="{x:.1f}" y="{bottom + 24}" text-anchor="middle" fill="currentColor">'
            f"{k / HISTOGRAM_BINS:.1f}</text>"
        )
    parts.append(
        f'<line x1="{PLOT_LEFT}" x2="{PLOT_LEFT}" y1="{PLOT_TOP}" y2="{bottom}" stroke="currentColor"/>'
        f'<line x1="{PLOT_LEFT}" x2="{PLOT_LEFT + PLOT_WIDTH}" y1="{bottom}" y2="{bottom}" stroke="currentColor"/>'
    )
    x_mean = x_at(mean)
    anchor = "start" if mean < 0.2 else "end" if mean > 0.8 else "middle"
    parts.append(
        f'<line class="mean" x1="{x_mean:.2f}" x2="{x_mean:.2f}" y1="{PLOT_TOP - 6}" y2="{bottom}" '
        'stroke="#b91c1c" stroke-width="2" stroke-dasharray="6 4"/>'
        f'<text class="mean-label" x="{x_mean:.2f}" y="{PLOT_TOP - 10}" text-anchor="{anchor}" '
        f'fill="#b91c1c">corpus mean {fmt(mean)}</text>'
    )
    parts.append(
        f'<text x="{PLOT_LEFT + PLOT_WIDTH / 2:.1f}" y="{bottom + 58}" text-anchor="middle" fill="currentColor">'
        f"F1 of {name} per example (bins of {1 / HISTOGRAM_BINS:.1f})</text>"
        f'<text transform="translate(16 {PLOT_TOP + PLOT_HEIGHT / 2:.1f}) rotate(-90)" text-anchor="middle" '
        'fill="currentColor">examples</text></svg>'
    )
    return "".join(parts)


def write_atomically(directory: Path, name: str, write) -> Path:
    """Call ``write(path)`` on a temporary name in ``directory`` and rename it to ``name``, so
    the folder holds either nothing by that name or the whole file. Returns the file's path."""
    path = directory / name
    partial = directory / f"{name}.part"
    write(partial)
    os.replace(partial, path)
    return path


def write_csv_atomically(table: pd.DataFrame, directory: Path) -> Path:
    """Write ``table`` (full float precision) as ``CSV_NAME`` in ``directory`` (see ``write_atomically``)."""
    return write_atomically(directory, CSV_NAME, lambda path: table.to_csv(path, index=False))


def _upload_size_problem(path: str) -> Optional[str]:
    size = os.path.getsize(path)
    if size > MAX_UPLOAD_MB * 1e6:
        return (
            f"{Path(path).name} is {size / 1e6:.1f} MB; this demo takes files up to {MAX_UPLOAD_MB:g} MB "
            f"({MAX_UPLOAD_VARIABLE}). Score larger files with the update-rouge command."
        )
    return None


def summary_table(result: Dict[str, Any], rouge_types: Sequence[str]) -> pd.DataFrame:
    """One row per rouge type: F1 with its interval (when computed), precision and recall, as
    percentages with one decimal, as papers quote them (``41.2 [39.8, 42.7]``)."""

    def pct(value: float) -> str:
        return f"{100 * value:.1f}"

    rows = []
    for rouge_type in rouge_types:
        key = f"update_{rouge_type}"
        f1 = pct(result[key])
        if f"{key}_low" in result:
            f1 += f" [{pct(result[f'{key}_low'])}, {pct(result[f'{key}_high'])}]"
        rows.append([rouge_type, f1, pct(result[f"{key}_precision"]), pct(result[f"{key}_recall"])])
    return pd.DataFrame(rows, columns=SUMMARY_HEADERS)


def score_file(
    path: Optional[str],
    rouge_types: Sequence[str],
    stemmer: str,
    confidence_level: str = "0.95",
    language: str = NO_LANGUAGE,
    remove_stopwords: bool = False,
    max_words: Optional[float] = None,
    max_bytes: Optional[float] = None,
    alpha: float = 0.5,
    baseline_column: str = "",
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (gradio finds the progress bar by this default)
):
    """Score every example of a JSONL or CSV file with source, reference and prediction.

    Args:
        path: the uploaded .jsonl or .csv file (at most UPDATE_ROUGE_DEMO_MAX_MB megabytes).
        rouge_types: the ROUGE variants to report.
        stemmer: "none", "porter" or "rouge155".
        confidence_level: "0.90", "0.95", "0.99" or "none" (no bootstrap interval).
        language: an ISO 639-1 code, or "none (rouge-score's tokens)".
        remove_stopwords: drop ROUGE-1.5.5's English stopwords before scoring.
        max_words: keep the first N words of each side's additions (0: no limit).
        max_bytes: keep the first N bytes of each side's additions (0: no limit).
        alpha: the weight of precision in F (0.5: the usual F1).
        baseline_column: optional; the name of a column (JSONL key) of the file holding another
            system's predictions, for a paired test per rouge type (as compute's baseline_predictions).
    Returns:
        A status (the number of examples, of examples where neither side adds anything,
        warnings, or the error with file and line), the corpus summary (F1 [low, high], P, R in
        percent per rouge type), the signature, the per-example F1 (4 decimals), the F1
        histogram, the full result as JSON (compute(..., return_signature=True)) and the
        per-example scores as CSV, and with a baseline the paired test (delta of mean F1 in
        points with its bootstrap interval, p-value of "the system is not better").
    """
    if path is None:
        return _failed("Upload a .jsonl or .csv file first.")
    try:
        problem = _upload_size_problem(path)
        if problem:
            raise DemoError(problem)
        settings = settings_from(
            rouge_types, stemmer, language, remove_stopwords, max_words, max_bytes, alpha, confidence_level
        )
        baseline_column = (baseline_column or "").strip()
        if baseline_column:
            file_format = files.FORMATS.get(Path(path).suffix.lower())
            if file_format is None:
                raise DemoError(f"{Path(path).name}: expected a .jsonl or .csv file")
            read = functools.partial(_with_baseline, path, file_format, baseline_column)
        else:
            (_, read) = files.open_examples(path)
        total_bytes = max(1, os.path.getsize(path))
        done = [0]

        def advance(count: int) -> None:
            done[0] += count

        lines: List[int] = []
        columns: Dict[str, List[float]] = {}

        def collect(chunk_lines: List[int], table: Dict[str, list]) -> None:
            lines.extend(chunk_lines)
            for key, values in table.items():
                columns.setdefault(key, []).extend(values)
            progress(min(1.0, done[0] / total_bytes), desc=f"Scored {len(lines)} examples")

        progress(0, desc="Scoring")
        score = functools.partial(score_rows, on_chunk=collect, chunk_size=CHUNK_SIZE, paired=bool(baseline_column))
        rows = _within_time(read(advance=advance), MAX_REQUEST_SECONDS, Path(path).name)
        corpus, warned = _score_quietly(score, rows, settings)
        tokenless = sum(warning.count for warning in warned)
        if not lines:
            raise DemoError(f"{Path(path).name}: the file holds no examples")
    except (DemoError, ValueError, MissingExtra) as error:
        # The upload's name, not the server's temporary path to it.
        return _failed(f"Error: {str(error).replace(path, Path(path).name)}")
    # compute's result: exact means, then intervals and paired test from one set of resamples.
    result = corpus.result()
    result["signature"] = corpus.signature()
    types = list(settings.rouge_types)
    per_example = pd.DataFrame({"line": lines, **columns})
    folder = _download_folder()
    csv_path = write_csv_atomically(per_example, folder)
    json_path = write_atomically(
        folder, JSON_NAME, lambda p: p.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    )
    shown = pd.DataFrame({"line": lines, **{t: per_example[f"update_{t}"].map(fmt) for t in types}})
    status = [
        f"Scored {len(lines)} examples from {Path(path).name}; in {result['_both_empty']} of them neither "
        "side adds anything (each scores 1.0)."
    ]
    if tokenless:
        status.append(f"Warning: {NoTokensWarning(tokenless, len(lines))}")
    return (
        "\n".join(status),
        gr.update(visible=True),
        summary_table(result, types),
        result["signature"],
        shown,
        histogram_svg(per_example, types[0]),
        gr.update(choices=types, value=types[0]),
        per_example,
        str(json_path),
        str(csv_path),
        paired_table(result, types) if baseline_column else None,
        gr.update(visible=bool(baseline_column)),
    )


def paired_table(result: Dict[str, Any], rouge_types: Sequence[str]) -> pd.DataFrame:
    """The paired test per rouge type: the system's mean F1 minus the baseline's, in points
    (signed, one decimal) with its bootstrap interval (when computed), and the p-value of "the
    system is not better" (3 decimals)."""
    rows = []
    for rouge_type in rouge_types:
        key = f"update_{rouge_type}"
        delta = f"{100 * result[f'{key}_delta']:+.1f}"
        if f"{key}_delta_low" in result:
            delta += f" [{100 * result[f'{key}_delta_low']:+.1f}, {100 * result[f'{key}_delta_high']:+.1f}]"
        rows.append([rouge_type, delta, f"{result[f'{key}_p_value']:.3f}"])
    return pd.DataFrame(rows, columns=PAIRED_HEADERS)


class BaselineRow(NamedTuple):
    """A row of a file with a baseline column: as ``files.Row``, plus the baseline's prediction."""

    line: int
    source: str
    references: List[str]
    prediction: str
    baseline: str


def _with_baseline(path: str, file_format: str, column: str, advance) -> Iterator[BaselineRow]:
    for row in files.read_systems(path, file_format, ["prediction", column], advance):
        yield BaselineRow(row.line, row.source, row.references, row.predictions["prediction"], row.predictions[column])


def open_example(
    path: Optional[str],
    per_example: Optional[pd.DataFrame],
    rouge_types: Sequence[str],
    stemmer: str,
    language: str,
    remove_stopwords: bool,
    max_words: Optional[float],
    max_bytes: Optional[float],
    alpha: float,
    selected: gr.SelectData,
):
    """The example of the per-example table's selected row, scored in the one-example view.

    Reads the file again up to the row's line (the demo does not keep the texts). Returns the
    source, the first reference and the prediction, the tab to show ("one"), ``score_one``'s
    outputs (whose notes say when the example has further references) and the three texts again
    (as scored).
    """
    if path is None or per_example is None:
        return (gr.update(),) * 4 + (None, None, None, "", None)
    line = int(per_example["line"][selected.index[0]])
    _, read = files.open_examples(path)
    row = next(row for row in read() if row.line == line)
    reference_view, prediction_view, scores, notes = score_one(
        row.source,
        row.references[0],
        row.prediction,
        rouge_types,
        stemmer,
        language,
        remove_stopwords,
        max_words,
        max_bytes,
        alpha,
    )
    notes = f"Line {line} of {Path(path).name}.\n{notes}"
    if len(row.references) > 1:
        notes += f"\nThis example has {len(row.references)} references; the first is shown and scored here."
    texts = (row.source, row.references[0], row.prediction)
    return (*texts, gr.Tabs(selected="one"), reference_view, prediction_view, scores, notes, texts)


def _failed(message: str):
    """``score_file``'s outputs for a file that could not be scored: only the message."""
    return (
        message,
        gr.update(visible=False),
        None,
        None,
        None,
        "",
        gr.update(choices=[], value=None),
        None,
        None,
        None,
        None,
        gr.update(visible=False),
    )


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


# Gradio breaks highlighted text anywhere (break-all); break it between words instead.
DAN_EXAMPLE = (
    "Dan is a baker.",
    "Dan is a baker. Dan loves chocolate cakes.",
    "Dan is a baker. Dan loves chocolate chip cookies.",
)
CSS = """
#reference-view .textfield, #reference-view .textfield *, #prediction-view .textfield, #prediction-view .textfield * {
  word-break: normal; overflow-wrap: break-word;
}
@media (max-width: 480px) {
  #histogram svg text { font-size: 22px; }
  #scores table, #corpus-summary table, #per-example-scores table { font-size: 12px; }
  #scores th, #scores td, #corpus-summary th, #corpus-summary td, #per-example-scores th, #per-example-scores td {
    min-width: 0 !important; padding-left: 4px !important; padding-right: 4px !important;
  }
}
"""


def build_demo() -> gr.Blocks:
    examples, example_ids = fruit_examples()
    with gr.Blocks(title="UpdateROUGE", analytics_enabled=False, delete_cache=(3600, 3600)) as demo:
        gr.Markdown(
            "# UpdateROUGE\n"
            "ROUGE over the sentences an updated text **adds** to its source: text that the "
            "source already contains is not scored."
        )
        with gr.Row(equal_height=False):
            rouge_types = gr.CheckboxGroup(
                list(ROUGE_TYPE_CHOICES),
                value=list(DEFAULT_ROUGE_TYPES),
                label="Rouge types",
                min_width=200,
                elem_id="rouge-types",
            )
            stemmer = gr.Radio(list(STEMMER_CHOICES), value="none", label="Stemmer", min_width=200)
        with gr.Accordion("Advanced options (ROUGE-1.5.5, languages)", open=False):
            with gr.Row():
                language = gr.Dropdown(LANGUAGE_CHOICES, value=NO_LANGUAGE, label="Language", min_width=160)
                remove_stopwords = gr.Checkbox(False, label="Remove stopwords (ROUGE-1.5.5 -s)", min_width=160)
                whole = {"rule": LIMIT_RULE, "precision": 0, "minimum": 0, "min_width": 120}
                max_words = option_number(0, "max_words", label="Max words (-l, 0: no limit)", **whole)
                max_bytes = option_number(0, "max_bytes", label="Max bytes (-b, 0: no limit)", **whole)
                alpha = option_number(
                    0.5,
                    "alpha",
                    ALPHA_RULE,
                    label="alpha (-p, weight of precision)",
                    minimum=0,
                    maximum=1,
                    min_width=120,
                )
        options = [language, remove_stopwords, max_words, max_bytes, alpha]
        with gr.Tabs() as tabs, gr.Tab("One example", id="one"):
            with gr.Row():
                source = gr.Textbox(label="Source", lines=4, min_width=160)
                reference = gr.Textbox(label="Reference", lines=4, min_width=160)
                prediction = gr.Textbox(label="Prediction", lines=4, min_width=160)
            gr.Examples(
                examples,
                [source, reference, prediction],
                label="FRUIT sample triples",
                example_labels=example_ids,
                cache_examples=False,
            )
            score_button = gr.Button("Score", variant="primary")
            note = gr.Textbox(label="Notes", interactive=False, elem_id="note", lines=1)
            scores = gr.Dataframe(headers=SCORE_HEADERS, label="Scores", interactive=False, elem_id="scores", wrap=True)
            color_map = {ADDED: "#fcd34d", KEPT: "#e5e7eb"}
            with gr.Row():
                reference_view = gr.HighlightedText(
                    label="Reference: additions (scored) and text in the source (not scored)",
                    color_map=color_map,
                    show_legend=True,
                    elem_id="reference-view",
                    min_width=160,
                )
                prediction_view = gr.HighlightedText(
                    label="Prediction: additions (scored) and text in the source (not scored)",
                    color_map=color_map,
                    show_legend=True,
                    elem_id="prediction-view",
                    min_width=160,
                )
            # Shown once an example is scored, so the page opens short.
            with gr.Column(visible=False) as matches_box:
                matches_of = gr.Radio(
                    MATCH_TYPE_CHOICES, value="rouge1", label="Matched tokens of", elem_id="matches-of"
                )
                match_note = gr.Textbox(label="What counts", interactive=False, elem_id="match-note", lines=1)
                with gr.Row():
                    reference_matches, prediction_matches = (
                        gr.HighlightedText(
                            label=f"{side} additions as tokens",
                            color_map={MATCHED: "#86efac"},
                            show_legend=True,
                            elem_id=f"{side.lower()}-matches",
                            min_width=160,
                        )
                        for side in ("Reference", "Prediction")
                    )
        with tabs, gr.Tab("A file of examples", id="file"):
            gr.Markdown(
                "A `.jsonl` file (one object per line) or a `.csv` file (with a header row) with "
                "`source`, `reference` and `prediction`; a reference may be a JSON list of "
                f'several references, e.g. `["first", "second"]`. At most {MAX_UPLOAD_MB:g} MB.'
            )
            upload = gr.File(label="Examples file", file_types=[".jsonl", ".csv"], elem_id="batch-file")
            confidence = gr.Radio(
                list(CONFIDENCE_LEVELS),
                value="0.95",
                label="Bootstrap interval of the corpus scores (confidence level)",
            )
            baseline_column = gr.Textbox(
                "",
                label="Baseline column (optional): another system's outputs, for a paired test",
                placeholder="e.g. baseline",
                elem_id="baseline-column",
            )
            file_button = gr.Button("Score file", variant="primary")
            status = gr.Textbox(label="Status", interactive=False, elem_id="batch-status", lines=1)
            with gr.Column(visible=False) as results:
                summary = gr.Dataframe(
                    headers=SUMMARY_HEADERS,
                    label="Corpus scores (mean over examples, %; F1 with its bootstrap interval)",
                    interactive=False,
                    elem_id="corpus-summary",
                    wrap=True,
                )
                signature = gr.Textbox(
                    label="Signature (quote it with the scores)",
                    interactive=False,
                    buttons=["copy"],
                    elem_id="signature",
                )
                with gr.Row():
                    download_json = gr.File(label="Full result (JSON)", interactive=False, elem_id="download-json")
                    download = gr.File(label="Per-example scores (CSV)", interactive=False, elem_id="download")
                with gr.Column(visible=False) as paired_box:
                    paired = gr.Dataframe(
                        headers=PAIRED_HEADERS,
                        label="Paired test against the baseline (p: the system is not better)",
                        interactive=False,
                        elem_id="paired-test",
                        wrap=True,
                    )
                histogram_of = gr.Dropdown([], label="Histogram of the per-example F1 of")
                histogram = gr.HTML(label="Histogram", elem_id="histogram")
                per_example = gr.Dataframe(
                    label='Per-example F1 (click a row to open it under "One example")',
                    interactive=False,
                    elem_id="per-example-scores",
                    max_height=400,
                    wrap=True,
                )
            per_example_state = gr.State()
        scored_texts = gr.State()
        reproduce_box = gr.Code(
            reproduce(DEFAULT_ROUGE_TYPES, "none"),
            language="python",
            label="Reproduce",
            elem_id="reproduce",
            interactive=False,
        )
        with gr.Accordion("About UpdateROUGE (the metric card)", open=False):
            gr.Markdown(metric_card((HERE / "README.md").read_text(encoding="utf-8")))

        # The "Use via API" page shows these examples instead of gradio's ("Hello!!", a PDF).
        for component, example in zip((source, reference, prediction), DAN_EXAMPLE):
            component.example_payload = component.example_value = lambda example=example: example
        upload.example_payload = upload.example_value = lambda: {
            "path": "examples.jsonl",
            "orig_name": "examples.jsonl",
            "meta": {"_type": "gradio.FileData"},
        }
        one_outputs = [reference_view, prediction_view, scores, note]
        match_outputs = [reference_matches, prediction_matches, match_note, matches_box]
        match_inputs = [source, reference, prediction, matches_of, stemmer, *options]

        def matches_shown(*arguments):
            return (*show_matches(*arguments), gr.update(visible=True))

        file_outputs = [
            status,
            results,
            summary,
            signature,
            per_example,
            histogram,
            histogram_of,
            per_example_state,
            download_json,
            download,
            paired,
            paired_box,
        ]
        # The texts are remembered as scored first, so that a clearing still pending cannot wipe the scores.
        # The events that write the one-example view run one at a time, in the order they were
        # sent (one concurrency group), so a clearing sent before a click cannot land after it.
        in_order = {"concurrency_id": "one_example", "concurrency_limit": 1}
        score_button.click(
            lambda *texts: tuple(texts), [source, reference, prediction], scored_texts, api_name=False, **in_order
        ).then(
            score_one,
            [source, reference, prediction, rouge_types, stemmer, *options],
            one_outputs,
            api_name="score_one",
            api_description="Score one example (source, reference, prediction) with UpdateROUGE.",
            preprocess=False,
            **in_order,
        ).then(matches_shown, match_inputs, match_outputs, api_name=False, **in_order)
        file_button.click(
            score_file,
            [upload, rouge_types, stemmer, confidence, *options, baseline_column],
            file_outputs,
            api_name="score_file",
            api_description="Score a .jsonl or .csv file of examples: corpus summary, signature, downloads.",
        )
        histogram_of.input(histogram_svg, [per_example_state, histogram_of], histogram, api_name=False)
        setting_inputs = [rouge_types, stemmer, *options]
        for component in setting_inputs:
            component.change(
                reproduce,
                [rouge_types, stemmer, *options, confidence],
                reproduce_box,
                api_name=False,
                show_progress="hidden",
            )
        confidence.change(
            reproduce,
            [rouge_types, stemmer, *options, confidence],
            reproduce_box,
            api_name=False,
            show_progress="hidden",
        )

        # A text or an option that changes clears the scores (and forgets what was scored),
        # unless the texts are those just scored (opening a table row sets the texts and their
        # scores at once).
        view_outputs = [*one_outputs, *match_outputs, scored_texts]

        def clear_one():
            return None, None, None, "", None, None, "", gr.update(visible=False), None

        def clear_if_changed(*texts_and_scored):
            *texts, scored = texts_and_scored
            return (gr.update(),) * len(view_outputs) if tuple(texts) == scored else clear_one()

        def matches_if_scored(*arguments_and_scored):
            *arguments, scored = arguments_and_scored
            return matches_shown(*arguments) if tuple(arguments[:3]) == scored else (gr.update(),) * 4

        texts = [source, reference, prediction]
        for component in texts:
            component.change(
                clear_if_changed,
                [*texts, scored_texts],
                view_outputs,
                api_name=False,
                show_progress="hidden",
                **in_order,
            )
        for component in setting_inputs:
            component.change(clear_one, None, view_outputs, api_name=False, show_progress="hidden", **in_order)
        per_example.select(
            open_example,
            [upload, per_example_state, rouge_types, stemmer, *options],
            [*texts, tabs, *one_outputs, scored_texts],
            api_name=False,
            **in_order,
        ).then(matches_shown, match_inputs, match_outputs, api_name=False, **in_order)
        matches_of.input(matches_if_scored, [*match_inputs, scored_texts], match_outputs, api_name=False, **in_order)
        for component in (upload, confidence, baseline_column, *setting_inputs):
            component.change(lambda: _failed(""), None, file_outputs, api_name=False, show_progress="hidden")
    return demo


def _exit_on_sigterm(signum, frame):
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    serve_limits()
    build_demo().launch(max_file_size=f"{MAX_UPLOAD_MB:g}mb", css=CSS)
