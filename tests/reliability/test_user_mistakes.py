"""Every user mistake of issue 57's list, made at its door (a Python keyword, a command line flag, a
reward, compare), is an ``UpdateRougeError`` naming its option or field, and its advice, followed,
makes the call succeed. The hierarchy docs/guarantees.md states is the true one, and the errors
of a metric loaded by ``evaluate.load`` are caught as that page says."""

import json
import re
import sys
from pathlib import Path

import pytest
from conftest import run_main

import update_rouge
from update_rouge import InputError, LcsTableTooLarge, OptionError, UnknownOptionError, compare, compute
from update_rouge.errors import UpdateRougeError, followed
from update_rouge.integrations.rewards import update_rouge_reward
from update_rouge.lcs_limits import MAX_PYTHON_LCS_CELLS_VARIABLE

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ["Bo is a cat.", "It rained.", "Dan bakes."]
PREDICTIONS = ["Bo is a cat. Bo is ten.", "It rained. The river rose.", "Dan bakes. Dan sells bread."]
REFERENCES = ["Bo is a cat. Bo is ten years old.", "It rained. The river flooded.", "Dan bakes. Dan sells cakes."]
DATA = {"sources": SOURCES, "predictions": PREDICTIONS, "references": REFERENCES}
SYSTEMS = {"copy": SOURCES, "model": PREDICTIONS}
QUICK = {"n_bootstrap": 20, "rouge_types": ["rouge1"]}


def _compare(**call):
    return compare(SOURCES, REFERENCES, **{"systems": SYSTEMS, "baseline": "copy", **call})


def _compute(**call):
    return compute(**DATA, **call)


def _reward(**call):
    reward = update_rouge_reward(**call)
    return reward(completions=PREDICTIONS, source=SOURCES, reference=REFERENCES)


# (door, the call that makes the mistake, the option or field the error names)
OPTION_MISTAKES = [
    (_compare, {**QUICK, "method": "bootsrap"}, "method"),
    (_compare, {**QUICK, "correction": "bonferroni"}, "correction"),
    (_compare, {**QUICK, "baseline": "nobody"}, "baseline"),
    (_compare, {**QUICK, "metod": "randomization"}, "metod"),
    (_compare, {**QUICK, "deletions": True, "protocol": "fruit"}, "protocol"),
    (_reward, {"reward": "rouge1_f2"}, "reward"),
    (_reward, {"reward": "del_"}, "reward"),
    (_reward, {"reward": {"rouge1": 1, "del_rouge1_f3": 2}}, "reward"),
    (_reward, {"reward": "del_rouge1", "deletions": False}, "deletions"),
    (_reward, {"reward": "rouge1", "seed": 3}, "seed"),
    (_reward, {"reward": "rouge1", "stemer": "porter"}, "stemer"),
    (_compute, {**QUICK, "group_by": ["a", "b", "a"], "use_aggregator": False}, "group_by"),
    (_compute, {**QUICK, "protocol": "fruit", "deletions": True, "baseline_predictions": SOURCES}, "protocol"),
]


@pytest.mark.parametrize(
    "door, call, option", OPTION_MISTAKES, ids=[f"{door.__name__}-{call}"[:60] for door, call, _ in OPTION_MISTAKES]
)
def test_an_option_mistake_names_its_option_and_every_advice_followed_succeeds(door, call, option):
    with pytest.raises(OptionError) as raised:
        door(**call)
    error = raised.value
    assert isinstance(error, UpdateRougeError) and error.option == option
    assert error.instead, f"{error} gives no advice"
    for changes in error.instead:
        door(**followed(call, changes))  # raises if the advice does not work


def test_compare_with_one_system_names_systems_and_adding_one_succeeds():
    with pytest.raises(OptionError, match=r"^systems must hold the baseline and at least one other") as raised:
        compare(SOURCES, REFERENCES, {"copy": SOURCES}, "copy", **QUICK)
    assert raised.value.option == "systems"
    assert set(compare(SOURCES, REFERENCES, SYSTEMS, "copy", **QUICK)) == {"copy", "model"}  # one system added


def test_an_unknown_keyword_is_still_a_type_error():
    with pytest.raises(TypeError) as raised:
        _compare(metod="randomization")
    assert isinstance(raised.value, UnknownOptionError)
    assert str(raised.value).startswith("compare() got an unexpected keyword argument 'metod'; instead: method=")


def test_two_references_under_fruit_name_the_example_and_both_advices_work():
    references = [[REFERENCES[0]], [REFERENCES[1], REFERENCES[2]], [REFERENCES[2]]]
    with pytest.raises(InputError) as raised:
        compute(SOURCES, PREDICTIONS, references, protocol="fruit")
    assert (raised.value.field, raised.value.index) == ("references", 1)
    assert str(raised.value) == (
        "references[1] holds 2 references, but protocol='fruit' takes one per example (FRUIT's edit_rouge has "
        "no several): give it one, or leave out protocol"
    )
    assert compute(SOURCES, PREDICTIONS, [references[0], [REFERENCES[1]], references[2]], protocol="fruit")
    assert compute(SOURCES, PREDICTIONS, references, n_bootstrap=20)


def test_a_bad_lcs_limit_variable_is_an_option_error_whose_value_works(monkeypatch):
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "lots")
    with pytest.raises(OptionError) as raised:
        compute(**DATA, rouge_types=["rougeL"], n_bootstrap=20)
    error = raised.value
    assert error.option == MAX_PYTHON_LCS_CELLS_VARIABLE and error.value == "lots"
    (change,) = error.instead[0]
    monkeypatch.setenv(change.option, str(change.value))
    assert compute(**DATA, rouge_types=["rougeL"], n_bootstrap=20)["update_rougeL"] > 0


def test_an_lcs_refusal_is_an_input_error_and_raising_the_limit_works(monkeypatch):
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "4")
    with pytest.raises(InputError) as raised:
        compute(**DATA, rouge_types=["rougeL"], n_bootstrap=20)
    assert type(raised.value) is LcsTableTooLarge and raised.value.index == 0
    assert f"raise it with the environment variable {MAX_PYTHON_LCS_CELLS_VARIABLE}" in str(raised.value)
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "1000")
    assert compute(**DATA, rouge_types=["rougeL"], n_bootstrap=20)


@pytest.fixture
def systems_file(tmp_path):
    path = tmp_path / "systems.jsonl"
    rows = zip(SOURCES, REFERENCES, SOURCES, PREDICTIONS)
    keys = ("source", "reference", "copy", "model")
    path.write_text("".join(json.dumps(dict(zip(keys, row))) + "\n" for row in rows), encoding="utf-8")
    return path


# (the command line's words after "FILE", the line it ends with, each advice as the words that follow it)
CLI_MISTAKES = [
    (
        ["compare", "--system", "copy", "--system", "model", "--deletions", "--protocol", "fruit"],
        "--protocol fruit reproduces a published script, which has no --deletions option; "
        "instead: leave out --protocol, or --protocol autometrics and leave out --deletions",
        [
            ["compare", "--system", "copy", "--system", "model", "--deletions"],
            ["compare", "--system", "copy", "--system", "model", "--protocol", "autometrics"],
        ],
    ),
    (
        ["compare", "--system", "copy", "--system", "model", "--baseline", "base"],
        "--baseline base is not one of the systems ('copy', 'model'); instead: --baseline copy, or --baseline model",
        [["compare", "--system", "copy", "--system", "model", "--baseline", "model"]],
    ),
    (
        ["compare", "--system", "copy"],
        "--system must hold the baseline and at least one other system to compare with it, got 1: "
        "add the system to compare",
        [["compare", "--system", "copy", "--system", "model"]],
    ),
]


@pytest.mark.parametrize("words, line, advice", CLI_MISTAKES, ids=[line[:40] for _, line, _ in CLI_MISTAKES])
def test_a_command_line_mistake_names_its_flag_and_its_advice_followed_succeeds(
    systems_file, capsys, words, line, advice
):
    status, out, err = run_main([words[0], systems_file, *words[1:], "--n-bootstrap", "20"], capsys)
    assert (status, out, err) == (2, "", f"update-rouge compare: error: {line}\n")
    for followed_words in advice:
        status, out, err = run_main(
            [followed_words[0], systems_file, *followed_words[1:], "--n-bootstrap", "20"], capsys
        )
        assert status == 0, err


def test_two_references_under_fruit_at_the_command_line_name_the_line(tmp_path, capsys):
    path = tmp_path / "x.jsonl"
    rows = [{"source": s, "prediction": p, "reference": r} for s, p, r in zip(SOURCES, PREDICTIONS, REFERENCES)]
    rows[1]["reference"] = [REFERENCES[1], REFERENCES[2]]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    status, _, err = run_main([path, "--protocol", "fruit"], capsys)
    assert (status, err) == (
        2,
        "update-rouge: error: line 2: references holds 2 references, but --protocol fruit takes one per example "
        "(FRUIT's edit_rouge has no several): give it one, or leave out --protocol\n",
    )
    status, _, err = run_main([path, "--n-bootstrap", "20"], capsys)
    assert status == 0, err


def test_a_bad_lcs_limit_variable_at_the_command_line_names_it_and_its_value_works(monkeypatch, tmp_path, capsys):
    path = tmp_path / "x.jsonl"
    rows = [{"source": s, "prediction": p, "reference": r} for s, p, r in zip(SOURCES, PREDICTIONS, REFERENCES)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "0")
    status, _, err = run_main([path, "--rouge-types", "rougeL", "--n-bootstrap", "20"], capsys)
    variable = MAX_PYTHON_LCS_CELLS_VARIABLE
    assert (status, err) == (
        2,
        f"update-rouge: error: {variable}='0': expected a positive integer (table cells); instead: {variable}=200000000000\n",
    )
    monkeypatch.setenv(variable, "200000000000")
    assert run_main([path, "--rouge-types", "rougeL", "--n-bootstrap", "20"], capsys)[0] == 0


def _documented_hierarchy() -> dict[str, str]:
    """docs/guarantees.md's table of the errors you can catch: exception -> its base."""
    text = (ROOT / "docs" / "guarantees.md").read_text(encoding="utf-8")
    table = text.split("## Errors you can catch", 1)[1].split("\n\n")[2]
    rows = [re.findall(r"`([A-Za-z]+)`", line)[:2] for line in table.splitlines()[2:]]
    return dict(rows)  # type: ignore[arg-type]


def _every_error() -> list[type]:
    import update_rouge.files.lines
    import update_rouge.tokens  # noqa: F401 (their classes)

    found, pending = [], [UpdateRougeError]
    while pending:
        found += pending[0].__subclasses__()
        pending = pending[1:] + pending[0].__subclasses__()
    return sorted({error for error in found if error.__module__.startswith("update_rouge.")}, key=lambda e: e.__name__)


def test_the_documented_hierarchy_is_the_true_one():
    true = {
        error.__name__: next(base.__name__ for base in error.__bases__ if base is not UpdateRougeError)
        for error in _every_error()
    }
    assert _documented_hierarchy() == {"UpdateRougeError": "Exception", **true}
    for error in _every_error():  # each keeps a built-in base that callers already catch
        assert issubclass(error, (ValueError, ImportError)), error


@pytest.mark.slow  # loading evaluate and the metric takes 10 to 40 s
def test_errors_through_evaluate_load_are_the_loaded_modules_classes_or_value_error(evaluate_metric):
    metric = evaluate_metric
    loaded = sys.modules[type(metric).__module__]  # evaluate's own copy of the script and its modules
    assert loaded.OptionError is not update_rouge.OptionError
    with pytest.raises(loaded.OptionError) as raised:
        metric.compute(**DATA, stemmer="snowbal")
    assert not isinstance(raised.value, update_rouge.OptionError)
    assert isinstance(raised.value, loaded.UpdateRougeError) and raised.value.option == "stemmer"
    with pytest.raises(ValueError):
        metric.compute(**DATA, stemmer="snowbal")


@pytest.mark.slow  # the evaluate module (test_errors_through_evaluate_load_...)
def test_a_reference_of_the_other_form_at_the_evaluate_module_names_the_example_and_a_list_of_one_works(
    evaluate_metric,
):
    metric = evaluate_metric
    metric.add(prediction=PREDICTIONS[0], reference=[REFERENCES[0]], sources=SOURCES[0])
    with pytest.raises(
        ValueError, match=r"give every reference as a list \(a single reference as a list of one\)$"
    ) as raised:
        metric.add(prediction=PREDICTIONS[1], reference=REFERENCES[1], sources=SOURCES[1])
    assert type(raised.value).__name__ == "InputError" and (raised.value.field, raised.value.index) == ("references", 1)
    metric.add(prediction=PREDICTIONS[1], reference=[REFERENCES[1]], sources=SOURCES[1])
    assert metric.compute(rouge_types=["rouge1"], n_bootstrap=20)["update_rouge1"] > 0


# (the words after FILE, each advice as the words that follow it)
SCORE_ONLY_MISTAKES = [
    (["-b", "-f", "markdown"], [["-f", "markdown"], ["-b"]]),
    (["-b", "--signature"], [["--signature"], ["-b"]]),
    (["-b", "-f", "text", "--signature"], [["-f", "text", "--signature"], ["-b"]]),
]


@pytest.mark.parametrize(
    "words, advice",
    SCORE_ONLY_MISTAKES,
    ids=lambda value: " ".join(value[0]) if value and isinstance(value[0], list) else " ".join(value),
)
def test_score_only_with_a_format_or_a_signature_names_it_and_each_advice_followed_succeeds(
    tmp_path, capsys, words, advice
):
    path = tmp_path / "x.jsonl"
    rows = [{"source": s, "prediction": p, "reference": r} for s, p, r in zip(SOURCES, PREDICTIONS, REFERENCES)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    status, _, err = run_main([path, *words, "--n-bootstrap", "20"], capsys)
    assert status == 2 and err.startswith("update-rouge: error: -b/--score-only prints the F values alone, ")
    told = err.split("; instead: ")[1].rstrip("\n").split(", or ")
    assert len(told) == len(advice)
    for followed_words in advice:
        assert run_main([path, *followed_words, "--n-bootstrap", "20"], capsys)[0] == 0


@pytest.mark.parametrize(
    "command", [[], ["compare", "--system", "copy", "--system", "model"]], ids=["score", "compare"]
)
def test_a_file_without_examples_names_it_and_one_example_succeeds(tmp_path, capsys, command):
    path = tmp_path / "x.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    words = [*command[:1], path, *command[1:], "--n-bootstrap", "20"]
    status, _, err = run_main(words, capsys)
    prog = " ".join(["update-rouge", *command[:1]])
    assert (status, err) == (
        2,
        f"{prog}: error: {path}: no examples to {command[0] if command else 'score'}; give at least one example\n",
    )
    row = {
        "source": SOURCES[0],
        "reference": REFERENCES[0],
        "prediction": PREDICTIONS[0],
        "copy": SOURCES[0],
        "model": PREDICTIONS[0],
    }
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert run_main(words, capsys)[0] == 0


def test_compare_scores_of_unlike_or_no_examples_name_the_scores_and_like_ones_are_compared():
    from update_rouge.comparison.systems import compare_scores, score_systems

    like = {"copy": {"update_rouge1": [0.1, 0.2, 0.3]}, "model": {"update_rouge1": [0.2, 0.4, 0.5]}}
    for scores, field in [
        ({**like, "model": {"update_rouge1": [0.2, 0.4]}}, "scores['model']"),
        ({"copy": {"update_rouge1": []}, "model": {"update_rouge1": []}}, "scores"),
    ]:
        with pytest.raises(InputError) as raised:
            compare_scores(scores, "copy")
        assert raised.value.field == field and str(raised.value).startswith(field)
    assert compare_scores(like, "copy")["model"]["update_rouge1_delta"] == pytest.approx(0.5 / 3)
    with pytest.raises(OptionError, match="^systems is empty: give a mapping of system names") as raised:
        score_systems(SOURCES, REFERENCES, {}, update_rouge.Settings())
    assert raised.value.option == "systems"
    assert set(score_systems(SOURCES, REFERENCES, SYSTEMS, update_rouge.Settings()).columns) == {"copy", "model"}


def test_a_length_limit_without_a_limit_names_max_words_and_giving_one_works():
    from update_rouge.rouge155_options import limited_lines, limited_text

    for limited in (limited_text, limited_lines):
        with pytest.raises(OptionError, match=f"^{limited.__name__} needs max_words or max_bytes") as raised:
            limited("a b\nc", None, None)
        assert raised.value.option == "max_words"
    assert (limited_text("a b\nc", 1, None), limited_lines("a b\nc", None, 2)) == ("a", ["a "])


def test_a_scorer_given_settings_and_options_is_a_type_error_and_each_advice_works():
    call = {"settings": update_rouge.Settings(rouge_types=("rouge1",)), "seed": 1}
    with pytest.raises(TypeError) as raised:
        update_rouge.UpdateRougeScorer(**call)
    assert isinstance(raised.value, UnknownOptionError) and raised.value.option == "settings"
    for changes in raised.value.instead:
        assert update_rouge.UpdateRougeScorer(**followed(call, changes)).score(
            SOURCES[0], PREDICTIONS[0], REFERENCES[0]
        )


def test_the_demos_limits_and_options_are_refused_by_name_and_their_advice_works():
    from demo import options as demo_options

    variable = demo_options.MAX_UPLOAD_VARIABLE
    with pytest.raises(OptionError) as raised:
        demo_options.max_upload_mb({variable: "lots"})
    assert raised.value.option == variable
    (change,) = raised.value.instead[0]
    assert demo_options.max_upload_mb({variable: str(change.value)}) == 50
    with pytest.raises(TypeError) as raised:
        demo_options.ScreenOptions.of(stemer="porter")
    assert isinstance(raised.value, UnknownOptionError) and raised.value.option == "stemer"
    for changes in raised.value.instead:
        assert demo_options.ScreenOptions.of(**followed({"stemer": "porter"}, changes)).settings()
