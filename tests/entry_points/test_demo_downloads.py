"""The files the demo writes for download (``demo.downloads``): whole or not at all, only the
newest requests' folders kept, and the folder removed when the process exits."""

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from app_calls import FRUIT

from demo import downloads, file_handlers

REPO = Path(__file__).resolve().parents[2]


def test_csv_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    table = pd.DataFrame({"line": [1, 2], "update_rouge1": [0.1, 1 / 3]})
    path = downloads.write_csv_atomically(table, tmp_path)
    assert path.read_text(encoding="utf-8") == f"line,update_rouge1\n1,0.1\n2,{1 / 3!r}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [downloads.CSV_NAME]

    def write_half_then_fail(self, target, **kwargs):
        with open(target, "w", encoding="utf-8") as handle:
            handle.write("line,upd")
        raise OSError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_csv", write_half_then_fail)
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(OSError, match="disk full"):
        downloads.write_csv_atomically(table, other)
    assert not (other / downloads.CSV_NAME).exists()


@pytest.mark.slow
def test_the_downloads_folder_is_removed_when_the_process_exits(tmp_path):
    code = (
        "import sys; from demo import downloads, file_handlers; out = file_handlers.score_file(sys.argv[1], ['rouge1'], 'none'); "
        "print(downloads.downloads_root()); print(out['download_csv'])"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", code, str(FRUIT)], cwd=REPO, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    root, csv_file = run.stdout.split()
    assert (
        csv_file.endswith(downloads.CSV_NAME) and csv_file.startswith(root + os.sep) and Path(root).parent == tmp_path
    )
    assert not Path(root).exists()
    assert list(tmp_path.iterdir()) == []


def test_only_the_newest_download_folders_are_kept(monkeypatch):
    monkeypatch.setattr(downloads, "DOWNLOAD_FOLDERS_KEPT", 3)
    folders = []
    for _ in range(5):
        out = file_handlers.score_file(str(FRUIT), ["rouge1"], "none", "none")
        folders.append(Path(out["download_csv"]).parent)
        assert Path(out["download_csv"]).is_file() and Path(out["download_json"]).is_file(), (
            "the files just scored are there"
        )
    kept = sorted(path for path in downloads.downloads_root().iterdir() if path.is_dir())
    assert kept == sorted(folders[-3:]), f"kept {kept}, made {folders}"
