"""The Dask backend against a real cluster: a `dask scheduler` and two `dask worker` processes on
127.0.0.1, started here; the same recipe gives the same rows as local processes."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline import parallel
from pipeline.parallel import ParallelError
from pipeline.recipe import load_recipe, with_overrides
from pipeline.run import run_book
from tests.pipeline.test_run import content, small_recipe

pytest.importorskip("distributed", reason="the optional extra `distributed` is not installed")

ROOT = Path(__file__).resolve().parents[2]
DASK = Path(sys.executable).parent / "dask"
WORKERS = 2
START_TIMEOUT = 60  # seconds for the scheduler and workers to come up
QUIET = {
    "stdout": subprocess.DEVNULL,
    "stderr": subprocess.DEVNULL,
    "env": {**os.environ, "PYTHONPATH": str(ROOT)},
    "cwd": ROOT,
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_worker(address: str, *extra: str) -> subprocess.Popen:
    """A single-threaded `dask worker` process on 127.0.0.1."""
    command = [str(DASK), "worker", address, "--nthreads", "1", "--host", "127.0.0.1"]
    command += ["--dashboard-address", ":0", "--no-nanny", *extra]
    return subprocess.Popen(command, **QUIET)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """Address of a live scheduler with two single-threaded workers; all stopped afterwards."""
    from distributed import Client

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    command = [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(port)]
    processes = [subprocess.Popen([*command, "--dashboard-address", ":0", "--no-show"], **QUIET)]
    try:
        processes += [start_worker(address) for _ in range(WORKERS)]
        with Client(address, timeout=f"{START_TIMEOUT}s") as client:
            client.wait_for_workers(WORKERS, timeout=START_TIMEOUT)
        yield address
    finally:
        for process in processes[::-1]:
            stop(process)


def test_dask_gives_the_same_rows_as_local_processes(tmp_path: Path, scheduler: str) -> None:
    recipe = load_recipe(small_recipe(tmp_path))
    local = run_book(recipe)
    on_dask = run_book(
        with_overrides(recipe, output=tmp_path / "dask", backend="dask", scheduler=scheduler)
    )
    assert on_dask.manifest["parallel"]["backend"] == "dask"
    assert content(on_dask.rows) == content(local.rows)


def loaded_kernels() -> int:
    """Compiled or loaded specialisations of the grader's and digger's top kernels here."""
    from engine.dig_kernels import dig_fresh
    from engine.grade_table import _grade_batch

    return len(_grade_batch.signatures) + len(dig_fresh.signatures)


def test_workers_prepare_the_engine_when_they_join(scheduler: str) -> None:
    """Registered once, the plugin prepares the workers there and one that joins later, before
    either is given a task; a worker started with the preload prepares itself."""
    from distributed import Client

    with Client(scheduler, timeout=f"{START_TIMEOUT}s") as client:
        parallel.prepare_workers(client)  # returns once the workers there have prepared
        assert list(client.run(loaded_kernels).values()) == [2] * WORKERS
        late = [
            start_worker(scheduler),
            start_worker(scheduler, "--preload", "pipeline.dask_worker"),
        ]
        try:
            client.wait_for_workers(WORKERS + 2, timeout=START_TIMEOUT)
            assert list(client.run(loaded_kernels).values()) == [2] * (WORKERS + 2)
        finally:
            for process in late:
                stop(process)


def test_unreachable_scheduler_is_a_clear_error(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(parallel, "DASK_CONNECT_TIMEOUT", "1s")
    address = f"tcp://127.0.0.1:{free_port()}"
    recipe = with_overrides(load_recipe(small_recipe(tmp_path)), backend="dask", scheduler=address)
    started = time.monotonic()
    with pytest.raises(ParallelError, match=f"cannot reach the Dask scheduler at {address}"):
        run_book(recipe)
    assert time.monotonic() - started < START_TIMEOUT / 2
