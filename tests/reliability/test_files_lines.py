"""The lines of an input file (``files.lines``): they end at ``\\r\\n``, ``\\n`` or a lone ``\\r`` and at
nothing else, whatever the size of the blocks read, and none is read beyond its limit.

Each test is one case of the reliability issue; the limit named by the readers and the command
line is in test_limits.py.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_files import rows, write

from update_rouge.files import read_text_files


@pytest.mark.parametrize("end", [b"\r\n", b"\n", b"\r"])
def test_text_files_end_lines_at_crlf_lf_and_cr_alike(tmp_path, end):
    sources = write(tmp_path / "s.txt", end.join([b"A.", b"X."]) + end)
    references = write(tmp_path / "r.txt", end.join([b"A. B.", b"X. Y."]) + end)
    predictions = write(tmp_path / "p.txt", end.join([b"A. C.", b"X. Y."]))
    assert rows(read_text_files(sources, references, predictions)) == [
        (1, "A.", ["A. B."], "A. C."),
        (2, "X.", ["X. Y."], "X. Y."),
    ]


@pytest.mark.parametrize("separator", ["\u2028", "\u0085", "\x0c", "\x1c", "\u2029"])
def test_text_files_do_not_end_lines_at_other_unicode_line_breaks(tmp_path, separator):
    text = f"A.{separator}B.".encode()
    paths = [write(tmp_path / f"{name}.txt", text + b"\n") for name in "srp"]
    assert rows(read_text_files(*paths)) == [(1, f"A.{separator}B.", [f"A.{separator}B."], f"A.{separator}B.")]


def test_a_cr_at_a_read_block_boundary_followed_by_lf_ends_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr("update_rouge.files.lines._READ_SIZE", 4)
    paths = [write(tmp_path / f"{name}.txt", b"abc\r\ndef\rghi\n") for name in "srp"]
    assert [row.source for row in read_text_files(*paths)] == ["abc", "def", "ghi"]


@given(
    data=st.binary().map(lambda b: bytes(b"ab\r\n"[x % 4] for x in b)),
    size=st.integers(1, 9),
    limit=st.integers(1, 12),
)
def test_lines_split_at_every_block_size_as_one_regular_expression_splits_the_whole(data, size, limit):
    import io
    import re

    from update_rouge.files import lines as file_lines

    expected = [line for line in re.findall(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", data) if line]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(file_lines, "_READ_SIZE", size)
        read = []
        try:
            for line in file_lines.raw_lines(io.BytesIO(data), limit):
                read.append(line)
        except file_lines.LineTooLong:
            # Refused at the first line above the limit, after every line before it.
            assert [len(line) for line in read] == [len(line) for line in expected[: len(read)]]
            assert len(expected[len(read)]) > limit, f"line {len(read) + 1} {expected[len(read)]!r} was refused"
            return
    assert read == expected
    assert all(len(line) <= limit for line in read), f"a line above {limit} bytes was read: {read}"
