"""Test helpers for the publishing tests (tests/publishing/) and the served demo's tests: a
stand-in for the Hugging Face Hub, fresh venvs, and a proxy that records connections
(``ConnectionTrap``, with ``proxy_variables`` pointing at it).

``FakeHub`` answers on 127.0.0.1 what evaluate's ``HubEvaluationModuleFactory`` asks the Hub
for: ``HEAD`` and ``GET`` of ``/spaces/<namespace>/<name>/resolve/<revision>/<file>``, with an
ETag (the file's SHA-256), from one local folder per revision; anything else is a 404. Every
request is logged as (method, path, status).
"""

import hashlib
import os
import re
import socket
import subprocess
import threading
import venv
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

NAMESPACE = "update-rouge-test"
NAME = "update_rouge"


class FakeHub:
    """Serve ``revisions`` (revision -> Space folder) as the Space ``NAMESPACE/NAME``."""

    def __init__(self, revisions: dict[str, Path]):
        self.revisions = revisions
        self.requests: list[tuple[str, str, int]] = []
        pattern = re.compile(rf"^/spaces/{re.escape(NAMESPACE)}/{re.escape(NAME)}/resolve/([^/]+)/([^?]+)$")
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self, send_body: bool):
                match = pattern.match(self.path)
                body = None
                if match and match.group(1) in hub.revisions:
                    root = hub.revisions[match.group(1)].resolve()
                    path = (root / match.group(2)).resolve()
                    if path.is_file() and root in path.parents:
                        body = path.read_bytes()
                status = 404 if body is None else 200
                hub.requests.append((self.command, self.path, status))
                self.send_response(status)
                if body is None:
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_header("ETag", f'"{hashlib.sha256(body).hexdigest()}"')
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if send_body:
                    self.wfile.write(body)

            def do_HEAD(self):
                self._answer(send_body=False)

            def do_GET(self):
                self._answer(send_body=True)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without any HF_, GRADIO_ or PYTHON* settings of this run, plus ``extra``."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.upper().startswith(("HF_", "GRADIO_", "PYTHON", "VIRTUAL_ENV", "PIP_"))
    }
    env.update(extra)
    return env


def make_venv(directory: Path, requirements: list[str], timeout: int = 1800) -> Path:
    """A fresh virtual environment (no system site-packages) with ``requirements`` installed
    from PyPI (pip's cache makes repeats fast). Returns its python.

    Not compiled to bytecode when installed (``--no-compile``): compiling every module of gradio,
    pandas, datasets and the rest took pip 36 of its 76 CPU seconds for the Space's requirements,
    while the processes started in it (``clean_env``: no ``PYTHONDONTWRITEBYTECODE``) compile
    what they import, once."""
    venv.EnvBuilder(with_pip=True, clear=True).create(directory)
    python = directory / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile", *requirements],
        check=True,
        timeout=timeout,
        env=clean_env(),
    )
    return python


class ConnectionTrap:
    """A TCP listener on loopback that accepts and records connections, for use as a proxy."""

    def __init__(self):
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.port = self.server.getsockname()[1]
        self.connections = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while not self.stopping.is_set():
            try:
                connection, _ = self.server.accept()
            except TimeoutError:
                continue
            self.connections += 1
            connection.close()

    def close(self):
        self.stopping.set()
        self.thread.join(timeout=5)
        self.server.close()


def proxy_variables(port: int, no_proxy: str = "127.0.0.1") -> dict[str, str]:
    """The proxy environment variables (both spellings) sending HTTP(S) to ``127.0.0.1:port``,
    except for the hosts in ``no_proxy``."""
    proxy = f"http://127.0.0.1:{port}"
    names = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")
    return {
        **{name: proxy for name in names},
        **{name.lower(): proxy for name in names},
        "NO_PROXY": no_proxy,
        "no_proxy": no_proxy,
    }
