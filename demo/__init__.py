"""The UpdateROUGE demo: a Gradio page (``demo.page.build_demo``) that scores one example or a
file of them with the package ``update_rouge`` and shows what was counted. ``app.py`` at the
repository root serves it; ``python -m update_rouge.space`` copies this package into the Space."""
