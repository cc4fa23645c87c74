"""Several systems compared with one baseline on the same examples (``update_rouge.compare``).

- ``systems``: the comparison itself: means, bootstrap intervals and paired tests
  (``compare``, ``compare_scores``, ``SignificanceTest``);
- ``significance``: paired approximate randomization, its exact counterpart, Holm-Bonferroni;
- ``report``: a comparison as a table people read (text, Markdown, LaTeX, JSON, CSV).

A subpackage, not flat beside the evaluate script, because the evaluate script
(``update_rouge/update_rouge.py``) does not import it (docs/architecture.md, "The Hub rule").
"""
