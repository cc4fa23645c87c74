"""The demo as `python app.py` serves it, for tests/entry_points/test_app_served_*.py and
tests/entry_points/test_app_browser_*.py files: the fixtures that serve it, a client, a real headless browser,
and the helpers that read the page.

The app is served twice: from the checkout's app.py, and (slow) as a Space runs it: from
inside the folder `python -m update_rouge.space` writes, with a fresh virtual environment
holding only what the folder's requirements.txt lists (installed from PyPI; pip's cache makes
repeats fast); the browser modules drive the Space's alone (``AS_SHIPPED``). Each runs in a
subprocess on a free loopback port, started once per test process (pytest-xdist worker) and shared by the modules it runs (a start costs 5 to 6 CPU seconds, and
seven modules serve it), paused between them. Its HTTP(S) proxy is a local trap that records
every connection, so a request that gradio or a library it uses sends to any other host at start
or while serving is seen; each module's ``served`` fails its teardown on such a connection or on
a traceback that the app logged while the module's tests ran, and the server's own teardown on
one logged at any time, or on a download left in its temporary folder once it stopped. The
browser records every request to a non-loopback host. The
browser is Debian's chromium driven by Playwright (tests/run.sh installs both). Expected
scores are hand counts and ROUGE-1.5.5's values in tests/data/rouge155_golden.jsonl.
"""

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from gradio_client import Client
from playwright.sync_api import expect, sync_playwright
from sandbox import ConnectionTrap, clean_env, make_venv, proxy_variables

from update_rouge.space import write_space

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
START_TIMEOUT = 180
# What gradio prints as its launch ends (the app is then paused until a module needs it).
LAUNCHED = "To create a public link, set `share=True` in `launch()`."
START_ATTEMPTS = 3
UI_TIMEOUT_MS = 60_000
# Every assertion on the page waits as long as an action may (Playwright's own default is 5 s:
# too short for a page that is still loading on a busy 2-core machine, as in CI's parallel run).
expect.set_options(timeout=UI_TIMEOUT_MS)
DAN = (
    "Dan is a baker.",
    "Dan is a baker. Dan loves chocolate cakes.",
    "Dan is a baker. Dan loves chocolate chip cookies.",
)
# Hand counts: 3 of the prediction's 5 words match 3 of the reference's 4; 2 of 4 bigrams match 2 of 3.
SCORE_HEADERS = ["rouge type", "P", "R", "F1"]
DAN_SCORES = [
    ["rouge1", "0.6000", "0.7500", "0.6667"],
    ["rouge2", "0.5000", "0.6667", "0.5714"],
    ["rougeLsum", "0.6000", "0.7500", "0.6667"],
]
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def port_taken(port):
    """Whether a process listens on (or holds) loopback ``port``: it cannot be bound."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def served_url(process, log_path):
    """The URL the app ``process`` logs in ``log_path`` once it serves and its launch has ended
    (gradio's last line, after it checked that the URL answers); the test fails with its log if
    it exits or does not get there within ``START_TIMEOUT``."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        log_text = log_path.read_text(encoding="utf-8")
        match = re.search(r"Running on local URL:\s+(\S+)", log_text)
        if match and LAUNCHED in log_text:
            return match.group(1).rstrip("/")
        if process.poll() is not None:
            pytest.fail(f"app.py exited with {process.returncode}:\n{log_path.read_text(encoding='utf-8')}")
        if time.monotonic() > deadline:
            pytest.fail(f"app.py did not start in {START_TIMEOUT} s:\n{log_path.read_text(encoding='utf-8')}")
        time.sleep(0.5)


def stop(process):
    process.send_signal(signal.SIGCONT)  # a paused app (``served``) must run to end on SIGTERM
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=15)


@pytest.fixture(scope="session")
def trap():
    trap = ConnectionTrap()
    yield trap
    trap.close()


# The Space folder and its venv, made once per test session and shared by every module that
# serves the Space (the venv takes minutes to install). Under pytest-xdist (CI runs `-n 2`) the
# workers share one, made by the first worker that needs it, under a lock in the session's base
# folder (the parent of the workers' own): keyed by that folder.
_SPACES: dict[Path, tuple[Path, Path]] = {}


def _session_root(tmp_path_factory) -> Path:
    """The test session's base temporary folder, the same for every xdist worker."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _shared_space(root: Path) -> tuple[Path, Path]:
    """(python, folder) of the Space made under ``root`` (made now unless another process of
    the session has made it: a lock file serialises the making, a ready file marks it done)."""
    from filelock import FileLock  # datasets' dependency; tests/run.sh installs it with the package

    space, venv_dir, ready = root / "space" / "update_rouge", root / "space-venv", root / "space-ready"
    with FileLock(str(root / "space.lock")):
        if not ready.exists():
            write_space(space)
            make_venv(venv_dir, ["-r", str(space / "requirements.txt")])
            ready.write_text("made\n", encoding="utf-8")
    return venv_dir / "bin" / "python", space


def space_app(tmp_path_factory):
    """The Space folder and a venv with its requirements (made once a session); return
    (python, folder, env), the env with an HF_HOME of the caller's own."""
    root = _session_root(tmp_path_factory)
    if root not in _SPACES:
        _SPACES[root] = _shared_space(root)
    python, space = _SPACES[root]
    return python, space, clean_env(HF_HOME=str(tmp_path_factory.mktemp("hf")))


def failures_logged(log_text):
    """The tracebacks, and gradio's complaint about a handler's outputs, in ``log_text``: gradio
    logs a traceback (and marks the outputs errored in the page) for a handler that raises or
    returns what its outputs cannot take."""
    return "Traceback" in log_text or "didn't return enough output values" in log_text


# Serving the demo takes seconds: these tests run in the full run (tests/run.sh --all, CI),
# against the checkout and against the generated Space folder, each started once per process.
@pytest.fixture(
    scope="session",
    params=[pytest.param("checkout", marks=pytest.mark.slow), pytest.param("space", marks=pytest.mark.slow)],
)
def app_server(request, trap, tmp_path_factory):
    """Run `python app.py` until the process's tests of it are done; yield its URL, port and log."""
    if request.param == "checkout":
        python, cwd = sys.executable, REPO
        env = {key: value for key, value in os.environ.items() if not key.upper().startswith(("GRADIO_", "HF_"))}
    else:
        python, cwd, env = space_app(tmp_path_factory)
    app_tmp = tmp_path_factory.mktemp("app_tmp")
    env.update(PYTHONUNBUFFERED="1", TMPDIR=str(app_tmp), **proxy_variables(trap.port, "127.0.0.1,localhost"))
    log_path = tmp_path_factory.mktemp("app") / "app.log"
    process = None
    try:
        for attempt in range(1, START_ATTEMPTS + 1):
            port = free_port()
            env.update(GRADIO_SERVER_PORT=str(port))
            with open(log_path, "w", encoding="utf-8") as log:
                process = subprocess.Popen(
                    [str(python), "app.py"], cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT
                )
            url = served_url(process, log_path)
            # The port was free when chosen, but another process (Ray, a browser, another test's
            # server) may take it while the app starts (a minute on a loaded machine), and gradio
            # then serves on the next port: the app starts again on another one. A move while
            # the port was free is left for test_app_served_api to see.
            if url.endswith(f":{port}") or not port_taken(port) or attempt == START_ATTEMPTS:
                break
            stop(process)
        process.send_signal(signal.SIGSTOP)  # paused until a module's ``served`` needs it
        yield {"url": url, "port": port, "log": log_path, "process": process}
    finally:
        if process is not None:
            stop(process)
    # Nothing was fetched through the proxy, and no handler failed, from its start to its end.
    assert trap.connections == 0
    log_text = log_path.read_text(encoding="utf-8")
    assert not failures_logged(log_text), log_text
    # What the app wrote under its temporary folder (its downloads) is gone once it stopped.
    assert sorted(path.name for path in app_tmp.glob("update_rouge_*")) == []


# The browser modules' pytestmark: they drive the app as shipped, the Space, alone. The checkout's
# app.py serves the same demo package (and is called over HTTP by test_app_served_api.py); driving
# both in Chromium ran every browser check twice, about 570 s of CI's test processes' time.
AS_SHIPPED = pytest.mark.parametrize("app_server", [pytest.param("space", marks=pytest.mark.slow)], indirect=True)


@pytest.fixture(scope="module")
def served(app_server, trap):
    """The served app (``app_server``) for one module's tests; at the module's end, nothing was
    fetched through the proxy and no handler failed while they ran.

    Between modules the app is paused (SIGSTOP; resumed here with SIGCONT): gradio's queue polls
    every millisecond while it has nothing to do (``Queue.sleep_when_free``), about 8% of a core
    for each idle app, and the app started once per test process would burn that until the
    process's last test, beside the modules that do not use it."""
    connections = trap.connections
    logged = len(app_server["log"].read_text(encoding="utf-8"))
    app_server["process"].send_signal(signal.SIGCONT)
    yield app_server
    app_server["process"].send_signal(signal.SIGSTOP)
    assert trap.connections == connections
    log_text = app_server["log"].read_text(encoding="utf-8")[logged:]
    assert not failures_logged(log_text), log_text


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing: `bash tests/run.sh --all` installs Debian's chromium (or: apt-get install chromium)"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, served):
    """A fresh page on the app; ``page.outside_requests`` lists requests to non-loopback hosts,
    ``page.console_errors`` the console's errors and the page's uncaught exceptions."""
    page = open_page(browser, served, {"width": 1280, "height": 800})
    yield page
    page.close()


def open_page(browser, served, viewport):
    page = browser.new_page(viewport=viewport)
    page.console_errors = []
    page.on("console", lambda message: page.console_errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    page.set_default_timeout(UI_TIMEOUT_MS)
    page.outside_requests = []
    page.on(
        "request",
        lambda request: (
            page.outside_requests.append(request.url)
            if urlparse(request.url).scheme in ("http", "https", "ws", "wss")
            and urlparse(request.url).hostname not in LOOPBACK
            else None
        ),
    )
    page.joins = []
    page.on("request", lambda request: page.joins.append(request.url) if "/queue/join" in request.url else None)
    page.goto(served["url"], timeout=UI_TIMEOUT_MS)
    return page


def settle(page, quiet_ms=3000, limit_s=60):
    """Wait until the page has sent no event for ``quiet_ms`` (at most ``limit_s``): the events an
    edit, a tab or an upload started (an option's runs one after another, the last one last)
    are then answered, so a click that follows cannot be overtaken by one of them."""
    deadline = time.monotonic() + limit_s
    seen = -1
    while seen != len(page.joins) and time.monotonic() < deadline:
        seen = len(page.joins)
        page.wait_for_timeout(quiet_ms)


@pytest.fixture(scope="module")
def client(served):
    return Client(served["url"], verbose=False)


def grid_rows(locator, count):
    """The cell texts of a gradio Dataframe's body rows, once it shows ``count`` of them."""
    rows = locator.locator('[role="row"]:has([role="gridcell"])')
    expect(rows).to_have_count(count, timeout=UI_TIMEOUT_MS)
    return [[cell.strip() for cell in rows.nth(i).locator('[role="gridcell"]').all_inner_texts()] for i in range(count)]


def highlighted(page, elem_id):
    view = page.locator(f"#{elem_id}")
    return [
        [text.strip() for text in view.locator(selector).all_inner_texts()]
        for selector in (".token.highlighted .text", ".text.unlabeled")
    ]


def fill(page, source, reference, prediction):
    page.get_by_label("Source").fill(source)
    page.get_by_label("Reference").fill(reference)
    page.get_by_label("Prediction").fill(prediction)


def score(page):
    page.get_by_role("button", name="Score", exact=True).click()


def note(page):
    return page.locator("#note textarea")
