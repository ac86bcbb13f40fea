"""The stage commands through the real app: generate -> dig -> verify -> stats -> render, run, and
failures as one `Error: ...` line with a non-zero exit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from pypdf import PdfReader

from pipeline.recipe import load_recipe
from pipeline.run import LOCK_FILE, run_folder
from pipeline.store import PUZZLE_SCHEMA, PUZZLES_FILE, read_rows, write_table
from tests.helpers import (
    HOLD_LOCK,
    invoke,
    one_error_line,
    small_recipe,
)


@pytest.fixture(scope="module")
def stage_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Grids and puzzles made by the stage commands, shared by the tests below."""
    folder = tmp_path_factory.mktemp("stages")
    grids, puzzles = folder / "grids.parquet", folder / "puzzles.parquet"
    code, out, _ = invoke(
        "generate", "-o", grids, "--count", 6, "--size", 6, "--seed", 5, "-j", 1, "-q"
    )
    assert code == 0 and out == f"6 grids written to {grids}\n"
    code, out, err = invoke(
        "dig", grids, "-o", puzzles, "--tier", "easy", "--seed", 5, "-j", 1, "-q"
    )
    assert code == 0, err
    return {"grids": grids, "puzzles": puzzles, "folder": folder}


def test_generate_then_dig_keep_provenance(stage_files: dict[str, Path]) -> None:
    grids = read_rows(stage_files["grids"])
    puzzles = read_rows(stage_files["puzzles"])
    assert [g["solution"] for g in grids] == [p["solution"] for p in puzzles]
    assert all(p["tier"] == "easy" and (p["box_rows"], p["box_cols"]) == (2, 3) for p in puzzles)
    assert all(g != p["givens"] for g, p in zip(grids, puzzles, strict=True))
    assert pq.read_schema(stage_files["puzzles"]).names == PUZZLE_SCHEMA.names


def test_verify_accepts_good_puzzles_and_names_bad_ones(stage_files: dict[str, Path]) -> None:
    code, out, _ = invoke("verify", stage_files["puzzles"])
    assert code == 0 and out == "6 puzzles verified: each has one solution, the stored one\n"
    rows = read_rows(stage_files["puzzles"])
    rows[1]["givens"] = "." * 36  # many solutions
    swapped = rows[2]["solution"]
    rows[2]["solution"] = swapped[1] + swapped[0] + swapped[2:]  # a wrong stored solution
    rows[4]["givens"] = "11" + rows[4]["givens"][2:]  # two 1s in the first row
    tampered = stage_files["folder"] / "tampered.parquet"
    write_table(rows, tampered, PUZZLE_SCHEMA)
    code, out, err = invoke("verify", tampered)
    assert code == 1
    assert f"row 1 (id {rows[1]['id']}): more than one solution" in out
    assert f"row 2 (id {rows[2]['id']}): stored solution is wrong" in out
    assert f"row 4 (id {rows[4]['id']}): " in out and "row 3" not in out
    assert one_error_line(err) == "Error: 3 of 6 puzzles failed verification"


def test_stats_counts_per_size_and_tier(stage_files: dict[str, Path]) -> None:
    code, out, _ = invoke("stats", stage_files["puzzles"])
    assert code == 0
    assert out.startswith("6 puzzles\n") and "| 6x6 | easy | 6 |" in out


def test_render_writes_a_pdf(stage_files: dict[str, Path]) -> None:
    pdf = stage_files["folder"] / "book.pdf"
    code, out, err = invoke(
        "render", stage_files["puzzles"], "-o", pdf, "--title", "Six", "--layout", 2
    )
    assert code == 0, err
    pages = len(PdfReader(pdf).pages)
    assert out == f"{pages} pages, 6 puzzles written to {pdf}\n"


def test_render_saddle_stitch_with_bleed(stage_files: dict[str, Path]) -> None:
    """Options from the command line: 2-up sheets (landscape, twice the trim plus bleed)."""
    plain = stage_files["folder"] / "plain.pdf"
    sheets = stage_files["folder"] / "sheets.pdf"
    assert invoke("render", stage_files["puzzles"], "-o", plain, "--trim", "5.5x8.5")[0] == 0
    args = ("--trim", "5.5x8.5", "--bleed", "--imposition", "saddle-stitch", "--shade-answers")
    code, out, err = invoke("render", stage_files["puzzles"], "-o", sheets, *args)
    assert code == 0, err
    pages = int(out.split()[0])
    imposed = sheets.with_name("sheets-imposed.pdf")
    assert f"in {imposed}" in out
    assert len(PdfReader(sheets).pages) == pages  # single pages, for shops that impose
    assert pages % 4 == 0 and len(PdfReader(imposed).pages) == pages // 2
    width, height = (float(v) for v in PdfReader(imposed).pages[0].mediabox[2:])
    assert width > height  # a sheet holds two pages side by side
    code, _, err = invoke("render", stage_files["puzzles"], "-o", plain, "--imposition", "fold")
    assert code == 2 and "'fold' is not one of 'none', 'saddle-stitch'" in one_error_line(err)


def test_run_command_and_stats_of_its_folder(tmp_path: Path) -> None:
    recipe = small_recipe(tmp_path)
    code, out, err = invoke("run", recipe, "--quiet", "--jobs", 1)
    assert code == 0, err
    folder = run_folder(load_recipe(recipe))
    assert out.startswith(f"10 puzzles in {folder} (0 of ")
    code, out, _ = invoke("stats", folder)
    assert code == 0 and "| 4x4 | easy | 4 |" in out and "| 9x9 | easy | 6 |" in out
    assert invoke("verify", folder)[0] == 0


def test_run_refuses_a_locked_folder_naming_the_pid(tmp_path: Path) -> None:
    recipe = small_recipe(tmp_path)
    folder = run_folder(load_recipe(recipe))
    folder.mkdir(parents=True)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(folder / LOCK_FILE)], stdout=subprocess.PIPE
    )
    try:
        assert holder.stdout.readline() == b"held\n"
        code, _, err = invoke("run", recipe, "-q")
    finally:
        holder.kill()
        holder.wait()
    assert code == 2 and f"locked by a running process (pid {holder.pid})" in one_error_line(err)
    assert not (folder / PUZZLES_FILE).exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("generate", "-o", "g.parquet", "--size", "6", "--box", "3x3"),
            "box 3x3 does not fit a 6x6",
        ),
        (("generate", "-o", "g.parquet", "--box", "axb"), "--box/--size"),
        (("generate", "-o", "missing/g.parquet", "-n", "1", "-j", "1"), "does not exist"),
        (("verify", "recipe.toml"), "recipe.toml: cannot read Parquet"),
        (
            ("run", "recipe.toml", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:8786"),
            "parallel.scheduler: tcp://127.0.0.1:8786 is plain tcp://",
        ),
        (("run", "recipe.toml", "--backend", "ray"), "'ray' is not one of 'loky', 'dask'"),
        (("run", "recipe.toml", "--jobs", "0"), "'--jobs' / '-j': got 0; allowed: an integer"),
        (("generate", "-o", "g.parquet", "-j", "0"), "'--jobs' / '-j': got 0"),
        (("dig", "recipe.toml", "-o", "d.parquet", "-j", "-2"), "'--jobs' / '-j': got -2"),
        (("dig", "recipe.toml", "-o", "d.parquet", "--tier", "hardest"), "'hardest' is not one"),
        (("render", "recipe.toml", "-o", "b.pdf", "--layout", "3"), "'3' is not one of '1'"),
        (("render", "recipe.toml", "-o", "b.pdf", "--trim", "a5"), "'a5' is not one of 'letter'"),
        (("render", "recipe.toml", "-o", "b.pdf", "x.pdf"), "unexpected extra argument(s) (x.pdf)"),
        (("render", "recipe.toml"), "Missing option '--output' / '-o'."),
        (("generate",), "Missing option '--output' / '-o'."),
    ],
)
def test_errors_are_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    small_recipe(tmp_path).rename(tmp_path / "recipe.toml")
    code, _, err = invoke(*args)
    assert code == 2 and message in one_error_line(err)


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores folder permissions")
def test_unwritable_output_names_the_path(tmp_path: Path) -> None:
    recipe = small_recipe(tmp_path)
    (tmp_path / "output").mkdir()
    (tmp_path / "output").chmod(0o500)
    try:
        code, _, err = invoke("run", recipe, "-q")
    finally:
        (tmp_path / "output").chmod(0o700)
    assert code == 2 and str(tmp_path / "output") in one_error_line(err)


def test_output_blocked_by_a_file_names_the_path(tmp_path: Path) -> None:
    """Works as root too (CI): a file where the output folder should be cannot be written into."""
    recipe = small_recipe(tmp_path)
    (tmp_path / "output").write_text("not a folder\n")
    code, _, err = invoke("run", recipe, "-q")
    assert code == 2 and str(tmp_path / "output") in one_error_line(err)
    assert (tmp_path / "output").read_text() == "not a folder\n"  # left intact
