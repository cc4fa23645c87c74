"""How ``update-rouge FILE --ray`` joins a running cluster (never starting one), refuses to run
without one, how long it waits, and how it stops; that the package names nothing private of Ray's.

Each test runs the real commands (``update-rouge``, ``ray start``) in new sessions with a marker
in their environment, which every process they start inherits: the test finds them all by it,
checks that the command leaves none behind, and kills them all at the end. Ray's temporary folder
(``RAY_TMPDIR``) and home folder (its token) are inside a folder the test removes.
"""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from conftest import DATA_DIR
from ray_helpers import RAY, free_port, short_temp_folder, started_cluster

from update_rouge.cli.score import RAY_ADVICE
from update_rouge.integrations.ray_chunks import CONNECT_TIMEOUT_VARIABLE, _OtherThreadsToStderr, connect_timeout

pytest.importorskip("ray", reason="needs the ray extra")
pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads sockets and processes from /proc")
REPO = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "update_rouge"]


@pytest.fixture
def ray_run():
    """Start a command (``update-rouge ...``, ``ray start ...``) with a fresh Ray temporary
    folder and home; the fixture gives a function returning the process and its marker, and
    removes every process and file after."""
    folder = short_temp_folder()
    started = []

    def start(command, stderr=subprocess.PIPE, **environment):
        marker = uuid.uuid4().hex
        env = dict(os.environ, PYTHONPATH=str(REPO), RAY_TMPDIR=str(folder), HOME=str(folder))
        env.pop("RAY_ADDRESS", None)
        env.update(RAY_USAGE_STATS_ENABLED="0", UPDATE_ROUGE_TEST_MARKER=marker, **environment)
        process = subprocess.Popen(
            list(map(str, command)),
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            cwd=REPO,
            env=env,
            start_new_session=True,
        )
        started.append(marker)
        return process, marker

    yield start, folder
    for marker in started:
        for pid in marked(marker):
            os.kill(pid, signal.SIGKILL)
    shutil.rmtree(folder, ignore_errors=True)


def marked(marker):
    """The live processes whose environment holds ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and f"UPDATE_ROUGE_TEST_MARKER={marker}".encode() in Path(
                f"/proc/{entry}/environ"
            ).read_bytes().split(b"\0"):
                if Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                    found.append(int(entry))
        except OSError:
            continue
    return found


def described(pids):
    """``pid: command line`` of each of ``pids``, for a failure's message."""
    lines = []
    for pid in pids:
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            command = "(gone)"
        lines.append(f"{pid}: {command[:200]}")
    return "; ".join(lines)


def wait_for(condition, seconds, step=0.1):
    deadline = time.monotonic() + seconds
    while not (found := condition()) and time.monotonic() < deadline:
        time.sleep(step)
    return found


def test_an_address_where_nothing_listens_is_given_up_after_the_timeout(ray_run):
    start, _ = ray_run
    began = time.monotonic()
    process, _ = start(
        [*CLI, DATA_DIR / "fruit_triples.jsonl", "--ray", "127.0.0.1:1"], **{CONNECT_TIMEOUT_VARIABLE: "2"}
    )
    out, err = process.communicate(timeout=120)
    message = (
        "update-rouge: error: no Ray cluster answers at 127.0.0.1:1: nothing accepted a connection for 2 s "
        f"(Connection refused); wait longer with the environment variable {CONNECT_TIMEOUT_VARIABLE}\n"
    )
    assert (process.returncode, err, out) == (2, message, "")
    assert time.monotonic() - began < 60


@pytest.mark.parametrize("text", ["0", "-1", "soon", "nan", "inf"])
def test_the_timeout_variable_is_a_positive_number_of_seconds(monkeypatch, text):
    monkeypatch.setenv(CONNECT_TIMEOUT_VARIABLE, text)
    message = f"{CONNECT_TIMEOUT_VARIABLE}='{text}': expected a number of seconds > 0"
    with pytest.raises(ValueError, match=f"^{message}; instead: "):
        connect_timeout()
    monkeypatch.setenv(CONNECT_TIMEOUT_VARIABLE, "2.5")
    assert connect_timeout() == 2.5


def plain_output(path, *options):
    """What ``update-rouge PATH OPTIONS`` prints without ``--ray``."""
    return subprocess.run([*CLI, path, *options], capture_output=True, text=True, cwd=REPO, check=True).stdout


def listens(port):
    """Whether something accepts a TCP connection at 127.0.0.1:``port``."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    except OSError:
        return False
    return True


@pytest.mark.slow
def test_ray_without_an_address_is_refused_in_one_line_whose_advice_works(ray_run):
    start, folder = ray_run
    data = DATA_DIR / "iterater_triples.jsonl"
    process, marker = start([*CLI, data, "--ray"])
    out, err = process.communicate(timeout=120)
    assert (process.returncode, out) == (2, "")
    assert err == (
        "update-rouge: error: --ray joins a running Ray cluster and none is named (no ADDRESS, no RAY_ADDRESS): "
        f"start one with `{RAY_ADVICE}` and give --ray 127.0.0.1:6379 (or set RAY_ADDRESS=127.0.0.1:6379)\n"
    )
    assert not marked(marker)
    # The advice, on a free port for 6379, without Ray's dashboard (a fixed port), with 2 CPUs and
    # its session folder right in the fixture's (Ray's socket paths must stay within 107 bytes).
    (command,) = re.findall("`(ray start [^`]*)`", err)
    port = str(free_port())
    assert command.split()[-1] == "6379"
    cluster, cluster_marker = start(
        [RAY, *command.split()[1:-1], port, "--include-dashboard", "false", "--num-cpus", "2", "--temp-dir", folder]
    )
    started, started_err = cluster.communicate(timeout=180)
    assert cluster.returncode == 0, started_err
    address = f"127.0.0.1:{port}"
    expected = plain_output(data, "--signature")
    runs = [
        start([*CLI, data, "--signature", "--ray", address]),
        start([*CLI, data, "--signature", "--ray"], RAY_ADDRESS=address),
    ]
    for process, marker in runs:
        out, err = process.communicate(timeout=240)
        assert (process.returncode, out) == (0, expected), err
        assert wait_for(lambda run=marker: not marked(run), 30), f"processes left: {described(marked(marker))}"
    assert '"signature": "refs:1|' in expected
    assert marked(cluster_marker) and listens(int(port)), "a run stopped the cluster it joined"


@pytest.fixture(scope="module")
def running_cluster(tmp_path_factory):
    """A running cluster (``ray_helpers.started_cluster``) whose workers cannot import jieba."""
    shims = tmp_path_factory.mktemp("shims")
    (shims / "jieba").mkdir()
    (shims / "jieba" / "__init__.py").write_text("raise ImportError('jieba is hidden by the test')\n")
    with started_cluster([shims]) as address:
        yield address, shims


@pytest.mark.slow
def test_sigterm_under_ray_prints_the_interrupted_line_and_leaves_no_process(ray_run, running_cluster, tmp_path):
    start, _ = ray_run
    address, _ = running_cluster
    wiki = (DATA_DIR / "wiki_triples.jsonl").read_text().splitlines()
    data = tmp_path / "big.jsonl"
    data.write_text("\n".join(wiki * 8) + "\n")
    with open(tmp_path / "err.txt", "w+") as err:
        process, marker = start([*CLI, data, "--ray", address, "--progress"], stderr=err)
        # The progress bar shows once the run has joined the cluster.
        assert wait_for(lambda: "B/s" in (tmp_path / "err.txt").read_text(), 240), process.communicate()
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=60)
        lines = (tmp_path / "err.txt").read_text().replace("\r", "\n").splitlines()
    assert process.returncode == 143, lines
    assert lines[-1].startswith("update-rouge: interrupted by SIGTERM: stopped")
    assert not any(line.startswith("Traceback") for line in lines)
    assert out == ""
    assert wait_for(lambda: not marked(marker), 30), f"processes left: {described(marked(marker))}"


@pytest.mark.slow
def test_a_segmenter_missing_on_the_ray_workers_is_one_line(ray_run, running_cluster, tmp_path):
    from test_extras import HIDDEN, chinese_rows

    start, _ = ray_run
    address, shims = running_cluster
    data = tmp_path / "zh.jsonl"
    data.write_text("".join(__import__("json").dumps(row) + "\n" for row in chinese_rows()), encoding="utf-8")
    process, marker = start(
        [*CLI, data, "--ray", address, "--language", "zh"], PYTHONPATH=os.pathsep.join([str(shims), str(REPO)])
    )
    out, err = process.communicate(timeout=240)
    assert process.returncode == 2, err
    assert err.splitlines()[-1] == f"update-rouge: error: {HIDDEN}" and "Traceback" not in err
    assert wait_for(lambda: not marked(marker), 30), f"processes left: {described(marked(marker))}"


def test_what_other_threads_print_goes_to_stderr_and_the_run_s_own_to_stdout(capsys):
    # A loaded run's `--ray` output began with Ray's "(raylet) A worker died ..." line, which Ray's
    # driver prints to standard output from a thread of its own.
    def report():
        print("(raylet) A worker died or was killed while executing a task")

    stdout = sys.stdout
    sys.stdout = _OtherThreadsToStderr(stdout, threading.current_thread())
    try:
        print('{"update_rouge1": 0.5}')
        thread = threading.Thread(target=report)
        thread.start()
        thread.join()
        sys.stdout.write("done\n")
        sys.stdout.flush()
    finally:
        sys.stdout = stdout
    print("after")
    out, err = capsys.readouterr()
    assert out == '{"update_rouge1": 0.5}\ndone\nafter\n'
    assert err == "(raylet) A worker died or was killed while executing a task\n"


def test_the_package_names_nothing_private_of_rays():
    # ray._private (or any other underscored name of Ray's) can change in any Ray release.
    private = re.compile(r"\bray(\.[A-Za-z]\w*)*\._\w|from ray(\.\w+)* import _")
    found = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in sorted((REPO / "update_rouge").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if private.search(line)
    ]
    assert not found
