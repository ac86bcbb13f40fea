"""Chunk planning and seeding, and the same rows from one worker, two workers, any order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pipeline.parallel import (
    WORKER_START,
    Chunk,
    plan_chunks,
    pool_pays,
    progress_bar,
    run_tasks,
)
from pipeline.recipe import ParallelSpec
from pipeline.run import GridJob, grid_chunk

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

    monkeypatch.setattr("pipeline.parallel.Parallel", no_pool)
    assert len(collect(2)) == 30  # cheap chunks: all in this process


def test_progress_bar_is_off_when_quiet_or_not_a_terminal(monkeypatch) -> None:
    assert progress_bar(quiet=True).disable
    monkeypatch.setattr("sys.stderr.isatty", lambda: False, raising=False)
    assert progress_bar(quiet=False).disable
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich then treats stderr as a terminal
    assert not progress_bar(quiet=False).disable
    assert progress_bar(quiet=True).disable
