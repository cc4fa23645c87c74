"""What the command line costs before it scores: ``update-rouge`` on a one-row file against
``python -c pass``, in whole-process CPU seconds (user + system of the child, from
``resource.getrusage(RUSAGE_CHILDREN)`` before and after each run; workers included).

Each round runs ``python -c pass`` and then each case once (every other round in reverse
order), after one warm-up run of each (which writes the bytecode, as installing the package
does); one JSON line per round, then one per case with the medians of its CPU seconds and of
the rounds' ratios to ``python -c pass`` (docs/speed.md quotes them; the bar is 8x). A case is
the command's options: the defaults (which compute a bootstrap interval),
``--confidence-level none``, and those given on the command line (one case, words after
``--``).

Usage: python benchmarks/startup.py [ROUNDS [FILE]] [-- OPTION ...] (7 rounds; FILE: the first
row of tests/data/wiki_triples.jsonl).
"""

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "wiki_triples.jsonl"


# As an installed package runs: its bytecode compiled once (pip compiles it), not at every start.
ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def child_cpu(command: list[str]) -> float:
    """The CPU seconds (user + system) of running ``command`` to its end, its children included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env={**ENVIRONMENT, "PYTHONPATH": str(ROOT)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str]) -> None:
    given = argv[argv.index("--") + 1 :] if "--" in argv else None
    positional = argv[: argv.index("--")] if "--" in argv else argv
    rounds = int(positional[0]) if positional else 7
    cases = {"defaults": [], "--confidence-level none": ["--confidence-level", "none"]}
    if given:
        cases = {" ".join(given): given}
    with tempfile.TemporaryDirectory() as directory:
        path = positional[1] if len(positional) > 1 else str(Path(directory) / "one.jsonl")
        if len(positional) <= 1:
            Path(path).write_text(DATA.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
        commands = {"python -c pass": [sys.executable, "-c", "pass"]}
        commands |= {name: [sys.executable, "-m", "update_rouge", path, *options] for name, options in cases.items()}
        for command in commands.values():  # a warm-up: the bytecode written
            child_cpu(command)
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        ratios: dict[str, list[float]] = {name: [] for name in cases}
        for round_index in range(rounds):
            order = list(commands) if round_index % 2 == 0 else list(reversed(commands))
            times = {name: child_cpu(commands[name]) for name in order}
            for name in commands:
                cpu[name].append(times[name])
            for name in cases:
                ratios[name].append(times[name] / times["python -c pass"])
            print(json.dumps({name: round(seconds, 3) for name, seconds in times.items()}), flush=True)
    bare = statistics.median(cpu["python -c pass"])
    for name in cases:
        summary = {
            "case": name,
            "rounds": rounds,
            "median_cpu_s": round(statistics.median(cpu[name]), 3),
            "python_c_pass_cpu_s": round(bare, 3),
            "median_ratio": round(statistics.median(ratios[name]), 2),
            "ratio_range": [round(min(ratios[name]), 2), round(max(ratios[name]), 2)],
        }
        print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
