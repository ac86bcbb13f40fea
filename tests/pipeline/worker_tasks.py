"""Task functions for tests that workers (local processes, Dask workers) import by name: forgers
that return rows, or things that are not rows, that a worker must not get away with, and
probes of where a task ran; and the spec of a private cluster."""

from __future__ import annotations

import dataclasses
import os
import time
from typing import Any

from pipeline.recipe import ParallelSpec
from pipeline.tasks import DigJob, dig_chunk


def forged_solution(job: DigJob) -> list[dict[str, Any]]:
    """``dig_chunk`` with its first row's recorded solution replaced by another valid grid (the
    solution with two digits swapped everywhere): a wrong answer key, still a valid grid."""
    rows = dig_chunk(job)
    solution = rows[0]["solution"]
    a, b = solution[0], solution[1]
    rows[0]["solution"] = solution.translate(str.maketrans({a: b, b: a}))
    return rows


def forged_score(job: DigJob) -> list[dict[str, Any]]:
    """``dig_chunk`` with its last row's score raised: a puzzle passed off as harder."""
    rows = dig_chunk(job)
    rows[-1]["score"] += 1.0
    return rows


def where(task: int) -> tuple[int, str | None]:
    """The task and the Dask worker that ran it (None outside a Dask worker)."""
    try:
        from distributed import get_worker

        return task, get_worker().address
    except ValueError:
        return task, None


def pid(task: int) -> tuple[int, int]:
    """The task and the process that ran it."""
    return task, os.getpid()


def slow_pid(task: int) -> tuple[int, int]:
    """As :func:`pid`, a quarter of a second later: long enough that tasks queue up."""
    time.sleep(0.25)
    return task, os.getpid()


def rows_as_text(job: DigJob) -> list[dict[str, Any]]:
    """Not rows at all, though declared as ``dig_chunk`` declares them: what a replaced chunk
    worker might send."""
    return repr(dig_chunk(job))


def a_row_short(job: DigJob) -> list[dict[str, Any]]:
    """``dig_chunk`` without its last row."""
    return dig_chunk(job)[:-1]


def without_givens(job: DigJob) -> list[dict[str, Any]]:
    """``dig_chunk`` with its first row's givens left out."""
    rows = dig_chunk(job)
    del rows[0]["givens"]
    return rows


def not_verdicts(task: Any) -> str:
    """What a worker whose grader was replaced sends back for a chunk to grade."""
    return "no verdicts here"


def private(n_jobs: int, spec: ParallelSpec | None = None) -> ParallelSpec:
    """``spec`` (default: the defaults) as ``--backend dask`` without a scheduler makes it: a
    private cluster of ``n_jobs`` workers."""
    base = ParallelSpec() if spec is None else spec
    return dataclasses.replace(base, n_jobs=n_jobs, backend="dask", scheduler=None)
