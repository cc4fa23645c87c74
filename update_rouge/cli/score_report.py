"""The ``score`` command's output: the corpus result as JSON, a table people read, or the numbers alone.

- ``json`` (the default): ``compute``'s result as ``json.dumps(result, indent=2)`` writes it,
  ``groups`` included with ``--group-by``.
- ``text``: a line saying what the numbers are (``_described``), then a table with one row per
  rouge type (and group): F, its interval when there is one, P and R, with ``width`` decimals
  (then a row ``del <type>`` per type with ``--deletions``, a row ``ent`` and a line of the other
  entity keys with ``--entities``); then the signature.
- ``markdown``: the same table in Markdown, the signature in backticks.
- ``score_only`` (sacreBLEU's ``-b``; ``format`` is then ``json``): one corpus F per key
  (``example_tables.score_keys``' order, then ``update_ent``), one per line; with groups, one
  line per row group of the table: its label, a tab, and those F values separated by spaces.

The whole corpus is the row ``ALL``, first; with groups, each row also states ``n``, and a label
that could be mistaken for another is quoted (``_label``). Every number is the JSON's.
"""

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..entities import ENTITY_KEY, OUTDATED_KEY, UNSUPPORTED_KEY
from ..example_tables import ADDITIONS_PREFIX, DELETIONS_PREFIX, score_keys
from ..protocols import rules_of

OUTPUT_FORMATS = ("json", "text", "markdown")
DEFAULT_WIDTH = 4
WHOLE = "ALL"

Row = tuple[str, int | None, Mapping[str, Any]]
"""A row group of the table: label, number of examples (``None``: not shown) and corpus result."""


def report(result: Mapping[str, Any], counts: Sequence[int], rouge_types: Sequence[str], how: Mapping[str, Any]) -> str:
    """The command's output of ``result`` (the corpus result, with ``groups`` and ``signature``
    if any). ``counts`` are the examples of the whole corpus and of each group, in order;
    ``how`` holds ``format``, ``score_only``, ``width``, ``average``, ``confidence_level``,
    ``n_bootstrap``, ``protocol``, ``reference_slots`` (the references of each example, which
    a protocol's medians are averaged over) and ``deletions`` (rows for the deletions' keys too)."""
    if how["format"] == "json" and not how["score_only"]:
        return json.dumps(result, indent=2) + "\n"
    groups = result.get("groups", {})
    rows: list[Row] = [(WHOLE, counts[0] if groups else None, result)]
    rows += [
        (_label(label), count if groups else None, group) for (label, group), count in zip(groups.items(), counts[1:])
    ]
    width = how["width"]
    keys = score_keys(rouge_types, how.get("deletions", False)) + ([ENTITY_KEY] if ENTITY_KEY in result else [])
    if how["score_only"]:
        if not groups:
            return "".join(f"{result[key]:.{width}f}\n" for key in keys)
        return "".join(
            label + "\t" + " ".join(f"{values[key]:.{width}f}" for key in keys) + "\n" for label, _, values in rows
        )
    table = _table(rows, keys, how)
    described = _described(how, counts[0])
    signature = result.get("signature")
    unchanged = _unchanged(result, counts[0], how["average"]) + _entities(result, counts[0], width, how["average"])
    if how["format"] == "markdown":
        lines = ["| " + " | ".join(_markdown_cell(cell) for cell in cells) + " |" for cells in table]
        lines.insert(1, "|" + "---|" * len(table[0]))
        return (
            "\n".join([described, "", *lines, "", unchanged, *([] if signature is None else ["", f"`{signature}`"])])
            + "\n"
        )
    widths = [max(len(cells[column]) for cells in table) for column in range(len(table[0]))]
    lines = ["  ".join(cell.ljust(size) for cell, size in zip(cells, widths)).rstrip() for cells in table]
    return "\n".join([described, "", *lines, "", unchanged, *([] if signature is None else ["", signature])]) + "\n"


def _markdown_cell(cell: str) -> str:
    """A table cell as Markdown shows it literally: backslashes and pipes escaped, and ``&``, ``<``
    and ``>`` as HTML entities, so that a group label holding HTML is shown, never rendered, by a
    page the table is pasted into."""
    escaped = cell.replace("\\", "\\\\").replace("|", "\\|")
    return escaped.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _unchanged(result: Mapping[str, Any], count: int, average: str) -> str:
    """The line under the table: in how many of the ``count`` examples neither side adds anything
    (``_both_empty``) and, where the deletions were scored, deletes anything (``_both_kept``).
    Under the mean each such example scores 1.0, which the mean includes; under ``micro`` such an
    example adds no counts, so it does not move the micro values."""
    line = f"Neither side adds anything in {result['_both_empty']} of the {count} examples"
    if "_both_kept" in result:
        line += f"; neither deletes anything in {result['_both_kept']}"
    if average == "micro":
        return line + " (such an example adds no counts to the micro values)."
    return line + " (each such example scores 1.0)."


def _entities(result: Mapping[str, Any], count: int, width: int, average: str) -> str:
    """With the entity keys (docs/entities.md), what the ``ent`` row does not show
    (``_ent_both_empty``, ``update_ent_outdated_kept`` over the ``_ent_outdated_defined`` examples,
    and with evidence ``update_ent_unsupported``); else nothing."""
    if ENTITY_KEY not in result:
        return ""
    scored = "adds no counts" if average == "micro" else "scores 1.0"
    line = (
        f" Entities: neither side adds one in {result['_ent_both_empty']} of the {count} (each such example {scored})"
    )
    kept, defined = result[OUTDATED_KEY], result["_ent_outdated_defined"]
    share = "no value" if kept is None else f"{kept:.{width}f}"
    line += f"; outdated kept {share} (of the entities the reference drops, in the {defined} examples that drop one)"
    if UNSUPPORTED_KEY in result:
        line += f"; unsupported {result[UNSUPPORTED_KEY]:.{width}f} per example (in neither source nor evidence)"
    return line + "."


def _label(label: Any) -> str:
    """A group label as the table shows it: as is, unless it is empty, not printable, ``WHOLE``
    or begins with a quote, which Python's ``repr`` writes quoted (``'ALL'``). So no two labels,
    and no label and the whole corpus, look alike: a label shown as is never begins with a quote,
    a quoted one always does."""
    text = label if isinstance(label, str) else str(label)
    plain = text.isprintable() and text and text != WHOLE and not text.startswith(("'", '"'))
    return text if plain else repr(text)


def _type_label(key: str) -> str:
    """The ``type`` cell of an output key: ``rouge1`` for ``update_rouge1``, ``del rouge1`` for
    the deletions' ``update_del_rouge1``."""
    if key.startswith(DELETIONS_PREFIX):
        return "del " + key.removeprefix(DELETIONS_PREFIX)
    return key.removeprefix(ADDITIONS_PREFIX)


def _table(rows: Sequence[Row], keys: Sequence[str], how: Mapping[str, Any]) -> list[list[str]]:
    """The header and one line per row and output key (``score_keys``)."""
    width = how["width"]
    intervals = how["confidence_level"] is not None
    grouped = rows[0][1] is not None
    header = (["group", "n"] if grouped else []) + ["type", "F"]
    header += [f"{_level(how['confidence_level'])} interval"] if intervals else []
    table = [header + ["P", "R"]]
    for label, count, values in rows:
        for key in keys:
            cells = [label, str(count)] if grouped else []
            cells += [_type_label(key), f"{values[key]:.{width}f}"]
            if intervals:
                cells.append(f"[{values[f'{key}_low']:.{width}f}, {values[f'{key}_high']:.{width}f}]")
            cells += [f"{values[f'{key}_precision']:.{width}f}", f"{values[f'{key}_recall']:.{width}f}"]
            table.append(cells)
    return table


def _level(confidence_level: float) -> str:
    """A confidence level as a percentage with the digits it has: 95%, 97.5%, 99.9%."""
    return f"{confidence_level * 100:.10g}%"


def _described(how: Mapping[str, Any], count: int) -> str:
    """The line above the table: over how many examples, under which protocol, which statistic
    the values are (our mean, the micro average, or a protocol's bootstrap median), their
    intervals if any, and their scale."""
    rules = rules_of(how.get("protocol"))
    level, resamples = how["confidence_level"], how["n_bootstrap"]
    if rules.bootstrap_median:
        values = f"medians over {resamples} bootstrap resamples of the mean F, precision and recall"
        intervals = f"; {_level(level)} percentile intervals of F from the same resamples" if level is not None else ""
        slots = how.get("reference_slots", 1)
        intervals += f"; each averaged over the {slots} reference slots" if slots > 1 else ""
        intervals += f"; every value x {rules.scale:g}" if rules.scale != 1 else ""
    else:
        if how["average"] == "micro":
            values = "micro F, precision and recall (from the counts summed over the examples)"
        else:
            values = "mean F, precision and recall"
        intervals = (
            f"; {_level(level)} percentile bootstrap intervals of F ({resamples} resamples)"
            if level is not None
            else ""
        )
    under = f" ({rules.owner} protocol)" if rules.name is not None else ""
    removed = "; the del rows: the same for what the texts delete from their sources" if how.get("deletions") else ""
    removed += "; the ent row: the same for the named entities they add" if how.get("entities") else ""
    return f"UpdateROUGE of {count} example{'s' if count != 1 else ''}{under}: {values}{intervals}{removed}."
