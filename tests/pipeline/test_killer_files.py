"""Killer puzzles in files: the text form (``killer: <cage map> <totals> [<givens>]``) and the
``cages`` column read back as written (hypothesis), each bad cage one invalid row naming its line
and cage, ``pipeline grade`` writing ``variant`` and ``cages``, and ``verify``, ``stats``,
``render`` and a re-grade reading them back; files without the column read as null."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cages import Cage, cage_name, sum_range
from engine.geometry import Geometry, geometry
from engine.killer import dig_killer
from pipeline.formats import read_puzzles
from pipeline.formats.killer import cage_map, puzzle_line
from pipeline.formats.writers import write_rows
from pipeline.puzzle_files import read_puzzle_rows
from pipeline.render.sample import sample_cages
from pipeline.tasks import INVALID, OK
from pipeline.variants import cages_value, variant_columns
from tests.helpers import SOLUTION, UNIQUE, invoke

#: Cages over the helpers' unique puzzle's solution: with its givens it grades ok whether or not
#: the engine reads sums yet, so these tests see the pipeline's own behaviour.
CAGES = sample_cages(SOLUTION, geometry(3, 3), seed=4)
KILLER = geometry(3, 3, "killer", None, CAGES)
MAP, TOTALS = cage_map(CAGES, 9)
LINE = puzzle_line(UNIQUE, KILLER)
TOTAL = re.compile(r"/\d+/")  # a total inside a line's totals


def read(path: Path) -> list:
    return [row for chunk in read_puzzles([path]) for row in chunk]


def grade_file(tmp_path: Path, lines: list[str]) -> pl.DataFrame:
    source = tmp_path / "killers.txt"
    source.write_text("\n".join(lines) + "\n")
    output = tmp_path / "graded.parquet"
    code, _, stderr = invoke("grade", source, "-o", output, "-j", 1, "-q")
    assert code in (0, 1), stderr
    return pl.read_parquet(output)


def neighbours(a: int, b: int) -> bool:
    """Whether two cells of a 9x9 grid share an edge."""
    return abs(a - b) == 9 or (abs(a - b) == 1 and a // 9 == b // 9)


def test_the_text_form_is_the_documented_one() -> None:
    assert f"killer: {MAP} {TOTALS} {UNIQUE}" == LINE
    assert MAP[0] == "a" and len(MAP) == 81 and len(TOTALS.split("/")) == len(CAGES)
    blank = puzzle_line("." * 81, KILLER)
    assert blank == f"killer: {MAP} {TOTALS}"  # no givens: left out


def bad_lines() -> dict[str, str]:
    """Each a line with one fault, and what its reason must say."""
    first = CAGES[0]
    totals = TOTALS.split("/")
    # r9c9 joins the first cage, far from it: in pieces (its total one its size allows)
    apart = MAP[:80] + MAP[0]
    low, high = sum_range(len(first.cells) + 1, 9)
    kept = totals[1:-1] if MAP.count(MAP[80]) == 1 else totals[1:]  # r9c9's own cage gone
    return {
        f"killer: {MAP} {'/'.join(['99', *totals[1:]])}": cage_name(Cage(99, first.cells), 9),
        f"killer: {MAP} {'/'.join(totals[:-1])}": f"names {len(CAGES)} cages, but {len(CAGES) - 1}",
        f"killer: {MAP} {TOTALS.replace('/', '/x', 1)}": "totals: 'x",
        f"killer: {MAP}": "this one has no totals",
        f"killer: {MAP} {TOTALS} {UNIQUE[:80]}": "the givens have 80 cells, the cage map 81",
        f"killer: {apart} {'/'.join([str((low + high) // 2), *kept])}": "is not connected",
    }


def test_each_bad_killer_line_is_one_invalid_row_naming_its_line_and_cage(tmp_path: Path) -> None:
    cases = bad_lines()
    graded = grade_file(tmp_path, [LINE, *cases])
    rows = graded.to_dicts()
    assert [row["line"] for row in rows] == list(range(1, len(cases) + 2))
    assert rows[0]["status"] == OK and rows[0]["variant"] == "killer"
    assert rows[0]["cages"] == cages_value(CAGES)
    for row, (line, reason) in zip(rows[1:], cases.items(), strict=True):
        assert row["status"] == INVALID and reason in row["reason"], (line, row["reason"])
        assert row["cages"] is None and row["variant"] in ("killer", "killer+x")


def test_cages_overlapping_or_leaving_a_cell_bare_are_named(tmp_path: Path) -> None:
    cells = [list(cage.cells) for cage in CAGES]
    doubled = cages_value(CAGES)
    # a cell of the first cage next to another cage joins that one too (its total made one
    # its new size allows)
    other, cell = next(
        (k, cell)
        for cell in cells[0]
        for k in range(1, len(cells))
        if any(neighbours(cell, c) for c in cells[k])
    )
    low, high = sum_range(len(cells[other]) + 1, 9)
    doubled[other] = {"sum": (low + high) // 2, "cells": [*cells[other], cell]}
    bare = cages_value(CAGES)[1:]  # the first cage left out
    source = tmp_path / "cages.csv"
    write_rows(
        [
            {"puzzle": UNIQUE, "variant": "killer", "cages": doubled},
            {"puzzle": UNIQUE, "variant": "killer", "cages": bare},
            {"puzzle": UNIQUE, "variant": "classic", "cages": cages_value(CAGES)},
            {"puzzle": UNIQUE, "variant": "killer", "cages": '[{"sum": 3}]'},
            {"puzzle": UNIQUE, "variant": "killer", "cages": None},
        ],
        source,
    )
    rows = read(source)
    assert [row.line for row in rows] == [2, 3, 4, 5, 6]
    assert "overlaps the cage of" in rows[0].reason
    assert rows[0].reason.endswith(f"at {KILLER.cell_name(cell)}")
    assert "is in no cage" in rows[1].reason and "r1c1" in rows[1].reason
    assert "cages are given, but a classic puzzle has none" in rows[2].reason
    assert "cages: cage 1 is" in rows[3].reason
    assert (
        "a killer puzzle needs its cages: write the line as 'killer: <cage map>" in rows[4].reason
    )


GRIDS = [(geometry(3, 3), "killer"), (geometry(2, 3), "killer"), (geometry(3, 3, "x"), "killer+x")]


@st.composite
def killer_puzzles(draw: st.DrawFn) -> tuple[str, Geometry]:
    """(puzzle, geometry): random cages over a random full grid, a few givens kept."""
    plain, variant = draw(st.sampled_from(GRIDS))
    seed = draw(st.integers(0, 2**32 - 1))
    full = engine.random_grid(seed=seed, box=plain)
    geo = plain.with_variant(variant, None, sample_cages(full, plain, seed))
    kept = draw(st.sets(st.integers(0, plain.ncells - 1), max_size=plain.ncells // 3))
    return "".join(s if cell in kept else "." for cell, s in enumerate(full)), geo


@settings(max_examples=30, deadline=None)
@given(puzzles=st.lists(killer_puzzles(), min_size=1, max_size=6))
def test_killer_lines_and_tables_read_back_as_written(
    tmp_path_factory: pytest.TempPathFactory, puzzles: list[tuple[str, Geometry]]
) -> None:
    folder = tmp_path_factory.mktemp("round")
    lines = folder / "killers.txt"
    lines.write_text("".join(f"{puzzle_line(puzzle, geo)}\n" for puzzle, geo in puzzles))
    table = folder / "killers.csv"
    write_rows([{"puzzle": p, **variant_columns(geo)} for p, geo in puzzles], table)
    expected = [(puzzle, geo.variant, geo.cages) for puzzle, geo in puzzles]
    for source in (lines, table):
        read_back = read(source)
        assert all(row.ok for row in read_back), [row.reason for row in read_back]
        assert [(row.puzzle, row.variant, row.cages) for row in read_back] == expected


def test_grade_output_reads_back_through_verify_stats_render_and_grade(tmp_path: Path) -> None:
    graded = grade_file(tmp_path, [LINE])
    output = tmp_path / "graded.parquet"
    assert invoke("verify", output).code == 0 and invoke("stats", output).code == 0
    (row,) = read_puzzle_rows(output).rows
    assert row["variant"] == "killer" and row["cages"] == cages_value(CAGES)
    again = tmp_path / "again.csv"
    write_rows(graded.to_dicts(), again)
    regraded = tmp_path / "regraded.parquet"
    assert invoke("grade", again, "-o", regraded, "-j", 1, "-q").code == 0
    columns = ["puzzle", "variant", "cages", "status", "solution"]
    assert pl.read_parquet(regraded).select(columns).equals(graded.select(columns))
    more = [{**cage, "sum": cage["sum"] + (i == 0)} for i, cage in enumerate(row["cages"])]
    broken = graded.with_columns(  # the first cage's sum one more: the solution breaks it
        pl.Series("cages", [more], dtype=graded.schema["cages"])
    )
    wrong = tmp_path / "wrong.parquet"
    broken.write_parquet(wrong)
    code, stdout, _ = invoke("verify", wrong)
    first = CAGES[0]
    assert (
        code == 1 and f"the stored solution breaks the cage of {first.total + 1} at r1c1" in stdout
    )
    pdf = tmp_path / "book.pdf"
    code, _, stderr = invoke("render", output, "-o", pdf)
    assert code == 0, stderr
    with pdfplumber.open(pdf) as printed:
        text = "\n".join(page.extract_text() or "" for page in printed.pages)
    assert "In Killer puzzles, the digits in each dashed cage add up" in text


def test_files_without_a_cages_column_read_as_null(tmp_path: Path) -> None:
    grade_file(tmp_path, [UNIQUE])
    output = tmp_path / "graded.parquet"
    old = tmp_path / "old.parquet"
    pl.read_parquet(output).drop("cages").write_parquet(old)
    (row,) = read_puzzle_rows(old).rows
    assert row["cages"] is None and row["variant"] == "classic"
    assert invoke("verify", old).code == 0


def test_explain_reads_a_killer_line_given_as_the_puzzle() -> None:
    made = dig_killer(engine.random_grid(seed=5), "medium", seed=5)
    line = puzzle_line(made.puzzle, made.geometry)
    code, stdout, stderr = invoke("explain", line)
    assert code == 0, stderr
    assert "9x9 killer, 0 clues" in stdout and "The cage of" in stdout
    for row, col, digit in re.findall(r"\br(\d)c(\d)=(\d)", stdout):  # every placement is right
        assert made.solution[(int(row) - 1) * 9 + int(col) - 1] == digit
    bad = line.replace(TOTAL.search(line)[0], "/50/", 1)  # a cage no digits can add up to
    code, _, stderr = invoke("explain", bad)
    assert code == 2 and "PUZZLE: " in stderr and "the cage of 50" in stderr, stderr
