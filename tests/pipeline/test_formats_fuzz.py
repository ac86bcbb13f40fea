"""Fuzzing the readers: whatever the bytes, read_puzzles returns rows and drops nothing."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import engine
from engine.geometry import SYMBOLS
from pipeline.formats import FORMATS, FormatError, InputRow, read_puzzles
from pipeline.formats.rows import EXTRA_BLANKS, Candidate
from pipeline.formats.validate import validate
from tests.conftest import TEST_DATA

SAMPLE_LINES = (TEST_DATA / "formats" / "mixed.txt").read_bytes().splitlines()
FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def read_bytes(tmp_path: Path, data: bytes, name: str = "fuzz.txt", **options) -> list[InputRow]:
    path = tmp_path / name
    path.write_bytes(data)
    return [row for chunk in read_puzzles([path], chunk_size=7, **options) for row in chunk]


def check_rows(rows: list[InputRow]) -> None:
    """Every row has a line; bad rows a reason; good rows exactly the engine's text."""
    for row in rows:
        assert row.line >= 1
        if row.ok:
            assert row.puzzle == engine.parse(row.puzzle, row.box).to_text()
        else:
            assert isinstance(row.reason, str) and row.reason
            row.reason.encode("utf-8")  # storable: no undecodable bytes left in it
        row.raw.encode("utf-8")


@FUZZ
@given(data=st.binary(max_size=3000), fmt=st.sampled_from([None, *FORMATS]))
def test_random_bytes_never_raise(tmp_path, data, fmt):
    check_rows(read_bytes(tmp_path, data, fmt=fmt))


@FUZZ
@given(data=st.binary(max_size=500), suffix=st.sampled_from([".sdk", ".ss", ".csv", ".tsv", ".gz"]))
def test_random_bytes_with_any_suffix_never_raise(tmp_path, data, suffix):
    check_rows(read_bytes(tmp_path, data, name=f"fuzz{suffix}"))


def mutate(line: bytes, how: int, where: int, junk: bytes) -> bytes:
    """Truncate, lengthen, splice junk (invalid UTF-8 too) into, or multiply a sample line."""
    where %= len(line) + 1
    return [
        line[:where],
        line + junk,
        line[:where] + junk + line[where:],
        line * (1 + where),
    ][how]


line_strategy = st.builds(
    mutate,
    st.sampled_from(SAMPLE_LINES),
    st.integers(0, 3),
    st.integers(0, 10_000),
    st.binary(min_size=1, max_size=8).filter(lambda b: b"\n" not in b and b"\r" not in b),
)


@FUZZ
@given(lines=st.lists(line_strategy, max_size=40))
@example(lines=[b"\x1f\x8b# a first line that starts with gzip's magic", b"\x00#"])
def test_every_puzzle_line_becomes_exactly_one_row(tmp_path, lines):
    rows = read_bytes(tmp_path, b"\n".join(lines), fmt="lines")
    check_rows(rows)
    texts = [line.decode("utf-8", "surrogateescape").strip() for line in lines]
    expected = [i + 1 for i, text in enumerate(texts) if text and not text.startswith("#")]
    assert [row.line for row in rows] == expected


@FUZZ
@given(lines=st.lists(line_strategy, max_size=40))
def test_mutated_lines_never_raise_in_any_detected_format(tmp_path, lines):
    check_rows(read_bytes(tmp_path, b"\r\n".join(lines)))


@pytest.mark.parametrize("fmt", [None, *FORMATS])
@pytest.mark.parametrize("cut", [3, 30, 300])
def test_corrupt_gzip_is_one_error_row(tmp_path, fmt, cut):
    data = gzip.compress(b"\n".join(SAMPLE_LINES * 50))[:cut]
    rows = read_bytes(tmp_path, data, name="cut.gz", fmt=fmt)
    check_rows(rows)
    assert rows and not rows[-1].ok
    if fmt in ("csv", "tsv"):  # the readable lines before the break have no column "x"
        try:
            rows = read_bytes(tmp_path, data, name="cut.gz", fmt=fmt, column="x")
        except FormatError as exc:
            assert "cut.gz: " in str(exc) and "'x'" in str(exc)
        else:
            assert not rows[-1].ok


def test_huge_lines_and_binary_file(tmp_path):
    data = bytes(range(256)) * 20_000 + b"\n" + SAMPLE_LINES[1]
    rows = read_bytes(tmp_path, data)
    check_rows(rows)
    assert rows[-1].ok and rows[-1].line == len(re.split(rb"\r\n|\r|\n", data))


puzzle_text = st.sampled_from([16, 36, 81]).flatmap(
    lambda length: st.text(
        alphabet=st.sampled_from(SYMBOLS[:12] + SYMBOLS[:12].lower() + ".0" + EXTRA_BLANKS + "xé"),
        min_size=length,
        max_size=length,
    )
)


@settings(max_examples=300, deadline=None)
@given(texts=st.lists(puzzle_text, min_size=1, max_size=20))
def test_vectorised_screen_agrees_with_engine_parse(texts):
    rows = validate("fuzz", [Candidate(i + 1, t, t, {}) for i, t in enumerate(texts)], None)
    for text, row in zip(texts, rows, strict=True):
        plain = text.translate(str.maketrans(EXTRA_BLANKS, "." * len(EXTRA_BLANKS)))
        try:
            expected = engine.parse(plain).to_text()
        except engine.InvalidPuzzle as exc:
            assert row.reason == str(exc)
        else:
            assert row.ok and row.puzzle == expected


@pytest.mark.parametrize("size", [4, 9, 16, 25])
def test_clash_screen_on_real_grids(size):
    grid = engine.random_grid(size, seed=size)
    swapped = grid[1] + grid[0] + grid[2:]  # still no clash in row 1, but in the columns/boxes
    rows = validate("grids", [Candidate(1, g, g, {}) for g in (grid, swapped)], None)
    assert rows[0].ok and rows[0].puzzle == grid
    assert not rows[1].ok and "given twice" in rows[1].reason
