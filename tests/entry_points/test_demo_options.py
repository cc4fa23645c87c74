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
            ValueError,
            match=rf"^UPDATE_ROUGE_DEMO_MAX_MB='{bad}': expected a number of megabytes > 0; instead: UPDATE_ROUGE_DEMO_MAX_MB=50$",
        ):
            demo_options.max_upload_mb({"UPDATE_ROUGE_DEMO_MAX_MB": bad})


def test_the_time_limit_and_the_served_lcs_limit_are_read_from_the_environment():
    assert demo_options.max_request_seconds({}) == 120
    assert demo_options.max_request_seconds({demo_options.MAX_SECONDS_VARIABLE: "2.5"}) == 2.5
    for bad in ("0", "-1", "inf", "soon"):
        with pytest.raises(
            ValueError, match=f"^{demo_options.MAX_SECONDS_VARIABLE}='{bad}': expected a number of seconds > 0"
        ):
            demo_options.max_request_seconds({demo_options.MAX_SECONDS_VARIABLE: bad})
    variable = "UPDATE_ROUGE_MAX_PYTHON_LCS_CELLS"
    environ = {}
    demo_options.serve_limits(environ)
    assert environ == {variable: "20000000000"}
    environ = {variable: "5"}
    demo_options.serve_limits(environ)
    assert environ == {variable: "5"}


@pytest.mark.parametrize("option", ["deletions", "remove_stopwords"])
def test_a_checkbox_given_no_bool_by_the_http_api_is_refused_by_its_label_not_taken_as_ticked(option):
    # An HTTP client that sends "false" (a string) for a checkbox must not get it ticked: before,
    # bool("false") scored the deletions (or dropped the stopwords) and said nothing.
    from demo.handlers import score_one

    texts = ("Dan is a baker. He has a cat.", "Dan is a baker.", "Dan is a baker. He has a cat.")
    label = {"deletions": '"Score deletions too"', "remove_stopwords": "remove_stopwords"}[option]
    for value in ("false", "yes", 1):
        out = score_one(*texts, ["rouge1"], "none", **{option: value})
        assert out["scores"] is None
        assert out["note"] == f"Error: {label} must be True or False, got {value!r}; instead: untick {label}"
        # The advice, followed (unticked), scores; None (a client that sends no value) is unticked too.
        for unticked in (False, None):
            rows = score_one(*texts, ["rouge1"], "none", **{option: unticked})["scores"].values.tolist()
            assert [row[0] for row in rows] == ["rouge1"]
    # Ticked, the deletions add their row: the reference drops "He has a cat.", the prediction nothing.
    rows = score_one(*texts, ["rouge1"], "none", deletions=True)["scores"].values.tolist()
    assert rows[1] == ["del_rouge1", "0.0000", "0.0000", "0.0000"]
