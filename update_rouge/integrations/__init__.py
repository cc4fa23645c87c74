"""UpdateROUGE inside other frameworks, each behind its optional extra.

- ``trainer``: ``make_compute_metrics``, a ``compute_metrics`` for transformers' ``Seq2SeqTrainer``;
- ``rewards``: ``update_rouge_reward``, a reward function for TRL (``GRPOTrainer``);
- ``ray_scoring``: a Ray Data transform (``ray_batches``) and exact corpus results; ``ray_chunks``:
  the command line's ``--ray``;
- evaluation harnesses (docs/harnesses.md): ``inspect``, ``lm_eval`` and ``lighteval``, with
  ``harness_corpus``, what they share;
- ``torchmetrics``: ``UpdateRougeMetric``, a ``torchmetrics.Metric`` that syncs under DDP.

Import each by its full path: this file imports none of them, so ``import update_rouge`` needs no extra.
"""
