"""demo.upload_limit: the refusal of a file over the upload cap, said alike by the server and by
the page's script (which tests/entry_points/test_app_browser_errors.py runs in Chromium)."""

import app
from demo import upload_limit
from demo.page import build_demo

REFUSAL = (
    "big.jsonl is 60.0 MB; this demo takes files up to 50 MB (UPDATE_ROUGE_DEMO_MAX_MB). "
    "Score larger files with the update-rouge command."
)


def test_the_refusal_names_the_file_its_size_and_the_cap_in_megabytes():
    assert upload_limit.too_big("big.jsonl", 60_000_000, 50) == REFUSAL
    assert upload_limit.too_big("a.csv", 7_560_000, 7.5).startswith(
        "a.csv is 7.6 MB; this demo takes files up to 7.5 MB"
    )


def test_gradio_refuses_in_bytes_what_the_cap_says_in_megabytes():
    # 50 MB is 50,000,000 bytes (gradio's own "50mb" is 52,428,800: a 51 MB file passed it).
    assert upload_limit.limit_bytes(50) == 50_000_000
    assert upload_limit.limit_bytes(0.001) == 1_000
    assert "max_file_size=limit_bytes(MAX_UPLOAD_MB)" in open(app.__file__, encoding="utf-8").read()


def test_the_pages_script_checks_the_cap_and_writes_the_servers_words():
    script = upload_limit.over_limit_js(50)
    assert "const limit = 50000000;" in script
    # The page fills in the name and the size (one decimal, as the server does).
    said = REFUSAL.replace("big.jsonl", "{name}").replace("60.0", "{size}")
    assert f'"Error: {said}"' in script
    assert ".toFixed(1)" in script and "#upload-over-limit" in script


def test_the_page_runs_the_script_at_load_and_its_hidden_button_writes_the_status_box():
    page = build_demo()
    config = page.get_config_file()
    button = next(c for c in config["components"] if c["props"].get("elem_id") == "upload-over-limit")
    assert button["props"]["visible"] == "hidden"
    status = next(c["id"] for c in config["components"] if c["props"].get("elem_id") == "batch-status")
    clicks = [d for d in config["dependencies"] if [button["id"], "click"] in [list(t) for t in d["targets"]]]
    assert [(d["js"], d["outputs"], d["backend_fn"]) for d in clicks] == [(upload_limit.SHOW_JS, [status], False)]
    loads = [d for d in config["dependencies"] if d["js"] == upload_limit.over_limit_js(50)]
    # The page's own load event (its id is gradio's counter in this process, 0 only in a fresh one).
    assert [([list(t) for t in d["targets"]], d["backend_fn"]) for d in loads] == [([[page._id, "load"]], False)]
