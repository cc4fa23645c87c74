"""What ``update-rouge FILE --ray`` exposes, how long it waits, and how it stops.

Each test runs the real command in a new session with a marker in its environment, which every
process Ray starts inherits: the test finds them all by it, reads the TCP sockets they listen
on (``/proc/net/tcp*``), and checks that none is left after the run. Ray's temporary folder
(``RAY_TMPDIR``) and home folder (its token) are inside a folder the test removes.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest
from conftest import DATA_DIR

from update_rouge.integrations.ray_cluster import CONNECT_TIMEOUT_VARIABLE, connect_timeout, ray_reports_to_stderr

pytest.importorskip("ray", reason="needs the ray extra")
pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads sockets and processes from /proc")
REPO = Path(__file__).resolve().parents[2]
IPV4_LOOPBACK = "7F"  # 127.x.x.x, little-endian hex in /proc/net/tcp
IPV6_LOOPBACK = ("00000000000000000000000001000000", "0000000000000000FFFF00000")  # ::1, ::ffff:127.x


@pytest.fixture
def ray_run():
    """Start ``update-rouge ARGS`` with a fresh Ray temporary folder and home; the fixture gives
    a function returning the process and its marker, and removes every process and file after."""
    folder = Path(tempfile.mkdtemp(prefix="ur-ray-"))  # short: Ray's socket paths must stay under 108 bytes
    started = []

    def start(argv, **environment):
        marker = uuid.uuid4().hex
        env = dict(os.environ, PYTHONPATH=str(REPO), RAY_TMPDIR=str(folder), HOME=str(folder))
        env.update(RAY_USAGE_STATS_ENABLED="0", UPDATE_ROUGE_TEST_MARKER=marker, **environment)
        process = subprocess.Popen(
            [sys.executable, "-m", "update_rouge", *map(str, argv)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
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


def listening(pids):
    """``{(address in hex, port): process name}`` of the TCP sockets ``pids`` listen on."""
    inodes = {}
    for pid in pids:
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes[target[8:-1]] = name
        except OSError:
            continue
    found = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            address, port = fields[1].split(":")
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                found[(address, int(port, 16))] = inodes[fields[9]]
    return found


def is_loopback(address):
    if len(address) == 8:
        return address.endswith(IPV4_LOOPBACK)
    return address == IPV6_LOOPBACK[0] or (address.startswith(IPV6_LOOPBACK[1]) and address.endswith(IPV4_LOOPBACK))


def wait_for(condition, seconds, step=0.1):
    deadline = time.monotonic() + seconds
    while not (found := condition()) and time.monotonic() < deadline:
        time.sleep(step)
    return found


@pytest.mark.slow
def test_a_new_cluster_listens_on_loopback_only_and_ignores_a_stale_address(ray_run, capsys):
    start, folder = ray_run
    # What a `ray start --head` that died leaves: Ray's init(address=None) would wait on it for minutes.
    (folder / "ray").mkdir()
    (folder / "ray" / "ray_current_cluster").write_text("127.0.0.1:1")
    data = DATA_DIR / "iterater_triples.jsonl"
    process, marker = start([data, "--ray"], RAY_ADDRESS="127.0.0.1:1")
    sockets = {}
    deadline = time.monotonic() + 240
    while process.poll() is None and time.monotonic() < deadline:
        sockets.update(listening(marked(marker)))
        time.sleep(0.2)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    plain = subprocess.run([sys.executable, "-m", "update_rouge", data], capture_output=True, text=True, cwd=REPO)
    assert out == plain.stdout
    names = set(sockets.values())
    assert {"gcs_server", "raylet"} <= names, f"the run's listening sockets were not seen: {sockets}"
    exposed = {key: name for key, name in sockets.items() if not is_loopback(key[0])}
    assert not exposed, f"listening beyond the loopback address: {exposed}"
    assert wait_for(lambda: not marked(marker), 30), f"processes left: {described(marked(marker))}"


def test_an_address_where_nothing_listens_is_given_up_after_the_timeout(ray_run):
    start, _ = ray_run
    began = time.monotonic()
    process, _ = start([DATA_DIR / "fruit_triples.jsonl", "--ray", "127.0.0.1:1"], **{CONNECT_TIMEOUT_VARIABLE: "2"})
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


@pytest.mark.slow
def test_sigterm_under_ray_prints_the_interrupted_line_and_leaves_no_process(ray_run, tmp_path):
    start, _ = ray_run
    wiki = (DATA_DIR / "wiki_triples.jsonl").read_text().splitlines()
    data = tmp_path / "big.jsonl"
    data.write_text("\n".join(wiki * 8) + "\n")
    process, marker = start([data, "--ray"])
    assert wait_for(lambda: "raylet" in listening(marked(marker)).values(), 240), process.communicate()
    time.sleep(1)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 143, err
    assert err.splitlines()[-1].startswith("update-rouge: interrupted by SIGTERM: stopped") and "Traceback" not in err
    assert out == ""
    assert wait_for(lambda: not marked(marker), 30), f"processes left: {described(marked(marker))}"


@pytest.mark.slow
def test_a_segmenter_missing_on_the_ray_workers_is_one_line(ray_run, tmp_path):
    from test_extras import HIDDEN, chinese_rows

    start, _ = ray_run
    shims = tmp_path / "shims" / "jieba"
    shims.mkdir(parents=True)
    (shims / "__init__.py").write_text("raise ImportError('jieba is hidden by the test')\n")
    data = tmp_path / "zh.jsonl"
    data.write_text("".join(__import__("json").dumps(row) + "\n" for row in chinese_rows()), encoding="utf-8")
    process, marker = start(
        [data, "--ray", "--language", "zh"], PYTHONPATH=os.pathsep.join([str(shims.parent), str(REPO)])
    )
    out, err = process.communicate(timeout=240)
    assert process.returncode == 2, err
    assert err.splitlines()[-1] == f"update-rouge: error: {HIDDEN}" and "Traceback" not in err
    assert wait_for(lambda: not marked(marker), 30), f"processes left: {described(marked(marker))}"


def test_what_rays_report_thread_prints_goes_to_stderr_and_the_rest_to_stdout(capsys):
    # A loaded run's `--ray` output began with Ray's "(raylet) A worker died ..." line, which Ray's
    # driver prints to standard output from its report thread (test_ray.py checks its name).
    def report():
        print("(raylet) A worker died or was killed while executing a task")

    with ray_reports_to_stderr():
        print('{"update_rouge1": 0.5}')
        thread = threading.Thread(target=report, name="ray_listen_error_messages")
        thread.start()
        thread.join()
        sys.stdout.write("done\n")
        sys.stdout.flush()
    print("after")
    out, err = capsys.readouterr()
    assert out == '{"update_rouge1": 0.5}\ndone\nafter\n'
    assert err == "(raylet) A worker died or was killed while executing a task\n"
