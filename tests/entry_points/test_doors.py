"""Every option of the table (``update_rouge.settings.OPTIONS``) at every door: honoured (the
door's numbers equal ``compute``'s under it), refused before any work in one line naming it as
that door spells it, or not offered there for a stated reason.

``DOORS`` holds each door's decision per option; a new option fails ``test_each_door_decides_
every_option_of_the_table`` until every door decides. Each option is tried at one value away
from its default (``VALUES``), on the three FRUIT triples (tests/data/fruit_triples.jsonl), and
``test_each_value_moves_a_number_of_compute`` shows that each such value changes what compute
returns on them, so that "equal to compute's" could not hold by ignoring it. The Python doors
that need torch, Ray or a harness are checked in test_doors_integrations.py.
"""

import json
import types

import numpy as np
import pytest
from conftest import read_jsonl, run_main

from update_rouge import OptionError, compute
from update_rouge.cli.runner import FLAGS
from update_rouge.errors import LEFT_OUT
from update_rouge.integrations.harness_corpus import HARNESS_TYPES
from update_rouge.integrations.lm_eval import aggregation, make_process_results
from update_rouge.integrations.rewards import update_rouge_reward
from update_rouge.integrations.trainer import make_compute_metrics
from update_rouge.settings import DEFAULTS, OPTIONS

H, R = "honoured", "refused"
NAMES = [option.name for option in OPTIONS]


def split_words(text):
    """A custom tokenizer unlike rouge-score's: lower-cased words split at white space."""
    return text.lower().split()


def capitalised(text):
    """An entity extractor (``entities=``): the words that start with a capital letter."""
    return [word.strip(".,;()'") for word in text.split() if word[:1].isupper()]


# One value of each option away from its default.
VALUES = {
    "rouge_types": ["rouge2"],
    "use_stemmer": True,
    "tokenizer": split_words,
    "use_aggregator": False,
    "confidence_level": 0.9,
    "n_bootstrap": 20,
    "seed": 7,
    "baseline_predictions": None,  # the sources, set in inputs(): a baseline that adds nothing
    "group_by": ["x", "y", "x"],
    "return_signature": True,
    "engine": "python",
    "num_proc": 2,
    "stemmer": "porter",
    "multi_ref": "pooled",
    "remove_stopwords": True,
    "max_words": 20,
    "max_bytes": 60,
    "alpha": 0.3,
    "language": "de",
    "additions": "edits",
    "average": "micro",
    "protocol": "autometrics",
    "deletions": True,
    "entities": capitalised,
    "evidence": None,  # the references, set in inputs(): every entity a reference adds is supported
}
# What an option's value is tried with: a seed moves few resamples' intervals, a language moves
# the stems of English texts (its Snowball stemmer) where it does not move their tokens; evidence
# is read by the entity scores only.
WITH = {"seed": {"n_bootstrap": 20}, "language": {"use_stemmer": True}, "evidence": {"entities": capitalised}}
# The options that never change a number (every engine is bit-identical; workers reassemble in order).
HOW = ("engine", "num_proc")


def door(honoured, refused="", **reasons):
    """A door's decisions: the options it ``honoured`` and ``refused`` (names separated by spaces)
    and, for each other option, the reason it cannot be given there. Written out by hand, so that
    an option added to the table is in no door until each decides."""
    decisions = {**dict.fromkeys(honoured.split(), H), **dict.fromkeys(refused.split(), R), **reasons}
    assert len(decisions) == len(honoured.split()) + len(refused.split()) + len(reasons)
    return decisions


# The options that make each example's score, those of the corpus statistics, and those that
# shape compute's result (per-example lists, a paired test, groups, a signature string).
SCORING = (
    "rouge_types use_stemmer tokenizer engine num_proc stemmer multi_ref remove_stopwords max_words max_bytes alpha "
)
SCORING += "language additions deletions"
STATISTICS = " confidence_level n_bootstrap seed average protocol "
SHAPE = " use_aggregator baseline_predictions group_by return_signature"
ENTITIES = " entities evidence"
TYPED = SCORING.replace("tokenizer ", "")
CALLABLE = "no control: a callable cannot be given here"
PENDING = "not yet: issue 53 is building it at this door"
# The entity scores (docs/entities.md) at the demo come later.
NO_ENTITY_CONTROL = "no control yet: the page scores no entities; compute(..., entities=...) does"
DOORS = {
    "compute": door(SCORING + STATISTICS + SHAPE + ENTITIES),
    "evaluate": door(SCORING + STATISTICS + SHAPE + ENTITIES),
    "cli score": door(
        # group_by: --group-by FIELD, evidence: --evidence-field NAME, a field of the input
        TYPED + STATISTICS + "group_by return_signature" + ENTITIES,
        tokenizer=CALLABLE,
        use_aggregator="not offered: it prints corpus values; --per-example FILE writes each example's beside them",
        baseline_predictions="not offered: a baseline is a system of update-rouge compare (--baseline NAME)",
    ),
    # evidence: its update_ent_unsupported is in the per-example file (compare's corpus keys are F values).
    "cli compare": door(
        TYPED + STATISTICS + ENTITIES,
        tokenizer=CALLABLE,
        use_aggregator="not offered: it compares corpus values; --per-example FILE writes each example's",
        baseline_predictions="not offered: the baseline is one of the systems compared (--baseline NAME)",
        group_by="not offered: a comparison is not grouped",
        return_signature="not offered: its output always holds the signature",
    ),
    "demo": door(
        "rouge_types stemmer multi_ref remove_stopwords max_words max_bytes alpha language additions deletions"
        + STATISTICS
        + "baseline_predictions",  # score_file's baseline_column
        use_stemmer="no control: the stemmer menu's porter is it",
        tokenizer=CALLABLE,
        use_aggregator="no control: the page shows the corpus values and each example's",
        group_by="no control: the page does not group examples",
        return_signature="no control: the page always shows the signature",
        engine="no control: the server runs auto; every engine gives the same numbers",
        num_proc="no control: the server decides how it runs",
        entities=NO_ENTITY_CONTROL,
        evidence=NO_ENTITY_CONTROL,
    ),
    # entities: through an ent term; evidence: through evidence_column= (compute's evidence= is refused by name).
    "reward": door(SCORING.replace("rouge_types ", "") + ENTITIES, "rouge_types" + STATISTICS + SHAPE),
    "trainer": door(SCORING + STATISTICS + ENTITIES, SHAPE),
    # protocol: autometrics (an exact mean) honoured; fruit and editeval (a bootstrap median) refused.
    # evidence: given to update() with each batch (compute's evidence= at the constructor is refused by name).
    "torchmetrics": door(SCORING + " average protocol" + ENTITIES, "confidence_level n_bootstrap seed" + SHAPE),
    # entities, evidence: Ray's per-example and count columns hold no entity scores.
    "ray": door(SCORING + STATISTICS + "return_signature", "use_aggregator baseline_predictions group_by" + ENTITIES),
    # evidence: a harness's sample carries its source and references only.
    **{
        door_name: door(SCORING + STATISTICS + " entities", SHAPE + " evidence")
        for door_name in ("lm_eval", "inspect", "lighteval")
    },
}
# The demo's Reproduce code (demo/reproduce.py) holds what the page was given: the demo's decisions.
DOORS["reproduce"] = DOORS["demo"]
ROWS = read_jsonl("fruit_triples.jsonl")


def inputs(option):
    """sources, predictions, references (for ``multi_ref`` two per example: its own and the next
    example's) and the options of ``option`` at its value of ``VALUES``."""
    sources = [row["source"] for row in ROWS]
    predictions = [row["prediction"] for row in ROWS]
    references = [row["reference"] for row in ROWS]
    if option == "multi_ref":
        references = [[reference, references[(i + 1) % 3]] for i, reference in enumerate(references)]
    value = {"baseline_predictions": sources, "evidence": references}.get(option, VALUES[option])
    return sources, predictions, references, {**WITH.get(option, {}), option: value}


def expected(option, **fixed):
    """compute's result on ``inputs(option)`` under ``option`` and ``fixed``."""
    sources, predictions, references, options = inputs(option)
    return compute(sources, predictions, references, **options, **fixed)


def same_numbers(got, want):
    """``got``'s keys are some of ``want``'s (at least one score), each with the same value."""
    assert got and any(key.startswith("update_") for key in got), got
    assert {key: want[key] for key in got} == got
    # Under deletions=True the door gives the deletions' scores too.
    assert any(key.startswith("update_del_") for key in got) == any(key.startswith("update_del_") for key in want)


def door_options(door, decision):
    return [name for name in NAMES if DOORS[door][name] == decision]


def slow_if_workers(names):
    return [pytest.param(name, marks=pytest.mark.slow) if name == "num_proc" else name for name in names]


def test_each_door_decides_every_option_of_the_table():
    for door, decisions in DOORS.items():
        assert sorted(decisions) == sorted(NAMES), door
        assert all(decision in (H, R) or len(decision) > 10 for decision in decisions.values()), door
    assert sorted(VALUES) == sorted(NAMES)


@pytest.mark.parametrize("option", [name for name in NAMES if name not in HOW])
def test_each_value_moves_a_number_of_compute(option):
    sources, predictions, references, options = inputs(option)
    without = WITH.get(option, {})
    assert compute(sources, predictions, references, **options) != compute(sources, predictions, references, **without)
    assert options[option] != DEFAULTS[option]


@pytest.mark.parametrize("option", slow_if_workers(NAMES))
def test_the_evaluate_module_honours_every_option(option, evaluate_metric):
    sources, predictions, references, options = inputs(option)
    got = evaluate_metric.compute(sources=sources, predictions=predictions, references=references, **options)
    assert got == expected(option)


# The entity options at the command line: a spaCy pipeline named "capitalised" (which extracts as
# ``capitalised`` does, ``pipeline_of_capitalised``) and the evidence field of ``write_input``.
CLI_ENTITIES = {"entities": ["--entities", "spacy:capitalised"], "evidence": ["--evidence-field", "evidence"]}


def cli_words(option):
    """The options of ``inputs(option)`` as argv words, ``--stemmer porter`` (``runner.FLAGS``:
    the command line's spelling)."""
    options = inputs(option)[3].items()
    return [word for name, value in options for word in CLI_ENTITIES.get(name) or FLAGS.setting(name, value).split()]


def pipeline_of_capitalised(monkeypatch):
    """The spaCy pipeline ``spacy:capitalised`` extracts the entities ``capitalised`` does (and
    signs as it: ``ent:custom``)."""
    from update_rouge import entities, signature
    from update_rouge.entity_extractors import SpacyExtractor

    monkeypatch.setattr(signature, "extractor_field", lambda extractor: "custom")
    real = entities.extract
    monkeypatch.setattr(
        entities,
        "extract",
        lambda extractor, texts: real(capitalised if isinstance(extractor, SpacyExtractor) else extractor, texts),
    )


def write_input(tmp_path, option):
    sources, predictions, references, _ = inputs(option)
    path = tmp_path / "triples.jsonl"
    labels = VALUES["group_by"]
    rows = zip(sources, predictions, references, labels)
    path.write_text(
        "".join(
            json.dumps({"source": s, "prediction": p, "reference": r, "g": g, "evidence": r}) + "\n"
            for s, p, r, g in rows
        )
    )
    return path


@pytest.mark.parametrize("option", slow_if_workers(door_options("cli score", H)))
def test_update_rouge_score_honours_its_options(option, tmp_path, capsys, monkeypatch):
    pipeline_of_capitalised(monkeypatch)
    path = write_input(tmp_path, option)
    words = ["--group-by", "g"] if option == "group_by" else cli_words(option)
    status, out, err = run_main(["score", path, "-f", "json", *words], capsys)
    assert status == 0, err
    result = json.loads(out)
    want = expected(option)
    if option == "group_by":
        assert result["groups"] == want["groups"]
    if option == "return_signature":
        assert result["signature"] == want["signature"]
    same_numbers({key: value for key, value in result.items() if key not in ("groups", "signature")}, want)


@pytest.mark.parametrize("option", slow_if_workers(door_options("cli compare", H)))
def test_update_rouge_compare_honours_its_options(option, tmp_path, capsys, monkeypatch):
    pipeline_of_capitalised(monkeypatch)
    path = write_input(tmp_path, option)
    words = cli_words(option)
    argv = ["compare", path, "--system", "prediction", "--system", "source", "-f", "json", *words]
    status, out, err = run_main(argv, capsys)
    assert status == 0, err
    same_numbers(json.loads(out)["prediction"], expected(option))


# The demo's controls: each option's non-default value as the page gives it.
SCREEN = {
    "rouge_types": ["rouge2"],
    "stemmer": "porter",
    "language": "de",
    "remove_stopwords": True,
    "max_words": 20,
    "max_bytes": 60,
    "alpha": 0.3,
    "confidence_level": "0.90",
    "multi_ref": "pooled",
    "n_bootstrap": 20,
    "seed": 7,
    "additions": "edits",
    "average": "micro",
    "protocol": "autometrics",
    "deletions": True,
}
SCREEN_WITH = {"seed": {"n_bootstrap": 20}, "language": {"stemmer": "snowball"}}


def on_screen(option, tmp_path):
    """The examples file of ``option`` (with a baseline column ``base``, the sources) and the
    demo's options (``ScreenOptions``) with ``option`` set on its control, checked to be
    ``Settings`` equal to ``compute``'s under it."""
    from demo.options import ScreenOptions
    from update_rouge.settings import Settings

    path = write_input(tmp_path, option)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    path.write_text("".join(json.dumps({**line, "base": line["source"]}) + "\n" for line in lines))
    changes = {} if option == "baseline_predictions" else {**SCREEN_WITH.get(option, {}), option: SCREEN[option]}
    options = ScreenOptions.of(**changes)
    if changes:
        assert options.settings() == Settings(**inputs(option)[3])
    return path, options


@pytest.mark.parametrize("option", door_options("demo", H))
def test_the_demo_honours_its_controls(option, tmp_path):
    from demo import file_handlers

    path, options = on_screen(option, tmp_path)
    screen = {name: getattr(options, name) for name in SCREEN}
    baseline = "base" if option == "baseline_predictions" else ""
    out = file_handlers.score_file(
        str(path), screen.pop("rouge_types"), screen.pop("stemmer"), baseline_column=baseline, **screen
    )
    with open(out["download_json"], encoding="utf-8") as handle:
        result = json.load(handle)
    want = expected(option, return_signature=True)
    assert result == want and ("update_rouge1_delta" in result) == bool(baseline)


@pytest.mark.parametrize("option", door_options("reproduce", H))
def test_the_reproduce_code_honours_what_the_page_was_given(option, tmp_path, monkeypatch, capsys):
    from test_demo_reproduce import SPACE, run_reproduce_code

    from demo import reproduce

    path, options = on_screen(option, tmp_path)
    baseline = "base" if option == "baseline_predictions" else ""
    code = reproduce.reproduce(options, baseline, environ={"SPACE_ID": SPACE}, file_name=str(path))
    assert run_reproduce_code(code, tmp_path, monkeypatch, capsys) == expected(option, return_signature=True)


@pytest.mark.parametrize("option", slow_if_workers(name for name in door_options("reward", H) if name not in ENTITIES))
def test_a_reward_honours_the_per_example_options(option):
    sources, predictions, references, options = inputs(option)
    reward = update_rouge_reward("rouge1_recall", **options)
    got = reward(prompts=None, completions=predictions, source=sources, reference=references)
    assert got == expected(option, use_aggregator=False, rouge_types=["rouge1"])["update_rouge1_recall"]
    # A del_ term scores the deletions, under the option too.
    deleted = update_rouge_reward("del_rouge1_recall", **options)
    got = deleted(prompts=None, completions=predictions, source=sources, reference=references)
    on = {} if option == "deletions" else {"deletions": True}
    want = expected(option, use_aggregator=False, rouge_types=["rouge1"], **on)
    assert got == want["update_del_rouge1_recall"] != want["update_rouge1_recall"]


@pytest.mark.parametrize("option", ENTITIES.split())
def test_a_reward_honours_the_entity_options_through_its_terms(option):
    # entities: an ent term; evidence: a column named by evidence_column=, read by ent_unsupported.
    sources, predictions, references, options = inputs(option)
    evidence = options.pop("evidence", None)
    columns = {"source": sources, "reference": references}
    if evidence is None:
        reward = update_rouge_reward("ent_recall", **options)
    else:
        reward = update_rouge_reward("ent_unsupported", evidence_column="facts", **options)
        columns["facts"] = evidence
    got = reward(prompts=None, completions=predictions, **columns)
    want = expected(option, use_aggregator=False)
    if evidence is None:
        assert got == want["update_ent_recall"]
    else:
        assert got == [1 / (1 + count) for count in want["update_ent_unsupported"]] and min(got) < 1


class WordIds:
    """A tokenizer for the Trainer helper: one id per space-separated word of ``texts`` (0: padding)."""

    pad_token_id = 0

    def __init__(self, texts):
        self.words = ["<pad>", *sorted({word for text in texts for word in text.split(" ")})]

    def ids(self, texts):
        rows = [[self.words.index(word) for word in text.split(" ")] for text in texts]
        width = max(map(len, rows))
        return np.array([row + [-100] * (width - len(row)) for row in rows])

    def batch_decode(self, rows, skip_special_tokens):
        return [" ".join(self.words[i] for i in row if i) for row in rows]

    def __len__(self):
        return len(self.words)


@pytest.mark.parametrize("option", slow_if_workers(door_options("trainer", H)))
def test_the_trainer_helper_honours_the_corpus_options(option):
    sources, predictions, references, options = inputs(option)
    references = [reference if isinstance(reference, str) else reference[0] for reference in references]
    words = WordIds(predictions + references)
    metrics = make_compute_metrics(words, sources=sources, **options)
    got = metrics(
        types.SimpleNamespace(predictions=words.ids(predictions), label_ids=words.ids(references), inputs=None)
    )
    want = compute(sources, predictions, references, **options)
    same_numbers(got, {key: float(value) for key, value in want.items()})


@pytest.mark.parametrize("option", slow_if_workers(door_options("lm_eval", H)))
def test_lm_eval_honours_the_corpus_options(option):
    sources, predictions, references, options = inputs(option)
    process_results = make_process_results(**options)
    items = [
        process_results({"source": s, "reference": r, "id": i}, [p])
        for i, (s, p, r) in enumerate(zip(sources, predictions, references))
    ]
    got = {key: aggregation(key)([item[key] for item in items]) for key in items[0]}
    same_numbers(got, expected(option, **({} if option == "rouge_types" else {"rouge_types": list(HARNESS_TYPES)})))


def python_refusal(make, option, value):
    """``make(**{option: value})`` raises ``OptionError`` naming ``option`` in one line that starts
    with it, and ``make`` with its advice followed raises nothing."""
    with pytest.raises(OptionError) as refused:
        make(**{option: value})
    error = refused.value
    assert error.option == option and "\n" not in str(error) and str(error).startswith(f"{option}")
    assert error.instead, str(error)
    followed = {option: value}
    for change in error.instead[0]:
        if change.value is LEFT_OUT:
            followed.pop(change.option, None)
        else:
            followed[change.option] = change.value
    make(**followed)


@pytest.mark.parametrize("option", door_options("reward", R))
def test_a_reward_refuses_the_corpus_options_by_name(option):
    python_refusal(update_rouge_reward, option, inputs(option)[3][option])


@pytest.mark.parametrize("option", door_options("trainer", R))
def test_the_trainer_helper_refuses_what_is_not_one_float_per_key(option):
    python_refusal(lambda **options: make_compute_metrics(WordIds(["a"]), **options), option, inputs(option)[3][option])


@pytest.mark.parametrize("option", door_options("lm_eval", R))
def test_a_harness_refuses_what_is_not_one_value_per_key(option):
    python_refusal(make_process_results, option, inputs(option)[3][option])
