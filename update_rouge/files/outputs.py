"""Writing a result file without ever losing one of the user's files.

``check_output_paths`` refuses, before anything is read, an output path that would lose a file.
``output_file`` opens the output for writing: ``-`` is standard output; a special file (a device,
a FIFO) is written in place; a regular file, or a path that does not exist yet, is written to a
temporary file beside it that replaces it only when the block succeeds (a failed run leaves the
old file and no temporary one), keeping its permission bits (a new file: 0666 less the umask); a
symbolic link is followed: its target is replaced so and the link stays a link.
"""

import contextlib
import os
import stat
import sys
from collections.abc import Iterator, Sequence
from typing import IO, TextIO, cast

from ..stop_signals import DeferredStopSignals
from .lines import STDIN, input_name, shown_path

STDOUT = "-"


def check_output_paths(inputs: Sequence[str], outputs: Sequence[str]) -> None:
    """Raise ``ValueError`` naming the path if an output path is empty, is the same file (device
    and inode) as one of ``inputs`` (``-``: the file behind standard input), is a folder, or lies
    in a folder that does not exist or that this process cannot write in."""
    for output in outputs:
        if output == "":
            raise ValueError("an output file name is empty")
        if output == STDOUT:
            continue
        if os.path.isdir(output):
            raise ValueError(f"the output {shown_path(output)} is a folder: name a file")
        folder = os.path.dirname(os.path.realpath(output))
        if not os.path.isdir(folder):
            raise ValueError(f"the output {shown_path(output)} is in a folder that does not exist")
        writable_file = os.path.exists(output) and not stat.S_ISREG(os.stat(output).st_mode)
        if not writable_file and not os.access(folder, os.W_OK | os.X_OK):
            raise ValueError(f"cannot write the output {shown_path(output)}: its folder is not writable")
        if not os.path.exists(output):
            continue
        output_stat = os.stat(output)
        for path in inputs:
            input_stat = _input_stat(path)
            if input_stat is not None and os.path.samestat(input_stat, output_stat):
                raise ValueError(
                    f"the output {shown_path(output)} is the input {input_name(path)}: refusing to overwrite it"
                )


def _input_stat(path: str) -> os.stat_result | None:
    """The status of the input ``path`` (for ``STDIN``, of the file behind standard input);
    ``None`` when there is none (a missing file, a closed standard input)."""
    try:
        return os.fstat(0) if path == STDIN else os.stat(path)
    except OSError:
        return None


@contextlib.contextmanager
def output_file(path: str, binary: bool = False) -> Iterator[IO]:
    """A UTF-8 text stream for ``path``, or with ``binary`` a stream of bytes (see the module
    docstring for what each kind of path gets; standard output's bytes are written after its
    text so far)."""
    if path == STDOUT:
        sys.stdout.flush()
        yield _stdout_bytes() if binary else sys.stdout
        (_stdout_bytes() if binary else sys.stdout).flush()
        return
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        with open(target, "wb") if binary else open(target, "w", encoding="utf-8") as handle:
            yield handle
        return
    with _replacing(target, None if mode is None else stat.S_IMODE(mode), binary) as handle:
        yield handle


def _stdout_bytes() -> IO:
    """Standard output's byte stream; for a text stream without one (a ``StringIO`` that
    replaced it, say), one that writes the bytes to it as UTF-8 text."""
    stream = getattr(sys.stdout, "buffer", None)
    return stream if stream is not None else cast(IO, _TextBytes(sys.stdout))


class _TextBytes:
    """Bytes written to the text stream ``text`` as UTF-8."""

    def __init__(self, text: TextIO):
        self.text = text

    def write(self, data: bytes) -> int:
        self.text.write(data.decode("utf-8"))
        return len(data)

    def flush(self) -> None:
        self.text.flush()


@contextlib.contextmanager
def _replacing(target: str, mode: int | None, binary: bool = False) -> Iterator[IO]:
    """A temporary file beside ``target`` (for bytes with ``binary``) that replaces it, with
    permission bits ``mode``, on success."""
    import tempfile  # here: a run without an output file does not import it

    directory, name = os.path.split(target)
    handle = None
    try:
        # Held back so that a stop signal cannot come between the file's creation and its name
        # being kept here, which would leave the temporary file behind.
        with DeferredStopSignals():
            handle = tempfile.NamedTemporaryFile(
                "wb" if binary else "w",
                encoding=None if binary else "utf-8",
                dir=directory,
                prefix=f".{name}.",
                suffix=".tmp",
                delete=False,
            )
        with handle:
            yield cast(IO, handle)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(handle.name, mode)
        os.replace(handle.name, target)
    except BaseException as error:
        if handle is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(handle.name)
        elif isinstance(error, OSError):
            raise type(error)(f"cannot write {shown_path(target)}: {error.strerror}") from None
        raise
