"""How the demo's page looks beyond gradio's theme: its CSS, and the script that marks the Status
box by what it says (errors red, a scored file with a green edge)."""

# Gradio breaks highlighted text anywhere (break-all); break it between words instead.
CSS = """
#reference-view .textfield, #reference-view .textfield *, #prediction-view .textfield, #prediction-view .textfield * {
  word-break: normal; overflow-wrap: break-word;
}
/* The notes grow with their text, also when written while their tab was hidden (gradio measures 0). */
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
  /* The cells and the header table's hidden sizing rows get one type size, so widths fit the cells. */
  #scores table, #scores [role=gridcell], #corpus-summary table, #corpus-summary [role=gridcell],
  #paired-test table, #paired-test [role=gridcell] { font-size: 12px !important; }
  /* Narrow padding: the paired table's four columns fit 324 px only so. */
  #scores th, #scores td, #corpus-summary th, #corpus-summary td, #paired-test th, #paired-test td {
    min-width: 0 !important; padding-left: 1px !important; padding-right: 1px !important;
  }
  #scores .cell-wrap, #corpus-summary .cell-wrap, #paired-test .cell-wrap {
    padding-left: 3px !important; padding-right: 3px !important;
  }
  /* The per-example table fits 390 px with a long id and six types: type names smaller than the
     numbers, ids wrapping (in the sizing rows too) in the width left; a number or name never wraps. */
  #per-example-scores table, #per-example-scores [role=gridcell] { font-size: 10px !important; }
  #per-example-scores th, #per-example-scores th * { font-size: 8px !important; }
  #per-example-scores th, #per-example-scores td { padding-left: 0 !important; padding-right: 0 !important; }
  #per-example-scores .cell-wrap { padding-left: 2px !important; padding-right: 2px !important; }
  #per-example-scores th *, #per-example-scores td * { white-space: nowrap !important; }
  #per-example-scores.with-ids [role=gridcell][data-col="1"] *, #per-example-scores.with-ids .sizing-body td:nth-child(2) * {
    white-space: normal !important; overflow-wrap: anywhere !important;
  }
  /* An id keeps about 8 letters a line where the columns outgrow the box (then it scrolls sideways). */
  #per-example-scores.with-ids [role=gridcell][data-col="1"], #per-example-scores.with-ids .sizing-body td:nth-child(2),
  #per-example-scores.with-ids th:nth-child(2) { min-width: 44px !important; }
  /* A cell or header wraps between words, never inside one ("rougeLsu / m", "baseli / ne"). */
  #scores [role=gridcell] *, #corpus-summary [role=gridcell] *, #paired-test [role=gridcell] *, #scores th *, #corpus-summary th *, #paired-test th * {
    word-break: normal !important; overflow-wrap: normal !important;
  }
}
"""


# The Status box's ``data-status`` by what it says ("error", "scored" or "note"), set in the page
# itself whenever its text changes, so the colour cannot lag the text.
STATUS_JS = """(text) => {
    const said = text || "";
    const box = document.getElementById("batch-status");
    if (box) box.dataset.status = said.startsWith("Error") ? "error" : said.startsWith("Scored") ? "scored" : "note";
    return [];
}"""
