"""Puzzle file readers: every format from small sample files, gzip, stdin, errors, public sets."""

from __future__ import annotations

import gzip
import io
import sys
from pathlib import Path
from types import SimpleNamespace

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import engine
from pipeline.formats import FormatError, InputRow, read_puzzles
from pipeline.formats.sources import MAX_LINE_CHARS
from tests.conftest import TEST_DATA
from tests.conftest import read_puzzles as first_fields

SAMPLES = TEST_DATA / "formats"


def read_all(*sources: str | Path, **options) -> list[InputRow]:
    return [row for chunk in read_puzzles(list(sources), **options) for row in chunk]


def kaggle(field: int) -> list[str]:
    """One column of the Kaggle-style sample CSV, read naively."""
    lines = (SAMPLES / "kaggle.csv").read_text().splitlines()[1:]
    return [line.split(",")[field] for line in lines]


def reference() -> list[str]:
    """The three 9x9 sample puzzles that every sample file holds in its own way."""
    return [puzzle.replace("0", ".") for puzzle in kaggle(0)]


def solution(index: int) -> str:
    return kaggle(1)[index]


def assert_engine_agrees(row: InputRow) -> None:
    """A valid row is exactly what the engine parses; an invalid one has a line and a reason."""
    assert row.line >= 1
    if row.ok:
        assert row.puzzle == engine.parse(row.puzzle, row.box).to_text()
    else:
        assert row.reason


def test_lines_reads_every_row_with_its_line_and_reason():
    rows = read_all(SAMPLES / "mixed.txt")
    text = (SAMPLES / "mixed.txt").read_text().splitlines()
    content = [i + 1 for i, line in enumerate(text) if line.strip() and line.strip()[0] != "#"]
    assert [row.line for row in rows] == content
    p1, p2, p3 = reference()
    assert [row.puzzle for row in rows[:7]] == [p1, p2, p3, p1, p2, p3, p1]  # all blank markers
    by_line = {row.line: row for row in rows}
    assert by_line[3].extra == {"rating": "3.4", "comment": "hard one"}
    assert by_line[5].extra["solution"] == solution(2)
    assert by_line[9].extra == {"solution": solution(0), "rating": "7.1", "comment": "nightly"}
    assert "80 symbols" in by_line[11].reason
    assert "bad character 'x'" in by_line[12].reason and "r2c2" in by_line[12].reason
    assert "given twice in row 1" in by_line[13].reason
    assert by_line[13].puzzle is not None  # clashing givens: the grid is still shown
    assert [by_line[n].box for n in (14, 15, 16)] == [(2, 2), (3, 4), (4, 4)]
    assert by_line[15].puzzle == by_line[15].raw.upper()  # lower-case symbols normalised
    assert not by_line[17].ok and by_line[17].puzzle is None
    for row in rows:
        assert_engine_agrees(row)


@pytest.mark.parametrize(
    ("name", "lines"),
    [("puzzles.ss", [2, 15]), ("kaggle.csv", [2, 3, 4])],
)
def test_grid_and_table_formats_give_the_same_puzzles(name, lines):
    rows = read_all(SAMPLES / name)
    assert [row.line for row in rows] == lines
    assert all(row.ok for row in rows)
    assert {row.puzzle for row in rows} <= set(reference())


def test_sdk_keeps_metadata_and_counts_crlf_lines():
    (row,) = read_all(SAMPLES / "puzzle.sdk")
    assert row.puzzle == reference()[0]
    assert row.line == 4  # three #-lines come first
    assert row.extra == {
        "author": "Sample author",
        "description": "A sample puzzle for the .sdk reader",
        "level": "Easy",
    }


def test_blank_line_grids_of_any_size_and_space_separated_numbers():
    rows = read_all(SAMPLES / "grids.txt")
    assert [row.box for row in rows] == [(2, 3), (4, 4), (3, 3), None, (2, 2)]
    sixteen = next(r for r in read_all(SAMPLES / "mixed.txt") if r.box == (4, 4))
    assert rows[1].puzzle == sixteen.puzzle  # "8 14 13 4 . 16 ..." rows == the one-line form
    assert rows[2].puzzle == reference()[0]
    assert "stops after 5 rows" in rows[3].reason and rows[3].line == 37
    assert all(row.ok for i, row in enumerate(rows) if i != 3)


def test_grids_without_blank_lines_between_them(tmp_path):
    p1, p2, _ = reference()
    grid = [p[r * 9 : r * 9 + 9] for p in (p1, p2) for r in range(9)]
    path = tmp_path / "two.sdk"
    path.write_text("\n".join([*grid[:-1], "12345678"]) + "\n")
    rows = read_all(path)
    assert [row.line for row in rows] == [1, 10]
    assert rows[0].puzzle == p1
    assert rows[1].reason == "line 18 has 8 cells; the grid's first row has 9"


def test_tsv_header_picks_the_puzzle_column_and_reports_short_rows():
    rows = read_all(SAMPLES / "puzzles.tsv")
    assert [row.line for row in rows] == [3, 4, 5, 6]
    assert rows[0].extra == {"id": "a1", "rating": "1.5"}
    assert rows[1].puzzle == reference()[1]  # a quoted field
    assert rows[2].reason == "row has 1 fields; the puzzle is in field 2"


def test_an_over_long_first_line_of_a_table_is_an_error_row_not_its_header(tmp_path):
    """Only its first characters are read, so it can be neither header nor data: the first
    readable line decides (found by bench/fuzz_inputs.py: the row was silently taken as the
    header)."""
    p1, p2, _ = reference()
    long = "\t".join(["9" * MAX_LINE_CHARS, p1])
    path = tmp_path / "long.tsv"
    path.write_text(f"{long}\nid\tpuzzle\n7\t{p2}\n")
    for options in ({}, {"column": "puzzle"}):
        rows = read_all(path, **options)
        assert [row.line for row in rows] == [1, 3]
        assert rows[0].reason.startswith(f"line 1 has {len(long)} characters")
        assert (rows[1].puzzle, rows[1].extra) == (p2, {"id": "7"})
    path.write_text(f"{long}\n# note\n{long}\n7\t{p2}\n")  # no header: the puzzle row is data
    rows = read_all(path)
    assert [(row.line, row.puzzle) for row in rows] == [(1, None), (3, None), (4, p2)]


def test_column_option_and_its_errors(tmp_path):
    solutions = read_all(SAMPLES / "kaggle.csv", column="solutions")
    assert [row.puzzle for row in solutions] == kaggle(1)
    assert solutions[0].extra == {"quizzes": reference()[0].replace(".", "0")}
    with pytest.raises(FormatError, match=r"kaggle.csv: no column 'answer'.*'quizzes'"):
        read_puzzles([SAMPLES / "kaggle.csv"], column="answer")
    with pytest.raises(FormatError, match=r"mixed.txt: --column needs a table"):
        read_puzzles([SAMPLES / "mixed.txt"], column="puzzle")


def parquet_from_kaggle(path: Path, **extra_columns) -> None:
    table = {
        "quizzes": [*kaggle(0), None],
        "solutions": [*kaggle(1), "x"],
        **extra_columns,
    }
    pq.write_table(pa.table(table), path)


def test_parquet_rows_columns_and_nulls(tmp_path):
    path = tmp_path / "others.parquet"
    parquet_from_kaggle(path, rank=[1, 2, 3, 4])
    rows = read_all(path)
    assert [row.line for row in rows] == [1, 2, 3, 4]
    assert [row.puzzle for row in rows[:3]] == reference()
    assert rows[0].extra == {"solutions": solution(0), "rank": 1}
    assert rows[3].reason == "column 'quizzes' is empty (null)"
    assert [row.ok for row in read_all(path, column="solutions")] == [True] * 3 + [False]
    with pytest.raises(FormatError, match="column 'rank' holds int64"):
        read_puzzles([path], column="rank")
    with pytest.raises(FormatError, match="no column 'nope'"):
        read_puzzles([path], column="nope")


def test_gzip_by_magic_or_suffix_and_stdin(tmp_path, monkeypatch):
    plain = read_all(SAMPLES / "mixed.txt")
    data = (SAMPLES / "mixed.txt").read_bytes()
    for name in ("mixed.txt.gz", "mixed.bin"):
        (tmp_path / name).write_bytes(gzip.compress(data))
        rows = read_all(tmp_path / name)
        assert [(r.line, r.puzzle, r.reason) for r in rows] == [
            (r.line, r.puzzle, r.reason) for r in plain
        ]
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(gzip.compress(data))))
    rows = read_all("-")
    assert {row.source for row in rows} == {"<stdin>"}
    assert [r.puzzle for r in rows] == [r.puzzle for r in plain]


def test_parquet_on_stdin(tmp_path, monkeypatch):
    path = tmp_path / "others.parquet"
    parquet_from_kaggle(path)
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(path.read_bytes())))
    assert [row.puzzle for row in read_all("-")][:3] == reference()


def test_truncated_gzip_ends_with_an_error_row(tmp_path):
    data = gzip.compress(("\n".join(reference() * 2000) + "\n").encode())
    path = tmp_path / "cut.txt.gz"
    path.write_bytes(data[: len(data) // 2])
    rows = read_all(path)
    assert all(row.ok for row in rows[:-1])
    assert rows[-1].line == len(rows) and "cannot read past line" in rows[-1].reason


def test_encodings_line_endings_and_huge_lines(tmp_path):
    p1, p2, p3 = reference()
    path = tmp_path / "odd.txt"
    path.write_bytes(
        f"{p1}\r{p2}\r\n".encode() + b"9" * (MAX_LINE_CHARS + 10) + f"\n{p3}\n".encode()
    )
    rows = read_all(path)
    assert [row.line for row in rows] == [1, 2, 3, 4]
    assert [row.puzzle for row in rows] == [p1, p2, None, p3]
    assert (
        rows[2].reason
        == f"line 3 has {MAX_LINE_CHARS + 10} characters; a line may have {MAX_LINE_CHARS} at most"
    )
    assert len(rows[2].raw) < 100
    path.write_text(f"{p1}\n{p2}\n", encoding="utf-16")
    assert [row.puzzle for row in read_all(path)] == [p1, p2]
    path.write_bytes(b"\xef\xbb\xbf" + p1.encode() + b"\n" + p2[:40].encode() + b"\xff" + b"\n")
    first, second = read_all(path)
    assert first.puzzle == p1
    assert second.reason.startswith("undecodable byte 0xFF at column 41")
    assert "\\xff" in second.raw


def test_box_option(tmp_path):
    p6 = read_all(SAMPLES / "grids.txt")[0].puzzle
    path = tmp_path / "six.txt"
    path.write_text(f"{p6}\n{reference()[0]}\n")
    six, nine = read_all(path, box="3x2")
    assert six.box == (3, 2)
    try:
        expected = engine.parse(p6, "3x2").to_text()
    except engine.InvalidPuzzle as exc:
        assert six.reason == str(exc)
    else:
        assert six.puzzle == expected and six.ok
    assert "6x6 (3x2 boxes) needs 36" in nine.reason
    with pytest.raises(FormatError, match="--box 3by3"):
        read_puzzles([path], box="3by3")


def test_unusable_arguments_fail_before_any_row_is_read(tmp_path):
    with pytest.raises(FormatError, match=r"missing\.txt: no such file"):
        read_puzzles([SAMPLES / "mixed.txt", tmp_path / "missing.txt"])
    with pytest.raises(FormatError, match="is a folder"):
        read_puzzles([tmp_path])
    with pytest.raises(FormatError, match="unknown format 'xls'"):
        read_puzzles([SAMPLES / "mixed.txt"], fmt="xls")
    with pytest.raises(FormatError, match="only once"):
        read_puzzles(["-", "-"])


def test_chunks_are_full_across_sources():
    sources = [SAMPLES / name for name in ("mixed.txt", "puzzle.sdk", "grids.txt")]
    whole = read_all(*sources)
    chunks = list(read_puzzles(sources, chunk_size=4))
    assert [len(c) for c in chunks[:-1]] == [4] * (len(chunks) - 1)
    assert [row for chunk in chunks for row in chunk] == whole
    assert {row.source for row in whole} == {str(s) for s in sources}


def test_forced_format_overrides_detection():
    rows = read_all(SAMPLES / "grids.txt", fmt="lines")
    assert rows and not any(row.ok for row in rows)  # grid rows are not one-line puzzles


@pytest.mark.slow
def test_public_sets_read_fully(shared_data):
    for name in ("17_clue.txt", "sudoku16x16.tsv"):
        path = shared_data / name
        rows = read_all(path)
        assert [row.puzzle for row in rows] == first_fields(path)
        assert all(row.ok for row in rows)


def test_detection_tells_grid_rows_from_small_one_line_puzzles(tmp_path):
    sixteen = next(r for r in read_all(SAMPLES / "mixed.txt") if r.box == (4, 4)).puzzle
    four = next(r for r in read_all(SAMPLES / "mixed.txt") if r.box == (2, 2)).puzzle
    grid_file = tmp_path / "grid.txt"
    grid_file.write_text("\n".join(sixteen[r * 16 : r * 16 + 16] for r in range(16)) + "\n")
    assert [row.puzzle for row in read_all(grid_file)] == [sixteen]
    lines_file = tmp_path / "fours.txt"
    lines_file.write_text(f"{four}\n" * 20)
    assert [row.puzzle for row in read_all(lines_file)] == [four] * 20


def test_utf16_grid_file_is_sniffed_as_grids(tmp_path):
    path = tmp_path / "sdk.txt"
    path.write_text((SAMPLES / "puzzle.sdk").read_text(), encoding="utf-16")
    (row,) = read_all(path)
    assert row.puzzle == reference()[0] and row.extra["author"] == "Sample author"
