"""Work in chunks, on local processes (joblib's loky) or a Dask cluster (joblib's dask backend).

Determinism does not depend on where or in which order chunks run: chunk ``c`` of section ``s``
draws every random number from ``SeedSequence(run_seed, spawn_key=(s, c))``, so one worker, two
workers and a Dask cluster make identical rows. Chunks are large (``chunk_size`` puzzles) so a
task's cost dwarfs process start-up and pickling.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs, parallel_config
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from pipeline.recipe import ParallelSpec

T = TypeVar("T")
DASK_CONNECT_TIMEOUT = "10s"  # how long to wait for a Dask scheduler before giving up


class ParallelError(ValueError):
    """The chosen backend cannot run (e.g. no Dask scheduler at the address)."""


@dataclass(frozen=True)
class Chunk:
    """``count`` items of one section; ``index`` numbers the section's chunks from 0."""

    section: int
    index: int
    count: int

    @property
    def name(self) -> str:
        """File stem of the chunk's stored rows."""
        return f"s{self.section:03d}-c{self.index:05d}"

    def seed(self, run_seed: int, *extra: int) -> np.random.SeedSequence:
        """The chunk's own seed (``extra`` spawn-key parts for items or attempts inside it)."""
        return np.random.SeedSequence(run_seed, spawn_key=(self.section, self.index, *extra))


def plan_chunks(section: int, count: int, chunk_size: int, first_index: int = 0) -> list[Chunk]:
    """``count`` items of a section split into chunks of at most ``chunk_size``."""
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, got {chunk_size}")
    chunks = math.ceil(count / chunk_size)
    return [
        Chunk(section, first_index + k, min(chunk_size, count - k * chunk_size))
        for k in range(chunks)
    ]


def progress_bar(quiet: bool) -> Progress:
    """A rich progress bar on stderr, silent when ``quiet`` or stderr is not a terminal."""
    console = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=quiet or not console.is_terminal,
        transient=False,
    )


#: Seconds a local worker takes to start (interpreter, imports, numba's cache): a pool of n
#: workers pays for itself only on work that takes longer than this times n / (n - 1).
WORKER_START = 2.5


def pool_pays(seconds_left: float, n_jobs: int) -> bool:
    """Whether ``n_jobs`` fresh local workers would finish ``seconds_left`` of work sooner than
    this process alone."""
    workers = effective_n_jobs(n_jobs)
    return workers > 1 and seconds_left > WORKER_START * workers / (workers - 1)


def run_tasks(
    function: Callable[[T], Any],
    tasks: Sequence[T],
    spec: ParallelSpec,
    on_done: Callable[[T, Any], None],
    label: str = "chunks",
    quiet: bool = True,
) -> None:
    """Run ``function`` on every task with the spec's backend; ``on_done(task, result)`` runs in
    this process as each result arrives (in completion order), e.g. to store the chunk at once.

    Locally, tasks run in this process first, timed, and the rest go to worker processes only
    once the time they are likely to take would pay for starting them (:func:`pool_pays`):
    a small book never waits for workers. Where a task runs does not change its result."""
    if not tasks:
        return
    with ExitStack() as stack:
        if spec.backend == "dask":
            stack.enter_context(_dask_client(spec.scheduler))
            stack.enter_context(parallel_config(backend="dask"))
        bar = stack.enter_context(progress_bar(quiet))
        task_id = bar.add_task(label, total=len(tasks))
        first = 0
        if spec.backend == "loky":
            start = time.perf_counter()
            while first < len(tasks):
                left = len(tasks) - first
                if first and pool_pays((time.perf_counter() - start) / first * left, spec.n_jobs):
                    break
                on_done(tasks[first], function(tasks[first]))
                first += 1
                bar.advance(task_id)
        rest = tasks[first:]
        if not rest:
            return
        parallel = Parallel(n_jobs=spec.n_jobs, return_as="generator_unordered")
        for index, result in parallel(
            delayed(_indexed)(function, i, t) for i, t in enumerate(rest)
        ):
            on_done(rest[index], result)
            bar.advance(task_id)


def _indexed(function: Callable[[T], Any], index: int, task: T) -> tuple[int, Any]:
    return index, function(task)


def _dask_client(scheduler: str | None) -> Any:
    """A connected ``distributed.Client`` (a context manager), or a clear error."""
    try:
        from distributed import Client
    except ImportError:
        raise ParallelError(
            'backend "dask" needs the optional extra: pip install "sudoku-pipeline[distributed]"'
        ) from None
    try:
        client = Client(scheduler, timeout=DASK_CONNECT_TIMEOUT)
    except OSError as exc:
        raise ParallelError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    prepare_workers(client)
    return client


def prepare_workers(client: Any) -> None:
    """Have every worker of the cluster, now and as it joins, prepare the engine before its
    first task (``pipeline.dask_worker``); a worker that already has, only loads."""
    from pipeline.dask_worker import PrepareEngine

    client.register_plugin(PrepareEngine())
