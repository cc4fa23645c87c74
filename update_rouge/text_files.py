"""Reading three line-aligned text files of examples: line N of each is example N.

The files hold the sources, the references and the predictions, one example a line (each line
one reference); they must have the same number of lines: a file with more lines than another is
refused at its first extra line, naming the file that ended. Three text files are read one way,
whoever reads them: ``aligned_lines`` reads their raw lines, for ``read_text_files`` and the
command line's chunks, and ``text_row`` makes a line number's decoded lines an example.
"""

import itertools
from collections.abc import Callable, Iterator, Sequence

from .file_lines import InputFileError, Readable, decode_line, numbered_raw_lines
from .file_rows import Row, no_progress
from .outputs import shown_path


def read_text_files(
    sources: str, references: str, predictions: str, advance: Callable[[int], None] = no_progress
) -> Iterator[Row]:
    """Yield the examples of three line-aligned text files (line N of each is example N)."""
    paths = (sources, references, predictions)
    with open(sources, "rb") as s, open(references, "rb") as r, open(predictions, "rb") as p:
        for number, raws, error in aligned_lines(paths, (s, r, p)):
            lines = []
            for raw, path in raws:
                advance(len(raw))
                lines.append(decode_line(raw, number, path))
            if error is not None:
                raise error
            yield text_row(number, lines)


Aligned = tuple[int, list[tuple[bytes, str]], InputFileError | None]
"""Line ``number`` of line-aligned text files: the raw lines read, each with its file's path
(one per file, in their order), and ``None``; or, last, the error that ends them, with the raw
lines of that number read before it."""


def aligned_lines(paths: Sequence[str], handles: Sequence[Readable]) -> Iterator[Aligned]:
    """The raw lines of the line-aligned text files ``handles`` (the files ``paths``), line
    number by line number: the one reading of three text files (``read_text_files``, the command
    line's chunks). A line too long, or a file with fewer lines than another, ends them: its
    ``InputFileError`` comes last, with the lines of that number read before it (their decoding
    is checked before it is raised, as one file's lines are read before the next's)."""
    readers = [numbered_raw_lines(handle, path) for handle, path in zip(handles, paths)]
    for number in itertools.count(1):
        raws: list[bytes | None] = []
        try:
            for reader in readers:
                numbered = next(reader, None)
                raws.append(None if numbered is None else numbered[1])
        except InputFileError as too_long:
            error = too_long
        else:
            if None not in raws:
                yield number, list(zip(raws, paths)), None  # type: ignore[arg-type]
                continue
            if all(raw is None for raw in raws):
                return
            error = _shorter(paths, raws, number)
        yield number, [(raw, path) for raw, path in zip(raws, paths) if raw is not None], error
        return


def _shorter(paths: Sequence[str], raws: Sequence[bytes | None], number: int) -> InputFileError:
    """The error of line-aligned files of which some (``None`` in ``raws``) ended before line ``number``."""
    ended = paths[raws.index(None)]
    longer = paths[next(i for i, raw in enumerate(raws) if raw is not None)]
    return InputFileError(longer, number, f"has more lines than {shown_path(ended)} ({number - 1} lines)")


def text_row(number: int, lines: Sequence[str]) -> Row:
    """Example ``number`` of three line-aligned text files from its decoded lines, line ends and all."""
    source, reference, prediction = (line.rstrip("\r\n") for line in lines)
    return Row(number, source, [reference], prediction)
