"""What the demo shows, drawn from scores: highlighted texts, tables and the notes that explain a
score (the F1 histogram is ``demo.histogram``'s). Nothing here scores. Every score shown is a
fraction in [0, 1] with 4 decimals (``fmt``); corpus tables show percent with one decimal.
"""

import ast
import functools
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

import update_rouge
from update_rouge.edits import kept_positions
from update_rouge.extraction import SEGMENT_PATTERN
from update_rouge.lcs_limits import LcsTableTooLarge
from update_rouge.no_tokens import NoTokensWarning
from update_rouge.protocols import rules_of
from update_rouge.rouge_types import LCS, NGRAM, SUMMARY_LCS, parse_rouge_type

ADDED = "added"
KEPT = "in the source"
MATCHED = "matched"
SCORE_HEADERS = ["rouge type", "P", "R", "F1"]
SUMMARY_HEADERS = ["rouge type", "F1 [95% interval]", "P", "R"]
PAIRED_HEADERS = ["rouge type", "baseline F1", "delta F1 (points) [interval]", "p-value"]
# Below this many examples the status warns that the bootstrap interval is rough (the usual rule of thumb).
FEW_EXAMPLES = 30
# The demo's advice about tokenless additions, in place of the API's (``tokenizer=`` is not offered).
NO_TOKENS_ADVICE = (
    'choose the texts\' language under "Advanced options" (language) to score them with its own segments and tokens.'
)
NO_WORDS = (
    "the additions hold only punctuation or symbols, no word: every tokenizer finds no token in them, "
    "whatever the language, so their scores count nothing."
)
# A link of the metric card to one of its pages: [text](docs/NAME.md) or [text](docs/NAME.md#anchor).
DOC_LINK = re.compile(r"\[([^\]]+)\]\((docs/[\w.-]+\.md)(#[\w-]+)?\)")
HUB = "https://huggingface.co"

Pieces = list[tuple[str, str | None]]
# The evaluate script, whose ``_CITATION`` is the BibTeX the "Cite this result" box gives.
SCRIPT = Path(update_rouge.__file__).parent / "update_rouge.py"


def fmt(value: float) -> str:
    """A score as shown everywhere in the demo: 4 decimals."""
    return f"{value:.4f}"


def highlight_additions(text: str, additions: Sequence[str], pattern: Any = SEGMENT_PATTERN) -> Pieces:
    """Cut ``text`` into pieces that concatenate back to it: each addition labelled ``ADDED``, each
    other segment ``KEPT``, white space between them ``None``. ``additions`` must be those
    UpdateROUGE extracted from ``text`` with the segment ``pattern``."""
    pieces: Pieces = []
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


# The note when additions="edits" gives runs whose tokens the text does not show as they are.
UNPLACED_EDITS = (
    "The added runs of tokens could not all be found in the text as written (stemmed, or in a script "
    "without word boundaries), so that side is shown without highlights; the matched tokens below show its added tokens."
)


def token_spans(text: str, tokens: Sequence[str]) -> list[tuple[int, int]] | None:
    """Where each of ``tokens`` stands in ``text``: found in order in the lower-cased text, each at
    a word start, a stem running to the word's end; ``None`` where one is not found so (or lower
    case changes the text's length)."""
    lowered = text.lower()
    if len(lowered) != len(text):
        return None
    spans = []
    position = 0
    for token in tokens:
        found = re.compile(r"(?<![^\W_])" + re.escape(token) + r"[^\W_]*").search(lowered, position)
        if found is None:
            return None
        spans.append(found.span())
        position = found.end()
    return spans


def edit_highlights(text: str, source: str, additions: Sequence[str], settings: Any) -> Pieces | None:
    """``text`` cut into pieces for ``additions="edits"``: each added run (as ``edits.EditIndex``
    extracted them) from its first token's start to its last's end labelled ``ADDED``, the rest
    ``KEPT`` (white space ``None``); ``None`` where the tokens are not found (``token_spans``) or
    the runs found differ from ``additions`` (no guessed highlight)."""
    tokenizer = settings.text_tokenizer()
    tokens = tokenizer.tokenize(text)
    kept = set(kept_positions(tokens, tokenizer.tokenize(source)))
    spans = token_spans(text, tokens)
    if spans is None:
        return None
    runs: list[list[int]] = []
    for index in range(len(tokens)):
        if index in kept:
            continue
        if runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    if [" ".join(tokens[i] for i in run) for run in runs] != list(additions):
        return None
    pieces: Pieces = []
    position = 0
    for run in runs:
        start, end = spans[run[0]][0], spans[run[-1]][1]
        pieces += [(text[position:start], KEPT), (text[start:end], ADDED)]
        position = end
    pieces.append((text[position:], KEPT))
    return [(piece, label if piece.strip() else None) for piece, label in pieces if piece]


def scores_table(scores: dict[str, Any]) -> pd.DataFrame:
    """Precision, recall and F1 (4 decimals) of one example, one row per rouge type."""
    rows = [[rouge_type, fmt(s.precision), fmt(s.recall), fmt(s.fmeasure)] for rouge_type, s in scores.items()]
    return pd.DataFrame(rows, columns=SCORE_HEADERS)


def example_notes(  # noqa: PLR0913 (the texts, what was scored, and the words for it)
    source: str, reference: str, prediction: str, example: Any, tokenless: bool, unit: str = "segment"
) -> str:
    """The notes under one example's scores: how many of ``unit`` each side adds, an empty source, the
    no-additions rule or identical texts, and the no-token warning when ``tokenless``."""
    notes = [
        f"The reference adds {len(example.reference_additions[0])} {unit}(s) to the source, "
        f"the prediction {len(example.prediction_additions)}."
    ]
    if not source.strip():
        notes.append("The source is empty, so every segment of both texts counts as added.")
    if example.both_empty:
        notes.append("Neither adds anything, so by UpdateROUGE's rule every score is 1.0.")
    elif reference.strip() == prediction.strip():
        notes.append("The prediction is identical to the reference.")
    if tokenless:
        added = [*example.reference_additions[0], *example.prediction_additions]
        deleted = example.deletions
        if deleted is not None:
            added += [*deleted.reference_deletions[0], *deleted.prediction_deletions]
        if any(character.isalnum() for character in " ".join(added)):
            notes.append(no_tokens_note(1, 1, deleted is not None))
        else:
            notes.append(f"Warning: {NO_WORDS}")
    return "\n".join(notes)


def no_tokens_note(count: int, total: int, deletions: bool = False) -> str:
    """The warning of ``NoTokensWarning(count, total, deletions)`` with the demo's advice
    (``NO_TOKENS_ADVICE``) in place of the API's."""
    return f"Warning: {NoTokensWarning(count, total, deletions).problem}; {NO_TOKENS_ADVICE}"


TOO_LONG_ADVICE = (
    "This demo keeps one example to seconds; score it with the update-rouge command "
    "(pip install update-rouge), whose limits can be raised."
)


def too_long_note(error: LcsTableTooLarge, place: str = "") -> str:
    """The error of an example beyond an LCS limit: ``place`` (the file and line, or nothing), what
    would be computed and the demo's limit in effect, and ``TOO_LONG_ADVICE`` in place of the
    package's advice (an environment variable a Space's visitor cannot set)."""
    if error.kind == "time":
        seconds = f"{error.limit * LCS_CELL_SECONDS:.2g}"
        problem = f"{error.subject} is more than this demo's LCS limit of {error.limit:,} cells (about {seconds} s of computing)"
    else:
        problem = f"{error.subject}, more than the limit of {error.limit:,} cells"
    return f"Error: {place}{problem}. {TOO_LONG_ADVICE}"


# The time of one LCS cell, the unit of ``update_rouge.lcs_limits``' costs.
LCS_CELL_SECONDS = 0.45e-9


def counts_grams(rouge_type: str) -> bool:
    """Whether ``rouge_type`` counts n-grams of two tokens or more (rouge2 to rouge9)."""
    parsed = parse_rouge_type(rouge_type)
    return parsed.family == NGRAM and parsed.n > 1


def match_note(rouge_type: str, counts: tuple[int, int, int]) -> str:
    """What ``rouge_type`` counts as a match, with the ``(hits, in reference, in prediction)``
    counts behind its precision and recall."""
    hits, in_reference, in_prediction = counts
    unit = f"{parse_rouge_type(rouge_type).n}-grams" if counts_grams(rouge_type) else "tokens"
    how = {
        LCS: "the longest common subsequence of the two token sequences",
        SUMMARY_LCS: "each reference addition's union of longest common subsequences with the prediction's "
        "additions, clipped by token counts",
    }.get(
        parse_rouge_type(rouge_type).family, f"the {unit} both sides contain (as often as the side with fewer has them)"
    )
    return (
        f"{rouge_type} counts {hits} matched {unit}: {how}. Precision {hits}/{in_prediction} of the "
        f"prediction's {unit}, recall {hits}/{in_reference} of the reference's. Tokens are shown as scored "
        "(lower-cased, and stemmed or without stopwords where those options are on)."
    )


def token_pieces(lines, separator: str = " ") -> Pieces:
    """``HighlightedText`` pieces of marked lines of units (``(unit, matched)`` pairs): units apart by
    ``separator``, lines by newlines, each matched unit one ``MATCHED`` piece, the text between two
    of them one unlabelled piece."""
    pieces: Pieces = []
    plain: list[str] = []  # the unmatched text since the last match
    for number, line in enumerate(lines):
        if number:
            plain.append("\n")
        for position, (token, matched) in enumerate(line):
            if position:
                plain.append(separator)
            if not matched:
                plain.append(token)
                continue
            if plain:
                pieces.append(("".join(plain), None))
            pieces.append((token, MATCHED))
            plain = []
    return [*pieces, ("".join(plain), None)] if plain else pieces


def summary_table(
    result: dict[str, Any], rouge_types: Sequence[str], confidence_level: float | None = None, percent: float = 100
) -> pd.DataFrame:
    """One row per rouge type: F1 with its interval (when computed), precision and recall, in percent
    with one decimal (``41.2 [39.8, 42.7]``): ``result``'s values times ``percent`` (1 for values
    already in percent). The F1 header states the ``confidence_level`` (``F1 [95% interval]``)."""

    def pct(value: float) -> str:
        return f"{percent * value:.1f}"

    rows = []
    for rouge_type in rouge_types:
        key = f"update_{rouge_type}"
        f1 = pct(result[key])
        if f"{key}_low" in result:
            f1 += f" [{pct(result[f'{key}_low'])}, {pct(result[f'{key}_high'])}]"
        rows.append([rouge_type, f1, pct(result[f"{key}_precision"]), pct(result[f"{key}_recall"])])
    f1 = "F1" if confidence_level is None else f"F1 [{100 * confidence_level:g}% interval]"
    return pd.DataFrame(rows, columns=["rouge type", f1, "P", "R"])


AVERAGE_WORDS = {
    "macro": "macro average (the mean of the examples' scores)",
    "micro": "micro average (P, R and F from the counts summed over the examples)",
}
SCORES_LABEL = "Scores of this example (P, R and F1 from 0 to 1)"


def corpus_words(average: str, protocol: str | None = None) -> str:
    """What the corpus numbers are (the ``average``, or a ``protocol``'s bootstrap median), in percent."""
    if rules_of(protocol).bootstrap_median:
        return f"{protocol}'s bootstrap median of the examples' scores, in percent"
    return f"{AVERAGE_WORDS.get(average, average)}, in percent"


def summary_label(average: str, protocol: str | None = None, intervals: bool = True) -> str:
    """The corpus table's label: what its numbers are and their scale, and the interval's level where
    it has ``intervals``."""
    words = f"Corpus scores: {corpus_words(average, protocol)} (0 to 100)"
    return f"{words}; F1 with its bootstrap interval at the level its header states" if intervals else words


def mean_line_label(average: str, protocol: str | None = None) -> str:
    """What the histogram's dashed line (the mean of the examples' F1) is, and whether it is the corpus
    score."""
    rules = rules_of(protocol)
    if rules.bootstrap_median:
        scale = f" x {rules.scale:g}" if rules.scale != 1 else ""
        return f"mean of the examples (corpus score: {protocol}'s bootstrap median{scale})"
    return "corpus score (macro mean)" if average == "macro" else "mean of the examples (not the micro score)"


def paired_label(average: str) -> str:
    """The paired table's label: the ``average`` of the scores compared, and the scale."""
    what = "macro mean F1" if average == "macro" else "micro F1"
    return (
        f"Paired test against the baseline: the baseline's {what} and the difference (system minus baseline), "
        "in points (0 to 100); p: the probability of a difference this large if the system is not better"
    )


def paired_table(result: dict[str, Any], rouge_types: Sequence[str]) -> pd.DataFrame:
    """The paired test per rouge type: the baseline's corpus F1 (percent), the difference in signed
    points with its interval (when computed), and the p-value (3 decimals)."""
    rows = []
    for rouge_type in rouge_types:
        key = f"update_{rouge_type}"
        delta = f"{100 * result[f'{key}_delta']:+.1f}"
        if f"{key}_delta_low" in result:
            delta += f" [{100 * result[f'{key}_delta_low']:+.1f}, {100 * result[f'{key}_delta_high']:+.1f}]"
        baseline = f"{100 * (result[key] - result[f'{key}_delta']):.1f}"
        rows.append([rouge_type, baseline, delta, f"{result[f'{key}_p_value']:.3f}"])
    return pd.DataFrame(rows, columns=PAIRED_HEADERS)


@functools.cache
def script_citation() -> str:
    """The evaluate script's ``_CITATION``, read from its source (importing it would load ``evaluate``).
    ``LookupError`` where it has none."""
    for node in ast.parse(SCRIPT.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(target, "id", None) == "_CITATION" for target in node.targets):
            return str(ast.literal_eval(node.value))
    raise LookupError(f"{SCRIPT} has no _CITATION")


def citation(summary: pd.DataFrame, label: str, signature: str) -> str:
    """The "Cite this result" text: the ``summary`` table, one line per rouge type, then the
    ``signature`` and the metric's BibTeX."""
    header = list(summary.columns)
    lines = [f"UpdateROUGE ({label}):"]
    for row in summary.itertuples(index=False):
        lines.append(f"{row[0]}: " + ", ".join(f"{name} {value}" for name, value in zip(header[1:], row[1:])))
    return "\n".join([*lines, f"Signature: {signature}", "", script_citation().strip()]) + "\n"


def file_status(  # noqa: PLR0913 (the counts a status line reports)
    name: str,
    examples: int,
    both_empty: int,
    tokenless: int,
    intervals: bool = False,
    words: bool = True,
    deletions: bool = False,
    micro: bool = False,
) -> str:
    """The status line of a scored file, with the no-token warning when ``tokenless`` > 0
    (``NO_WORDS`` where no side holds a word; deletions' too with ``deletions``), and with
    ``intervals`` a warning below ``FEW_EXAMPLES`` examples. Under ``micro`` an example that adds
    nothing adds no counts (it does not score 1.0)."""
    if examples == 1:
        kept = "it adds no counts, so the micro values are 0.0." if micro else "it scores 1.0."
        scored = f"Scored 1 example from {name}; " + (
            f"neither side adds anything, so {kept}" if both_empty else "one side or both add something."
        )
    else:
        kept = "such an example adds no counts to the micro values" if micro else "each such example scores 1.0"
        scored = f"Scored {examples} examples from {name}; in {both_empty} of them neither side adds anything ({kept})."
    status = [scored]
    if tokenless:
        status.append(no_tokens_note(tokenless, examples, deletions) if words else f"Warning: {NO_WORDS}")
    if intervals and examples < FEW_EXAMPLES:
        status.append(
            f"Warning: the bootstrap intervals rest on {examples} example{'s' if examples != 1 else ''}, "
            f"fewer than {FEW_EXAMPLES}: with so "
            "few, such an interval misses the true mean more often than its level says; read it as a rough range."
        )
    return "\n".join(status)


def metric_card(readme: str, space_id: str | None = None) -> str:
    """The README without its YAML front matter, each link to ``docs/NAME.md`` made one that resolves:
    with ``space_id`` (``owner/name``) to the page in the Space's files, its ``#anchor`` kept;
    without one, the link's text followed by the page's path in code."""
    if readme.startswith("---\n"):
        end = readme.find("\n---\n", 4)
        if end != -1:
            readme = readme[end + len("\n---\n") :].lstrip()
    if space_id:
        return DOC_LINK.sub(lambda m: f"[{m[1]}]({HUB}/spaces/{space_id}/blob/main/{m[2]}{m[3] or ''})", readme)
    return DOC_LINK.sub(lambda m: f"{m[1]} (`{m[2]}`)", readme)
