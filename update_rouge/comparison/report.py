"""A comparison of systems (``systems.compare``'s result) as a table people read.

Formats (``FORMATS``): ``text``, ``markdown``, ``latex``, ``csv`` (one row per system and type) and
``json`` (``compare``'s dict plus ``signature``). Systems are rows, the baseline first; per key the
mean F1 (``micro`` under ``average="micro"``) with its interval and, for the other systems, the
delta and the p-value, marked ``*`` below the significance level. The human-readable formats
state the method above the table and the signature under it.
"""

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..example_tables import DELETIONS_PREFIX
from ..micro import DEFAULT_AVERAGE

FORMATS = ("text", "json", "markdown", "latex", "csv")
DEFAULT_LEVEL = 0.05
MARK = "*"


@dataclass(frozen=True)
class Method:
    """How the numbers were obtained, for the line above the table."""

    method: str
    correction: str | None
    n_bootstrap: int
    n_trials: int
    confidence_level: float | None
    level: float = DEFAULT_LEVEL
    average: str = DEFAULT_AVERAGE

    @property
    def value(self) -> str:
        """The tables' name for a system's value of a type: ``mean`` (of the per-example F1) or
        ``micro`` (the F of the summed counts)."""
        return "micro" if self.average == "micro" else "mean"

    def describe(self, n_comparisons: int, deletions: bool = False) -> str:
        """One sentence: intervals, test, p-value direction, correction and the significance mark; with
        ``deletions``, a second one on the ``update_del_`` keys (no angle brackets: Markdown would read a
        tag)."""
        if self.confidence_level is None:
            intervals = "no intervals"
        else:
            intervals = f"{self.confidence_level:.0%} percentile bootstrap intervals ({self.n_bootstrap} resamples)"
        if self.method == "bootstrap":
            test = f"paired bootstrap test ({self.n_bootstrap} resamples)"
        else:
            test = f"paired approximate randomization test ({self.n_trials} trials)"
        adjusted = "Holm-adjusted" if self.correction == "holm" else "not adjusted"
        comparisons = f"{n_comparisons} comparison{'s' if n_comparisons != 1 else ''} per type"
        value = "Micro F1 (from counts summed over the examples)" if self.average == "micro" else "Mean F1"
        removed = (
            f" The {DELETIONS_PREFIX} keys: the same for what the texts delete from their sources, tested"
            f"{' and adjusted' if self.correction else ''} apart from the additions."
        )
        return (
            f"{value} with {intervals}; {test}, one-sided p-values that a system is not better than the "
            f"baseline ({comparisons}, {adjusted}); {MARK} p < {self.level:g}.{removed if deletions else ''}"
        )


def _types(result: Mapping[str, float]) -> list[str]:
    """The output keys ``update_<type>`` of one system's dict, in order."""
    return [key for key in result if not key.endswith(("_low", "_high", "_delta", "_p_value"))]


def _heading(results: Mapping[str, Mapping[str, float]], baseline: str, method: Method) -> str:
    """The line above the table (``Method.describe``), with the deletions' if ``results`` hold them."""
    deletions = any(key.startswith(DELETIONS_PREFIX) for key in results[baseline])
    return method.describe(len(results) - 1, deletions)


def _rows(results: Mapping[str, Mapping[str, float]], baseline: str) -> list[str]:
    return [baseline] + [name for name in results if name != baseline]


def _cells(result: Mapping[str, float], key: str, level: float) -> dict[str, str]:
    """Formatted mean, interval, delta, p-value and mark of one system and type ('' when absent)."""
    cells = {"mean": f"{result[key]:.4f}", "interval": "", "delta": "", "p": "", "mark": ""}
    if f"{key}_low" in result:
        cells["interval"] = f"[{result[f'{key}_low']:.4f}, {result[f'{key}_high']:.4f}]"
    if f"{key}_p_value" in result:
        cells["delta"] = f"{result[f'{key}_delta']:+.4f}"
        cells["p"] = f"{result[f'{key}_p_value']:.4f}"
        cells["mark"] = MARK if result[f"{key}_p_value"] < level else ""
    return cells


def _text(results, baseline: str, method: Method, signature: str | None) -> str:
    names = _rows(results, baseline)
    types = _types(results[baseline])
    header = ["system"]
    subheader = [""]
    for key in types:
        header += [key, "", "", ""]
        subheader += [method.value, "interval" if method.confidence_level is not None else "", "delta", "p"]
    table = [header, subheader]
    for name in names:
        row = [name + (" (baseline)" if name == baseline else "")]
        for key in types:
            cells = _cells(results[name], key, method.level)
            row += [cells["mean"], cells["interval"], cells["delta"], cells["p"] + cells["mark"]]
        table.append(row)
    widths = [max(len(row[column]) for row in table[1:]) for column in range(len(header))]
    # A type's name spans its four columns.
    for start in range(1, len(header), 4):
        span = sum(widths[start : start + 4]) + 6
        if len(header[start]) > span:
            widths[start + 3] += len(header[start]) - span
    lines = []
    group = [header[0].ljust(widths[0])]
    for start in range(1, len(header), 4):
        group.append(header[start].ljust(sum(widths[start : start + 4]) + 6))
    lines.append("   ".join(group).rstrip())
    for row in table[1:]:
        parts = [row[0].ljust(widths[0])]
        for start in range(1, len(row), 4):
            parts.append("  ".join(row[c].ljust(widths[c]) for c in range(start, start + 4)))
        lines.append("   ".join(parts).rstrip())
    text = [_heading(results, baseline, method), "", *lines]
    if signature:
        text += ["", signature]
    return "\n".join(text) + "\n"


def _markdown_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|")


def _markdown(results, baseline: str, method: Method, signature: str | None) -> str:
    names = _rows(results, baseline)
    types = _types(results[baseline])
    header = ["system"]
    for key in types:
        interval = " [interval]" if method.confidence_level is not None else ""
        header += [f"{key} {method.value}{interval}", "delta", "p"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name in names:
        row = [_markdown_escape(name) + (" (baseline)" if name == baseline else "")]
        for key in types:
            cells = _cells(results[name], key, method.level)
            row += [f"{cells['mean']} {cells['interval']}".strip(), cells["delta"], cells["p"] + cells["mark"]]
        lines.append("| " + " | ".join(row) + " |")
    text = [_heading(results, baseline, method), "", *lines]
    if signature:
        text += ["", f"`{signature}`"]
    return "\n".join(text) + "\n"


_LATEX_SPECIAL = {c: f"\\{c}" for c in "&%$#_{}"}
_LATEX_SPECIAL.update({"~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"})
_LATEX_SPECIAL.update({"|": r"\textbar{}", "<": r"\textless{}", ">": r"\textgreater{}"})


def _latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


def _latex(results, baseline: str, method: Method, signature: str | None) -> str:
    names = _rows(results, baseline)
    types = _types(results[baseline])
    lines = [f"% {_heading(results, baseline, method)}"]
    if signature:
        lines.append(f"% {signature}")
    lines += [
        r"\begin{tabular}{l" + "rrr" * len(types) + "}",
        r"\hline",
        "system & " + " & ".join(rf"\multicolumn{{3}}{{c}}{{{_latex_escape(key)}}}" for key in types) + r" \\",
        " & " + " & ".join([method.value, r"$\Delta$", "$p$"] * len(types)) + r" \\",
        r"\hline",
    ]
    for name in names:
        row = [_latex_escape(name) + (" (baseline)" if name == baseline else "")]
        for key in types:
            cells = _cells(results[name], key, method.level)
            interval = f" {cells['interval']}" if cells["interval"] else ""
            mark = "$^*$" if cells["mark"] else ""
            row += [cells["mean"] + interval, cells["delta"], cells["p"] + mark]
        lines.append(" & ".join(row) + r" \\")
    lines += [r"\hline", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


CSV_COLUMNS = tuple(
    "system baseline type mean low high delta delta_low delta_high p_value significant signature".split()
)


def _csv(results, baseline: str, method: Method, signature: str | None) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(method.value if column == "mean" else column for column in CSV_COLUMNS)
    for name in _rows(results, baseline):
        result = results[name]
        for key in _types(result):
            p_value = result.get(f"{key}_p_value")
            writer.writerow(
                [
                    name,
                    name == baseline,
                    key,
                    repr(result[key]),
                    *(
                        repr(result[f"{key}{suffix}"]) if f"{key}{suffix}" in result else ""
                        for suffix in ("_low", "_high", "_delta", "_delta_low", "_delta_high", "_p_value")
                    ),
                    "" if p_value is None else p_value < method.level,
                    signature or "",
                ]
            )
    return out.getvalue()


def render(
    results: Mapping[str, Any], baseline: str, method: Method, output_format: str = "text", signature: str | None = None
) -> str:
    """``results`` (``compare``'s dict, with or without its ``signature`` key) in ``output_format``.

    ``signature`` (default: ``results["signature"]`` if present) is printed under the table; JSON
    is ``results`` with the signature under ``"signature"``, floats at full precision.
    """
    if output_format not in FORMATS:
        raise ValueError(f"unknown format {output_format!r}; valid formats are {', '.join(FORMATS)}")
    systems = {name: value for name, value in results.items() if name != "signature"}
    signature = signature if signature is not None else results.get("signature")
    if output_format == "json":
        return json.dumps({**systems, **({"signature": signature} if signature else {})}, indent=2) + "\n"
    renderer = {"text": _text, "markdown": _markdown, "latex": _latex, "csv": _csv}[output_format]
    return renderer(systems, baseline, method, signature)


def per_example_lines(lines: Sequence[int], tables: Mapping[str, Mapping[str, list]]):
    """One JSON line per example: its input ``line`` and, per system, its per-example scores."""
    for index, line in enumerate(lines):
        scores = {name: {key: values[index] for key, values in table.items()} for name, table in tables.items()}
        yield json.dumps({"line": line, "scores": scores}) + "\n"
