"""Writing a result file without ever losing one of the user's files.

``check_output_paths`` refuses, before anything is read, an output path that is empty or that
names the same file as an input (by ``os.path.samefile``, so ``./data.jsonl``, a hard link or a
symbolic link to the input are caught; an output that does not exist yet cannot be an input).

``output_file`` opens the output for writing text:

- ``-`` is standard output;
- a special file (a device such as ``/dev/null``, a FIFO) is written in place, never replaced;
- a regular file, or a path that does not exist yet, is written to a temporary file beside it
  that replaces it only when the block succeeds (so an interrupted or failed run leaves the old
  file as it was and no temporary file behind); the new file gets the old one's permission bits
  (or, for a new file, the usual ones: 0666 less the umask);
- a symbolic link is followed: its target is replaced as above and the link stays a link.
"""

import contextlib
import os
import stat
import sys
import tempfile
from typing import Iterator, Optional, Sequence, TextIO, cast

STDOUT = "-"


def check_output_paths(inputs: Sequence[str], outputs: Sequence[str]) -> None:
    """Raise ``ValueError`` if an output path is empty or is the same file as one of ``inputs``."""
    for output in outputs:
        if output == "":
            raise ValueError("an output file name is empty")
        if output == STDOUT or not os.path.exists(output):
            continue
        for path in inputs:
            if os.path.exists(path) and os.path.samefile(path, output):
                raise ValueError(f"the output {output} is the input {path}: refusing to overwrite it")


@contextlib.contextmanager
def output_file(path: str) -> Iterator[TextIO]:
    """A UTF-8 text stream for ``path`` (see the module docstring for what each kind of path gets)."""
    if path == STDOUT:
        yield sys.stdout
        sys.stdout.flush()
        return
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        with open(target, "w", encoding="utf-8") as handle:
            yield handle
        return
    with _replacing(target, None if mode is None else stat.S_IMODE(mode)) as handle:
        yield handle


@contextlib.contextmanager
def _replacing(target: str, mode: Optional[int]) -> Iterator[TextIO]:
    """A temporary file beside ``target`` that replaces it, with permission bits ``mode``, on success."""
    directory, name = os.path.split(target)
    handle = tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=directory, prefix=f".{name}.", suffix=".tmp", delete=False
    )
    try:
        with handle:
            yield cast(TextIO, handle)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(handle.name, mode)
        os.replace(handle.name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(handle.name)
        raise
