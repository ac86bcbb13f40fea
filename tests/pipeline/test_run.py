"""Whole runs on small recipes: contents, determinism across worker counts, resume after SIGKILL,
dedupe against the catalog (a disguised copy is rejected), and the lock."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pytest

import engine
from engine.canon import canonical
from pipeline.catalog import Catalog
from pipeline.errors import UserError
from pipeline.recipe import load_recipe, with_overrides
from pipeline.report import verify_rows
from pipeline.run import LOCK_FILE, RunLocked, run_book, run_folder, run_lock
from pipeline.store import CHUNKS, MANIFEST_FILE, PUZZLES_FILE, puzzle_id, read_metadata, read_rows
from tests.helpers import HOLD_LOCK, content, small_recipe

ROOT = Path(__file__).resolve().parents[2]
KILL_AFTER_CHUNKS = 2
KILLED_NINES = 24  # one puzzle per chunk: a run long enough to be killed half-way
SUBPROCESS_TIMEOUT = 60


def test_run_makes_the_book(tmp_path: Path) -> None:
    recipe = load_recipe(small_recipe(tmp_path))
    result = run_book(recipe)
    rows = read_rows(result.folder / PUZZLES_FILE)
    assert content(rows) == content(result.rows)
    assert [r["size"] for r in rows] == [4] * 4 + [9] * 6
    assert {r["tier"] for r in rows} == {"easy"}
    assert all(engine.grade(r["givens"]).tier == "easy" for r in rows)
    assert verify_rows(rows) == (10, [])
    assert len({r["id"] for r in rows}) == 10
    for row in rows[4:]:  # rotate180: a clue's mirror image through the centre is a clue
        clues = [c != "." for c in row["givens"]]
        assert clues == clues[::-1]
    manifest = result.manifest
    assert manifest["counts"]["puzzles"] == 10 and manifest["seed"] == 7
    assert (result.folder / MANIFEST_FILE).exists() and (result.folder / "small-test.pdf").exists()
    assert read_metadata(result.folder / PUZZLES_FILE)["schema_version"]
    stored = result.folder / PUZZLES_FILE  # nested columns too read cleanly in all three
    ids = [row["id"] for row in rows]
    assert pl.read_parquet(stored)["id"].to_list() == ids
    frame = pd.read_parquet(stored)
    assert frame["id"].tolist() == ids and len(frame["techniques"][0]) >= 1
    steps = duckdb.sql(f"select sum(t.steps) from (select unnest(techniques) as t from '{stored}')")
    assert steps.fetchall()[0][0] == sum(t["steps"] for row in rows for t in row["techniques"])
    assert Catalog(recipe.output).known_ids() == {r["id"] for r in rows}
    with run_lock(result.folder):  # the run let go of its lock
        pass


def test_rerun_resumes_from_chunks(tmp_path: Path) -> None:
    recipe = load_recipe(small_recipe(tmp_path))
    first = run_book(recipe)
    chunks = sorted((first.folder / CHUNKS).iterdir())
    chunks[-1].unlink()  # as if killed before the last chunk was stored
    (first.folder / PUZZLES_FILE).unlink()
    again = run_book(recipe)
    assert again.manifest["counts"]["chunks_resumed"] == len(chunks) - 1
    assert content(again.rows) == content(first.rows)


def test_sigkill_mid_run_then_rerun_matches_an_uninterrupted_run(tmp_path: Path) -> None:
    recipe = small_recipe(tmp_path / "killed", chunk_size=1, nine=KILLED_NINES)
    command = [str(Path(sys.executable).parent / "pipeline"), "run", str(recipe), "--quiet"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    chunks = run_folder(load_recipe(recipe)) / CHUNKS
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE)
    deadline = time.monotonic() + SUBPROCESS_TIMEOUT
    while process.poll() is None and time.monotonic() < deadline:
        if chunks.is_dir() and len(list(chunks.glob("*.parquet"))) >= KILL_AFTER_CHUNKS:
            break
        time.sleep(0.002)
    assert process.poll() is None, "the run finished before it could be killed"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    stored = len(list(chunks.glob("*.parquet")))
    assert KILL_AFTER_CHUNKS <= stored < 4 + KILLED_NINES
    assert not (chunks.parent / PUZZLES_FILE).exists()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert f"{stored} of {4 + KILLED_NINES} chunks resumed" in done.stdout
    resumed = read_rows(chunks.parent / PUZZLES_FILE)
    clean = run_book(load_recipe(small_recipe(tmp_path / "clean", chunk_size=1, nine=KILLED_NINES)))
    assert content(resumed) == content(clean.rows)


def test_a_disguised_copy_from_an_earlier_book_is_replaced(tmp_path: Path) -> None:
    recipe = load_recipe(small_recipe(tmp_path))
    earlier = run_book(recipe)
    first = earlier.rows
    victim = first[5]  # a 9x9 puzzle
    rng = np.random.default_rng(3)
    values = np.array([0 if c == "." else int(c) for c in victim["givens"]]).reshape(9, 9)
    values = values[[2, 1, 0, 3, 4, 5, 6, 7, 8]].T  # swap two rows of a band, then transpose
    labels = np.concatenate([[0], rng.permutation(9) + 1])
    copy = "".join("." if v == 0 else str(v) for v in labels[values].ravel())
    assert copy != victim["givens"]
    form = canonical(copy)
    elsewhere = with_overrides(recipe, output=tmp_path / "night2")
    Catalog(elsewhere.output).commit(
        "earlier-night",
        "another-book",
        [
            {
                "id": puzzle_id(3, 3, form),
                "size": 9,
                "box_rows": 3,
                "box_cols": 3,
                "canonical": form,
                "tier": "easy",
            }
        ],
    )
    second = run_book(elsewhere)
    # one more than the book's own (4x4 easy puzzles can repeat within a book)
    assert second.manifest["counts"]["duplicates"] == earlier.manifest["counts"]["duplicates"] + 1
    ids = [row["id"] for row in second.rows]
    assert victim["id"] not in ids and len(ids) == len(set(ids)) == len(first)
    others = [row for row in first if row["id"] != victim["id"]]
    assert content(others) == content(
        [r for r in second.rows if r["id"] in {o["id"] for o in others}]
    )


def test_lock_names_a_live_holder_and_is_free_once_it_dies(tmp_path: Path) -> None:
    lock = tmp_path / LOCK_FILE
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(lock)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(RunLocked, match=f"pid {holder.pid}"), run_lock(tmp_path):
            pass
    finally:
        holder.kill()  # SIGKILL: the process cannot clean up; the kernel drops its lock
        holder.wait()
    assert lock.read_text() == str(holder.pid)  # nobody deleted the dead holder's file ...
    with run_lock(tmp_path) as held:  # ... yet the lock is free
        assert held.read_text().strip() == str(os.getpid())


def test_a_lock_that_is_a_folder_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / LOCK_FILE).mkdir()
    with (
        pytest.raises(UserError, match=r"\.lock: is a folder, not a lock file"),
        run_lock(tmp_path),
    ):
        pass


def test_a_custom_tier_is_not_claimed_by_a_wider_default(tmp_path: Path) -> None:
    recipe = tmp_path / "kids.toml"
    recipe.write_text(
        f'title = "Kids"\nseed = 3\noutput = "{tmp_path / "output"}"\n'
        '[tiers.starter]\nhardest = "naked_single"\nclues = [8, 10]\n'
        "[parallel]\nn_jobs = 1\n[print]\nabout = false\n"
        '[[sections]]\nsize = 4\ntier = "starter"\ncount = 3\nminimal = false\nlayout = 6\n'
    )
    rows = run_book(load_recipe(recipe)).rows
    assert [row["tier"] for row in rows] == ["starter"] * 3
    assert all(8 <= row["clues"] <= 10 and row["hardest"] == "naked_single" for row in rows)
