"""The Dask backend against real clusters on 127.0.0.1 started here: a `dask scheduler` and two
`dask worker` processes over tcp://, and another over tls:// with certificates made by openssl
for the test. The same recipe gives the same rows, and `pipeline grade` the same file, as local
processes; every task runs on the cluster; a forged row is rejected; an untrusted address is
refused before any connection."""

from __future__ import annotations

import dataclasses
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline import parallel
from pipeline.cli import app
from pipeline.parallel import ParallelError, UntrustedResult, results_in_order, run_tasks
from pipeline.recheck import check_dug
from pipeline.recipe import ParallelSpec, RecipeError, SectionSpec, load_recipe, with_overrides
from pipeline.run import run_book
from pipeline.tasks import DigJob, dig_chunk, plan_chunks, section_tiers
from tests.conftest import read_puzzles
from tests.pipeline import worker_tasks
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


@contextmanager
def cluster(
    protocol: str = "tcp",
    scheduler_options: tuple[str, ...] = (),
    security=None,
    worker_options: tuple[str, ...] = (),
) -> Iterator[str]:
    """A scheduler and WORKERS single-threaded workers on 127.0.0.1 (with their certificate
    options for tls), yielding its address once the workers have joined."""
    from distributed import Client

    port = free_port()
    address = f"{protocol}://127.0.0.1:{port}"
    command = [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--protocol", protocol, "--dashboard-address", ":0", "--no-show"]
    command += scheduler_options
    processes = [subprocess.Popen(command, **QUIET)]
    try:
        processes += [start_worker(address, *worker_options) for _ in range(WORKERS)]
        with Client(address, timeout=f"{START_TIMEOUT}s", security=security) as client:
            client.wait_for_workers(WORKERS, timeout=START_TIMEOUT)
        yield address
    finally:
        for process in processes[::-1]:
            stop(process)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """Address of a live tcp:// scheduler with two single-threaded workers."""
    with cluster() as address:
        yield address


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


def test_every_task_runs_on_the_cluster_even_with_one_job(scheduler: str) -> None:
    spec = ParallelSpec(n_jobs=1, backend="dask", scheduler=scheduler)
    ran = [address for _, (_, address) in results_in_order(worker_tasks.where, range(5), spec)]
    assert len(ran) == 5 and all(str(a).startswith("tcp://127.0.0.1:") for a in ran)


def dig_jobs(count: int = 4) -> list[DigJob]:
    section = SectionSpec("Tiny", 4, 2, 2, "easy", count, minimal=False)
    tiers = section_tiers(section)
    return [DigJob(chunk, section, 11, "r", tiers) for chunk in plan_chunks(0, count, 2)]


def test_a_forged_row_from_a_dask_worker_is_rejected(scheduler: str) -> None:
    spec = ParallelSpec(n_jobs=1, backend="dask", scheduler=scheduler)
    stored = []
    with pytest.raises(UntrustedResult, match=r"chunk s000-c00000 item 1: score is .*re-verify"):
        run_tasks(
            worker_tasks.forged_score,
            dig_jobs(),
            spec,
            lambda job, rows: stored.append(rows),
            check=check_dug,
        )
    assert stored == []
    honest = []  # the same jobs, honestly dug, pass the same check
    run_tasks(dig_chunk, dig_jobs(), spec, lambda j, r: honest.append(r), check=check_dug)
    assert len(honest) == 2


def grade_input(folder: Path, shared_data: Path) -> Path:
    """Some 9x9 puzzles, one malformed line and one with two solutions."""
    puzzles = read_puzzles(shared_data / "17_clue.txt")[:30]
    multiple = read_puzzles(shared_data / "serg_benchmark_multisolution.txt")[0]
    path = folder / "mixed.txt"
    path.write_text("\n".join([*puzzles[:10], "12345", multiple, *puzzles[10:]]) + "\n")
    return path


def grade(source: Path, output: Path, *options: str) -> tuple[int, str]:
    args = ["grade", str(source), "-o", str(output), "--chunk-size", "7", "-q", *options]
    result = CliRunner().invoke(app, args)
    return result.exit_code, result.output


def test_grade_on_dask_writes_the_same_file_as_local(
    tmp_path: Path, scheduler: str, shared_data: Path
) -> None:
    source = grade_input(tmp_path, shared_data)
    local = grade(source, tmp_path / "local.parquet", "--jobs", "1")
    on_dask = grade(
        source, tmp_path / "dask.parquet", "--backend", "dask", "--scheduler", scheduler
    )
    assert local[0] == on_dask[0] == 1  # two rows are not ok
    timed = "slowest to grade"  # the summary's one part that depends on the machine's speed
    assert on_dask[1].split(timed)[0] == local[1].split(timed)[0]
    assert on_dask[1].split("rows that are not ok")[1] == local[1].split("rows that are not ok")[1]
    table = pq.read_table(tmp_path / "dask.parquet")
    assert table.equals(pq.read_table(tmp_path / "local.parquet"))
    assert table.column("status").to_pylist().count("ok") == 30


def test_an_untrusted_address_is_refused_before_any_connection(tmp_path: Path, monkeypatch) -> None:
    import distributed

    def no_connection(*args, **kwargs):
        raise AssertionError("connected to a refused address")

    monkeypatch.setattr(distributed, "Client", no_connection)
    address = "tcp://10.1.2.3:8786"
    recipe = load_recipe(small_recipe(tmp_path))
    with pytest.raises(RecipeError, match=f"parallel.scheduler: {address} is plain tcp://"):
        with_overrides(recipe, backend="dask", scheduler=address)
    forced = dataclasses.replace(  # past the recipe's check: the backend checks again
        recipe, parallel=ParallelSpec(1, "dask", address)
    )
    with pytest.raises(ParallelError, match="plain tcp:// to another machine"):
        run_book(forced)
    code, output = grade(tmp_path / "none.txt", tmp_path / "out.parquet", "--scheduler", address)
    assert code == 2 and "is plain tcp:// to another machine" in output
    assert "insecure" in output


def openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def certificates(folder: Path, ca: str = "ca") -> dict[str, Path]:
    """A CA made with openssl, and a certificate and key signed by it for each party."""
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{ca}-key.pem",
            "-out", f"{ca}.pem", "-days", "1", "-subj", f"/CN={ca}", cwd=folder)  # fmt: skip
    (folder / "san.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    paths = {"ca": folder / f"{ca}.pem"}
    for name in ("scheduler", "worker", "client"):
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}-key.pem",
                "-out", f"{name}.csr", "-subj", f"/CN={name}", cwd=folder)  # fmt: skip
        openssl("x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.pem", "-CAkey",
                f"{ca}-key.pem", "-CAcreateserial", "-out", f"{name}.pem", "-days", "1",
                "-extfile", "san.cnf", cwd=folder)  # fmt: skip
        paths[name] = folder / f"{name}.pem"
        paths[f"{name}-key"] = folder / f"{name}-key.pem"
    return paths


@pytest.fixture(scope="module")
def tls_cluster(tmp_path_factory) -> Iterator[tuple[str, dict[str, Path]]]:
    """A tls:// scheduler and workers on 127.0.0.1, all holding certificates of one test CA."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command is not installed")
    from distributed.security import Security

    certs = certificates(tmp_path_factory.mktemp("certs"))
    options = ("--tls-ca-file", str(certs["ca"]))
    scheduler_options = (*options, "--tls-cert", str(certs["scheduler"]))
    scheduler_options += ("--tls-key", str(certs["scheduler-key"]))
    worker_options = (*options, "--tls-cert", str(certs["worker"]), "--tls-key")
    worker_options += (str(certs["worker-key"]),)
    security = Security(
        tls_ca_file=str(certs["ca"]),
        tls_client_cert=str(certs["client"]),
        tls_client_key=str(certs["client-key"]),
        require_encryption=True,
    )
    with cluster("tls", scheduler_options, security, worker_options) as address:
        yield address, certs


def test_a_run_over_tls_gives_the_same_rows(tmp_path: Path, tls_cluster) -> None:
    address, certs = tls_cluster
    recipe = load_recipe(small_recipe(tmp_path))
    local = run_book(recipe)
    over_tls = with_overrides(
        recipe,
        output=tmp_path / "tls",
        backend="dask",
        scheduler=address,
        tls_ca=certs["ca"],
        tls_cert=certs["client"],
        tls_key=certs["client-key"],
    )
    result = run_book(over_tls)
    assert result.manifest["parallel"]["backend"] == "dask"
    assert content(result.rows) == content(local.rows)


def test_grade_over_tls_and_a_stranger_certificate_is_turned_away(
    tmp_path: Path, tls_cluster, shared_data: Path, monkeypatch
) -> None:
    address, certs = tls_cluster
    source = grade_input(tmp_path, shared_data)
    tls = ["--tls-ca", str(certs["ca"]), "--tls-cert", str(certs["client"])]
    tls += ["--tls-key", str(certs["client-key"])]
    code, _ = grade(
        source, tmp_path / "tls.parquet", "--backend", "dask", "--scheduler", address, *tls
    )
    assert code == 1 and pq.read_table(tmp_path / "tls.parquet").num_rows == 32
    stranger = tmp_path / "stranger"  # a client whose certificate another CA signed
    stranger.mkdir()
    other = certificates(stranger, "other-ca")
    monkeypatch.setattr(parallel, "DASK_CONNECT_TIMEOUT", "3s")
    spec = ParallelSpec(1, "dask", address, tls_ca=other["ca"], tls_cert=other["client"],
                        tls_key=other["client-key"])  # fmt: skip
    with pytest.raises(ParallelError, match=f"cannot reach the Dask scheduler at {address}"):
        list(results_in_order(worker_tasks.where, range(2), spec))
