"""Print what others made: grade a bought collection (bad rows included), then print a book of
its hard puzzles, verify and count them, all through the real CLI, the PDF read back."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pyarrow.parquet as pq
import pytest

import engine
from pipeline.app import BAD_ARGUMENTS, SOME_ROWS_BAD
from pipeline.puzzle_files import read_puzzle_rows
from pipeline.store import puzzle_id, read_rows
from tests.conftest import TEST_DATA
from tests.helpers import (
    CLASH,
    SHORT,
    invoke,
)
from tests.printed import read_grids

#: Unique puzzles of every tier, and puzzles with no or several solutions (see its README).
COLLECTION = TEST_DATA / "golden_counts.txt"
HARD = ("hard", "extreme")


def bought_lines(graded: Path) -> list[int]:
    """Line numbers of the puzzle rows of the graded file's source (comments left out)."""
    text = (graded.parent / "bought.txt").read_text().splitlines()
    return [number for number, line in enumerate(text, 1) if not line.startswith("#")]


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`pipeline grade` output of the collection with two malformed rows added."""
    folder = tmp_path_factory.mktemp("bought")
    bought = folder / "bought.txt"
    bought.write_text(COLLECTION.read_text() + f"{CLASH}\n{SHORT}\n")
    output = folder / "graded.parquet"
    code, _, err = invoke("grade", bought, "-o", output, "-j", 1, "-q")
    assert code == SOME_ROWS_BAD and err == "Error: 21 of 49 rows are not ok\n"
    return output


def test_grade_output_is_complete_with_box_shapes(graded: Path) -> None:
    rows = pq.read_table(graded).to_pylist()
    lines = bought_lines(graded)
    assert [r["line"] for r in rows] == lines and len(lines) == 49
    ok = [r for r in rows if r["status"] == "ok"]
    assert len(ok) == 28
    assert all(r["box_rows"] * r["box_cols"] == r["size"] for r in ok)
    assert [r["box_rows"] for r in rows[-2:]] == [9 // 3, None]  # the clash parses; 1234 not


def test_print_the_hard_ones_then_verify_and_count(graded: Path) -> None:
    rows = pq.read_table(graded).to_pylist()
    hard = [r for r in rows if r["status"] == "ok" and r["tier"] in HARD][:12]
    assert {r["tier"] for r in hard} == set(HARD)
    book = graded.parent / "hard.pdf"
    args = ("--tier", "hard", "--tier", "extreme", "-n", 12, "--layout", 2, "--title", "Hard")
    code, out, err = invoke("render", graded, "-o", book, *args)
    assert code == 0 and err == f"{graded}: skipped 21 rows whose status is not ok\n"
    with pdfplumber.open(book) as pdf:
        pages = len(pdf.pages)
        grids = read_grids(pdf)
    assert out == f"{pages} pages, 12 puzzles written to {book}\n"
    in_book = sorted(hard, key=lambda r: HARD.index(r["tier"]))  # a section per tier, in order
    assert [g.text for g in grids] == [r["puzzle"] for r in in_book] + [
        r["solution"] for r in in_book
    ]
    ids = [puzzle_id(3, 3, engine.canonical(r["puzzle"])) for r in in_book]
    assert all(id_[:8] in grid.label for id_, grid in zip(ids, grids, strict=False))

    code, out, err = invoke("verify", graded)
    assert (code, out) == (0, "28 puzzles verified: each has one solution, the stored one\n")
    assert err == f"{graded}: skipped 21 rows whose status is not ok\n"
    code, out, _ = invoke("stats", graded)
    assert code == 0 and out.startswith("28 puzzles\n")
    for size, tier in ((9, "hard"), (9, "extreme"), (4, "easy")):  # as the graded file counts
        count = sum(r["status"] == "ok" and (r["size"], r["tier"]) == (size, tier) for r in rows)
        assert count and f"| {size}x{size} | {tier} | {count} |" in out


def test_graded_puzzles_have_the_ids_a_run_gives_them(tmp_path: Path) -> None:
    """Puzzles dug by the pipeline, graded as a bought file: the same canonical ids."""
    grids, dug = tmp_path / "grids.parquet", tmp_path / "dug.parquet"
    assert invoke("generate", "-o", grids, "-n", 4, "--size", 6, "-j", 1, "-q")[0] == 0
    assert invoke("dig", grids, "-o", dug, "--seed", 3, "-j", 1, "-q")[0] == 0
    stored = read_rows(dug)
    text = tmp_path / "dug.txt"
    text.write_text("".join(f"{row['givens']}\n" for row in stored))
    graded = tmp_path / "graded.parquet"
    assert invoke("grade", text, "-o", graded, "-j", 1, "-q")[0] == 0
    found = read_puzzle_rows(graded)
    assert found.skipped == 0
    assert [r["id"] for r in found.rows] == [r["id"] for r in stored]
    assert [r["givens"] for r in found.rows] == [r["givens"] for r in stored]


def test_bad_input_is_named_not_the_output(graded: Path) -> None:
    book = graded.parent / "never.pdf"
    code, _, err = invoke("render", COLLECTION, "-o", book)
    assert code == BAD_ARGUMENTS and err.startswith(f"Error: {COLLECTION}: cannot read Parquet")
    code, _, err = invoke("render", graded, "-o", book, "--tier", "nightmare")
    assert code == BAD_ARGUMENTS
    assert err.endswith(
        f"Error: {graded}: no puzzle of tier nightmare"
        " (tiers there: easy, expert, extreme, hard, medium)\n"
    )
    code, _, err = invoke("render", graded, "-o", graded.parent / "no" / "b.pdf")
    assert code == BAD_ARGUMENTS and err.endswith(f"folder {graded.parent / 'no'} does not exist\n")
    assert not book.exists()
