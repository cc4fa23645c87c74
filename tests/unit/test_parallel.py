"""Several processes: num_proc, evaluate's distributed mode, and datasets' map, all equal to one process."""

import json
import math
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from conftest import read_jsonl

import update_rouge
from update_rouge import compute, example_workers
from update_rouge.lcs_limits import MAX_PYTHON_LCS_CELLS_VARIABLE, LcsTableTooLarge
from update_rouge.parallel import WorkerPool, available_cpus, starmap_in_order
from update_rouge.rust_engine import accelerator_threads

MODULE_DIR = Path(update_rouge.__file__).parent
REPO = MODULE_DIR.parent


@pytest.fixture(scope="module")
def iterater():
    rows = read_jsonl("iterater_triples.jsonl")
    return {
        "sources": [r["source"] for r in rows],
        "predictions": [r["prediction"] for r in rows],
        "references": [r["reference"] for r in rows],
    }


def exit_at_once_in_a_worker(text):
    # The main process scores shards too (WorkerPool's helps): only a worker dies.
    if multiprocessing.parent_process() is not None:
        os._exit(3)
    return text.split()


def rayon_threads(_item):
    return os.environ.get("RAYON_NUM_THREADS")


BLAS_THREADS_AT_IMPORT = os.environ.get("OPENBLAS_NUM_THREADS")
"""What this module saw when it was imported: in a worker, where the function it sends is unpickled."""


def blas_threads_at_import(_item):
    return BLAS_THREADS_AT_IMPORT


@pytest.mark.skipif(available_cpus() < 2, reason="num_proc is capped at the CPUs: two workers need two")
def test_each_worker_sizes_its_native_thread_pool_to_its_share_of_the_cpus(monkeypatch):
    # Rayon (rouge-score-rs's threads) otherwise starts a thread per CPU in every worker.
    monkeypatch.delenv("RAYON_NUM_THREADS", raising=False)
    share = str(available_cpus() // 2)
    assert list(starmap_in_order(rayon_threads, [(i,) for i in range(4)], 2)) == [share] * 4
    assert os.environ.get("RAYON_NUM_THREADS") is None, "the parent's own pool must keep every CPU"
    monkeypatch.setenv("RAYON_NUM_THREADS", "3")
    assert list(starmap_in_order(rayon_threads, [(i,) for i in range(4)], 2)) == ["3"] * 4, "a user's setting wins"


@pytest.mark.skipif(available_cpus() < 2, reason="num_proc is capped at the CPUs: two workers need two")
def test_a_worker_sets_one_openblas_thread_before_it_imports_the_function(monkeypatch):
    # NumPy's OpenBLAS starts a thread per CPU but one when NumPy is imported, each spinning about
    # 0.1 s of CPU; the function's module (this one, importing NumPy) must see the setting.
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    seen = list(starmap_in_order(blas_threads_at_import, [(i,) for i in range(4)], 2))
    assert seen == ["1"] * 4, f"the function's module was imported in the worker with OPENBLAS_NUM_THREADS={seen}"
    assert os.environ.get("OPENBLAS_NUM_THREADS") is None, "the parent's environment is left as it was"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    seen = list(starmap_in_order(blas_threads_at_import, [(i,) for i in range(4)], 2))
    assert seen == ["3"] * 4, "a user's setting wins"


def pid_of(index):
    return index, os.getpid()


def fails_at_1_and_3(index):
    if index in (1, 3):
        raise ValueError(f"item {index}")
    return index


@pytest.mark.skipif(available_cpus() < 2, reason="num_proc is capped at the CPUs: two workers need two")
def test_a_helping_pool_scores_here_too_in_input_order():
    with WorkerPool(pid_of, 2, helps=True) as pool:
        results = list(pool.starmap([(i,) for i in range(200)]))
    assert [index for index, _ in results] == list(range(200))
    pids = {pid for _, pid in results}
    # Items 0 and 1 wait for the one worker while it starts (a third of a second or more): this
    # process scores item 2 at once.
    assert results[2][1] == os.getpid() and len(pids) == 2, "this process and one worker"


def accelerator_threads_and_pid(_item):
    return accelerator_threads(), os.getpid()


@pytest.mark.skipif(available_cpus() < 2, reason="num_proc is capped at the CPUs: two workers need two")
def test_a_helping_process_counts_a_workers_share_of_the_cpus_for_the_accelerator(monkeypatch):
    # engine="auto" picks the accelerator only where it has two threads or more: this process,
    # scoring beside its workers, has their share, not every CPU.
    monkeypatch.delenv("RAYON_NUM_THREADS", raising=False)
    with WorkerPool(accelerator_threads_and_pid, 2, helps=True) as pool:
        results = list(pool.starmap([(i,) for i in range(4)]))
    assert results[2] == (available_cpus() // 2, os.getpid()), "item 2 is scored here (see above)"
    assert {threads for threads, _ in results} == {available_cpus() // 2}
    assert accelerator_threads() == available_cpus(), "every CPU again once it is done"


def imports_of_scoring(sources, predictions, references):
    compute(sources, predictions, references, confidence_level=None, engine="python")
    return sorted({"numpy", "tqdm", "nltk", "rouge_score_rs"} & set(sys.modules))


@pytest.mark.skipif(available_cpus() < 2, reason="num_proc is capped at the CPUs: two workers need two")
def test_a_worker_scores_without_importing_numpy_or_the_accelerator(iterater):
    # NumPy only for a bootstrap (in the calling process), the accelerator only where it may run.
    columns = (iterater["sources"][:3], iterater["predictions"][:3], iterater["references"][:3])
    assert list(starmap_in_order(imports_of_scoring, [columns], 2)) == [[]]


@pytest.mark.skipif(available_cpus() < 2, reason="num_proc is capped at the CPUs: two workers need two")
def test_a_helping_pool_raises_the_first_error_in_input_order():
    # Item 3 fails in this process at once, item 1 later in the starting worker: item 1's error
    # is raised, after item 0's result, as in one process.
    seen = []
    with pytest.raises(ValueError, match="^item 1$"), WorkerPool(fails_at_1_and_3, 2, helps=True) as pool:
        for result in pool.starmap([(i,) for i in range(8)]):
            seen.append(result)
    assert seen == [0]
    assert multiprocessing.active_children() == []


@pytest.mark.skipif(available_cpus() < 2, reason="num_proc is capped at the CPUs: two workers need two")
def test_an_exception_while_the_workers_start_leaves_no_worker_running(monkeypatch):
    # A stop signal's exception raised as the workers' start ends (or a failed start) skips the
    # block, and so its end: a worker started then was left running, and the interpreter's exit
    # waited for it for ever when the pool had broken meanwhile (tests/reliability/test_signals.py).
    import concurrent.futures

    class Interrupted(Exception):
        pass

    class StoppedAtTheSecondSubmit(concurrent.futures.ProcessPoolExecutor):
        def submit(self, *args, **kwargs):
            if self._processes:  # one worker started: the signal comes now
                raise Interrupted
            return super().submit(*args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", StoppedAtTheSecondSubmit)
    with pytest.raises(Interrupted), WorkerPool(pid_of, 2):
        pass
    assert multiprocessing.active_children() == []


def test_two_processes_give_the_same_per_example_scores(iterater):
    one = compute(**iterater, use_aggregator=False)
    two = compute(**iterater, use_aggregator=False, num_proc=2)
    assert two == one
    assert len(two["update_rouge1"]) == 40


@pytest.mark.skipif(available_cpus() < 2, reason="num_proc is capped at the CPUs: two workers need two")
def test_a_paired_compute_scores_both_systems_in_one_pool_of_workers(monkeypatch, iterater):
    import concurrent.futures

    pools = []

    class Counted(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            pools.append(args[0])
            super().__init__(*args, **kwargs)

    expected = compute(**iterater, baseline_predictions=iterater["sources"])
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counted)  # what a pool's start imports
    assert compute(**iterater, baseline_predictions=iterater["sources"], num_proc=2) == expected
    assert pools == [1], "one worker: this process scores too"


@pytest.mark.skipif(available_cpus() < 2, reason="num_proc is capped at the CPUs: two workers need two")
def test_bad_input_is_named_and_the_workers_started_before_the_check_are_gone(iterater):
    predictions = iterater["predictions"][:-1] + [None]
    with pytest.raises(ValueError, match=r"^predictions\[39\] must be a string, got None$"):
        compute(iterater["sources"], predictions, iterater["references"], num_proc=2)
    assert multiprocessing.active_children() == []


def test_shards_end_after_their_share_of_examples_or_at_the_character_bound(monkeypatch):
    monkeypatch.setattr(example_workers, "SHARD_CHARACTERS", 10)
    texts = ["abcd", "ab", "abcdefghijkl", "a", "a", "a", "a", "a"]  # each example holds 3 x its text
    starts = example_workers.shard_starts(texts, texts, [[text] for text in texts], most=3)
    # 12 >= 10 ends the first shard at once; 6 + 36 the second; 3 examples of 3 the third, then the rest.
    assert starts == [0, 1, 3, 6]


def test_for_several_workers_the_shards_get_smaller_towards_the_end(monkeypatch):
    monkeypatch.setattr(example_workers, "SHARD_CHARACTERS", 400)
    monkeypatch.setattr(example_workers, "LEAST_SHARD_CHARACTERS", 60)
    texts = ["abcdefghij"] * 100  # 30 characters an example, 3,000 in all
    starts = example_workers.shard_starts(texts, texts, [[text] for text in texts], most=1000, num_proc=2)
    # A quarter of the characters left, between 60 and 400: 400 while 1,600 or more are left
    # (14 examples each), then 330 of 1,320 (11), 247 of 990 (9), 180 (6), 135 (5), 97 (4), 67 (3),
    # then 60 (2 examples each).
    assert starts == [0, 14, 28, 42, 56, 67, 76, 82, 87, 91, 94, 96, 98]
    assert example_workers.shard_starts(texts, texts, [[text] for text in texts], most=1000) == list(range(0, 100, 14))


@pytest.mark.skipif(available_cpus() < 2, reason="num_proc is capped at the CPUs: two workers need two")
def test_a_too_large_lcs_in_a_later_shard_names_its_place_in_the_input(monkeypatch):
    # Shards of unequal sizes: the example's index is counted from each shard's true start.
    monkeypatch.setattr(example_workers, "SHARD_CHARACTERS", 40)
    monkeypatch.setenv(MAX_PYTHON_LCS_CELLS_VARIABLE, "399")
    short, long = "a b.", " ".join(f"w{index}" for index in range(20)) + "."
    references = [short] * 13
    references[4] = references[11] = "x " * 10 + "y."  # 11 characters more per text: shards end earlier
    references[9] = long
    texts = {"sources": [""] * 13, "predictions": references[:9] + [long] + references[10:], "references": references}
    with pytest.raises(LcsTableTooLarge, match="^example 9: rougeL of 20 x 20 tokens"):
        compute(**texts, rouge_types=["rougeL"], engine="python", num_proc=2)


HALF_A_RESULT = """
import gc, multiprocessing.queues, struct, sys, time
from update_rouge.parallel import starmap_in_order

def half_a_result(index):
    if index == 1:
        # What a worker killed while writing its result leaves: the start of a message, never its end.
        results = next(o for o in gc.get_objects() if isinstance(o, multiprocessing.queues.SimpleQueue))
        results._writer._send(struct.pack("!i", 1000) + b"only 10 of 1000 bytes")
        time.sleep(120)
    return index

if __name__ == "__main__":
    results = starmap_in_order(half_a_result, [(0,), (1,)], 2)
    assert next(results) == 0
    time.sleep(2)
    results.close()  # the caller stops early, as a stop signal makes it: the workers are killed
    print("stopped")
"""


def run_script(folder, text, timeout):
    """Run the Python script ``text`` from ``folder`` in a new interpreter that imports this checkout."""
    script = folder / "script.py"
    script.write_text(text)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=timeout, env=env)


def stopped(folder, text, waited_for):
    """The run of the script ``text`` (``run_script``), failing the test where it still waited for
    ``waited_for`` 60 s later."""
    try:
        return run_script(folder, text, 60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"stopping the run still waited for {waited_for} 60 s later")


@pytest.mark.skipif(available_cpus() < 2, reason="num_proc is capped at the CPUs: two workers need two")
def test_stopping_while_a_worker_is_half_way_through_writing_its_result_does_not_hang(tmp_path):
    # The pool's manager thread waits for the rest of the message; stopping must not wait with it
    # (a SIGTERM at a random moment hung 1 run in about 100 on a loaded machine).
    done = stopped(tmp_path, HALF_A_RESULT, "the half-written result")
    assert (done.returncode, done.stdout) == (0, "stopped\n"), done.stderr


FEEDER_BLOCKED = """
import os, signal, time
from update_rouge.parallel import WorkerPool, _call


def hold(index, payload):
    time.sleep(120)


if __name__ == "__main__":
    try:
        with WorkerPool(hold, 2) as pool:
            futures = [pool._pool.submit(_call, (index, "x" * 4_000_000)) for index in range(4)]
            time.sleep(3)  # each worker holds an item; the third waits in the feeder, the pipe full
            for process in list(pool._pool._processes.values()):
                os.kill(process.pid, signal.SIGKILL)  # as a hang-up to the process group kills them
            time.sleep(1)  # the pool's manager thread finds it broken and stops its threads
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        print("stopped")
"""


@pytest.mark.skipif(available_cpus() < 2, reason="num_proc is capped at the CPUs: two workers need two")
def test_stopping_after_the_workers_died_with_work_still_to_send_does_not_hang(tmp_path):
    # The pool's manager thread joined the feeder thread, blocked for ever writing into the dead
    # workers' pipe, where Python lacks the fix of CPython issue 94777 (Debian's 3.11.2: CI's
    # test_signals hung after a SIGHUP to the process group).
    done = stopped(tmp_path, FEEDER_BLOCKED, "the feeder thread")
    assert (done.returncode, done.stdout, done.stderr) == (0, "stopped\n", "")


BLOCKED_IN_WORKERS = """
import os, signal
from update_rouge.parallel import starmap_in_order

def blocked(_):
    return os.getpid(), signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])

if __name__ == "__main__":
    seen = dict(starmap_in_order(blocked, [(i,) for i in range(40)], 2))
    print(sorted(seen.values()), signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []))
"""


@pytest.mark.skipif(available_cpus() < 2, reason="num_proc is capped at the CPUs: two workers need two")
@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks on this platform")
def test_workers_start_with_sigint_blocked_in_a_new_process(tmp_path):
    # In a new process the pool starts multiprocessing's resource tracker, which unblocks SIGINT
    # in the thread that starts it: a Ctrl-C then reached the workers, each printing a traceback.
    done = run_script(tmp_path, BLOCKED_IN_WORKERS, 120)
    assert done.stdout.split("] ")[1] == "False\n", "the parent's own mask is as it was"
    assert set(done.stdout.split("]")[0].strip("[").split(", ")) == {"True"}, done.stdout + done.stderr


# Slow: it starts three worker processes (CI runs it); the quick run keeps two-process scoring above.
@pytest.mark.slow
def test_a_custom_tokenizer_reaches_the_workers(iterater):
    multi = {**iterater, "references": [[r, p] for r, p in zip(iterater["references"], iterater["predictions"][::-1])]}
    one = compute(**multi, tokenizer=str.split, num_proc=1)
    assert compute(**multi, tokenizer=str.split, num_proc=3) == one
    assert one["update_rouge1"] != compute(**multi)["update_rouge1"]


def test_an_unpicklable_tokenizer_falls_back_to_one_process_with_a_warning(iterater):
    with pytest.warns(UserWarning, match=r"num_proc=2 ignored, scoring in this process: .*lambda"):
        result = compute(**iterater, tokenizer=lambda text: text.lower().split(), num_proc=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert result == compute(**iterater, tokenizer=lambda text: text.lower().split())


def test_a_dying_worker_is_a_clear_error(iterater):
    with pytest.raises(RuntimeError, match="a worker process could not start or died"):
        compute(**iterater, tokenizer=exit_at_once_in_a_worker, num_proc=2)


@pytest.mark.parametrize("num_proc", [0, -1, 1.5, "2", True, None])
def test_num_proc_must_be_a_whole_number(iterater, num_proc):
    with pytest.raises(ValueError, match="num_proc must be a whole number of processes"):
        compute(**iterater, num_proc=num_proc)


@pytest.mark.slow
def test_the_evaluate_module_takes_num_proc(iterater, tmp_path):
    import evaluate

    metric = evaluate.load(str(MODULE_DIR), cache_dir=str(tmp_path))
    assert metric.compute(**iterater, num_proc=2) == compute(**iterater)


DISTRIBUTED_WORKER = """
import json, sys
import evaluate

module_dir, cache_dir, rank, half_file = sys.argv[1:]
metric = evaluate.load(module_dir, num_process=2, process_id=int(rank), experiment_id="two-halves", cache_dir=cache_dir)
with open(half_file, encoding="utf-8") as handle:
    half = json.load(handle)
metric.add_batch(sources=half["sources"], predictions=half["predictions"], references=half["references"])
print(json.dumps(metric.compute()))
"""


@pytest.mark.slow
def test_evaluate_distributed_mode_with_two_real_processes(iterater, tmp_path):
    cache_dir = tmp_path / "shared_cache"
    env = dict(os.environ, HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1", PYTHONPATH=str(REPO))
    workers = []
    for rank, part in enumerate((slice(0, 17), slice(17, None))):
        half_file = tmp_path / f"half{rank}.json"
        half_file.write_text(json.dumps({key: values[part] for key, values in iterater.items()}), encoding="utf-8")
        command = [sys.executable, "-c", DISTRIBUTED_WORKER, str(MODULE_DIR), str(cache_dir), str(rank), str(half_file)]
        workers.append(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env))
    outputs = [worker.communicate(timeout=600) for worker in workers]
    for worker, (_, stderr) in zip(workers, outputs):
        assert worker.returncode == 0, stderr
    assert json.loads(outputs[0][0].strip().splitlines()[-1]) == compute(**iterater)
    assert outputs[1][0].strip().splitlines()[-1] == "null"


def add_update_rouge(batch):
    return compute(
        sources=batch["source"], predictions=batch["prediction"], references=batch["reference"], use_aggregator=False
    )


def test_datasets_map_with_two_processes(iterater):
    from datasets import Dataset

    dataset = Dataset.from_dict(
        {"source": iterater["sources"], "prediction": iterater["predictions"], "reference": iterater["references"]}
    )
    scored = dataset.map(add_update_rouge, batched=True, batch_size=8, num_proc=2)
    one = compute(**iterater, use_aggregator=False)
    for key, values in one.items():
        assert list(scored[key]) == values
    assert math.fsum(scored["update_rouge2"]) / len(scored) == compute(**iterater)["update_rouge2"]


def readme_block(containing):
    blocks = re.findall(r"```python\n(.*?)```", (REPO / "docs" / "scaling.md").read_text(encoding="utf-8"), flags=re.S)
    (block,) = [b for b in blocks if containing in b]
    return block


@pytest.mark.slow
def test_the_readme_datasets_map_example_runs_as_written(tmp_path):
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", HF_HOME=str(tmp_path / "hf"))
    env["PYTHONPATH"] = str(REPO)
    script = tmp_path / "map_example.py"
    script.write_text(readme_block("dataset.map("), encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, str(script)], cwd=REPO, env=env, capture_output=True, text=True, timeout=600
    )
    assert completed.returncode == 0, completed.stderr
    rows = read_jsonl("fruit_triples.jsonl")
    expected = compute(
        sources=[r["source"] for r in rows],
        predictions=[r["prediction"] for r in rows],
        references=[r["reference"] for r in rows],
        use_aggregator=False,
    )
    assert completed.stdout.strip() == str(expected["update_rouge1"])
