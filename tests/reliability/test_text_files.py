"""Reading three line-aligned text files of examples (``text_files``): nothing read wrongly in
silence; where their lines end is in test_file_lines.py.
"""

import pytest
from test_files import write

from update_rouge.file_lines import InputFileError


def test_three_text_files_are_read_line_by_line_one_way_and_a_bad_line_names_its_file(tmp_path):
    """``text_files.aligned_lines`` reads three text files for ``read_text_files`` and the command
    line's chunks: when one file ends first, the lines of that number read from the others are
    still decoded first, each named by its own file."""
    from update_rouge.file_chunks import open_chunks
    from update_rouge.text_files import aligned_lines, read_text_files

    paths = [
        write(tmp_path / "s.txt", b"A.\n"),
        write(tmp_path / "r.txt", b"A. B.\n\xff\n"),
        write(tmp_path / "p.txt", b"A. C.\nX.\n"),
    ]
    with open(paths[0], "rb") as s, open(paths[1], "rb") as r, open(paths[2], "rb") as p:
        aligned = list(aligned_lines(paths, (s, r, p)))
    assert [(number, raws) for number, raws, _ in aligned] == [
        (1, [(b"A.\n", paths[0]), (b"A. B.\n", paths[1]), (b"A. C.\n", paths[2])]),
        (2, [(b"\xff\n", paths[1]), (b"X.\n", paths[2])]),
    ]
    assert aligned[0][2] is None and str(aligned[1][2]).endswith(
        "r.txt:2: has more lines than " + paths[0] + " (1 lines)"
    )
    bad_byte = r"r\.txt:2: not valid UTF-8 \(invalid start byte at byte 0\)"
    read = []
    with pytest.raises(InputFileError, match=bad_byte):
        read.extend(row.source for row in read_text_files(*paths))
    assert read == ["A."]
    _, chunks = open_chunks(text_files=paths)
    with pytest.raises(InputFileError, match=bad_byte):
        [chunk.rows() for chunk in chunks(lambda _: None, 1000, 1, False)]
