"""Fuzzing ``pipeline grade``: whatever the bytes, the command ends with exit 0 or 1, writes one row
per puzzle-like row, and reports every bad row with its line number and a reason."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pipeline.commands.grade  # noqa: F401  (registers the command)
from pipeline.app import app
from pipeline.formats import read_puzzles
from pipeline.formats.sources import MAX_LINE_CHARS
from pipeline.tasks import OK, STATUSES
from tests.helpers import CLASH, MULTI, NO_SOL, SOLUTION, UNIQUE, runner

FUZZ = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
SEEDS = (UNIQUE, MULTI, NO_SOL, CLASH, SOLUTION)
NEWLINE = re.compile(r"\r\n|\r|\n")  # the reader's universal newlines


def grade_file(path: Path, *options: str) -> tuple[int, str, pl.DataFrame]:
    """Run the command on ``path``; check the run ended as a run may, return code, stdout, rows."""
    out = path.with_name("graded.parquet")
    result = runner.invoke(app, ["grade", str(path), "-o", str(out), "-j", "1", "-q", *options])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    table = pl.read_parquet(out)
    assert result.exit_code == (0 if (table["status"] == OK).all() else 1), result.stderr
    return result.exit_code, result.stdout, table


def check_rows(path: Path, stdout: str, table: pl.DataFrame, *options: str) -> None:
    """Every row the reader finds is graded once, in order; bad rows have a line and a reason."""
    fmt = options[1] if options else None
    found = [row for chunk in read_puzzles([path], fmt) for row in chunk]
    assert table["line"].to_list() == [row.line for row in found]
    assert set(table["status"]) <= set(STATUSES)
    bad = table.filter(pl.col("status") != OK)
    assert (bad["line"] >= 1).all() and all(bad["reason"].str.len_chars() > 0)
    if len(bad):
        assert f"{path}:{bad['line'][0]}: {bad['status'][0]}: " in stdout
    for puzzle, solution in (
        table.filter(pl.col("status") == OK).select("puzzle", "solution").rows()
    ):
        assert "." not in solution
        assert all(p in (".", s) for p, s in zip(puzzle, solution, strict=True))


@st.composite
def damaged_line(draw: st.DrawFn) -> str:
    """A puzzle line truncated, lengthened, with a character replaced, or intact."""
    line = draw(st.sampled_from(SEEDS))
    cut = draw(st.integers(0, len(line)))
    junk = draw(st.text(min_size=1, max_size=3))
    return draw(
        st.sampled_from(
            [line, line[:cut], line + junk, line[:cut] + junk + line[cut + 1 :], f"{line} 3.4 x"]
        )
    )


@FUZZ
@given(lines=st.lists(damaged_line(), max_size=12), crlf=st.booleans(), zipped=st.booleans())
def test_damaged_lines(tmp_path: Path, lines: list[str], crlf: bool, zipped: bool) -> None:
    data = ("\r\n" if crlf else "\n").join(lines).encode("utf-8", "surrogatepass")
    path = tmp_path / "lines.txt"
    path.write_bytes(gzip.compress(data) if zipped else data)
    _, stdout, table = grade_file(path, "--format", "lines")
    check_rows(path, stdout, table, "--format", "lines")
    text = data.decode("utf-8", "surrogateescape")
    content = [s for s in NEWLINE.split(text) if s.strip() and not s.strip().startswith("#")]
    assert len(table) == len(content)  # one row per non-blank, non-comment line


@FUZZ
@given(data=st.binary(max_size=600))
def test_random_bytes(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "random.bin"
    path.write_bytes(data)
    _, stdout, table = grade_file(path)
    check_rows(path, stdout, table)


def test_huge_line_and_invalid_utf8_are_rows(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_bytes(
        b"\n".join([UNIQUE.encode(), b"9" * (MAX_LINE_CHARS + 5), b"\xc3(" + b"." * 79])
    )
    code, stdout, table = grade_file(path)
    assert code == 1 and table["status"].to_list() == [OK, "invalid", "invalid"]
    assert str(MAX_LINE_CHARS) in table["reason"][1] and "undecodable" in table["reason"][2]
    check_rows(path, stdout, table)
