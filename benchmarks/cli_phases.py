"""Where one command-line run's wall time goes, seen from its main process: one JSON line of
seconds from the start of this script.

``update-rouge FILE --num-proc N --engine ENGINE --per-example OUT`` runs as the installed
command runs it (``cli.run_program``), with clocks around its phases: ``imports`` (the commands'
imports done), ``pool_start`` (the worker pool asked to start), ``first_result`` and
``last_result`` (the first and the last range's result back in the main process, and how many
``results``), ``bootstrap_s`` and ``bootstrap_cpu`` (the intervals' wall and CPU seconds, all
threads), ``end``, ``main_cpu`` (the main process's CPU, ``RUSAGE_SELF``), ``workers_cpu`` (its
ended children's, ``RUSAGE_CHILDREN``: the workers) and ``main_share`` (``main_cpu`` in percent
of the two together, as ``benchmarks/scaling.py`` reports it).

Usage: python benchmarks/cli_phases.py FILE N [ENGINE [OPTION ...]] (ENGINE: python by default;
the OPTIONs are added to the command, e.g. ``--confidence-level none`` for a run without the
bootstrap). The file ``benchmarks/scaling.py`` scores is ``ray_throughput.write_input``'s.
"""

import contextlib
import io
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

BEGAN = time.perf_counter()
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from update_rouge.parallel import BLAS_THREADS_VARIABLE  # noqa: E402  (imports no NumPy)

os.environ.setdefault(BLAS_THREADS_VARIABLE, "1")  # as run_program sets it, before the commands import NumPy

import update_rouge.cli.compare  # noqa: E402, F401  (what cli.main imports)
import update_rouge.cli.score  # noqa: E402, F401
from update_rouge import corpus, parallel  # noqa: E402
from update_rouge.cli import run_program  # noqa: E402

IMPORTS = time.perf_counter() - BEGAN
marks: dict = {}


def since() -> float:
    return time.perf_counter() - BEGAN


def clocked_enter(pool, enter=parallel.WorkerPool.__enter__):
    marks.setdefault("pool_start", since())
    return enter(pool)


def clocked_starmap(pool, items, starmap=parallel.WorkerPool.starmap):
    for result in starmap(pool, items):
        marks.setdefault("first_result", since())
        marks["last_result"] = since()
        marks["results"] = marks.get("results", 0) + 1
        yield result


def clocked_bootstrap(*args, bootstrap=corpus.bootstrap_statistics, **kwargs):
    wall, cpu = time.perf_counter(), time.process_time()
    result = bootstrap(*args, **kwargs)
    marks["bootstrap_s"], marks["bootstrap_cpu"] = time.perf_counter() - wall, time.process_time() - cpu
    return result


def main() -> None:
    path, workers = sys.argv[1], sys.argv[2]
    engine = sys.argv[3] if len(sys.argv) > 3 else "python"
    options = sys.argv[4:]
    parallel.WorkerPool.__enter__ = clocked_enter
    parallel.WorkerPool.starmap = clocked_starmap
    corpus.bootstrap_statistics = clocked_bootstrap
    with tempfile.TemporaryDirectory() as directory:
        out = str(Path(directory) / "per_example.jsonl")
        sys.argv = ["update-rouge", path, "--num-proc", workers, "--engine", engine, "--per-example", out, *options]
        with contextlib.redirect_stdout(io.StringIO()):
            assert run_program() == 0
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    main_cpu, workers_cpu = own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime
    marks.update(imports=IMPORTS, end=since(), main_cpu=main_cpu, workers_cpu=workers_cpu)
    marks["main_share"] = 100 * main_cpu / (main_cpu + workers_cpu)
    line = {key: round(value, 3) for key, value in marks.items()}
    print(json.dumps({"N": int(workers), "engine": engine, "options": options, **line}))


if __name__ == "__main__":
    main()
