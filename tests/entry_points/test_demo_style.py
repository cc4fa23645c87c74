"""How the demo's page looks (``demo.style``): the Status box drawn by what it says."""

import re

from demo import style


def test_the_status_script_marks_what_the_css_draws():
    # The script's three marks, by the text's start; the CSS draws an error red and a scored file
    # with a green edge, and leaves a note as gradio draws it. (The browser test checks the colours.)
    marks = re.findall(r'said\.startsWith\("(\w+)"\) \? "(\w+)"', style.STATUS_JS)
    assert marks == [("Error", "error"), ("Scored", "scored")]
    assert re.search(r': "(\w+)";', style.STATUS_JS).group(1) == "note"
    drawn = dict(re.findall(r"#batch-status\[data-status=(\w+)\] textarea \{([^}]*)\}", style.CSS))
    assert sorted(drawn) == ["error", "scored"]
    assert "color: #b91c1c" in drawn["error"] and "border-left: 4px solid #16a34a" in drawn["scored"]
