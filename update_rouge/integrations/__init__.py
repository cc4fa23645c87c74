"""UpdateROUGE inside other frameworks, each behind its optional extra.

- ``trainer``: ``make_compute_metrics``, a ``compute_metrics`` for transformers' ``Seq2SeqTrainer``;
- ``rewards``: ``update_rouge_reward``, a reward function for TRL (``GRPOTrainer``);
- ``ray_scoring``: UpdateROUGE as a Ray Data transform (``ray_batches``) and exact corpus results; ``ray_chunks``:
  the command line's ``--ray`` (a file's chunks scored by Ray tasks on the running cluster it joins);
- evaluation harnesses (docs/harnesses.md): ``inspect`` (``update_rouge_scorer``, an inspect_ai
  scorer, also for lighteval's inspect backend), ``lm_eval`` (lm-evaluation-harness's
  ``process_results``, aggregations and a shipped task), ``lighteval`` (its metric and a FRUIT-style
  task for both its backends), with ``harness_corpus``, what they share;
- ``torchmetrics``: ``UpdateRougeMetric``, a ``torchmetrics.Metric`` that syncs under DDP.

These modules live in a subpackage, not flat beside the evaluate script, because the evaluate
script (``update_rouge/update_rouge.py``) does not import them: evaluate's Hub loader copies only
the modules that script imports, and those must stay flat in ``update_rouge/``
(docs/architecture.md, "The Hub rule"). Import each module by its full path, for example
``from update_rouge.integrations.trainer import make_compute_metrics``. This file imports none of
them, so ``import update_rouge`` needs no extra, and a missing extra is reported (``MissingExtra``,
one line) only by the module that needs it.
"""
