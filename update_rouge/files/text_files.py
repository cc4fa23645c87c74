"""Reading three line-aligned text files of examples: line N of each is example N.

The files hold the sources, the references and the predictions (one reference a line); a file
with more lines than another is refused at its first extra line, naming the file that ended.
``aligned_lines`` reads their raw lines, ``text_records`` makes examples of them.
"""

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence

from .lines import InputFileError, decode_line, numbered_raw_lines, shown_path
from .rows import Record

Aligned = tuple[int, list[tuple[bytes, str]], InputFileError | None]
"""Line ``number`` of line-aligned text files: the raw lines read, each with its file's path
(one per file, in their order), and ``None``; or, last, the error that ends them, with the raw
lines of that number read before it."""


def aligned_lines(paths: Sequence[str], advance: Callable[[int], None]) -> Iterator[Aligned]:
    """The raw lines of the line-aligned text files ``paths``, line number by line number, each
    one's bytes reported to ``advance``. A line too long, or a file with fewer lines than another,
    ends them: its ``InputFileError`` comes last, with the lines of that number read before it."""
    with open(paths[0], "rb") as s, open(paths[1], "rb") as r, open(paths[2], "rb") as p:
        readers = [numbered_raw_lines(handle, path) for handle, path in zip((s, r, p), paths)]
        for number in itertools.count(1):
            raws: list[bytes | None] = []
            try:
                for reader in readers:
                    numbered = next(reader, None)
                    raws.append(None if numbered is None else numbered[1])
                    advance(len(raws[-1] or b""))
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


def text_records(lines: Iterable[Aligned]) -> Iterator[Record]:
    """The examples of some line numbers of three line-aligned text files (``aligned_lines``):
    each line decoded, its line end dropped; the error that ends the lines raised after the
    lines of its number read before it are decoded."""
    for number, raws, error in lines:
        texts = [decode_line(raw, number, path).rstrip("\r\n") for raw, path in raws]
        if error is not None:
            raise error
        source, reference, prediction = texts
        yield number, source, [reference], [prediction], None, None, None
