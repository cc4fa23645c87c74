"""Scoring on a real Ray cluster (one per test module, started by ``ray start``, 2 CPUs) equals ``compute`` bit for bit."""

import functools
import io
import json
import os
import signal
import sys
import time

import pytest
import ray
from conftest import DATA_DIR, TRIPLE_FILES, read_jsonl, run_main
from ray_helpers import local_cluster

from update_rouge import InputError, compute
from update_rouge.integrations.ray_batches import output_columns, score_dataset, score_jsonl
from update_rouge.integrations.ray_chunks import RayWorkers
from update_rouge.integrations.ray_counts import count_column_names
from update_rouge.integrations.ray_scoring import corpus_scores

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster():
    """A local Ray cluster for this module's tests (ray_helpers.local_cluster)."""
    with local_cluster():
        yield


def numbered(rows):
    """The rows with their input position in ``row``, as the Ray functions expect."""
    return [{**row, "row": index} for index, row in enumerate(rows)]


def columns(rows, prediction="prediction"):
    return [r["source"] for r in rows], [r[prediction] for r in rows], [r["reference"] for r in rows]


def dataset(rows, blocks):
    """``rows`` in ``blocks`` blocks whose order is shuffled: only ``row`` tells the input order."""
    return ray.data.from_items(numbered(rows), override_num_blocks=blocks).randomize_block_order(seed=blocks)


def per_example(scored, keys):
    """The per-example columns of a scored dataset, in ``row`` order."""
    rows = sorted(scored.take_all(), key=lambda row: row["row"])
    return {key: [row[key] for row in rows] for key in keys}


@functools.cache
def computed(name):
    """``compute``'s corpus result (with its signature) and per-example table of a bundled file,
    computed once for the three block counts below."""
    file_columns = columns(read_jsonl(name))
    return compute(*file_columns, return_signature=True), compute(*file_columns, use_aggregator=False)


# The long Wikipedia file (745 rows) in one block count; the two short files in each: under CI's
# parallel run a block count of the whole set took Ray 37 to 87 s (4 to 11 s alone).
@pytest.mark.parametrize(
    ("blocks", "files"), [(1, TRIPLE_FILES[:2]), (3, TRIPLE_FILES), (17, TRIPLE_FILES[:2])], ids=["1", "3", "17"]
)
def test_every_triple_file_equals_compute_bit_for_bit(cluster, blocks, files):
    from ray.data.expressions import col

    rows = [dict(row, file=name) for name in files for row in read_jsonl(name)]
    ds = dataset(rows, blocks).materialize()
    assert ds.num_blocks() == blocks
    scored = score_dataset(ds).materialize()
    keys = output_columns()
    table = per_example(scored, ["file", *keys])
    for name in files:
        expected, expected_table = computed(name)
        of_file = [index for index, file in enumerate(table["file"]) if file == name]
        assert {key: [table[key][index] for index in of_file] for key in keys} == expected_table
        # one file's rows keep their order: its row numbers are an offset range
        assert corpus_scores(scored.filter(expr=col("file") == name), return_signature=True) == expected
    if "wiki_triples.jsonl" in files:  # docs/stemming.md shows 0.6198
        assert computed("wiki_triples.jsonl")[0]["update_rouge1"] == pytest.approx(0.619839, abs=1e-6)


def several_references(rows):
    """Each example gets its reference and, as a second one, the next example's prediction."""
    return [
        dict(row, reference=[row["reference"], rows[(i + 1) % len(rows)]["prediction"]]) for i, row in enumerate(rows)
    ]


@pytest.mark.parametrize("multi_ref", ["max_f1", "pooled"])
def test_several_references_and_a_paired_baseline(cluster, multi_ref):
    rows = several_references(read_jsonl("iterater_triples.jsonl"))
    rows = [dict(row, baseline=row["source"] + " Nothing new.") for row in rows]
    options = {"multi_ref": multi_ref, "rouge_types": ["rouge1", "rougeL"], "return_signature": True}
    ds = dataset(rows, 3)
    scored = score_dataset(ds, **options)
    baseline = score_dataset(ds, prediction_column="baseline", **options)
    expected = compute(*columns(rows), baseline_predictions=[r["baseline"] for r in rows], **options)
    assert expected["signature"].startswith("refs:2|")
    assert corpus_scores(scored, baseline=baseline, **options) == expected


@pytest.mark.parametrize("multi_ref", ["max_f1", "pooled"])
def test_micro_average_from_the_count_columns_equals_compute_bit_for_bit(cluster, multi_ref):
    rows = several_references(read_jsonl("iterater_triples.jsonl"))
    rows = [
        dict(row, baseline=row["source"] + " Nothing new." if i % 3 else row["reference"][0])
        for i, row in enumerate(rows)
    ]
    options = {"multi_ref": multi_ref, "rouge_types": ["rouge1", "rouge2", "rougeL"], "n_bootstrap": 300}
    micro = {**options, "average": "micro"}
    ds = dataset(rows, 7).materialize()
    scored = score_dataset(ds, **micro).materialize()
    baseline = score_dataset(ds, prediction_column="baseline", **micro)
    count_keys = count_column_names(options["rouge_types"])
    assert count_keys[:3] == [
        "_counts_update_rouge1_hits",
        "_counts_update_rouge1_target",
        "_counts_update_rouge1_prediction",
    ]
    # The per-example columns are compute's, with the counts after them; a macro dataset has none.
    assert scored.columns()[-len(count_keys) - len(output_columns(options["rouge_types"])) :] == [
        *output_columns(options["rouge_types"]),
        *count_keys,
    ]
    assert not set(count_keys) & set(score_dataset(ds, **options).columns())
    assert per_example(scored, output_columns(options["rouge_types"])) == compute(
        *columns(rows), use_aggregator=False, **options
    )
    sums = {key: sum(per_example(scored, [key])[key]) for key in count_keys}
    assert sums["_counts_update_rouge1_hits"] > 0
    assert all(isinstance(value, int) for value in per_example(scored, count_keys)["_counts_update_rouge2_target"])

    expected = compute(*columns(rows), return_signature=True, **micro)
    assert expected["update_rouge1"] != compute(*columns(rows), **options)["update_rouge1"]
    assert (
        expected["update_rouge1_precision"]
        == sums["_counts_update_rouge1_hits"] / sums["_counts_update_rouge1_prediction"]
    )
    assert "|agg:micro|" in expected["signature"]
    assert corpus_scores(scored, return_signature=True, **micro) == expected
    paired = compute(*columns(rows), baseline_predictions=[r["baseline"] for r in rows], return_signature=True, **micro)
    assert 1 / 301 < paired["update_rouge1_p_value"] < 1  # a real test, not an extreme
    assert corpus_scores(scored, baseline=baseline, return_signature=True, **micro) == paired
    with pytest.raises(InputError, match="the scored dataset has no column '_counts_update_rouge1_hits'") as refused:
        corpus_scores(score_dataset(ds, **options), **micro)
    assert refused.value.field == "scored"


def test_custom_tokenizer_importable_on_workers(cluster):
    from ray_helpers import whitespace_tokens

    rows = read_jsonl("iterater_triples.jsonl")
    scored = score_dataset(dataset(rows, 3), tokenizer=whitespace_tokens)
    expected = compute(*columns(rows), tokenizer=whitespace_tokens, return_signature=True)
    assert expected != compute(*columns(rows), return_signature=True)
    assert corpus_scores(scored, tokenizer=whitespace_tokens, return_signature=True) == expected


@pytest.mark.parametrize(("num_cpus", "threads"), [(1, "1"), (2, "2")])
def test_each_actor_sizes_its_native_threads_to_the_cpus_ray_gives_it(cluster, num_cpus, threads):
    # Rayon (rouge-score-rs's threads) would otherwise start a thread per CPU of the node in every actor.
    from ray_helpers import ThreadsProbe

    assert "RAYON_NUM_THREADS" not in os.environ
    rows = read_jsonl("iterater_triples.jsonl")[:6]
    probed = (
        dataset(rows, 2).map_batches(ThreadsProbe, batch_format="pyarrow", concurrency=1, num_cpus=num_cpus).take_all()
    )
    assert [row["rayon_threads"] for row in probed] == [threads] * 6
    assert "RAYON_NUM_THREADS" not in os.environ, "the driver's own pool must keep every CPU"


def test_a_killed_worker_is_retried_and_the_results_are_identical(cluster, tmp_path):
    from ray_helpers import KillOnceScorer

    rows = read_jsonl("iterater_triples.jsonl")
    marker = tmp_path / "killed"
    scored = dataset(rows, 3).map_batches(
        KillOnceScorer, fn_constructor_kwargs={"marker": str(marker)}, batch_format="pyarrow", concurrency=1
    )
    assert corpus_scores(scored) == compute(*columns(rows))
    assert marker.exists()
    assert int(marker.read_text()) != os.getpid()


def test_a_bad_row_is_named(cluster):
    rows = read_jsonl("iterater_triples.jsonl")[:10]
    rows[7] = dict(rows[7], source=None)
    with pytest.raises(ValueError, match=r"^row 7: source must be a string, got None$"):
        corpus_scores(score_dataset(dataset(rows, 3)))


def test_a_jsonl_file_read_by_the_driver_and_scored_in_blocks_equals_compute_bit_for_bit(cluster, tmp_path):
    # The 745 Wikipedia triples make blocks of 1,024 examples and less; a blank line, ids and a
    # list of two references on the way.
    rows = read_jsonl("wiki_triples.jsonl") * 2
    rows[3] = dict(rows[3], reference=[rows[3]["reference"], rows[4]["prediction"]], id=7)
    path = tmp_path / "wiki.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" + ("\n" if i == 100 else "") for i, row in enumerate(rows)))
    scored = score_jsonl(str(path), concurrency=2).materialize()
    assert scored.num_blocks() == 2
    keys = output_columns()
    table = per_example(scored, ["row", "id", "source", *keys])
    references = [r["reference"] if isinstance(r["reference"], list) else [r["reference"]] for r in rows]
    texts = [r["source"] for r in rows], [r["prediction"] for r in rows], references
    assert table["source"] == texts[0], "the rows in file order"
    assert table["row"][100:102] == [101, 103], "row: the example's line, the blank line 102 skipped"
    assert table["id"][3] == "7" and table["id"] == [str(row["id"]) for row in rows], "ids as text"
    assert {key: table[key] for key in keys} == compute(*texts, use_aggregator=False)
    assert corpus_scores(scored, return_signature=True) == compute(*texts, return_signature=True)


def test_a_bad_line_of_a_jsonl_file_is_named_by_file_and_line_before_any_scoring(cluster, tmp_path):
    rows = read_jsonl("iterater_triples.jsonl")[:5]
    rows[3] = dict(rows[3], source=None)
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    with pytest.raises(ValueError, match=f"^{path}:4: source must be a string, got null$"):
        score_jsonl(str(path))


def test_a_repeated_row_number_is_refused(cluster):
    rows = numbered(read_jsonl("fruit_triples.jsonl"))
    rows[2]["row"] = 0
    scored = score_dataset(ray.data.from_items(rows))
    with pytest.raises(InputError, match="row 0 occurs more than once") as refused:
        corpus_scores(scored)
    assert refused.value.field == "row"
    with pytest.raises(InputError, match="^baseline must hold the same row values as the scored dataset$"):
        clean = numbered(read_jsonl("fruit_triples.jsonl"))
        corpus_scores(score_dataset(ray.data.from_items(clean)), baseline=score_dataset(ray.data.from_items(clean[:2])))
    with pytest.raises(InputError, match="^the dataset has no rows: there is nothing to score$"):
        corpus_scores(scored.limit(0))


def test_cli_with_ray_prints_what_it_prints_without(cluster, capsys):
    argv = [DATA_DIR / "iterater_triples.jsonl", "--rouge-types", "rouge1", "rougeSU4", "--signature"]
    plain = run_main(argv, capsys)
    on_ray = run_main([*argv, "--ray"], capsys)
    assert on_ray[:2] == plain[:2]
    assert json.loads(on_ray[1])["signature"].startswith("refs:1|")


def test_cli_with_ray_reads_standard_input_and_groups_as_it_does_without(cluster, tmp_path, monkeypatch, capsys):
    rows = read_jsonl("iterater_triples.jsonl")
    data = "".join(json.dumps({**row, "pred": row["id"].rsplit("-", 1)[1]}) + "\n" for row in rows).encode()
    argv = ["-", "--rouge-types", "rouge1", "--group-by", "pred", "--per-example", "-"]
    outputs = {}
    for name, more in (("plain", []), ("ray", ["--ray"])):
        for output in (["--signature"], ["-f", "text"]):
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
            outputs[name, output[0]] = run_main([*argv, *output, *more], capsys)
    assert outputs["ray", "--signature"] == outputs["plain", "--signature"]
    assert outputs["ray", "-f"] == outputs["plain", "-f"]
    status, out, _ = outputs["ray", "--signature"]
    assert status == 0 and '"id": "r3-2104.02372-depth-1-ref0-pred0"' in out.splitlines()[0]
    labels = list(dict.fromkeys(row["id"].rsplit("-", 1)[1] for row in rows))
    assert (
        list(json.loads("\n".join(out.splitlines()[40:]))["groups"]) == labels == ["pred0", "pred1", "pred2", "pred3"]
    )


def test_cli_with_ray_and_the_micro_average_prints_what_it_prints_without(cluster, capsys):
    argv = [DATA_DIR / "iterater_triples.jsonl", "--average", "micro", "--signature"]
    plain = run_main(argv, capsys)
    on_ray = run_main([*argv, "--ray"], capsys)
    assert on_ray[:2] == plain[:2]
    assert "|agg:micro|" in json.loads(on_ray[1])["signature"]


@pytest.mark.parametrize("protocol", ["editeval", "autometrics"])
def test_cli_with_ray_and_a_published_protocol_prints_what_it_prints_without(cluster, capsys, protocol):
    argv = [DATA_DIR / "iterater_triples.jsonl", "--protocol", protocol, "--signature"]
    plain = run_main(argv, capsys)
    on_ray = run_main([*argv, "--ray"], capsys)
    assert plain[0] == 0 and on_ray[:2] == plain[:2]
    assert f"protocol:{protocol}@" in json.loads(on_ray[1])["signature"]


def test_score_dataset_and_corpus_scores_under_a_published_protocol(cluster):
    rows = read_jsonl("iterater_triples.jsonl")
    ds = dataset(rows, 3)
    keys = output_columns()
    for protocol in ("fruit", "editeval", "autometrics"):
        scored = score_dataset(ds, protocol=protocol).materialize()
        expected = compute(*columns(rows), use_aggregator=False, protocol=protocol)
        assert per_example(scored, keys) == {key: expected[key] for key in keys}, protocol
    # autometrics' corpus value is our mean, which corpus_scores gives bit for bit ...
    expected = compute(*columns(rows), protocol="autometrics", return_signature=True)
    assert corpus_scores(scored, protocol="autometrics", return_signature=True) == expected
    # ... a bootstrap median needs every example in order: refused in one line, before any work.
    for protocol in ("fruit", "editeval"):
        with pytest.raises(ValueError, match=f"^protocol='{protocol}' cannot be set for corpus_scores: ") as error:
            corpus_scores(None, protocol=protocol)
        assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"source": "a", "reference": "b", "prediction": "c"}\n{"source": 1.5}\n', ":2: missing field(s) reference"),
        (
            '{"source": "a", "reference": ["b", 3], "prediction": "c"}\n',
            ":1: reference[1] must be a string, got a number",
        ),
    ],
)
def test_cli_with_ray_names_file_and_line_of_a_bad_row(cluster, tmp_path, capsys, text, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    plain = run_main([path], capsys)
    on_ray = run_main([path, "--ray"], capsys)
    assert on_ray == plain
    assert on_ray[0] == 2 and f"{path}{message}" in on_ray[2]


def test_cli_with_ray_names_the_first_bad_line_in_file_order_whichever_chunk_fails_first(cluster, tmp_path, capsys):
    # Ray tasks parse the chunks (1,000 lines each) in any order: lines 1,500 and 2,100 are bad.
    good = '{"source": "A b.", "reference": "A b. C d.", "prediction": "A b. C e."}\n'
    lines = [good] * 2500
    lines[1499] = '{"source": "A b.", "reference": "A b.", "prediction": 7}\n'
    lines[2099] = "not json\n"
    path = tmp_path / "late.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    plain = run_main([path], capsys)
    on_ray = run_main([path, "--ray"], capsys)
    assert on_ray == plain
    assert on_ray[0] == 2 and f"{path}:1500: prediction must be a string, got a number" in on_ray[2]
    lines[1499] = lines[2099] = good
    path.write_text("".join(lines), encoding="utf-8")
    assert run_main([path, "--ray"], capsys)[:2] == run_main([path], capsys)[:2]


def test_cli_with_ray_writes_the_per_example_file_it_writes_without(cluster, tmp_path, capsys):
    data = tmp_path / "wiki.jsonl"
    # 800 short lines a chunk: 745 triples repeated make several chunks for the two actors.
    data.write_text((DATA_DIR / "wiki_triples.jsonl").read_text(encoding="utf-8") * 2, encoding="utf-8")
    argv = [data, "--rouge-types", "rouge1", "rougeLsum", "--signature"]
    plain = run_main([*argv, "--per-example", tmp_path / "plain.jsonl"], capsys)
    on_ray = run_main([*argv, "--ray", "--per-example", tmp_path / "ray.jsonl"], capsys)
    assert on_ray[:2] == plain[:2] and plain[0] == 0
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "plain.jsonl").read_bytes()
    assert len((tmp_path / "ray.jsonl").read_text(encoding="utf-8").splitlines()) == 1490


def test_cli_with_ray_refuses_num_proc_before_starting_anything(tmp_path, capsys):
    status, out, err = run_main([DATA_DIR / "fruit_triples.jsonl", "--ray", "127.0.0.1:1", "--num-proc", "2"], capsys)
    assert (status, out) == (2, "")
    assert "--num-proc does not work with --ray: Ray scores as many chunks at once as the cluster has CPUs" in err


def test_ray_workers_are_the_cluster_cpus_and_give_results_in_order(cluster):
    from ray_helpers import pid_of

    workers = RayWorkers()
    assert workers.count == 2  # the test cluster's CPUs
    results = list(workers.starmap_in_order(pid_of, [(item,) for item in range(40)], workers.count))
    assert [item for item, _ in results] == list(range(40))
    # Which of the cluster's workers takes which call is Ray's to decide (a worker may be starting
    # again after an earlier test's): that both score at once is measured by benchmarks/scaling.py.
    assert os.getpid() not in {pid for _, pid in results}, "a call ran in the driver"


def test_a_tasks_error_is_raised_as_itself_after_the_results_before_it(cluster):
    from ray_helpers import refuse_seven

    seen = []
    with pytest.raises(ValueError, match="^item 7 is bad$"):
        for result in RayWorkers().starmap_in_order(refuse_seven, [(item,) for item in range(20)], 2):
            seen.append(result)
    assert seen == list(range(7))


@pytest.mark.skipif(
    signal.getsignal(signal.SIGINT) == signal.SIG_IGN,
    reason="SIGINT is ignored in this process (a shell's background job): the test cluster's workers "
    "inherit that, and Ray interrupts a running task as SIGINT would",
)
def test_a_stopped_run_cancels_its_tasks(cluster, tmp_path):
    """Five stopped runs: a task that was on its way to a worker when it was first cancelled
    went on in one run in three with a single cancel (Ray 2.60)."""
    from ray_helpers import note_after_a_while

    folders = [tmp_path / str(run) for run in range(5)]
    for folder in folders:
        folder.mkdir()
        items = [(item, str(folder)) for item in range(4)]
        results = RayWorkers().starmap_in_order(note_after_a_while, items, 2)
        assert next(results) == 0
        results.close()  # the caller stops: items 1 to 3 are submitted, not taken in
    time.sleep(2.5)
    noted = {folder.name: sorted(path.name for path in folder.iterdir()) for folder in folders}
    assert noted == {folder.name: ["0"] for folder in folders}, "a cancelled task went on"


def test_an_item_whose_worker_died_is_scored_again(cluster, tmp_path):
    from ray_helpers import exit_once_at_three

    marker = tmp_path / "died"
    items = [(item, str(marker)) for item in range(10)]
    assert list(RayWorkers().starmap_in_order(exit_once_at_three, items, 2)) == list(range(10))
    assert marker.exists() and int(marker.read_text()) != os.getpid()
