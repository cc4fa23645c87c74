"""Writing a result file (``outputs``): no file of the user's lost, an input never overwritten.

Each test is one case of the reliability issue; the command-line cases are in test_reliability_cli.py.
"""

import os
import signal
import stat

import pytest

from update_rouge.files import check_output_paths, output_file


def test_an_output_that_is_an_input_is_refused_by_any_name(tmp_path, monkeypatch):
    data = tmp_path / "data.jsonl"
    data.write_text("x")
    link = tmp_path / "link.jsonl"
    link.symlink_to(data)
    hard = tmp_path / "hard.jsonl"
    os.link(data, hard)
    monkeypatch.chdir(tmp_path)
    for output in ["data.jsonl", "./data.jsonl", str(data), str(link), str(hard)]:
        with pytest.raises(ValueError, match="is the input"):
            check_output_paths(["data.jsonl"], [output])
    check_output_paths(["data.jsonl"], ["new.jsonl", "-"])


def test_an_empty_output_name_is_refused():
    with pytest.raises(ValueError, match="empty"):
        check_output_paths([], [""])


def test_a_symbolic_link_output_is_written_through_and_stays_a_link(tmp_path):
    target = tmp_path / "target.jsonl"
    target.write_text("old")
    link = tmp_path / "out.jsonl"
    link.symlink_to(target)
    with output_file(str(link)) as handle:
        handle.write("new")
    assert link.is_symlink() and target.read_text() == "new"


def test_an_existing_outputs_permissions_are_kept(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("old")
    out.chmod(0o600)
    with output_file(str(out)) as handle:
        handle.write("new")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600 and out.read_text() == "new"


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("old")
    with pytest.raises(RuntimeError):
        with output_file(str(out)) as handle:
            handle.write("half")
            raise RuntimeError("interrupted")
    assert out.read_text() == "old" and os.listdir(tmp_path) == ["out.jsonl"]


def test_a_stop_signal_as_the_temporary_file_is_made_leaves_no_temporary_file(tmp_path, monkeypatch):
    # CI once found ".OUT.l8sg0z90.tmp" beside the output after a Ctrl-C: the signal came after
    # the temporary file was made and before its name was kept for the clean-up.
    import tempfile

    class Stopped(Exception):
        pass

    def stop(signum, _frame):
        raise Stopped(signum)

    made = tempfile.NamedTemporaryFile

    def made_then_signalled(*args, **kwargs):
        handle = made(*args, **kwargs)
        signal.raise_signal(signal.SIGTERM)
        return handle

    monkeypatch.setattr(tempfile, "NamedTemporaryFile", made_then_signalled)
    out = tmp_path / "out.jsonl"
    out.write_text("old")
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        with pytest.raises(Stopped):
            with output_file(str(out)) as handle:
                handle.write("new")
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert out.read_text() == "old" and os.listdir(tmp_path) == ["out.jsonl"], os.listdir(tmp_path)


def test_a_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with output_file(str(fifo)) as handle:
            handle.write("through")
        assert os.read(reader, 100) == b"through"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.stat().st_mode) and sorted(os.listdir(tmp_path)) == ["pipe"]


def test_dev_null_is_written_in_place_and_stays_a_device():
    with output_file("/dev/null") as handle:
        handle.write("nothing")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_dash_is_standard_output(capsys):
    with output_file("-") as handle:
        handle.write("to stdout")
    assert capsys.readouterr().out == "to stdout"


def test_the_file_behind_standard_input_is_an_input_by_any_name(tmp_path):
    data = tmp_path / "data.jsonl"
    data.write_text("x")
    os.link(data, tmp_path / "hard.jsonl")
    (tmp_path / "other.jsonl").write_text("x")
    saved = os.dup(0)
    reading = os.open(data, os.O_RDONLY)
    try:
        os.dup2(reading, 0)  # as ``< data.jsonl`` gives it
        for output in [str(data), str(tmp_path / "hard.jsonl")]:
            with pytest.raises(ValueError, match="^the output .* is the input <stdin>: refusing to overwrite it$"):
                check_output_paths(["-"], [output])
        check_output_paths(["-"], [str(tmp_path / "other.jsonl"), str(tmp_path / "new.jsonl"), "-"])
        check_output_paths([], [str(data)])  # standard input is an input only when it is read
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        os.close(reading)
