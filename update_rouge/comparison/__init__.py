"""Several systems compared with one baseline on the same examples (``update_rouge.compare``).

- ``systems``: means, bootstrap intervals and paired tests (``compare``, ``compare_scores``);
- ``significance``: paired approximate randomization, its exact counterpart, Holm-Bonferroni;
- ``report``: a comparison as a table people read (text, Markdown, LaTeX, JSON, CSV).

A subpackage, because the evaluate script does not import it (docs/architecture.md, "The Hub rule").
"""
