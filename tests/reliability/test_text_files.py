"""Reading three line-aligned text files of examples (``files.text_files``): nothing read wrongly
in silence; where their lines end is in test_files_lines.py.
"""

import pytest
from test_files import write

from update_rouge.files import InputFileError


def test_three_text_files_are_read_line_by_line_one_way_and_a_bad_line_names_its_file(tmp_path):
    """``text_files.aligned_lines`` reads three text files for one process and the command
    line's chunks alike: when one file ends first, the lines of that number read from the others
    are still decoded first, each named by its own file."""
    from update_rouge.files import open_reader, read_text_files
    from update_rouge.files.text_files import aligned_lines

    paths = [
        write(tmp_path / "s.txt", b"A.\n"),
        write(tmp_path / "r.txt", b"A. B.\n\xff\n"),
        write(tmp_path / "p.txt", b"A. C.\nX.\n"),
    ]
    read_bytes = []
    aligned = list(aligned_lines(paths, read_bytes.append))
    assert sum(read_bytes) == 3 + 6 + 6 + 2 + 3
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
    with pytest.raises(InputFileError, match=bad_byte):
        [chunk.rows() for chunk in open_reader(text_files=paths).chunks(lambda _: None, 1)]
