"""Variant puzzles in files: the text form (``x: <puzzle>``, ``jigsaw: <layout> <puzzle>``),
``variant`` and ``regions`` columns, ``pipeline grade --variant``, one invalid row naming the
region or cells for each bad layout, clash or variant, round trips through what the pipeline
writes, and files written before variants reading as classic."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.geometry import geometry
from engine.layouts import random_layout
from pipeline.formats import read_puzzles
from pipeline.formats.writers import write_rows
from pipeline.store import MANIFEST_FILE, PUZZLES_FILE, read_rows
from pipeline.tasks import INVALID, MULTIPLE, OK
from tests.helpers import UNIQUE, invoke, one_error_line, tagged_line

X_PUZZLE = "3.....5.4...........53...29...4...17....2.....5..3.....8....7.6......3...4.5....."
WINDOKU = "8..6...34...........5.....72.98...4..5..........4.7........18...7.2..9....2......"
LAYOUT = "211111222221533666553446533346554446"  # a 6x6 Jigsaw's regions
JIGSAW = "....4...3...3....5...6..........2..1"
JIGSAW_SOLUTION = "631542453126314265245613126354562431"
PIECES = LAYOUT[35] + LAYOUT[1:35] + LAYOUT[0]  # r1c1 and r6c6 swap: region '2' in two pieces
TOO_BIG = LAYOUT[:35] + "2"  # region '2' has 7 cells, region '6' 5
DIAGONAL = "1" + "." * 39 + "1" + "." * 40  # r1c1 and r5c5: only the diagonal holds both

MIXED = [
    f"x: {X_PUZZLE}",
    f"windoku: {WINDOKU}",
    f"Jigsaw: {LAYOUT.lower()} {JIGSAW} {JIGSAW_SOLUTION}",
    X_PUZZLE,  # no tag: classic, where its few clues leave many solutions
    f"jigsaw: {PIECES} {JIGSAW}",
    f"jigsaw: {TOO_BIG} {JIGSAW}",
    f"x: {DIAGONAL}",
    f"xy: {X_PUZZLE}",
    f"jigsaw: {JIGSAW}",
    f"windoku: {JIGSAW}",
    f"jigsaw: {LAYOUT[:3]}z{LAYOUT[4:]} {JIGSAW}",
]
REASONS = {
    5: "region '2' is not connected: r6c6 cannot be reached from r2c1",
    6: "region '2' has 7 cells (r1c1, r2c1, r2c2, r2c3, r2c4, r2c5, ...); each region needs 6",
    7: "'1' is given twice in the main diagonal: r1c1 and r5c5",
    8: "unknown variant 'xy': choose classic, jigsaw, killer, windoku, x",
    9: "a jigsaw line is 'jigsaw: <layout> <puzzle>'; this one has no puzzle",
    10: "windoku is a 9x9 variant, not 6x6",
    11: "layout: bad region symbol 'z' at r1c4; regions are named 123456",
}


def grade_file(tmp_path: Path, lines: list[str], *options: object) -> tuple[int, pl.DataFrame]:
    source = tmp_path / "puzzles.txt"
    source.write_text("\n".join(lines) + "\n")
    output = tmp_path / "graded.parquet"
    code, _, stderr = invoke("grade", source, "-o", output, "-j", 1, "-q", *options)
    assert code in (0, 1), stderr
    return code, pl.read_parquet(output)


def test_a_mixed_variant_file_is_graded_each_row_by_its_rules(tmp_path: Path) -> None:
    code, graded = grade_file(tmp_path, MIXED)
    assert code == 1 and graded["line"].to_list() == list(range(1, len(MIXED) + 1))
    rows = {row["line"]: row for row in graded.to_dicts()}
    assert [rows[line]["variant"] for line in (1, 2, 3, 4)] == ["x", "windoku", "jigsaw", "classic"]
    assert [rows[line]["status"] for line in (1, 2, 3, 4)] == [OK, OK, OK, MULTIPLE]
    assert rows[3]["regions"] == LAYOUT and rows[3]["solution"] == JIGSAW_SOLUTION
    assert rows[1]["regions"] is None and rows[3]["size"] == 6
    for line, reason in REASONS.items():
        assert rows[line]["status"] == INVALID and reason in rows[line]["reason"], line
    assert rows[8]["variant"] is None  # unknown
    assert rows[5]["regions"] == PIECES and rows[7]["puzzle"] == DIAGONAL


def test_a_plain_file_of_x_puzzles_takes_variant_x(tmp_path: Path) -> None:
    code, graded = grade_file(tmp_path, [X_PUZZLE, f"classic: {X_PUZZLE}"], "--variant", "X")
    assert code == 1 and graded["variant"].to_list() == ["x", "classic"]
    assert graded["status"].to_list() == [OK, MULTIPLE]


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        ("jigsaw", "--variant jigsaw: each Jigsaw puzzle has a layout of its own"),
        ("jigsaw+x", "write each line as 'jigsaw+x: <layout> <puzzle>'"),
        ("zz", "--variant: unknown variant 'zz'"),
    ],
)
def test_a_variant_no_plain_file_can_have_is_one_error(
    variant: str, message: str, tmp_path: Path
) -> None:
    source = tmp_path / "plain.txt"
    source.write_text(JIGSAW + "\n")
    code, _, stderr = invoke("grade", source, "--variant", variant, "-q")
    assert code == 2 and message in one_error_line(stderr)


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_grade_output_reads_back_with_each_rows_rules(suffix: str, tmp_path: Path) -> None:
    _, graded = grade_file(tmp_path, MIXED[:4])
    again = tmp_path / f"again{suffix}"
    write_rows(graded.to_dicts(), again)
    output = tmp_path / "regraded.parquet"
    code, _, stderr = invoke("grade", again, "-o", output, "-j", 1, "-q")
    assert code == 1, stderr
    columns = ["puzzle", "variant", "regions", "status", "solution"]
    assert pl.read_parquet(output).select(columns).equals(graded.select(columns))


@pytest.mark.parametrize(
    ("variant", "regions", "reason"),
    [
        ("x", LAYOUT, "regions are given, but a x puzzle has none"),
        ("jigsaw", "", "a jigsaw puzzle needs its layout"),
        ("sudoku", "", "unknown variant 'sudoku'"),
    ],
)
def test_a_table_row_with_the_wrong_rules_is_one_invalid_row(
    variant: str, regions: str, reason: str, tmp_path: Path
) -> None:
    source = tmp_path / "table.csv"
    source.write_text(f"puzzle,variant,regions\n{JIGSAW},{variant},{regions}\n{X_PUZZLE},x,\n")
    rows = [row for chunk in read_puzzles([source]) for row in chunk]
    assert not rows[0].ok and reason in rows[0].reason and rows[0].line == 2
    assert rows[1].ok and (rows[1].variant, rows[1].regions) == ("x", None)


def test_files_written_before_variants_read_as_classic(tmp_path: Path) -> None:
    _, graded = grade_file(tmp_path, [UNIQUE])
    old = tmp_path / "old.parquet"
    graded.drop("variant", "regions").write_parquet(old)
    assert invoke("stats", old).code == 0 and invoke("verify", old).code == 0
    grids = tmp_path / "grids.parquet"
    assert invoke("generate", "-o", grids, "-n", 2, "--size", 4, "-j", 1, "-q").code == 0
    table = pq.read_table(grids)
    pq.write_table(table.drop_columns(["variant", "regions"]), grids)
    dug = tmp_path / "dug.parquet"
    code, _, stderr = invoke("dig", grids, "-o", dug, "-j", 1, "-q")
    assert code == 0, stderr
    assert pl.read_parquet(dug)["variant"].to_list() == ["classic", "classic"]
    assert invoke("verify", dug).code == 0


# ---- the text form, written and read back -------------------------------------------------------

GRIDS = [
    geometry(3, 3),
    geometry(2, 3, "x"),
    geometry(3, 3, "windoku"),
    geometry(3, 3, "windoku+x"),
    *(random_layout(6, seed=seed) for seed in range(3)),
    random_layout(6, seed=3, variant="jigsaw+x"),
    random_layout(9, seed=4),
    random_layout(12, seed=5),  # regions named 1-9 and A-C
]


@st.composite
def variant_rows(draw: st.DrawFn) -> tuple[str, str, str | None]:
    """(puzzle, variant, regions): a random full grid of a drawn variant, some cells blanked."""
    geo = draw(st.sampled_from(GRIDS))
    full = engine.random_grid(seed=draw(st.integers(0, 2**32 - 1)), box=geo)
    blanks = draw(st.sets(st.integers(0, geo.ncells - 1), max_size=geo.ncells))
    puzzle = "".join("." if cell in blanks else symbol for cell, symbol in enumerate(full))
    return puzzle, geo.variant, geo.regions


def spelled(draw: st.DrawFn, variant: str, regions: str | None) -> tuple[str, str | None]:
    """The variant and layout as a person might write them: any case (a layout's letters too)."""
    name = draw(st.sampled_from([variant, variant.upper(), variant.title()]))
    return name, regions.lower() if regions is not None and draw(st.booleans()) else regions


@settings(max_examples=40)
@given(data=st.data(), rows=st.lists(variant_rows(), min_size=1, max_size=8))
def test_tagged_lines_and_tables_read_back_as_written(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, rows: list
) -> None:
    folder = tmp_path_factory.mktemp("round")
    written = [(puzzle, *spelled(data.draw, variant, regions)) for puzzle, variant, regions in rows]
    lines = folder / "puzzles.txt"
    lines.write_text("".join(f"{tagged_line(*row)}\n" for row in written))
    table = folder / "puzzles.csv"
    write_rows([{"puzzle": p, "variant": v, "regions": r} for p, v, r in written], table)
    for source in (lines, table):
        read = [row for chunk in read_puzzles([source]) for row in chunk]
        assert [(row.puzzle, row.variant, row.regions) for row in read] == rows
        assert all(row.ok for row in read)


SOURCE_RECIPE = """
title = "Bought Variants"
seed = 3
output = "{output}"
[parallel]
n_jobs = 1
[print]
about = false
[[sections]]
title = "Bought X"
variant = "x"
tier = "easy"
count = 1
source = "bought.txt"
[[sections]]
title = "Bought Jigsaw"
size = 6
variant = "jigsaw"
tier = "easy"
count = 1
source = "bought.txt"
"""


def test_a_source_section_prints_the_puzzles_of_its_variant(tmp_path: Path) -> None:
    (tmp_path / "bought.txt").write_text("\n".join([*MIXED[:4], X_PUZZLE]) + "\n")
    recipe = tmp_path / "bought.toml"
    recipe.write_text(SOURCE_RECIPE.format(output=tmp_path / "output"))
    code, _, stderr = invoke("run", recipe, "-q")
    assert code == 0, stderr
    (folder,) = (tmp_path / "output" / "bought-variants").iterdir()
    rows = read_rows(folder / PUZZLES_FILE)
    assert [(row["variant"], row["givens"], row["position"]) for row in rows] == [
        ("x", X_PUZZLE, 1),
        ("jigsaw", JIGSAW, 3),
    ]
    assert rows[1]["regions"] == LAYOUT
    sources = json.loads((folder / MANIFEST_FILE).read_text())["sources"]
    # the X section's grid is 9x9: the Windoku is of another variant, the untagged lines X
    # puzzles (the section's variant), the 6x6 Jigsaw of another shape; the Jigsaw section's
    # grid is 6x6, so every other row is of another shape
    assert [(s["other_variant"], s["skipped"]) for s in sources] == [(1, 1), (0, 4)]
