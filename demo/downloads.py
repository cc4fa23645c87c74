"""The files the demo writes for download: one folder per request inside one folder per
process, removed when the process exits; only the ``DOWNLOAD_FOLDERS_KEPT`` newest requests'
folders are kept, and each file appears whole or not at all."""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pandas as pd

CSV_NAME = "update_rouge_per_example.csv"
JSON_NAME = "update_rouge_result.json"
# Download folders kept: older ones are removed when a new one is made.
DOWNLOAD_FOLDERS_KEPT = 10

_DOWNLOADS: Path | None = None


def downloads_root() -> Path:
    """This process's folder for downloads, created on first use and removed at exit."""
    global _DOWNLOADS
    if _DOWNLOADS is None:
        _DOWNLOADS = Path(tempfile.mkdtemp(prefix="update_rouge_demo_"))
        atexit.register(shutil.rmtree, _DOWNLOADS, True)
    return _DOWNLOADS


def download_folder() -> Path:
    """A new folder for one request's downloads in ``downloads_root()``, after removing the
    oldest folders there beyond ``DOWNLOAD_FOLDERS_KEPT - 1`` (gradio serves copies of the files
    it was given, so a removed folder takes nothing from a page already shown)."""
    root = downloads_root()
    folders = sorted((path for path in root.iterdir() if path.is_dir()), key=lambda path: path.stat().st_mtime_ns)
    for old in folders[: max(0, len(folders) - DOWNLOAD_FOLDERS_KEPT + 1)]:
        shutil.rmtree(old, ignore_errors=True)
    return Path(tempfile.mkdtemp(dir=root))


def write_atomically(directory: Path, name: str, write) -> Path:
    """Call ``write(path)`` on a temporary name in ``directory`` and rename it to ``name``, so
    the folder holds either nothing by that name or the whole file. Returns the file's path."""
    path = directory / name
    partial = directory / f"{name}.part"
    write(partial)
    os.replace(partial, path)
    return path


def write_csv_atomically(table: pd.DataFrame, directory: Path) -> Path:
    """Write ``table`` (full float precision) as ``CSV_NAME`` in ``directory`` (see ``write_atomically``)."""
    return write_atomically(directory, CSV_NAME, lambda path: table.to_csv(path, index=False))
