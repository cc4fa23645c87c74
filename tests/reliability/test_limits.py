"""Issue 26, sections 2 and 3: limits that hold on every engine and entry point, checked before
scoring, and messages that say what happened (the demo's and the Trainer helper's are in
test_app_limits.py and test_reliability_api.py)."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from conftest import DATA_DIR, run_main

import update_rouge
from update_rouge.bootstrap import MAX_N_BOOTSTRAP
from update_rouge.comparison.significance import MAX_N_TRIALS
from update_rouge.file_lines import MAX_LINE_BYTES_VARIABLE
from update_rouge.integrations.rewards import update_rouge_reward
from update_rouge.integrations.trainer import make_compute_metrics
from update_rouge.lcs_limits import MAX_PYTHON_LCS_CELLS_VARIABLE, LcsTableTooLarge
from update_rouge.settings import Settings

# One example of 20 x 20 tokens (one line each side), after two small ones.
LONG = " ".join(["w"] * 20)
COLUMNS = {"sources": ["", "", ""], "references": ["a b.", "a b.", LONG], "predictions": ["a c.", "a b.", LONG]}


def write_jsonl(path, columns):
    """A JSONL file of ``columns``, with a second system ``base`` that adds nothing."""
    rows = zip(columns["sources"], columns["references"], columns["predictions"])
    path.write_text(
        "".join(json.dumps({"source": s, "reference": r, "prediction": p, "base": s}) + "\n" for s, r, p in rows)
    )
    return path


# 1. One LCS limit: every engine, every LCS type, every entry point, before scoring.


# The cost of example 2's 20 x 20 tokens: its cells, plus for the summary-level types its one line
# pair (lcs_limits.PAIR_CELLS: python rougeLsum 200, ROUGE-W 9,000, rust rougeLsum 400, rouge-score 60,000).
ONE_PAIR_COSTS = {
    ("python", "rougeL"): 400,
    ("rust", "rougeL"): 400,
    ("rouge-score", "rougeL"): 400,
    ("python", "rougeLsum"): 600,
    ("rust", "rougeLsum"): 800,
    ("rouge-score", "rougeLsum"): 60_400,
    ("python", "rougeW"): 9_400,
}


@pytest.mark.parametrize("engine", ["auto", "python", "rust", "rouge-score"])
@pytest.mark.parametrize("rouge_type", ["rougeL", "rougeLsum", "rougeW"])
def test_the_lcs_limit_holds_on_every_engine(compute, monkeypatch, engine, rouge_type):
    if rouge_type == "rougeW" and engine in ("rust", "rouge-score"):
        pytest.skip("ROUGE-W runs on the python engine only (refused by name for the others)")
    runs = engine
    if engine == "auto":
        runs = "rust" if rouge_type != "rougeW" and update_rouge.engines.rust_available() else "python"
    cost = ONE_PAIR_COSTS[runs, rouge_type]
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, str(cost - 1))
    with pytest.raises(ValueError) as caught:
        compute(**COLUMNS, rouge_types=[rouge_type], engine=engine)
    assert type(caught.value).__name__ == LcsTableTooLarge.__name__  # the evaluate module has its own copy
    pairs = "" if cost == 400 else f" with their line pairs (a cost of {cost:,} cells)"
    assert str(caught.value) == (
        f"example 2: {rouge_type} of 20 x 20 tokens{pairs} is more than the LCS limit of {cost - 1:,} cells (minutes of "
        f"computing on any engine; raise it with the environment variable {MAX_PYTHON_LCS_CELLS_VARIABLE})"
    )
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, str(cost))
    at_the_limit = compute(**COLUMNS, rouge_types=[rouge_type], engine=engine)
    monkeypatch.delenv(MAX_PYTHON_LCS_CELLS_VARIABLE)
    assert at_the_limit == compute(**COLUMNS, rouge_types=[rouge_type], engine=engine)
    if rouge_type != "rougeW":
        # Example 0: 2 tokens each side ("a", "b" / "a", "c"), one in common: 0.5; then 1.0 and 1.0.
        assert at_the_limit[f"update_{rouge_type}"] == pytest.approx(2.5 / 3, abs=1e-12)


def one_token_lines(count):
    """``count`` one-word sentences added on each side of an empty source."""
    return {
        "sources": [""],
        "references": [" ".join(f"r{i % 50}." for i in range(count))],
        "predictions": [" ".join(f"r{(7 * i) % 50}." for i in range(count))],
    }


@pytest.mark.parametrize(
    "rouge_type, engine, count, additions",
    [
        ("rougeW-1.2", "python", 10_000, "sentences"),  # 100,000,000 line pairs of one cell: 66 s before
        ("rougeW", "python", 10_000, "edits"),  # every other token changed: 69 s before
        ("rougeLsum", "python", 32_000, "sentences"),  # 30,000 x 30,000 took 23 s: allowed, 32,000 not
        ("rougeLsum", "rust", 23_000, "sentences"),
        ("rougeLsum", "rouge-score", 2_000, "sentences"),
    ],
)
def test_many_short_lines_count_their_line_pairs_and_are_refused_before_scoring(rouge_type, engine, count, additions):
    texts = one_token_lines(count)
    if additions == "edits":
        words = [f"w{i}" for i in range(2 * count)]
        texts = {
            "sources": [" ".join(words)],
            "references": [" ".join(w if i % 2 else f"r{i % 50}" for i, w in enumerate(words))],
            "predictions": [" ".join(w if i % 2 else f"q{i % 50}" for i, w in enumerate(words))],
        }
    started = time.monotonic()
    with pytest.raises(LcsTableTooLarge, match=r"with their line pairs \(a cost of [\d,]+ cells\) is more than"):
        update_rouge.compute(
            **texts, rouge_types=[rouge_type], engine=engine, additions=additions, confidence_level=None
        )
    assert time.monotonic() - started < 20  # refused before the walk, not after it


def test_a_megabyte_without_a_full_stop_is_refused_at_once_by_the_accelerator():
    text = " ".join(["a", "b"] * 250_000)  # 500,000 tokens, about 1 MB: an 88 s rougeL before
    started = time.monotonic()
    with pytest.raises(LcsTableTooLarge, match="^example 0: rougeL of 500,000 x 500,000 tokens"):
        update_rouge.compute(sources=[""], references=[text], predictions=[text], rouge_types=["rougeL"])
    assert time.monotonic() - started < 10, "refused after scoring, not before"


def test_the_lcs_limit_in_compare_the_reward_and_the_cli(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "399")
    data = write_jsonl(tmp_path / "data.jsonl", COLUMNS)
    argv = ["compare", data, "--system", "prediction", "--system", "base", "--rouge-types", "rougeL"]
    status, out, err = run_main(argv, capsys)
    assert (status, out) == (2, "")
    assert "rougeL of 20 x 20 tokens is more than the LCS limit of 399 cells" in err
    reward = update_rouge_reward("rougeL")
    with pytest.raises(ValueError, match="rougeL of 20 x 20 tokens is more than the LCS limit of 399 cells"):
        reward(completions=COLUMNS["predictions"], source=COLUMNS["sources"], reference=COLUMNS["references"])


class WordIds:
    """A tokenizer for the Trainer helper: id 1 is the word "w", 0 is padding."""

    pad_token_id = 0

    def batch_decode(self, rows, skip_special_tokens):
        return [" ".join("w" for token in row if token) for row in rows]

    def __len__(self):
        return 2


def test_the_lcs_limit_in_the_trainer_helper(monkeypatch):
    ids = np.array([[1] * 20, [1, 1] + [0] * 18])  # 20 words, then 2 words
    metrics = make_compute_metrics(WordIds(), sources=["", ""], rouge_types=["rougeL"])
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "399")
    with pytest.raises(ValueError, match="^example 0: rougeL of 20 x 20 tokens is more than the LCS limit of 399"):
        metrics(SimpleNamespace(predictions=ids, label_ids=ids, inputs=None))
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "400")
    assert metrics(SimpleNamespace(predictions=ids, label_ids=ids, inputs=None))["update_rougeL"] == 1.0


# 2. Numbers: ranges found by trying them, every number type, checked when Settings are built.


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
        "the ROUGE-W weight must be greater than 1 and at most 5 (a larger one overflows a double)"
    )


@pytest.mark.parametrize(
    "name, value, same_as",
    [
        ("alpha", np.float32(0.5), 0.5),
        ("alpha", np.float32(0.3), float(np.float32(0.3))),
        ("alpha", Fraction(1, 4), 0.25),
        ("alpha", np.int64(1), 1.0),
        ("max_words", np.int64(3), 3),
        ("max_bytes", np.uint16(9), 9),
        ("seed", np.int32(7), 7),
        ("n_bootstrap", np.int64(50), 50),
        ("confidence_level", np.float64(0.9), 0.9),
        ("num_proc", np.int8(1), 1),
    ],
)
def test_numpy_and_other_number_types_give_the_same_numbers(compute, name, value, same_as):
    texts = dict(
        sources=["Dan is a baker.", "Ann is a nurse."],
        predictions=["Dan is a baker. He bakes bread daily.", "Ann is a nurse. She works."],
        references=["Dan is a baker. He bakes cakes.", "Ann is a nurse. She works at night."],
        rouge_types=["rouge1", "rougeL"],
    )
    assert compute(**texts, **{name: value}) == compute(**texts, **{name: same_as})
    settings = Settings(**{name: value})
    assert type(getattr(settings, name)) is type(same_as), f"{name} kept as {type(getattr(settings, name))}"


@pytest.mark.parametrize(
    "name, value",
    [
        ("alpha", "0.5"),
        ("alpha", np.bool_(True)),
        ("alpha", True),
        ("max_words", "3"),
        ("max_words", True),
        ("seed", np.float64(3.0)),
        ("n_bootstrap", np.bool_(True)),
        ("num_proc", "2"),
        ("confidence_level", "0.9"),
    ],
)
def test_bools_and_strings_are_not_numbers(name, value):
    with pytest.raises(ValueError, match=f"^{name} must be .*got {re.escape(repr(value))}$"):
        Settings(**{name: value})


def test_compare_n_trials_is_capped_before_reading(tmp_path, capsys):
    status, out, err = run_main(
        ["compare", tmp_path / "absent.jsonl", "--system", "p", "--method", "randomization", "--n-trials", 10**13],
        capsys,
    )
    assert (status, out) == (2, "")
    assert f"update-rouge compare: error: --n-trials must be at most {MAX_N_TRIALS:,} trials" in err
    assert MAX_N_TRIALS == MAX_N_BOOTSTRAP  # the same bound as the resamples


# 3. One input line is bounded, whatever the layout.


def test_an_endless_line_is_refused_with_file_and_line(capsys, monkeypatch):
    monkeypatch.setenv(MAX_LINE_BYTES_VARIABLE, "100000")
    started = time.monotonic()
    status, out, err = run_main(["/dev/zero", "--input-format", "jsonl"], capsys)
    assert (status, out) == (2, "")
    assert err == (
        "update-rouge: error: /dev/zero:1: a line longer than 100,000 bytes, the limit of one line (raise it "
        f"with the environment variable {MAX_LINE_BYTES_VARIABLE})\n"
    )
    assert time.monotonic() - started < 10


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
    monkeypatch.setattr("update_rouge.outputs.os.access", lambda path, mode: path != str(tmp_path / "locked"))
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
        "add_batch call 3 since the last compute gives lists of references, but call 1 gave single references "
        "(strings): every example until compute needs the same form (a single reference can be given as a list of one)"
    )
    # The two stored examples are kept and scored (1.0 each); then lists are a new form's start.
    assert evaluate_metric.compute(rouge_types=["rouge1"])["update_rouge1"] == 1.0
    evaluate_metric.add(prediction="x. a", reference=["x. a", "x. b"], sources="x.")
    with pytest.raises(ValueError, match="^add call 2 since the last compute gives single references"):
        evaluate_metric.add(prediction="x. a", reference="x. a", sources="x.")
    assert evaluate_metric.compute(rouge_types=["rouge1"])["update_rouge1"] == 1.0
