"""Issue 26, sections 2 and 3: limits that hold on every engine and entry point, checked before
scoring, and messages that say what happened (the demo's and the Trainer helper's are in
test_app_limits.py and test_reliability_api.py; the LCS limit's in test_lcs_limits.py, the
number types' in test_option_numbers.py)."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import COLUMNS, DATA_DIR, WordIds, run_main, write_jsonl

from update_rouge.bootstrap import MAX_N_BOOTSTRAP
from update_rouge.comparison.significance import MAX_N_TRIALS
from update_rouge.files.lines import MAX_LINE_BYTES_VARIABLE
from update_rouge.integrations.rewards import update_rouge_reward
from update_rouge.integrations.trainer import make_compute_metrics
from update_rouge.settings import Settings

# 1. One LCS limit, every engine, every LCS type, every entry point: test_lcs_limits.py.


# 2. Numbers: ranges found by trying them, checked when Settings are built (every number type:
# test_option_numbers.py).


@pytest.mark.parametrize(
    "rouge_type, message",
    [
        ("rougeW-2000", "rouge type 'rougeW-2000': the ROUGE-W weight must be greater than 1 and at most 5"),
        ("rougeW-5.0001", "the ROUGE-W weight must be greater than 1 and at most 5"),
        ("rougeS9223372036854775807", "the skip distance must be from 0 to 9223372036854775806"),
        ("rougeSU" + "9" * 30, "the skip distance must be from 0 to 9223372036854775806"),
    ],
)
def test_numbers_in_rouge_types_beyond_their_range_are_refused_when_settings_are_built(rouge_type, message):
    with pytest.raises(ValueError, match=message):
        Settings(rouge_types=[rouge_type])
    with pytest.raises(ValueError, match=message):
        update_rouge_reward(rouge_type)
    with pytest.raises(ValueError, match=message):
        make_compute_metrics(WordIds(), sources=["a"], rouge_types=[rouge_type])


def test_the_largest_skip_distance_counts_every_pair_and_the_largest_weight_scores(compute):
    texts = dict(sources=["x."], references=["x. a b c d a b e."], predictions=["x. b a c d e a."])
    largest = compute(**texts, rouge_types=["rougeS9223372036854775806", "rougeS"], confidence_level=None)
    assert largest["update_rougeS9223372036854775806"] == largest["update_rougeS"]
    assert largest["update_rougeS"] == pytest.approx(13 / 18, abs=1e-12)  # 13 hits of 21 and 15 pairs
    weighted = compute(**texts, rouge_types=["rougeW-5"], confidence_level=None)["update_rougeW-5_precision"]
    assert 0 < weighted <= 1


def test_rouge_w_2000_on_the_command_line_is_a_usage_error(capsys):
    status, out, err = run_main([DATA_DIR / "fruit_triples.jsonl", "--rouge-types", "rougeW-2000"], capsys)
    assert (status, out) == (2, "")
    assert err.strip().endswith(
        "the ROUGE-W weight must be greater than 1 and at most 5 (a larger one overflows a double); instead: leave out --rouge-types"
    )


def test_compare_n_trials_is_capped_before_reading(tmp_path, capsys):
    status, out, err = run_main(
        ["compare", tmp_path / "absent.jsonl", "--system", "p", "--system", "q", "--method", "randomization"]
        + ["--n-trials", 10**13],
        capsys,
    )
    assert (status, out) == (2, "")
    assert f"update-rouge compare: error: --n-trials must be at most {MAX_N_TRIALS:,} trials" in err
    assert MAX_N_TRIALS == MAX_N_BOOTSTRAP  # the same bound as the resamples


# 3. One input line is bounded, whatever the layout.


def test_an_endless_line_is_refused_with_file_and_line(capsys, monkeypatch):
    monkeypatch.setenv(MAX_LINE_BYTES_VARIABLE, "100000")
    status, out, err = run_main(["/dev/zero", "--input-format", "jsonl"], capsys)
    assert (status, out) == (2, "")
    assert err == (
        "update-rouge: error: /dev/zero:1: a line longer than 100,000 bytes, the limit of one line (raise it "
        f"with the environment variable {MAX_LINE_BYTES_VARIABLE})\n"
    )


@pytest.mark.parametrize("num_proc", ["1", "2"])
def test_a_csv_record_over_the_limit_is_refused_with_file_and_line(tmp_path, capsys, monkeypatch, num_proc):
    # An unclosed quote: the rest of the file, 4 MB of short lines, is one record.
    monkeypatch.setenv(MAX_LINE_BYTES_VARIABLE, "100000")
    path = tmp_path / "data.csv"
    path.write_bytes(b"source,reference,prediction\n,a b.,a b.\n\n" + b',a b.,"a\n' + b"x y\n" * 1_000_000)
    status, out, err = run_main([path, "--num-proc", num_proc], capsys)
    assert (status, out) == (2, "")
    # With --num-proc 2, first a line saying that one chunk makes one worker.
    assert err.endswith(
        f"update-rouge: error: {path}:4: a record (its quoted cells span lines) longer than 100,000 bytes, the "
        f"limit of one record (raise it with the environment variable {MAX_LINE_BYTES_VARIABLE})\n"
    )
    assert err.count("\n") == int(num_proc)


@pytest.mark.parametrize("layout", ["jsonl", "csv", "text files"])
def test_a_long_line_names_its_file_and_line_and_one_at_the_limit_is_read(tmp_path, capsys, monkeypatch, layout):
    row = {"source": "", "reference": "a b.", "prediction": "a b."}
    long_row = dict(row, prediction="x " * 300)
    if layout == "jsonl":
        lines = [json.dumps(r) for r in (row, row, long_row)]
        argv = [tmp_path / "data.jsonl"]
        (tmp_path / "data.jsonl").write_text("\n".join(lines) + "\n")
        long_file, long_line = "data.jsonl", 3
    elif layout == "csv":
        lines = ["source,reference,prediction", ",a b.,a b.", ",a b.,a b.", ",a b.," + long_row["prediction"]]
        argv = [tmp_path / "data.csv"]
        (tmp_path / "data.csv").write_text("\n".join(lines) + "\n")
        long_file, long_line = "data.csv", 4
    else:
        for name, texts in (("s", ["", "", ""]), ("r", ["a b."] * 3), ("p", ["a b.", "a b.", long_row["prediction"]])):
            (tmp_path / name).write_text("\n".join(texts) + "\n")
        argv = ["--sources", tmp_path / "s", "--references", tmp_path / "r", "--predictions", tmp_path / "p"]
        lines = ["a b.", "a b.", long_row["prediction"]]
        long_file, long_line = "p", 3
    longest = max(len(line.encode()) + 1 for line in lines)  # with its "\n"
    monkeypatch.setenv(MAX_LINE_BYTES_VARIABLE, str(longest - 1))
    status, out, err = run_main(argv, capsys)
    assert (status, out) == (2, "")
    assert f"{tmp_path / long_file}:{long_line}: a line longer than {longest - 1:,} bytes" in err
    monkeypatch.setenv(MAX_LINE_BYTES_VARIABLE, str(longest))
    status, out, _ = run_main([*argv, "--rouge-types", "rouge1"], capsys)
    assert status == 0
    assert json.loads(out)["update_rouge1"] == pytest.approx(2 / 3, abs=1e-12)  # 1, 1 and 0 (x adds nothing shared)


def test_a_bad_line_limit_names_the_variable(capsys, monkeypatch):
    monkeypatch.setenv(MAX_LINE_BYTES_VARIABLE, "lots")
    status, _, err = run_main([DATA_DIR / "fruit_triples.jsonl"], capsys)
    assert status == 2
    assert f"{MAX_LINE_BYTES_VARIABLE}='lots': expected a positive integer (bytes)" in err


# 4. Paths in messages and outputs checked before scoring.


def test_a_path_with_a_line_end_stays_on_one_line(tmp_path, capsys):
    path = tmp_path / "two\nlines.jsonl"
    path.write_text('{"source": "", "reference": 1, "prediction": "a"}\n')
    status, _, err = run_main([path], capsys)
    assert status == 2
    assert err.count("\n") == 1, err
    assert f"{str(path)!r}:1: reference must be a string or a non-empty array of strings, got a number" in err


@pytest.mark.parametrize("command", ["score", "compare"])
@pytest.mark.parametrize("output", ["a folder", "a missing folder", "an unusable folder"])
def test_an_output_that_cannot_be_written_is_named_before_scoring(tmp_path, capsys, monkeypatch, command, output):
    path = {"a folder": tmp_path, "a missing folder": tmp_path / "absent" / "out.jsonl"}.get(output)
    path = path or "/proc/update-rouge-out.jsonl"  # not writable, even by root
    data = write_jsonl(tmp_path / "data.jsonl", COLUMNS)
    scored = []
    for method in ("tables", "examples"):
        monkeypatch.setattr(f"update_rouge.metric.UpdateRougeScorer.{method}", lambda *a, **k: scored.append(1))
    argv = [data] if command == "score" else ["compare", data, "--system", "prediction", "--system", "base"]
    argv += ["--per-example", path]
    status, out, err = run_main(argv, capsys)
    assert (status, out, scored) == (2, "", [])
    assert err.count("\n") == 1, err
    expected = {
        "a folder": f"the output {path} is a folder: name a file",
        "a missing folder": f"the output {path} is in a folder that does not exist",
        "an unusable folder": f"cannot write {path}: ",
    }[output]
    assert f"error: {expected}" in err
    assert ".tmp" not in err


def test_an_output_in_a_folder_this_user_cannot_write_is_named(tmp_path, capsys, monkeypatch):
    # Root may write anywhere, so the refusal of the folder's permissions is simulated.
    monkeypatch.setattr("update_rouge.files.outputs.os.access", lambda path, mode: path != str(tmp_path / "locked"))
    (tmp_path / "locked").mkdir()
    out = tmp_path / "locked" / "out.jsonl"
    status, _, err = run_main([write_jsonl(tmp_path / "data.jsonl", COLUMNS), "--per-example", out], capsys)
    assert (status, err) == (2, f"update-rouge: error: cannot write the output {out}: its folder is not writable\n")


# 5. An interrupt says which output files it left complete.


def test_sigterm_during_the_bootstrap_names_the_per_example_file_it_replaced(tmp_path):
    rows = [json.loads(line) for line in (DATA_DIR / "iterater_triples.jsonl").read_text().splitlines()]
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in rows * 5))
    out = tmp_path / "per.jsonl"
    out.write_text("old\n")
    command = [sys.executable, "-m", "update_rouge", data, "--per-example", out, "--n-bootstrap", str(MAX_N_BOOTSTRAP)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while out.read_text() == "old\n" and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        assert out.read_text() != "old\n", "the per-example file was not replaced within 60 s"
        time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 128 + signal.SIGTERM, err
    assert err == (
        f"update-rouge: interrupted by SIGTERM: stopped; {out} had been written completely; "
        "no other output file was changed\n"
    )
    assert len(out.read_text().splitlines()) == len(rows) * 5
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    assert os.path.exists(out)


# 6. The evaluate module names its keys and the call whose references differ in form.


@pytest.mark.parametrize(
    "call, expected",
    [
        (lambda m: m.add(prediction="a", reference="b", source="c"), "add(prediction=..., reference=..., sources=...)"),
        (
            lambda m: m.add_batch(predictions=["a"], references=["b"], source=["c"]),
            "add_batch(predictions=..., references=..., sources=...)",
        ),
    ],
    ids=["add", "add_batch"],
)
def test_singular_keys_are_named_with_the_expected_ones(evaluate_metric, call, expected):
    with pytest.raises(TypeError) as caught:
        call(evaluate_metric)
    assert str(caught.value).startswith(f"unexpected keyword argument(s) source=: use {expected}")


def test_a_batch_whose_references_differ_in_form_is_named(evaluate_metric):
    evaluate_metric.add_batch(predictions=["x. a b"], references=["x. a b"], sources=["x."])
    evaluate_metric.add(prediction="x. a c", reference="x. a c", sources="x.")
    with pytest.raises(ValueError) as caught:
        evaluate_metric.add_batch(predictions=["x. a"], references=[["x. b"]], sources=["x."])
    assert str(caught.value) == (
        "references[2] (add_batch call 3 since the last compute) gives lists of references, but call 1 gave single "
        "references (strings): every example until compute needs the same form; give every reference as a list "
        "(a single reference as a list of one)"
    )
    # The two stored examples are kept and scored (1.0 each); then lists are a new form's start.
    assert evaluate_metric.compute(rouge_types=["rouge1"])["update_rouge1"] == 1.0
    evaluate_metric.add(prediction="x. a", reference=["x. a", "x. b"], sources="x.")
    with pytest.raises(
        ValueError, match=r"^references\[1\] \(add call 2 since the last compute\) gives single references"
    ):
        evaluate_metric.add(prediction="x. a", reference="x. a", sources="x.")
    assert evaluate_metric.compute(rouge_types=["rouge1"])["update_rouge1"] == 1.0
