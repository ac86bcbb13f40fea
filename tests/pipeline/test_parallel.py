"""Chunk planning and seeding, and the same rows from one worker, two workers, any order."""

from __future__ import annotations

import os
import time
import tracemalloc
from itertools import islice
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.dig import dig_solutions
from pipeline.generate import generate_grids
from pipeline.grid_files import SolutionGrids
from pipeline.parallel import (
    AHEAD,
    WORKER_START,
    UntrustedResult,
    local_workers,
    pool_pays,
    progress_bar,
    results_in_order,
    run_tasks,
    usable_cores,
)
from pipeline.recheck import check_dug
from pipeline.recipe import ParallelSpec, SectionSpec
from pipeline.recipe_schema import ALL_CORES
from pipeline.store import read_rows
from pipeline.tasks import (
    SEED_CHUNK,
    Chunk,
    DigJob,
    GridJob,
    grid_chunk,
    plan_chunks,
    section_tiers,
)
from tests.pipeline import worker_tasks

TIMESTAMPS = ("created",)


@given(st.integers(0, 5), st.integers(1, 500), st.integers(1, 60), st.integers(0, 9))
def test_chunks_cover_the_count_exactly(section: int, count: int, size: int, first: int) -> None:
    chunks = plan_chunks(section, count, size, first)
    assert sum(chunk.count for chunk in chunks) == count
    assert all(1 <= chunk.count <= size for chunk in chunks)
    assert [chunk.index for chunk in chunks] == list(range(first, first + len(chunks)))
    assert len({chunk.name for chunk in chunks}) == len(chunks)


def test_chunk_seeds_differ_by_section_chunk_and_item() -> None:
    draws = {
        Chunk(s, c, 1).seed(42, *extra).generate_state(2).tobytes()
        for s in range(3)
        for c in range(3)
        for extra in ((), (0,), (1,), (0, 1))
    }
    assert len(draws) == 3 * 3 * 4
    # and they depend only on (seed, section, chunk), not on the chunk's size
    assert Chunk(1, 2, 5).seed(42).entropy == Chunk(1, 2, 7).seed(42).entropy
    assert (
        Chunk(1, 2, 5).seed(42).generate_state(1) == Chunk(1, 2, 7).seed(42).generate_state(1)
    ).all()


def collect(n_jobs: int) -> list[dict]:
    jobs = [GridJob(chunk, 6, "2x3", 99) for chunk in plan_chunks(0, 30, 7)]
    done: dict[Chunk, list[dict]] = {}
    spec = ParallelSpec(n_jobs=n_jobs, chunk_size=7)
    run_tasks(grid_chunk, jobs, spec, lambda job, rows: done.update({job.chunk: rows}))
    rows = [row for job in jobs for row in done[job.chunk]]
    return [{k: v for k, v in row.items() if k not in TIMESTAMPS} for row in rows]


def test_one_and_two_workers_make_the_same_rows(monkeypatch) -> None:
    monkeypatch.setattr("pipeline.parallel.WORKER_START", 0.0)  # the pool takes all but one task
    one, two = collect(1), collect(2)
    assert len(one) == 30 and one == two
    assert len({row["solution"] for row in one}) == 30


def test_workers_start_only_for_work_that_pays_for_them(monkeypatch) -> None:
    assert not pool_pays(1.0, 2) and pool_pays(60.0, 2) and not pool_pays(60.0, 1)
    assert pool_pays(WORKER_START * 2 + 0.1, 2) and not pool_pays(WORKER_START * 2 - 0.1, 2)

    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started for a few milliseconds of work")

    monkeypatch.setattr("pipeline.parallel.get_reusable_executor", no_pool)
    assert len(collect(2)) == 30  # cheap chunks: all in this process


def test_progress_bar_is_off_when_quiet_or_not_a_terminal(monkeypatch) -> None:
    assert progress_bar(quiet=True).disable
    monkeypatch.setattr("sys.stderr.isatty", lambda: False, raising=False)
    assert progress_bar(quiet=False).disable
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich then treats stderr as a terminal
    assert not progress_bar(quiet=False).disable
    assert progress_bar(quiet=True).disable


def test_a_huge_plan_is_arithmetic_not_a_list() -> None:
    """10**15 items plan in constant memory; only the chunks asked for are ever made."""
    tracemalloc.start()
    try:
        plan = plan_chunks(2, 10**15 + 3, 25, first_index=4)
        first = list(islice(plan, 1000))
        last, middle = plan[-1], plan[123_456_789_012]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # a list of every chunk would be petabytes
    assert len(plan) == 4 * 10**13 + 1
    assert first[0] == Chunk(2, 4, 25) and first[-1] == Chunk(2, 1003, 25)
    assert last == Chunk(2, 4 + 4 * 10**13, 3) and middle == Chunk(2, 123_456_789_016, 25)


def test_tasks_are_drawn_lazily_a_few_ahead_of_the_workers(monkeypatch) -> None:
    """A consumer that stops after a few results leaves a 10**15-grid plan almost untouched."""
    monkeypatch.setattr("pipeline.parallel.WORKER_START", 0.0)  # the pool starts at once
    drawn = []

    def jobs():
        for chunk in plan_chunks(0, 10**15, 2):
            drawn.append(chunk)
            yield GridJob(chunk, 4, "2x2", 5)

    results = results_in_order(grid_chunk, jobs(), ParallelSpec(n_jobs=2))
    got = [job.chunk.index for job, _ in islice(results, 6)]
    results.close()
    assert got == list(range(6))
    assert len(drawn) <= 6 + AHEAD * 2 + 1


def test_jobs_are_capped_at_the_usable_cores(monkeypatch, capsys) -> None:
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1})
    assert usable_cores() == 2
    assert local_workers(16) == 2 and local_workers(ALL_CORES) == 2 and local_workers(1) == 1
    monkeypatch.setattr("pipeline.parallel.WORKER_START", 0.0)
    monkeypatch.setattr("pipeline.parallel._told", set())
    pids = {pid for _, (_, pid) in results_in_order(worker_tasks.pid, range(8), ParallelSpec(16))}
    assert len(pids - {os.getpid()}) <= 2
    assert len(list(results_in_order(worker_tasks.pid, range(4), ParallelSpec(16)))) == 4
    err = capsys.readouterr().err  # said once, not once per call
    assert err.count("--jobs 16: only 2 usable cores here, so at most 2 workers") == 1
    assert len(err.strip().splitlines()) == 1


def test_check_runs_on_every_result_from_a_worker(monkeypatch) -> None:
    monkeypatch.setattr("pipeline.parallel.WORKER_START", 0.0)
    checked = []
    results = results_in_order(
        worker_tasks.pid, range(6), ParallelSpec(2), lambda task, result: checked.append(task)
    )
    pids = dict(results)
    from_workers = [task for task, pid in pids.items() if pid[1] != os.getpid()]
    assert from_workers and checked == from_workers  # in-process results need no check


def test_a_forged_row_from_a_worker_is_rejected(tmp_path, monkeypatch) -> None:
    """A worker that returns a valid grid as the wrong answer key is caught in the parent."""
    monkeypatch.setattr("pipeline.parallel.WORKER_START", 0.0)
    section = SectionSpec("Tiny", 4, 2, 2, "easy", 6, minimal=False)
    tiers = section_tiers(section)
    jobs = [DigJob(chunk, section, 3, "r", tiers) for chunk in plan_chunks(0, 6, 2)]
    stored = []
    with pytest.raises(UntrustedResult, match=r"chunk s000-c0000[12] item 0: the .*solution"):
        run_tasks(
            worker_tasks.forged_solution,
            jobs,
            ParallelSpec(2),
            lambda job, rows: stored.append(job),
            check=check_dug,
        )
    assert len(stored) == 1  # only the chunk this process dug itself, before the pool


def test_a_pool_stopped_early_ends_its_workers(monkeypatch) -> None:
    """Leaving the results early (--strict, an error) with tasks still queued ends the worker
    processes at once; they do not wait idle for tasks that will never come."""
    monkeypatch.setattr("pipeline.parallel.WORKER_START", 0.0)
    results = results_in_order(worker_tasks.slow_pid, range(40), ParallelSpec(2))
    pids = {pid for _, (_, pid) in islice(results, 4)} - {os.getpid()}
    assert pids  # workers ran some of the first tasks, and more are queued behind them
    results.close()
    deadline = time.monotonic() + 20
    while pids & alive(pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(pids)


def alive(pids: set[int]) -> set[int]:
    """Those of ``pids`` that are running processes (not gone, not zombies)."""
    running = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            continue
        if state != "Z":
            running.add(pid)
    return running


def test_chunk_size_changes_neither_grids_nor_puzzles(tmp_path, monkeypatch) -> None:
    """``pipeline generate`` and ``dig`` seed fixed chunks; their chunk size only groups them
    into tasks, on one process or two."""
    monkeypatch.setattr("pipeline.parallel.WORKER_START", 0.0)
    grids, puzzles = [], []
    section = SectionSpec("Tiny", 4, 2, 2, "easy", 0, minimal=False)
    for n_jobs, chunk_size in ((1, 1), (1, 25), (2, 30), (2, 200)):
        spec = ParallelSpec(n_jobs=n_jobs, chunk_size=chunk_size)
        path = tmp_path / f"grids-{n_jobs}-{chunk_size}.parquet"
        assert generate_grids(60, 4, "2x2", 8, spec, path) == 60
        grids.append(strip(read_rows(path)))
        solutions = [row["solution"] for row in grids[-1]][:30]
        dug = tmp_path / f"dug-{n_jobs}-{chunk_size}.parquet"
        assert dig_solutions(SolutionGrids(solutions, 2, 2), section, 8, spec, dug) == 30
        puzzles.append(strip(read_rows(dug)))
    assert all(rows == grids[0] for rows in grids) and len({r["id"] for r in grids[0]}) > 1
    assert all(rows == puzzles[0] for rows in puzzles)
    assert [row["chunk"] for row in grids[0]] == [k // SEED_CHUNK for k in range(60)]


def strip(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k not in TIMESTAMPS} for row in rows]
