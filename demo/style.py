"""How the demo's page looks beyond gradio's theme: its CSS, and the script that marks the Status
box by what it says (errors red, a scored file with a green edge)."""

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
#batch-status[data-status=error] textarea { color: #b91c1c; background: #fef2f2; border: 1px solid #dc2626; }
#batch-status[data-status=scored] textarea { border-left: 4px solid #16a34a; }
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
  /* The per-example table fits 390 px with a long id and six types: its type names smaller than
     its numbers (a column is as wide as the wider of the two), and its ids wrapping (after a hyphen
     where one fits, else anywhere) in the width the other columns leave; a number or name never
     wraps. The header table's hidden sizing rows (.sizing-body) set the widths, so they wrap alike. */
  #per-example-scores table, #per-example-scores [role=gridcell] { font-size: 10px !important; }
  #per-example-scores th, #per-example-scores th * { font-size: 8px !important; }
  #per-example-scores th, #per-example-scores td { padding-left: 0 !important; padding-right: 0 !important; }
  #per-example-scores .cell-wrap { padding-left: 2px !important; padding-right: 2px !important; }
  #per-example-scores th *, #per-example-scores td * { white-space: nowrap !important; }
  #per-example-scores.with-ids [role=gridcell][data-col="1"] *, #per-example-scores.with-ids .sizing-body td:nth-child(2) * {
    white-space: normal !important; overflow-wrap: anywhere !important;
  }
  /* An id keeps a column of 44 px (about 8 letters) where the columns outgrow the box (six types
     with deletions: the table then scrolls sideways in its box), not one letter a line. */
  #per-example-scores.with-ids [role=gridcell][data-col="1"], #per-example-scores.with-ids .sizing-body td:nth-child(2),
  #per-example-scores.with-ids th:nth-child(2) { min-width: 44px !important; }
  /* A cell or header wraps between words, never inside one ("rougeLsu / m", "baseli / ne"). */
  #scores [role=gridcell] *, #corpus-summary [role=gridcell] *, #paired-test [role=gridcell] *, #scores th *, #corpus-summary th *, #paired-test th * {
    word-break: normal !important; overflow-wrap: normal !important;
  }
}
"""


# The Status box drawn by what it says: ``data-status`` "error" for an ``Error: ...`` (drawn red),
# "scored" for ``Scored ...`` (a green edge), "note" for anything else (as gradio draws it). The
# page sets it itself whenever the box's text changes (its change event runs this, in the page
# alone), so the colour cannot lag the text (a server step per event could land out of order).
STATUS_JS = """(text) => {
    const said = text || "";
    const box = document.getElementById("batch-status");
    if (box) box.dataset.status = said.startsWith("Error") ? "error" : said.startsWith("Scored") ? "scored" : "note";
    return [];
}"""
