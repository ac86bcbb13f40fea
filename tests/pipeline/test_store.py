"""The store: ids from canonical forms, Parquet metadata read by three engines, atomic writes,
errors naming the path."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.canon import canonical
from pipeline.store import (
    GENERATOR_VERSION,
    GRID_SCHEMA,
    SCHEMA_VERSION,
    StoreError,
    puzzle_id,
    read_metadata,
    read_rows,
    write_table,
)

BOX = 3  # 9x9 with 3x3 boxes
N = BOX * BOX


def disguise(puzzle: str, rng: np.random.Generator) -> str:
    """A random member of the validity-preserving group applied to a 9x9 puzzle (reference
    implementation with numpy, independent of engine.canon)."""
    values = np.array([0 if c == "." else int(c) for c in puzzle]).reshape(N, N)
    bands = rng.permutation(BOX)
    rows = np.concatenate([band * BOX + rng.permutation(BOX) for band in bands])
    stacks = rng.permutation(BOX)
    cols = np.concatenate([stack * BOX + rng.permutation(BOX) for stack in stacks])
    values = values[rows][:, cols]
    if rng.integers(2):
        values = values.T
    labels = np.concatenate([[0], rng.permutation(N) + 1])
    return "".join("." if v == 0 else str(v) for v in labels[values].ravel())


def puzzle_from(seed: int, blanks: int) -> str:
    grid = engine.random_grid(N, seed=seed)
    rng = np.random.default_rng(seed)
    cells = rng.choice(N * N, size=blanks, replace=False)
    chars = list(grid)
    for cell in cells:
        chars[cell] = "."
    return "".join(chars)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(20, 60))
def test_disguised_copy_has_the_same_id(seed: int, blanks: int) -> None:
    puzzle = puzzle_from(seed, blanks)
    copy = disguise(puzzle, np.random.default_rng(seed + 1))
    assert puzzle_id(BOX, BOX, canonical(puzzle)) == puzzle_id(BOX, BOX, canonical(copy))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([(3, 2), (4, 2), (4, 3)]), st.integers(0, 2**32 - 1))
def test_tall_boxes_and_their_wide_transposes_share_an_id(box, seed: int) -> None:
    rows, cols = box
    n = rows * cols
    rng = np.random.default_rng(seed)
    grid = engine.random_grid(n, seed=seed, box=box)
    puzzle = "".join(ch if rng.random() < 0.4 else "." for ch in grid)
    turned = "".join(np.array(list(puzzle)).reshape(n, n).T.reshape(-1))
    tall = puzzle_id(rows, cols, canonical(puzzle, box))
    assert tall == puzzle_id(cols, rows, canonical(turned, (cols, rows)))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 2))
def test_different_puzzles_have_different_ids(seed: int) -> None:
    one, other = puzzle_from(seed, 50), puzzle_from(seed + 1, 50)  # unrelated random puzzles
    assert puzzle_id(BOX, BOX, canonical(one)) != puzzle_id(BOX, BOX, canonical(other))
    # the same givens read with another box shape are another puzzle
    assert puzzle_id(BOX, BOX, canonical(one)) != puzzle_id(1, 9, canonical(one))


def grid_rows(count: int) -> list[dict]:
    grids = engine.random_grids(count, N, seed=1)
    return [
        {
            "id": puzzle_id(BOX, BOX, g),
            "size": N,
            "box_rows": BOX,
            "box_cols": BOX,
            "variant": "classic",
            "regions": None,
            "solution": g,
            "seed": 1,
            "section": 0,
            "chunk": 0,
            "created": datetime.now(UTC),
        }
        for g in grids
    ]


def test_parquet_metadata_and_three_readers(tmp_path: Path) -> None:
    path = tmp_path / "grids.parquet"
    rows = grid_rows(5)
    assert write_table(rows, path, GRID_SCHEMA) == 5
    assert read_metadata(path) == {
        "schema_version": SCHEMA_VERSION,
        "generator": GENERATOR_VERSION,
    }
    solutions = [row["solution"] for row in rows]
    assert pl.read_parquet(path)["solution"].to_list() == solutions
    assert pd.read_parquet(path)["solution"].tolist() == solutions
    found = duckdb.sql(f"select solution from '{path}'").fetchall()
    assert [row[0] for row in found] == solutions
    assert pq.read_schema(path).field("created").type.tz == "UTC"


def test_failed_write_leaves_the_earlier_file(tmp_path: Path) -> None:
    path = tmp_path / "grids.parquet"
    write_table(grid_rows(3), path, GRID_SCHEMA)
    bad = [*grid_rows(2), {**grid_rows(1)[0], "size": "nine"}]
    with pytest.raises(StoreError, match=re.escape(str(path))):
        write_table(bad, path, GRID_SCHEMA)
    assert len(read_rows(path)) == 3
    assert [p.name for p in tmp_path.iterdir()] == ["grids.parquet"]  # no temporary left


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores folder permissions")
def test_permission_error_names_the_path(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(StoreError, match=str(folder)):
            write_table(grid_rows(1), folder / "grids.parquet", GRID_SCHEMA)
    finally:
        folder.chmod(0o700)


def test_os_error_names_the_path(tmp_path: Path) -> None:
    target = tmp_path / "grids.parquet"
    target.mkdir()  # the rename onto it fails with an OSError, as a full disk would
    with pytest.raises(StoreError, match=re.escape(f"{target}: cannot write")):
        write_table(grid_rows(1), target, GRID_SCHEMA)
    assert target.is_dir() and list(tmp_path.iterdir()) == [target]


def test_a_write_syncs_the_file_and_then_its_folder(tmp_path: Path, monkeypatch) -> None:
    """Durable: the data reaches the disk before the rename, the rename before we go on."""
    synced: list[Path] = []
    fsync = os.fsync

    def recording(handle: int) -> None:
        synced.append(Path(os.readlink(f"/proc/self/fd/{handle}")))
        fsync(handle)

    monkeypatch.setattr(os, "fsync", recording)
    write_table(grid_rows(1), tmp_path / "grids.parquet", GRID_SCHEMA)
    assert len(synced) == 2
    assert synced[0].parent == tmp_path and synced[0].name.startswith(".grids.parquet.")
    assert synced[1] == tmp_path
