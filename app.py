"""The UpdateROUGE Space: score one example or a file of them, and see what was counted.

Run with ``python app.py``. Gradio serves on 127.0.0.1 (``GRADIO_SERVER_NAME`` overrides it) at
the port in ``GRADIO_SERVER_PORT`` (7860 when unset), with analytics off and nothing fetched from
the network. The page is the package ``demo/`` (``demo.page.build_demo``).
"""

import signal

from demo.file_handlers import MAX_UPLOAD_MB
from demo.options import serve_limits
from demo.page import build_demo
from demo.style import CSS
from demo.upload_limit import limit_bytes


def _exit_on_sigterm(signum, frame):
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    serve_limits()
    build_demo().launch(max_file_size=limit_bytes(MAX_UPLOAD_MB), css=CSS)
