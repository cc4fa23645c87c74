"""How the demo's page looks beyond gradio's theme: its CSS, and the class of the Status box
(errors red, a scored file with a green edge)."""

from typing import Any

import gradio as gr

# Gradio breaks highlighted text anywhere (break-all); break it between words instead.
CSS = """
#reference-view .textfield, #reference-view .textfield *, #prediction-view .textfield, #prediction-view .textfield * {
  word-break: normal; overflow-wrap: break-word;
}
/* The notes grow with their text (field-sizing), also when written while their tab was hidden:
   gradio sizes a textarea when its value changes, and a hidden one measures 0. A browser without
   field-sizing shows the ``lines`` the box is built with. */
#note textarea, #match-note textarea, #batch-status textarea {
  field-sizing: content; height: auto !important; max-height: none !important;
}
/* The language menu's text stops before its arrow instead of running under it. */
#language input { padding-right: 28px !important; text-overflow: ellipsis; }
#batch-status.status-error textarea { color: #b91c1c; background: #fef2f2; border: 1px solid #dc2626; }
#batch-status.status-scored textarea { border-left: 4px solid #16a34a; }
@media (max-width: 480px) {
  /* Tight choices, so that Score stays on a 390x844 phone's first screen with four stemmers. */
  #rouge-types label, #stemmer label { padding: 2px 6px !important; font-size: 13px; }
  #rouge-types .wrap, #stemmer .wrap { gap: 4px !important; }
  #histogram svg text { font-size: 22px; }
  /* gradio's tables draw their body as rows of cells (role=gridcell) under a header table whose
     hidden sizing rows set the column widths: both get the same type size, or the widths are
     measured for one size and the cells drawn in another (and break inside their numbers). */
  #scores table, #scores [role=gridcell], #corpus-summary table, #corpus-summary [role=gridcell],
  #paired-test table, #paired-test [role=gridcell] { font-size: 12px !important; }
  /* Narrow padding: the paired table's four columns fit 324 px only so. */
  #scores th, #scores td, #corpus-summary th, #corpus-summary td, #paired-test th, #paired-test td {
    min-width: 0 !important; padding-left: 1px !important; padding-right: 1px !important;
  }
  #scores .cell-wrap, #corpus-summary .cell-wrap, #paired-test .cell-wrap {
    padding-left: 3px !important; padding-right: 3px !important;
  }
  /* With an id column the per-example table fits 390 px only smaller, words whole. */
  #per-example-scores table, #per-example-scores [role=gridcell] { font-size: 10px !important; }
  #per-example-scores th, #per-example-scores td { padding-left: 1px !important; padding-right: 1px !important; }
  #per-example-scores th *, #per-example-scores td * { white-space: nowrap !important; }
  /* A cell or header wraps between words, never inside one ("rougeLsu / m", "baseli / ne"). */
  #scores [role=gridcell] *, #corpus-summary [role=gridcell] *, #paired-test [role=gridcell] *,
  #per-example-scores [role=gridcell] *, #scores th *, #corpus-summary th *, #paired-test th * {
    word-break: normal !important; overflow-wrap: normal !important;
  }
}
"""


def status_class(message: str | None) -> Any:
    """The Status box classed by the ``message`` it shows: ``status-error`` (an ``Error: ...``,
    drawn red), ``status-scored`` (``Scored ...``, a green edge) or ``status-note`` (anything else,
    as gradio draws it). Run after each event that writes the status, so the API gets the text."""
    text = message or ""
    kind = (
        "status-error" if text.startswith("Error") else "status-scored" if text.startswith("Scored") else "status-note"
    )
    return gr.update(elem_classes=[kind])
