"""A run trusts nothing it finds in its folder: links planted where it writes are refused and their
targets left as they were, stored chunks are re-verified before reuse, a killed run's temporary
files are removed, and ``state.json`` says how the run ended."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import pipeline.run
from pipeline.errors import PipelineError, UserError
from pipeline.recipe import load_recipe
from pipeline.run import LOCK_FILE, REPORT_FILE, REPORT_HTML_FILE, STATE_FILE, run_book, run_folder
from pipeline.store import CHUNKS, MANIFEST_FILE, PUZZLES_FILE, read_rows

RECIPE = """
title = "Trust"
seed = 5
output = "{output}"
[parallel]
n_jobs = 1
chunk_size = 3
[print]
about = false
[[sections]]
title = "Tiny"
size = 4
tier = "easy"
count = 6
minimal = false
layout = 6
"""
FIRST_CHUNK = f"{CHUNKS}/s000-c00000.parquet"


@pytest.fixture
def recipe_path(tmp_path: Path) -> Path:
    path = tmp_path / "trust.toml"
    path.write_text(RECIPE.format(output=tmp_path / "output"))
    return path


def finished_run(recipe_path: Path) -> Path:
    """The run folder of a whole run of the recipe."""
    return run_book(load_recipe(recipe_path)).folder


def givens(folder: Path) -> list[str]:
    return [row["givens"] for row in read_rows(folder / PUZZLES_FILE)]


@pytest.mark.parametrize(
    "name",
    [
        LOCK_FILE,
        STATE_FILE,
        FIRST_CHUNK,
        PUZZLES_FILE,
        "trust.pdf",
        REPORT_FILE,
        REPORT_HTML_FILE,
        MANIFEST_FILE,
    ],
)
def test_a_link_planted_where_a_run_writes_is_refused(
    recipe_path: Path, tmp_path: Path, name: str
) -> None:
    folder = finished_run(recipe_path)
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\x00bytes\n" * 10)
    planted = folder / name
    planted.unlink()
    planted.symlink_to(victim)
    with pytest.raises(UserError, match=rf"{planted.name}: is a symbolic link"):
        run_book(load_recipe(recipe_path))
    assert victim.read_bytes() == b"precious\x00bytes\n" * 10
    assert planted.is_symlink()


def test_a_link_planted_in_place_of_the_chunks_folder_is_refused(
    recipe_path: Path, tmp_path: Path
) -> None:
    folder = run_folder(load_recipe(recipe_path))
    folder.mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (folder / CHUNKS).symlink_to(elsewhere)
    with pytest.raises(UserError, match=rf"{CHUNKS}: is a symbolic link, not a folder"):
        run_book(load_recipe(recipe_path))
    assert list(elsewhere.iterdir()) == []


def test_an_edited_chunk_is_dug_again_and_named(recipe_path: Path) -> None:
    folder = finished_run(recipe_path)
    before = givens(folder)
    chunk = folder / FIRST_CHUNK
    table = pq.read_table(chunk)
    rows = table.to_pylist()
    first = rows[0]["givens"]
    at = next(i for i, symbol in enumerate(first) if symbol != ".")
    rows[0]["givens"] = first[:at] + "." + first[at + 1 :]  # one given fewer, provenance intact
    pq.write_table(table.from_pylist(rows, schema=table.schema), chunk)

    result = run_book(load_recipe(recipe_path))

    assert result.manifest["chunks_rejected"].keys() == {"s000-c00000.parquet"}
    assert "chunk s000-c00000 item 0" in result.manifest["chunks_rejected"]["s000-c00000.parquet"]
    assert result.manifest["chunks_redone"] == {"rows do not re-verify": 1}
    assert givens(folder) == before  # dug again from the same seeds: the same puzzles
    assert read_rows(chunk)[0]["givens"] == first


def test_a_killed_runs_temporary_files_are_removed_on_resume(recipe_path: Path) -> None:
    folder = finished_run(recipe_path)
    left = [folder / ".trust.pdf.a1b2.part", folder / CHUNKS / ".s000-c00001.parquet.c3.part"]
    for path in left:
        path.write_bytes(b"half a file")
    run_book(load_recipe(recipe_path))
    assert not any(path.exists() for path in left)
    assert not list(folder.rglob("*.part"))


@pytest.mark.parametrize(
    ("raised", "stage"),
    [
        (PipelineError("the renderer gave up"), "failed"),
        (SystemExit(143), "terminated"),
        (KeyboardInterrupt(), "interrupted"),
    ],
)
def test_state_says_how_the_run_ended(
    recipe_path: Path, monkeypatch: pytest.MonkeyPatch, raised: BaseException, stage: str
) -> None:
    def broken(*args: object) -> None:
        raise raised

    monkeypatch.setattr(pipeline.run, "render", broken)
    with pytest.raises(type(raised)):
        run_book(load_recipe(recipe_path))
    state = json.loads((run_folder(load_recipe(recipe_path)) / STATE_FILE).read_text())
    assert state["stage"] == stage
    assert state["pid"] == os.getpid()
    if stage == "failed":
        assert state["error"] == "PipelineError: the renderer gave up"


def test_a_finished_run_says_so(recipe_path: Path) -> None:
    folder = finished_run(recipe_path)
    assert json.loads((folder / STATE_FILE).read_text())["stage"] == "finished"
