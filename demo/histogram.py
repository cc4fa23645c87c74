"""The F1 histogram of a scored file, as an SVG figure: the examples per F1 bin of one rouge type
(``update_<type>``, or ``del_<type>`` for the deletions' ``update_del_<type>``), with the mean of
the examples' F1 marked and labelled as the corpus table names it (``render.mean_line_label``).
"""

import html

import pandas as pd

from demo.render import fmt, mean_line_label
from update_rouge.example_tables import mean as corpus_mean

HISTOGRAM_BINS = 10
# The histogram's drawing area, in SVG user units (the figure scales to the width it is given).
PLOT_WIDTH, PLOT_HEIGHT = 560, 200
PLOT_LEFT, PLOT_TOP = 64, 28


def f1_histogram(per_example: pd.DataFrame | None, rouge_type: str | None) -> pd.DataFrame | None:
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


def _count_ticks(top: int) -> list[int]:
    """Tick values of a count axis from 0 to at least ``top``: steps of 1, 2 or 5 times a power of
    ten, at most 6 ticks; the last tick is the axis's end."""
    top, power = max(top, 1), 1
    while True:
        for size in (power, 2 * power, 5 * power):
            steps = -(-top // size)
            if steps <= 5:
                return list(range(0, steps * size + 1, size))
        power *= 10


def histogram_svg(
    per_example: pd.DataFrame | None, rouge_type: str | None, average: str = "macro", protocol: str | None = None
) -> str:
    """The histogram of ``rouge_type``'s per-example F1 as an SVG figure ("" when nothing was scored):
    the ``f1_histogram`` bins, labelled axes from 0, each bar's bin and count in its tooltip, and a
    dashed line at the exact mean of the examples' F1, labelled by ``mean_line_label``."""
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
    line = mean_line_label(average, None if protocol in (None, "", "none") else protocol)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {PLOT_LEFT + PLOT_WIDTH + 24} {bottom + 68}" '
        f'role="img" aria-label="Histogram of the F1 of {name} over {len(values)} examples; {line} '
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
        f'fill="#b91c1c">{line} {fmt(mean)}</text>'
    )
    parts.append(
        f'<text x="{PLOT_LEFT + PLOT_WIDTH / 2:.1f}" y="{bottom + 58}" text-anchor="middle" fill="currentColor">'
        f"F1 of {name} per example, 0 to 1 (bins of {1 / HISTOGRAM_BINS:.1f})</text>"
        f'<text transform="translate(16 {PLOT_TOP + PLOT_HEIGHT / 2:.1f}) rotate(-90)" text-anchor="middle" '
        'fill="currentColor">examples</text></svg>'
    )
    return "".join(parts)
