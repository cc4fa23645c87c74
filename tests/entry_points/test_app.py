"""``app.py``, the Space's entry point, imported rather than run: importing it serves nothing and
leaves the signal handlers alone (only ``python app.py`` serves), and SIGTERM ends the served app
through ``SystemExit`` with 128 + 15, so that ``atexit`` removes the downloads folder
(``demo.downloads``). The served app is tested in test_app_served_api.py and, in Chromium, in
test_app_browser_*.py."""

import importlib
import signal

import pytest


def test_importing_the_app_serves_nothing_and_leaves_sigterm_alone():
    before = signal.getsignal(signal.SIGTERM)
    app = importlib.import_module("app")
    assert signal.getsignal(signal.SIGTERM) is before
    assert app.__name__ == "app" and callable(app._exit_on_sigterm)


def test_sigterm_exits_with_143_through_system_exit():
    app = importlib.import_module("app")
    with pytest.raises(SystemExit) as exit_info:
        app._exit_on_sigterm(signal.SIGTERM, None)
    assert exit_info.value.code == 143
