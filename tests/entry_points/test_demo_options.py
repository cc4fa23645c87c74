"""The demo's options (``demo.options``): the server's limits read from the environment; the
options named in every error of the handlers are in test_app_limits.py, the controls in
test_demo_page.py."""

import pytest

from demo import options as demo_options


def test_the_size_cap_comes_from_the_environment():
    assert demo_options.max_upload_mb({}) == 50
    assert demo_options.max_upload_mb({"UPDATE_ROUGE_DEMO_MAX_MB": "7.5"}) == 7.5
    for bad in ("0", "-1", "inf", "nan", "lots"):
        with pytest.raises(
            ValueError, match=f"UPDATE_ROUGE_DEMO_MAX_MB must be a number of megabytes > 0, got '{bad}'"
        ):
            demo_options.max_upload_mb({"UPDATE_ROUGE_DEMO_MAX_MB": bad})


def test_the_time_limit_and_the_served_lcs_limit_are_read_from_the_environment():
    assert demo_options.max_request_seconds({}) == 120
    assert demo_options.max_request_seconds({demo_options.MAX_SECONDS_VARIABLE: "2.5"}) == 2.5
    for bad in ("0", "-1", "inf", "soon"):
        with pytest.raises(ValueError, match=f"^{demo_options.MAX_SECONDS_VARIABLE} must be a number of seconds > 0"):
            demo_options.max_request_seconds({demo_options.MAX_SECONDS_VARIABLE: bad})
    variable = "UPDATE_ROUGE_MAX_PYTHON_LCS_CELLS"
    environ = {}
    demo_options.serve_limits(environ)
    assert environ == {variable: "20000000000"}
    environ = {variable: "5"}
    demo_options.serve_limits(environ)
    assert environ == {variable: "5"}
