"""The demo's Reproduce box (``demo.reproduce``): the Space's own id with a pinned
revision, every option set on the page, the baseline of a paired test, and code that, run as
it stands next to the examples file, prints the numbers the page shows.
"""

import csv
import functools
import json
from pathlib import Path

import pytest
from conftest import read_jsonl

from demo import file_handlers, handlers
from demo import options as demo_options
from demo import reproduce as demo_reproduce
from update_rouge import compute, metric_path
from update_rouge.version import __version__

NO_LANGUAGE = demo_options.NO_LANGUAGE
DEFAULT_TYPES = ["rouge1", "rouge2", "rougeLsum"]
SPACE = "someone/update_rouge"
# Every option before multi_ref at its default, as the page gives them.
DEFAULT_OPTIONS = (DEFAULT_TYPES, "none", NO_LANGUAGE, False, 0, 0, 0.5, "0.95")
ROWS = read_jsonl("fruit_triples.jsonl")
# A baseline system: each example gets the next example's prediction.
BASELINE = [ROWS[(i + 1) % len(ROWS)]["prediction"] for i in range(len(ROWS))]


def reproduce(*values, **keywords):
    """``demo.reproduce.reproduce`` of the options given in the option table's order (the rest at
    the page's defaults)."""
    options = demo_options.ScreenOptions.of(dict(zip(demo_options.OPTION_NAMES, values)))
    return demo_reproduce.reproduce(options, **keywords)


@functools.cache
def checkout_metric():
    """The module ``evaluate.load`` makes of this checkout's update_rouge/update_rouge.py."""
    import evaluate

    return evaluate.load(metric_path())


def test_the_metric_is_the_spaces_own_id_at_the_tag_of_the_version_it_runs():
    on_space = reproduce(DEFAULT_TYPES, "none", environ={"SPACE_ID": SPACE})
    assert f"evaluate.load('{SPACE}', revision='v{__version__}')" in on_space
    local = reproduce(DEFAULT_TYPES, "none", environ={})
    assert "evaluate.load('<namespace>/update_rouge', revision='v0.2.0')" in local
    assert __version__ == "0.2.0" and demo_reproduce.metric_id({"SPACE_ID": ""}) == "<namespace>/update_rouge"


@pytest.mark.parametrize(
    "options, argument, flag",
    [
        ((["rougeLsum", "rouge1"], "none"), "rouge_types=['rouge1', 'rougeLsum']", "--rouge-types rouge1 rougeLsum"),
        ((DEFAULT_TYPES, "porter"), "stemmer='porter'", "--stemmer porter"),
        ((DEFAULT_TYPES, "none", "de"), "language='de'", "--language de"),
        ((DEFAULT_TYPES, "none", NO_LANGUAGE, True), "remove_stopwords=True", "--remove-stopwords"),
        ((DEFAULT_TYPES, "none", NO_LANGUAGE, False, 100), "max_words=100", "--max-words 100"),
        ((DEFAULT_TYPES, "none", NO_LANGUAGE, False, 0, 75), "max_bytes=75", "--max-bytes 75"),
        ((DEFAULT_TYPES, "none", NO_LANGUAGE, False, 0, 0, 0.8), "alpha=0.8", "--alpha 0.8"),
        (
            (DEFAULT_TYPES, "none", NO_LANGUAGE, False, 0, 0, 0.5, "0.99"),
            "confidence_level=0.99",
            "--confidence-level 0.99",
        ),
        (
            (DEFAULT_TYPES, "none", NO_LANGUAGE, False, 0, 0, 0.5, "none"),
            "confidence_level=None",
            "--confidence-level none",
        ),
        ((*DEFAULT_OPTIONS, "pooled"), "multi_ref='pooled'", "--multi-ref pooled"),
        ((*DEFAULT_OPTIONS, "max_f1", 500), "n_bootstrap=500", "--n-bootstrap 500"),
        ((*DEFAULT_OPTIONS, "max_f1", 1000, 7), "seed=7", "--seed 7"),
        ((*DEFAULT_OPTIONS, "max_f1", 1000, 12345, "edits"), "additions='edits'", "--additions edits"),
        ((*DEFAULT_OPTIONS, "max_f1", 1000, 12345, "sentences", "micro"), "average='micro'", "--average micro"),
    ],
)
def test_each_option_set_on_the_page_is_in_the_call_and_the_command_line(options, argument, flag):
    code = reproduce(*options, environ={})
    assert f"    {argument},\n" in code
    assert code.rstrip().endswith(f"# update-rouge examples.jsonl {flag}")
    # Only that option: the others are at their defaults.
    assert code.count("=") == reproduce(DEFAULT_TYPES, "none", environ={}).count("=") + 1


def test_defaults_give_no_option_and_an_unusable_option_gives_its_error():
    code = reproduce(DEFAULT_TYPES, "none", environ={})
    assert (
        "    references=[r if isinstance(r, list) else [r] for r in (row['reference'] for row in rows)],\n"
        "    return_signature=True,\n)"
    ) in code
    assert code.rstrip().endswith("# update-rouge examples.jsonl") and "baseline" not in code
    assert reproduce(DEFAULT_TYPES, "none", NO_LANGUAGE, False, 1.5) == (
        "# max_words must be a whole number >= 0 (0: no limit), got 1.5"
    )


def test_a_baseline_column_gives_baseline_predictions_and_update_rouge_compare():
    code = reproduce(["rouge1"], "none", baseline_column=" other ", environ={})
    assert "    baseline_predictions=[row['other'] for row in rows],\n" in code
    assert code.rstrip().endswith(
        "# update-rouge compare examples.jsonl --system prediction --system other --baseline other --rouge-types rouge1"
    )
    assert "baseline" not in reproduce(["rouge1"], "none", baseline_column="  ", environ={})


def run_reproduce_code(code, folder, monkeypatch, capsys):
    """Execute ``code`` in ``folder`` with ``evaluate.load`` giving this checkout's metric (the
    module ``evaluate.load`` makes of update_rouge/update_rouge.py, the copy of the package's code that users load)
    for the Space's id at the pinned revision; the printed result, read back as JSON."""
    import evaluate

    metric = checkout_metric()

    def load(path, revision=None):
        assert (path, revision) == (SPACE, f"v{__version__}")
        return metric

    monkeypatch.setattr(evaluate, "load", load)
    monkeypatch.chdir(folder)
    exec(compile(code, "reproduce", "exec"), {})
    return json.loads(capsys.readouterr().out)


def test_the_reproduce_code_prints_the_numbers_the_page_shows_for_a_file(tmp_path, monkeypatch, capsys):
    options = (["rouge2", "rouge1"], "porter", NO_LANGUAGE, False, 0, 0, 0.3, "0.90", "pooled", 300, 7)
    code = reproduce(*options, baseline_column="other", environ={"SPACE_ID": SPACE})
    examples = tmp_path / "examples.jsonl"
    examples.write_text(
        "".join(json.dumps({**row, "other": other}) + "\n" for row, other in zip(ROWS, BASELINE)), encoding="utf-8"
    )
    (rouge_types, stemmer, *advanced, confidence, multi_ref, n_bootstrap, seed) = options
    page = file_handlers.score_file(
        str(examples), rouge_types, stemmer, confidence, *advanced, "other", multi_ref, n_bootstrap, seed
    )
    printed = run_reproduce_code(code, tmp_path, monkeypatch, capsys)
    with open(page["download_json"], encoding="utf-8") as handle:
        assert printed == json.load(handle)
    # The tables on the page are these numbers (alpha 0.3, porter, a 90% interval, a paired test).
    assert page["summary"]["value"].values.tolist()[0][:2] == [
        "rouge1",
        "{:.1f} [{:.1f}, {:.1f}]".format(*(100 * printed[f"update_rouge1{end}"] for end in ("", "_low", "_high"))),
    ]
    assert page["paired"]["value"].values.tolist()[1][3] == f"{printed['update_rouge2_p_value']:.3f}"
    signature = set(printed["signature"].split("|"))
    assert {"stem:porter", "types:rouge1,rouge2", "alpha:0.3", "ci:0.9", "multiref:pooled", "boot:300", "seed:7"} <= (
        signature
    )


def test_the_reproduce_code_of_one_example_holds_its_texts_and_prints_its_scores_and_signature(monkeypatch, capsys):
    options = demo_options.ScreenOptions.of(
        dict(zip(demo_options.OPTION_NAMES, (["rouge1", "rougeL"], "rouge155", NO_LANGUAGE, True, 12, 0, 0.7)))
    )
    row = ROWS[0]
    texts = (row["source"], row["reference"], row["prediction"])
    code = demo_reproduce.reproduce_example(options, texts, environ={"SPACE_ID": SPACE})
    assert "examples.jsonl" not in code and "open(" not in code and f"prediction = {row['prediction']!r}\n" in code
    # One example has no interval: neither the code nor the signature asks for one.
    assert "    confidence_level=None,\n" in code and "n_bootstrap" not in code
    printed = run_reproduce_code(code, Path("/"), monkeypatch, capsys)
    shown = handlers.score_one(*texts, *options_in_api_order(options))["scores"]
    assert shown.values.tolist() == [
        [
            t,
            *(f"{printed[f'update_{t}_{part}']:.4f}" for part in ("precision", "recall")),
            f"{printed[f'update_{t}']:.4f}",
        ]
        for t in ("rouge1", "rougeL")
    ]
    signature = demo_reproduce.example_signature(options)
    assert printed["signature"] == signature
    assert {"refs:1", "stem:rouge155", "types:rouge1,rougeL", "ci:none", "boot:none"} <= set(signature.split("|"))


def options_in_api_order(options):
    """``options`` as ``score_one``'s positional options."""
    return [getattr(options, name) for name in ("rouge_types", "stemmer", "language", "remove_stopwords")] + [
        getattr(options, name) for name in ("max_words", "max_bytes", "alpha")
    ]


@pytest.mark.parametrize("upload", ["/tmp/gradio/0123abcd/my runs.jsonl", "/tmp/gradio/4567/runs.csv"])
def test_the_file_code_reads_the_uploaded_file_by_its_name(upload):
    code = reproduce(DEFAULT_TYPES, "none", environ={}, file_name=upload)
    name = upload.rsplit("/", 1)[1]
    assert f"with open({name!r}, encoding='utf-8-sig'" in code and "examples.jsonl" not in code and "/tmp" not in code
    assert code.rstrip().endswith(f"# update-rouge {name}")


def test_the_reproduce_code_of_a_csv_upload_prints_what_the_page_shows(tmp_path, monkeypatch, capsys):
    examples = tmp_path / "runs.csv"
    with open(examples, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, ["source", "reference", "prediction"])
        writer.writeheader()
        writer.writerows({key: row[key] for key in ("source", "reference", "prediction")} for row in ROWS)
        # Two references, as a JSON list in the cell.
        writer.writerow({"source": "S.", "reference": json.dumps(["S. A b.", "S. A c."]), "prediction": "S. A c."})
    code = reproduce(["rouge1"], "none", environ={"SPACE_ID": SPACE}, file_name=str(examples))
    page = file_handlers.score_file(str(examples), ["rouge1"], "none")
    printed = run_reproduce_code(code, tmp_path, monkeypatch, capsys)
    with open(page["download_json"], encoding="utf-8") as handle:
        assert printed == json.load(handle)


def test_the_reproduce_code_prints_the_numbers_of_a_file_scored_with_edits_and_the_micro_average(
    tmp_path, monkeypatch, capsys
):
    options = (
        ["rouge1", "rougeLsum"],
        "none",
        NO_LANGUAGE,
        False,
        0,
        0,
        0.5,
        "0.95",
        "max_f1",
        200,
        3,
        "edits",
        "micro",
    )
    code = reproduce(*options, environ={"SPACE_ID": SPACE})
    assert "    additions='edits',\n    average='micro',\n" in code
    examples = tmp_path / "examples.jsonl"
    examples.write_text("".join(json.dumps(row) + "\n" for row in ROWS), encoding="utf-8")
    (rouge_types, stemmer, *advanced, confidence, multi_ref, n_bootstrap, seed, additions, average) = options
    page = file_handlers.score_file(
        str(examples), rouge_types, stemmer, confidence, *advanced, "", multi_ref, n_bootstrap, seed, additions, average
    )
    printed = run_reproduce_code(code, tmp_path, monkeypatch, capsys)
    with open(page["download_json"], encoding="utf-8") as handle:
        assert printed == json.load(handle)
    assert "agg:micro" in printed["signature"].split("|")


@pytest.mark.parametrize("protocol", ["fruit", "editeval"])
def test_without_an_interval_a_bootstrap_protocols_code_passes_the_seed_and_resamples(
    protocol, tmp_path, monkeypatch, capsys
):
    # The corpus value of "fruit" and "editeval" is a bootstrap median: it moves with the seed
    # and the number of resamples even where no interval is asked for.
    options = dict(confidence_level="none", n_bootstrap=300, seed=7, protocol=protocol)
    code = demo_reproduce.reproduce(demo_options.ScreenOptions.of(options), environ={"SPACE_ID": SPACE})
    assert "    confidence_level=None,\n    n_bootstrap=300,\n    seed=7,\n" in code
    assert code.rstrip().endswith(
        f"# update-rouge examples.jsonl --confidence-level none --n-bootstrap 300 --seed 7 --protocol {protocol}"
    )
    examples = tmp_path / "examples.jsonl"
    examples.write_text("".join(json.dumps(row) + "\n" for row in read_jsonl("iterater_triples.jsonl")), "utf-8")
    page = file_handlers.score_file(str(examples), DEFAULT_TYPES, "none", **options)
    printed = run_reproduce_code(code, tmp_path, monkeypatch, capsys)
    with open(page["download_json"], encoding="utf-8") as handle:
        assert printed == json.load(handle)
    signature = printed["signature"].split("|")
    assert {"ci:none", "boot:300", "seed:7"} <= set(signature) and f"protocol:{protocol}@" in printed["signature"]
    # The page's table shows these numbers, and they are not the default seed's.
    scale = 1 if protocol == "fruit" else 100
    assert page["summary"]["value"].values.tolist()[0][:2] == ["rouge1", f"{scale * printed['update_rouge1']:.1f}"]
    default_seed = file_handlers.score_file(str(examples), DEFAULT_TYPES, "none", **{**options, "seed": 12345})
    with open(default_seed["download_json"], encoding="utf-8") as handle:
        assert json.load(handle)["update_rouge1"] != printed["update_rouge1"]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_the_code_drops_a_files_bom_as_the_page_does_and_keeps_a_fields_under_a_protocol(
    suffix, tmp_path, monkeypatch, capsys
):
    # The file is written with a BOM (its encoding); one prediction starts with U+FEFF (its
    # text), which "fruit" scores as FRUIT's script does: the marked first sentence is added.
    rows = [{key: row[key] for key in ("source", "reference", "prediction")} for row in ROWS]
    rows[1]["prediction"] = "\ufeff" + rows[1]["prediction"]
    examples = tmp_path / f"runs{suffix}"
    with open(examples, "w", encoding="utf-8-sig", newline="") as handle:
        if suffix == ".csv":
            writer = csv.DictWriter(handle, ["source", "reference", "prediction"])
            writer.writeheader()
            writer.writerows(rows)
        else:
            handle.writelines(json.dumps(row) + "\n" for row in rows)
    assert examples.read_bytes().startswith(b"\xef\xbb\xbf")
    options = demo_options.ScreenOptions.of(protocol="fruit", seed=3)
    code = demo_reproduce.reproduce(options, environ={"SPACE_ID": SPACE}, file_name=str(examples))
    page = file_handlers.score_file(str(examples), DEFAULT_TYPES, "none", protocol="fruit", seed=3)
    printed = run_reproduce_code(code, tmp_path, monkeypatch, capsys)
    with open(page["download_json"], encoding="utf-8") as handle:
        assert printed == json.load(handle)
    unmarked = [row["prediction"].removeprefix("\ufeff") for row in rows]
    plain = compute([r["source"] for r in rows], unmarked, [r["reference"] for r in rows], protocol="fruit", seed=3)
    assert printed["_prediction_diff_len"] > plain["_prediction_diff_len"]
