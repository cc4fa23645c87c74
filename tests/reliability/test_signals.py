"""Every stop signal, at any moment of a real two-worker run, ends it within seconds and cleanly.

The runs get a real SIGTERM, SIGHUP or SIGINT (to the process group, as Ctrl-C sends it) at
moments drawn from a seeded schedule that starts when the first child process appears, so the
signal lands while the workers start, while they import, and while they score; and a SIGINT
while the program imports its commands. Each run must
end within seconds with the documented line and status, leave no process of its session, no
temporary file, and the existing output as it was. A SIGKILL of the main process must not
leave its workers behind. docs/guarantees.md states what is tested here.
"""

import json
import os
import random
import select
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import DATA_DIR

from update_rouge.parallel import available_cpus
from update_rouge.stop_signals import STOP_SIGNALS, DeferredStopSignals

REPO = Path(__file__).resolve().parents[2]
END_SECONDS = 20  # "within seconds", with room for a loaded CI machine
pytestmark = [
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the run's processes from /proc"),
    pytest.mark.skipif(available_cpus() < 2, reason="needs 2 CPUs for 2 worker processes"),
]


def _stat(pid):
    """(state, parent pid, session id) of a process, or None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[1]), int(fields[3])


def _live(pids):
    return [pid for pid in pids if (found := _stat(pid)) is not None and found[0] != "Z"]


def _session(sid):
    """The live processes of session ``sid`` (a run started with start_new_session: all its processes)."""
    return _live(
        int(entry) for entry in os.listdir("/proc") if entry.isdigit() and (_stat(entry) or (0, 0, 0))[2] == sid
    )


def _children(pid):
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit() and (_stat(entry) or (0, 0, 0))[1] == pid]


def _workers(pid):
    return [child for child in _live(_children(pid)) if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()]


def _noted(signum, _frame):
    """A handler, for the moment a run is started: the run gets the signal's default action."""


def _wait_for(condition, seconds, step=0.01):
    deadline = time.monotonic() + seconds
    while not (found := condition()) and time.monotonic() < deadline:
        time.sleep(step)
    return found


@pytest.fixture
def run(tmp_path):
    """Start ``update-rouge`` on 6,000 examples with two workers; return the process and its output file."""
    wiki = (DATA_DIR / "wiki_triples.jsonl").read_text().splitlines()
    data = tmp_path / "big.jsonl"
    data.write_text("\n".join((wiki * 9)[:6000]) + "\n")
    output = tmp_path / "OUT"
    started = []

    def start(*more, program=("-m", "update_rouge"), ignored=()):
        """The run, started as ``python PROGRAM`` (``-m update_rouge`` by default), with the stop
        signals' default actions as from a terminal, whatever this test process has (``nohup``
        ignores SIGHUP, a shell's background job SIGINT), except the signals ``ignored`` (SIGHUP:
        as under ``nohup``). The run inherits them through exec: an ignored signal stays ignored,
        a handler becomes the default action."""
        output.write_text("earlier scores\n")
        output.chmod(0o640)
        previous = {
            number: signal.signal(number, signal.SIG_IGN if number in ignored else _noted) for number in STOP_SIGNALS
        }
        try:
            process = subprocess.Popen(
                [sys.executable, *map(str, program), str(data), "--num-proc", "2", "--per-example", str(output), *more],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=REPO,
                env=dict(os.environ, PYTHONPATH=str(REPO)),
                start_new_session=True,
                pass_fds=[fd for fd in program if isinstance(fd, int)],
            )
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)
        started.append(process)
        return process

    yield start, output
    for process in started:
        for pid in _session(process.pid):
            os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.communicate()


def _interrupt(run, signum, delay, workers=0, more=(), began=None):
    """One run (with the options ``more``), given ``signum`` ``delay`` seconds after its first
    child process appeared (after ``workers`` worker processes were running, when given; with
    ``began``, ``(program, wait)``, the run of ``program`` after ``wait()`` returned); SIGINT
    and SIGHUP go to the whole process group (a Ctrl-C, a closed terminal), SIGTERM to the
    main process. ``run`` is the fixture's (start, output)."""
    start, output = run
    if began is None:
        process = start(*more)
        assert _wait_for(lambda: _children(process.pid), 60), process.communicate()
    else:
        process = start(*more, program=began[0])
        assert began[1](), process.communicate()
    if workers:
        assert _wait_for(lambda: len(_workers(process.pid)) >= workers, 120, step=0.1), process.communicate()
    time.sleep(delay)
    if signum in (signal.SIGINT, signal.SIGHUP):
        # A Ctrl-C, or a closed terminal, reaches every process of the group: the workers and
        # multiprocessing's resource tracker too. The run's own group (start_new_session), never
        # the one of this test process and its pytest-xdist siblings.
        assert os.getpgid(process.pid) == process.pid != os.getpgrp(), "the run shares a process group"
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    sent = time.monotonic()
    try:
        out, err = process.communicate(timeout=END_SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{signum.name} at {delay:.2f} s: still running {END_SECONDS} s later")
    took = time.monotonic() - sent
    anchor = f"{workers} workers ran" if workers else "the first child" if began is None else "the imports began"
    where = f"{signum.name} at {delay:.2f} s after {anchor}"
    assert process.returncode == 128 + signum, f"{where}: exit {process.returncode}, stderr {err!r}"
    assert err.startswith(f"update-rouge: interrupted by {signum.name}: stopped") and err.count("\n") == 1, (
        f"{where}: stderr {err!r}"
    )
    assert out == ""
    left = _wait_for(lambda: not _session(process.pid), 10, step=0.1)
    assert left, f"{where}: processes left: {_session(process.pid)}"
    assert output.read_text() == "earlier scores\n" and stat.S_IMODE(os.stat(output).st_mode) == 0o640, where
    assert sorted(path.name for path in output.parent.iterdir()) == ["OUT", "big.jsonl"], where
    return took


def _schedule(seed, count):
    """``count`` (signal, delay) pairs: delays up to 2 s cover the workers' start and first chunks."""
    rng = random.Random(seed)
    signals = [signal.SIGTERM, signal.SIGHUP, signal.SIGINT]
    return [(signals[index % 3], rng.uniform(0, 2)) for index in range(count)]


@pytest.mark.parametrize(
    "signum, delay", _schedule(seed=26, count=2), ids=lambda value: getattr(value, "name", f"{value:.2f}s")
)
def test_a_signal_at_a_random_moment_ends_the_run_cleanly(run, signum, delay):
    _interrupt(run, signum, delay)


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=lambda value: value.name)
def test_a_signal_while_both_workers_score_stops_them_and_leaves_the_output_alone(run, signum):
    _interrupt(run, signum, delay=1, workers=2)


def test_a_hangup_as_the_first_worker_starts_ends_the_run(run):
    # The hang-up killed the first worker while the second was being started: the pool, broken,
    # never stopped the second, and the interpreter's exit waited for it for ever (a run still
    # running 20 s later, in about one run of five on a loaded machine).
    for delay in (0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.1, 0.12):
        _interrupt(run, signal.SIGHUP, delay)


@pytest.mark.parametrize("additions", ["sentences", "edits"])
def test_a_hangup_of_the_process_group_prints_one_line_and_leaves_nothing(run, additions):
    # It killed multiprocessing's resource tracker: then "process died unexpectedly, relaunching"
    # and a KeyError traceback per semaphore followed the line on stderr.
    _interrupt(run, signal.SIGHUP, delay=0.5, workers=2, more=("--additions", additions))


def test_a_hangup_of_the_installed_commands_group_prints_one_line(run):
    # Its workers run the installed script as __mp_main__ (spawn), which imports its entry point:
    # they printed the line too, one line per process.
    script = shutil.which("update-rouge", path=Path(sys.executable).parent)
    assert script is not None, "update-rouge is not installed: run pip install -e ."
    _interrupt(run, signal.SIGHUP, delay=0.5, workers=2, began=((script,), lambda: True))


def test_a_hangup_of_a_nohup_run_is_still_ignored_and_the_run_finishes(run):
    # nohup update-rouge ...: the command's handlers replaced the ignored SIGHUP while it ran, so
    # a hang-up stopped it (129, "interrupted by SIGHUP") after all.
    start, output = run
    process = start(ignored=(signal.SIGHUP,))
    assert _wait_for(lambda: len(_workers(process.pid)) >= 2, 120, step=0.1), process.communicate()
    time.sleep(0.5)
    assert process.poll() is None, process.communicate()  # the hang-up comes mid-run
    assert os.getpgid(process.pid) == process.pid != os.getpgrp(), "the run shares a process group"
    os.killpg(process.pid, signal.SIGHUP)
    out, err = process.communicate(timeout=120)
    assert (process.returncode, err) == (0, "")
    assert 0 < json.loads(out)["update_rouge1"] < 1, out
    assert [json.loads(line)["line"] for line in output.read_text().splitlines()] == list(range(1, 6001))


@pytest.mark.slow
def test_fifteen_signals_at_random_moments_each_end_the_run_within_seconds(run):
    took = [_interrupt(run, signum, delay) for signum, delay in _schedule(seed=1, count=15)]
    assert max(took) < END_SECONDS


@pytest.mark.slow
def test_the_workers_exit_when_the_main_process_is_killed(run):
    start, _ = run
    process = start()
    workers = _wait_for(lambda: len(found := _workers(process.pid)) == 2 and found, 60, step=0.05)
    assert workers, process.communicate()
    process.kill()
    process.communicate()
    assert _wait_for(lambda: not _live(workers), 5, step=0.05), f"workers {_live(workers)} outlived their parent"


BEGIN = """
import os, runpy, sys
how, name, marker = sys.argv[1:4]
sys.argv = [name, *sys.argv[4:]]


def mark(event, arguments):
    global marker
    if event == "import" and arguments[0] == "update_rouge.parallel" and marker:
        os.write(int(marker), b"."), os.close(int(marker))
        marker = ""


sys.addaudithook(mark)
if how == "script":
    runpy.run_path(name, run_name="__main__")
else:
    runpy.run_module(name, run_name="__main__", alter_sys=True)
"""


def _imports_begun(how, name):
    """``(program, wait)`` for ``_interrupt``: ``python -c`` code that runs the installed script
    ``name`` (``how`` "script") or the module ``name`` as ``python -m`` does (``how`` "module"),
    and a ``wait()`` that returns once the program begins to import ``update_rouge.parallel``,
    the first of the modules that bring the commands' dependencies (multiprocessing, then the
    commands and NumPy: the half second a Ctrl-C hit). Before it lie Python's own start and the
    package's first modules (tests/entry_points/test_cli_script.py checks which)."""
    read, write = os.pipe()

    def wait():
        os.close(write)
        try:
            return select.select([read], [], [], 60)[0] and os.read(read, 1) == b"."
        finally:
            os.close(read)

    return ("-c", BEGIN, how, name, write), wait


def test_a_ctrl_c_while_the_commands_import_is_the_one_line_and_status_130(run):
    # It was a KeyboardInterrupt traceback of 14 to 51 lines. 8 moments from the start of those
    # imports to 1 s after, on the installed update-rouge script and python -m update_rouge in turn.
    script = shutil.which("update-rouge", path=Path(sys.executable).parent)
    assert script is not None, "update-rouge is not installed: run pip install -e ."
    for index, delay in enumerate([0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0]):
        began = _imports_begun("script", script) if index % 2 == 0 else _imports_begun("module", "update_rouge")
        _interrupt(run, signal.SIGINT, delay, began=began)


def test_a_stop_signal_during_a_worker_start_is_held_until_it_is_started():
    class Stopped(Exception):
        pass

    def stop(signum, _frame):
        raise Stopped(signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        with pytest.raises(Stopped):
            with DeferredStopSignals():
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.2)  # a handler would have run by now
                reached = True
        assert reached
        assert signal.getsignal(signal.SIGTERM) is stop
    finally:
        signal.signal(signal.SIGTERM, previous)
