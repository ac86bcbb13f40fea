"""The Dask backend against real clusters on 127.0.0.1 started here: a `dask scheduler` and two
`dask worker` processes over tcp:// (declared insecure), another over tls:// with certificates
made by openssl for the test, and the private cluster `--backend dask` starts without a
scheduler. The same recipe gives the same rows, and `pipeline grade` the same file, as local
processes; every task runs on the cluster; a forged row, or a result that is not rows, is one
error naming the worker; plain tcp:// is refused before any connection unless declared
insecure; another user of this machine cannot get into the private cluster."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline import parallel
from pipeline.cli import app
from pipeline.parallel import (
    ParallelError,
    UntrustedResult,
    private_cluster,
    results_in_order,
    run_tasks,
)
from pipeline.recheck import check_dug
from pipeline.recipe import ParallelSpec, RecipeError, SectionSpec, load_recipe, with_overrides
from pipeline.run import run_book
from pipeline.tasks import DigJob, dig_chunk, plan_chunks, section_tiers
from tests.conftest import read_puzzles
from tests.helpers import content, small_recipe, variant_recipe
from tests.pipeline import worker_tasks

# one worker builds this module's shared fixtures once (make test: pytest -n auto --dist
# loadgroup), and starts on them first (slow)
pytestmark = [pytest.mark.xdist_group("test_dask"), pytest.mark.slow]

pytest.importorskip("distributed", reason="the optional extra `distributed` is not installed")

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD_PORT = 8787  # Dask's default
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
    workers: int = WORKERS,
) -> Iterator[str]:
    """A scheduler and ``workers`` single-threaded workers on 127.0.0.1 (with their certificate
    options for tls), yielding its address once the workers have joined."""
    from distributed import Client

    port = free_port()
    address = f"{protocol}://127.0.0.1:{port}"
    command = [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--protocol", protocol, "--dashboard-address", ":0", "--no-show"]
    command += scheduler_options
    processes = [subprocess.Popen(command, **QUIET)]
    try:
        processes += [start_worker(address, *worker_options) for _ in range(workers)]
        with Client(address, timeout=f"{START_TIMEOUT}s", security=security) as client:
            client.wait_for_workers(workers, timeout=START_TIMEOUT)
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
    """Address of a live tcp:// scheduler with two single-threaded workers (runs on it must
    declare ``insecure``)."""
    with cluster() as address:
        yield address


def test_dask_gives_the_same_rows_as_local_processes(tmp_path: Path, scheduler: str) -> None:
    recipe = load_recipe(small_recipe(tmp_path))
    local = run_book(recipe)
    dask = with_overrides(
        recipe, output=tmp_path / "dask", backend="dask", scheduler=scheduler, insecure=True
    )
    on_dask = run_book(dask)
    assert on_dask.manifest["parallel"]["backend"] == "dask"
    assert content(on_dask.rows) == content(local.rows)


def test_dask_digs_the_same_variant_puzzles_as_local_processes(
    tmp_path: Path, scheduler: str
) -> None:
    recipe = load_recipe(variant_recipe(tmp_path))  # X, Windoku, a layout per Jigsaw puzzle
    local = run_book(recipe)
    dask = with_overrides(
        recipe, output=tmp_path / "dask", backend="dask", scheduler=scheduler, insecure=True
    )
    assert content(run_book(dask).rows) == content(local.rows)


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
    recipe = with_overrides(
        load_recipe(small_recipe(tmp_path)), backend="dask", scheduler=address, insecure=True
    )
    started = time.monotonic()
    with pytest.raises(ParallelError, match=f"cannot reach the Dask scheduler at {address}"):
        run_book(recipe)
    assert time.monotonic() - started < START_TIMEOUT / 2


def test_every_task_runs_on_the_cluster_even_with_one_job(scheduler: str) -> None:
    spec = ParallelSpec(n_jobs=1, backend="dask", scheduler=scheduler, insecure=True)
    ran = [address for _, (_, address) in results_in_order(worker_tasks.where, range(5), spec)]
    assert len(ran) == 5 and all(str(a).startswith("tcp://127.0.0.1:") for a in ran)


def dig_jobs(count: int = 4) -> list[DigJob]:
    section = SectionSpec("Tiny", 4, 2, 2, "easy", count, minimal=False)
    tiers = section_tiers(section)
    return [DigJob(chunk, section, 11, "r", tiers) for chunk in plan_chunks(0, count, 2)]


WORKER = r"Dask worker tcp://127\.0\.0\.1:\d+ \(task key [\w-]+\)"  # as an error names it


def test_a_forged_row_from_a_dask_worker_is_rejected(scheduler: str) -> None:
    spec = ParallelSpec(n_jobs=1, backend="dask", scheduler=scheduler, insecure=True)
    stored = []
    named = rf"the result {WORKER} returned for chunk s000-c00000 does not re-verify: chunk "
    with pytest.raises(UntrustedResult, match=named + r"s000-c00000 item 1: score is "):
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
    """With --insecure, plain tcp:// runs, after one line saying who can then run code here."""
    source = grade_input(tmp_path, shared_data)
    local = grade(source, tmp_path / "local.parquet", "--jobs", "1")
    on_dask = grade(
        source,
        tmp_path / "dask.parquet",
        *("--backend", "dask", "--scheduler", scheduler, "--insecure"),
    )
    port = scheduler.rsplit(":", 1)[1]
    warning = (
        f"Warning: insecure: the Dask scheduler {scheduler} is plain tcp://: any user of this "
        f"machine who can reach port {port} of 127.0.0.1 can run code in this process and "
        "forge its rows\n"
    )
    assert on_dask[1].count(warning) == 1 and "Warning" not in local[1]
    said = on_dask[1].replace(warning, "")
    assert local[0] == on_dask[0] == 1  # two rows are not ok
    timed = "slowest to grade"  # the summary's one part that depends on the machine's speed
    assert said.split(timed)[0] == local[1].split(timed)[0]
    assert said.split("rows that are not ok")[1] == local[1].split("rows that are not ok")[1]
    table = pq.read_table(tmp_path / "dask.parquet")
    assert table.equals(pq.read_table(tmp_path / "local.parquet"))
    assert table.column("status").to_pylist().count("ok") == 30


def no_connection(monkeypatch) -> None:
    """Any Dask client, or cluster, made from here on fails the test."""
    import distributed

    def refuse(*args, **kwargs):
        raise AssertionError("connected to a refused address")

    monkeypatch.setattr(distributed, "Client", refuse)
    monkeypatch.setattr(distributed, "LocalCluster", refuse)


@pytest.mark.parametrize("host", ["127.0.0.1", "10.1.2.3"])
def test_plain_tcp_is_refused_before_any_connection(
    tmp_path: Path, monkeypatch, scheduler: str, host: str
) -> None:
    """Without insecure, tcp:// is refused even to a live scheduler on this machine's loopback
    (any user here can reach it), by the recipe, by the backend, and by the CLI: exit 2, one
    ``Error:`` line saying who could run code here and how to allow it."""
    address = scheduler if host == "127.0.0.1" else "tcp://10.1.2.3:8786"
    who = "any user of this machine" if host == "127.0.0.1" else "anyone on the network"
    no_connection(monkeypatch)
    path = small_recipe(tmp_path)
    recipe = load_recipe(path)
    with pytest.raises(RecipeError, match=f"parallel.scheduler: {address} is plain tcp://"):
        with_overrides(recipe, backend="dask", scheduler=address)
    forced = dataclasses.replace(  # past the recipe's check: the backend checks again
        recipe, parallel=ParallelSpec(1, "dask", address)
    )
    with pytest.raises(ParallelError, match=f"plain tcp://, which authenticates nobody: {who}"):
        run_book(forced)
    commands = [
        ["run", str(path), "--backend", "dask", "--scheduler", address, "-q"],
        ["grade", str(tmp_path / "in.txt"), "-o", str(tmp_path / "out.parquet"),
         "--backend", "dask", "--scheduler", address],
    ]  # fmt: skip
    (tmp_path / "in.txt").write_text("4...\n")
    for command in commands:
        result = CliRunner().invoke(app, command)
        assert result.exit_code == 2, result.output
        (line,) = result.output.splitlines()
        assert line.startswith("Error: ") and f"{address} is plain tcp://" in line
        assert f"{who} who can reach port" in line and "--insecure" in line
    assert not (tmp_path / "out.parquet").exists()


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


@pytest.mark.parametrize(
    ("forger", "named"),
    [
        (worker_tasks.rows_as_text, r"is not what the task returns: the result is of type str, "
         r"not list\[dict\[str, Any\]\] \(the task returns list\[dict\[str, Any\]\]\)"),
        (worker_tasks.a_row_short, r"does not re-verify: chunk s000-c00000: 1 rows for a task "
         "of 2"),
        (worker_tasks.without_givens, r"is not what the task returns \(KeyError: 'givens'\)"),
    ],
)  # fmt: skip
def test_a_result_that_is_not_rows_is_one_error_naming_the_worker(
    scheduler: str, forger, named: str
) -> None:
    spec = ParallelSpec(n_jobs=1, backend="dask", scheduler=scheduler, insecure=True)
    stored = []
    with pytest.raises(UntrustedResult, match=rf"^the result {WORKER} returned for chunk "
                       rf"s000-c00000 {named}$") as refused:  # fmt: skip
        run_tasks(forger, dig_jobs(), spec, lambda job, rows: stored.append(rows), check=check_dug)
    assert stored == [] and "\n" not in str(refused.value)


def test_a_worker_that_grades_garbage_is_one_error_line_naming_it(tmp_path: Path) -> None:
    """A plugin replaced the grader on the cluster's one worker (as an intruder's did): the
    command ends with exit 2 and one ``Error:`` line naming that worker, never a traceback."""
    from distributed import Client

    from tests.pipeline.hostile_plugins import GradesGarbage

    source = tmp_path / "in.txt"
    source.write_text(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4....\n"
    )
    with cluster(workers=1) as address, Client(address, timeout=f"{START_TIMEOUT}s") as client:
        client.register_plugin(GradesGarbage())
        (worker,) = client.scheduler_info()["workers"]
        result = CliRunner().invoke(
            app,
            ["grade", str(source), "-o", str(tmp_path / "out.parquet"), "-q",
             "--backend", "dask", "--scheduler", address, "--insecure"],
        )  # fmt: skip
    assert result.exit_code == 2, result.output
    warning, line = result.output.splitlines()
    assert warning.startswith("Warning: insecure: ")
    assert line.startswith(f"Error: the result Dask worker {worker} (task key grade_chunk-")
    assert line.endswith(
        "is not what the task returns: the result is of type str, not Verdicts (the task "
        "returns Verdicts)"
    )
    assert not (tmp_path / "out.parquet").exists()


def test_a_private_cluster_runs_every_task_on_its_own_tls_workers() -> None:
    ran = {
        address
        for _, (_, address) in results_in_order(
            worker_tasks.where, range(6), worker_tasks.private(2)
        )
    }
    assert len(ran) == 2 and all(re.fullmatch(r"tls://127\.0\.0\.1:\d+", a) for a in ran)


SIGTERM_AFTER_FIRST_RESULT = """
import sys
from pipeline.app import terminate_cleanly
from pipeline.parallel import results_in_order
from tests.pipeline import worker_tasks

def main():
    with terminate_cleanly():
        tasks = results_in_order(worker_tasks.slow_pid, range(1000), worker_tasks.private(2))
        for _, (_, pid) in tasks:
            print(pid, flush=True)

main()
"""


def test_a_private_cluster_ends_with_its_command_on_sigterm() -> None:
    """SIGTERM mid-run: the command unwinds and closes the cluster, whose worker processes are
    gone by the time it exits."""
    command = [sys.executable, "-c", SIGTERM_AFTER_FIRST_RESULT]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT) as run:
        workers = set()
        while len(workers) < 2:  # both workers have taken a task
            workers.add(int(run.stdout.readline()))
        run.send_signal(signal.SIGTERM)
        workers |= {int(line) for line in run.stdout}
        assert run.wait(timeout=START_TIMEOUT) == 143
    assert len(workers) == 2 and run.pid not in workers
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]


INTRUDER = """
import sys
from distributed import Client, WorkerPlugin
from distributed.security import Security

class Marker(WorkerPlugin):
    name = "intruder"

    def __init__(self, path):
        self.path = path

    def setup(self, worker):
        open(self.path, "w").write("ran in " + worker.address)

address, marker = sys.argv[1:]
where = address.split("://")[1]
for how, target, security in [
    ("plain tcp", "tcp://" + where, None),
    ("tls with a certificate of its own", "tls://" + where, Security.temporary()),
]:
    try:
        with Client(target, timeout="5s", security=security) as client:
            client.register_plugin(Marker(marker))
            client.unregister_worker_plugin(Marker.name)
        print(how + ": got in")
    except Exception as exc:
        print(how + ": turned away (" + type(exc).__name__ + ")")
"""


@pytest.fixture
def intruder(tmp_path: Path) -> Iterator[list[str]]:
    """The command that runs a Python script as a second user of this machine, made for the
    test (and removed after it), who holds none of this process's certificates."""
    if os.geteuid() != 0:
        pytest.skip("making a second user of this machine needs root")
    if shutil.which("useradd") is None or shutil.which("runuser") is None:
        pytest.skip("useradd and runuser are needed to act as another user")
    name = f"sudoku-intruder-{os.getpid()}"
    subprocess.run(["useradd", "--system", "--no-create-home", name], check=True)
    try:
        # this interpreter may sit in root's home; the system's of the same version reads the
        # project's packages as well
        env = ["env", f"PYTHONPATH={sysconfig.get_paths()['purelib']}", "HOME=/nonexistent"]
        version = f"python{sys.version_info.major}.{sys.version_info.minor}"
        for python in (sys.executable, f"/usr/bin/{version}"):
            command = ["runuser", "-u", name, "--", *env, python]
            probe = subprocess.run([*command, "-c", "import distributed"], capture_output=True)
            if probe.returncode == 0:
                yield command
                break
        else:
            pytest.skip(f"no {version} with distributed that user {name} may run")
    finally:
        subprocess.run(["userdel", name], check=True)


def intrude(intruder: list[str], address: str, marker: Path) -> list[str]:
    """What the other user's attempts on the scheduler at ``address`` came to."""
    run = subprocess.run(
        [*intruder, "-c", INTRUDER, address, str(marker)],
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT,
        cwd="/",
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def test_another_user_cannot_get_code_run_by_a_private_cluster_run(
    tmp_path: Path, scheduler: str, intruder: list[str], monkeypatch
) -> None:
    """Another user of this machine, without certificates, tries the private cluster's
    scheduler port mid-run, over plain tcp and over TLS with a certificate of their own, to
    register a plugin that writes a file: both are turned away, nothing is written, and the run
    gives a local run's rows. The same attempt gets in on a plain tcp:// scheduler."""
    marker = tmp_path / "marker"
    assert intrude(intruder, scheduler, marker)[0] == "plain tcp: got in"
    assert marker.read_text().startswith("ran in tcp://127.0.0.1:")
    marker.unlink()

    recipe = load_recipe(small_recipe(tmp_path))
    local = run_book(recipe)
    attempts = []
    prepare = parallel.prepare_workers

    def prepare_then_intrude(client) -> None:
        prepare(client)
        attempts.append(intrude(intruder, client.scheduler.address, marker))

    monkeypatch.setattr(parallel, "prepare_workers", prepare_then_intrude)
    on_private = dataclasses.replace(
        recipe, output=tmp_path / "private", parallel=worker_tasks.private(2, recipe.parallel)
    )
    result = run_book(on_private)
    turned_away = r"(plain tcp|tls with a certificate of its own): turned away \(\w+\)"
    assert attempts and all(
        len(attempt) == 2 and all(re.fullmatch(turned_away, line) for line in attempt)
        for attempt in attempts
    ), attempts
    assert not marker.exists()
    assert content(result.rows) == content(local.rows)


def test_a_private_cluster_takes_a_free_port_when_8787_is_busy() -> None:
    """Another dashboard (or another private run) on Dask's default port 8787: the private
    cluster's HTTP port goes elsewhere, without a warning for the person."""
    busy = socket.socket()
    with suppress(OSError):  # when 8787 is taken already, so much the better
        busy.bind(("127.0.0.1", DASHBOARD_PORT))
        busy.listen()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cluster = private_cluster(1)
    try:
        assert cluster.scheduler.http_server.port != DASHBOARD_PORT
    finally:
        cluster.close()
        busy.close()
