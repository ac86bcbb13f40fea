"""The one parallel layer: tasks on local processes (joblib's loky) or a Dask cluster, results in
task order, streamed, each checked in this process before anyone stores it.

Determinism does not depend on where or in which order chunks run: chunk ``c`` of section ``s``
draws every random number from ``SeedSequence(run_seed, spawn_key=(s, c))``, so one worker, two
workers and a Dask cluster make identical rows. Chunks are large (``chunk_size`` puzzles) so a
task's cost dwarfs process start-up and pickling.

Resources stay bounded: tasks are drawn lazily from an iterable (a plan of 10**15 items is
arithmetic, :class:`ChunkPlan`), only a few per worker are in flight, local workers are capped
at the cores this process may use, and they exit when this process dies
(:func:`_exit_with_parent`).

Dask moves pickles, and unpickling runs code, so who may join decides who may run code here. A
spec without a scheduler runs on a private cluster of this process over TLS with certificates
no one else holds (:func:`private_cluster`); a named scheduler must pass
:func:`pipeline.scheduler_address.check_scheduler_address` (``tls://`` with the spec's
certificates, plain ``tcp://`` only when declared ``insecure``). Whatever a worker returns must
be of the type its task function declares and pass the caller's ``check``
(:mod:`pipeline.recheck`) before it is passed on (:func:`vetting`).
"""

from __future__ import annotations

import logging
import os
import reprlib
import sys
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from itertools import islice
from typing import Any, TypeVar

from joblib.externals.loky import get_reusable_executor
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from pipeline.errors import UserError
from pipeline.recipe import ParallelSpec
from pipeline.recipe_schema import ALL_CORES
from pipeline.result_types import misfit, returns, shown
from pipeline.scheduler_address import SchedulerAddressError, check_scheduler_address, exposure
from pipeline.stopping import stop_if_terminated

T = TypeVar("T")
R = TypeVar("R")
DASK_CONNECT_TIMEOUT = "10s"  # how long to wait for a Dask scheduler before giving up
DASK_WORKER_TIMEOUT = 120  # seconds to wait for a first worker to join the scheduler
PRIVATE_HOST = "127.0.0.1"  # the only interface a private cluster listens on
#: A private cluster's HTTP ports answer nothing (no dashboard, metrics, logs or proxy).
NO_HTTP_ROUTES = {"distributed.scheduler.http.routes": [], "distributed.worker.http.routes": []}
AHEAD = 2  # tasks in flight per worker: enough to keep it busy, few enough to bound memory
PARENT_POLL = 0.5  # seconds between a local worker's checks that its parent is alive
HANDOVER_WAIT = 1.0  # seconds at most for loky to queue the tasks in flight before a stop
KILLED_WORKERS_WARNING = "A worker stopped while some jobs were given to the executor"
#: The warnings of loky's resource tracker when it cleans up what killed workers held (their
#: queues' semaphores). It is a process of its own writing to our stderr, after the command's
#: last line on a stop; it takes our ``-W`` options when it starts.
TRACKER_WARNINGS = "ignore:resource_tracker:UserWarning"

#: ``check(task, result)`` raises :class:`UntrustedResult` when a worker's result is not what
#: the task must give; it runs in this process before the result is used.
Check = Callable[[Any, Any], None]

#: ``vet(task, future)`` returns the future's result once it is checked (:func:`vetting`).
Vet = Callable[[Any, Any], Any]


class ParallelError(UserError):
    """The chosen backend cannot run (e.g. no Dask scheduler at the address)."""


class UntrustedResult(ParallelError):
    """A worker returned a result that does not survive re-verification in this process."""


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


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity, not the machine's total)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def local_workers(n_jobs: int) -> int:
    """Local worker processes for ``n_jobs``: every usable core for -1, never more than them."""
    cores = usable_cores()
    return cores if n_jobs == ALL_CORES else min(n_jobs, cores)


_told: set[int] = set()  # worker counts already reported as capped by this process


def _capped_workers(n_jobs: int) -> int:
    """:func:`local_workers`, with one line on stderr (once) when ``n_jobs`` asks for more."""
    workers = local_workers(n_jobs)
    if n_jobs > workers and n_jobs not in _told:
        _told.add(n_jobs)
        print(
            f"--jobs {n_jobs}: only {workers} usable cores here, so at most {workers} workers",
            file=sys.stderr,
        )
    return workers


def pool_pays(seconds_left: float, n_jobs: int) -> bool:
    """Whether ``n_jobs`` fresh local workers would finish ``seconds_left`` of work sooner than
    this process alone."""
    workers = local_workers(n_jobs)
    return workers > 1 and seconds_left > WORKER_START * workers / (workers - 1)


def run_tasks(
    function: Callable[[T], R],
    tasks: Iterable[T],
    spec: ParallelSpec,
    on_done: Callable[[T, R], None],
    label: str = "chunks",
    quiet: bool = True,
    check: Check | None = None,
) -> None:
    """Run ``function`` on every task with the spec's backend; ``on_done(task, result)`` runs in
    this process for each result, in task order, as soon as it and those before it are in."""
    for task, result in results_in_order(function, tasks, spec, check, label, quiet):
        on_done(task, result)


def results_in_order(
    function: Callable[[T], R],
    tasks: Iterable[T],
    spec: ParallelSpec,
    check: Check | None = None,
    label: str | None = None,
    quiet: bool = True,
) -> Iterator[tuple[T, R]]:
    """``(task, function(task))`` for every task, in task order, on the spec's backend; tasks are
    drawn lazily, a few ahead of the workers. ``check(task, result)`` runs here on every result
    computed in another process (a local worker or a Dask worker) before it is yielded. With a
    ``label``, a progress bar counts the results (of ``len(tasks)`` when tasks is a sequence).

    Locally, tasks run in this process first, timed, and the rest go to worker processes only
    once the time they are likely to take would pay for starting them (:func:`pool_pays`; the
    time so far when the task count is unknown): a small job never waits for workers. On Dask,
    every task runs on the cluster, even with one worker thread or ``n_jobs = 1``."""
    total = len(tasks) if isinstance(tasks, Sequence) else None
    if spec.backend == "dask":
        results = _on_dask(function, tasks, spec, check)
    else:
        results = _on_local(function, tasks, spec.n_jobs, check)
    if label is None:
        return results
    return _counted(results, label, total, quiet)


def _counted(
    results: Iterator[tuple[T, R]], label: str, total: int | None, quiet: bool
) -> Iterator[tuple[T, R]]:
    with progress_bar(quiet) as bar:
        task_id = bar.add_task(label, total=total)
        for pair in results:
            yield pair
            bar.advance(task_id)


@dataclass(frozen=True)
class EachOf:
    """``function`` over a batch of tasks, as one task (picklable): many small seeded units
    travel together, so the batch size decides only scheduling, never a result."""

    function: Callable[[Any], Any]

    def __call__(self, batch: Sequence[Any]) -> list[Any]:
        return [self.function(task) for task in batch]


def check_each(check: Check) -> Check:
    """``check`` for every ``(task, result)`` of a batch (:class:`EachOf`)."""

    def each(batch: Sequence[Any], results: Sequence[Any]) -> None:
        if len(results) != len(batch):
            raise UntrustedResult(f"{len(results)} results for a batch of {len(batch)} tasks")
        for task, result in zip(batch, results, strict=True):
            check(task, result)

    return each


def in_batches(tasks: Iterable[T], size: int) -> Iterator[tuple[T, ...]]:
    """Consecutive tasks in tuples of ``size`` (the last may be shorter), drawn lazily."""
    tasks = iter(tasks)
    while batch := tuple(islice(tasks, size)):
        yield batch


def _on_local(
    function: Callable[[T], R], tasks: Iterable[T], n_jobs: int, check: Check | None
) -> Iterator[tuple[T, R]]:
    total = len(tasks) if isinstance(tasks, Sequence) else None
    tasks = iter(tasks)
    workers = _capped_workers(n_jobs)
    start = time.perf_counter()
    for done, task in enumerate(tasks, 1):
        result = function(task)
        stop_if_terminated()
        yield task, result
        elapsed = time.perf_counter() - start
        left = elapsed / done * (total - done) if total is not None else elapsed
        if pool_pays(left, workers):
            break
    else:
        return
    _quiet_resource_tracker()
    executor = get_reusable_executor(max_workers=workers)
    submit = partial(executor.submit, _in_worker, function, os.getpid())

    def kill(futures: list[Any]) -> None:
        """Stopped early (--strict, an error, SIGTERM): no worker goes on computing. loky fails
        the futures still out itself; cancelling them first made its manager thread die of
        InvalidStateError before it killed the workers. It must first have handed every task
        to its call queue (a future runs from then on): a task id still in its queue at
        shutdown kills that thread with a KeyError, and its queues' semaphores leak."""
        deadline = time.monotonic() + HANDOVER_WAIT
        while any(not (f.running() or f.done()) for f in futures) and time.monotonic() < deadline:
            time.sleep(0.001)
        # the workers are killed on purpose: loky's manager thread would warn of "a too short
        # worker timeout or a memory leak" on the user's terminal, which is neither
        warnings.filterwarnings("ignore", KILLED_WORKERS_WARNING, UserWarning)
        executor.shutdown(wait=False, kill_workers=True)

    vet = vetting(function, check, lambda future: "a local worker process")
    yield from _windowed(submit, tasks, AHEAD * workers, vet, kill)


def _quiet_resource_tracker() -> None:
    """Workers killed on a stop leave their semaphores to loky's resource tracker, which unlinks
    them and warns of each on the user's terminal, after the command's own last line (seen
    once in many SIGTERM tests). Its ``-W`` options are ours when it starts: it starts with
    the first pool, after this."""
    if TRACKER_WARNINGS not in sys.warnoptions:
        sys.warnoptions.append(TRACKER_WARNINGS)


def _cancel(futures: list[Any]) -> None:
    for future in futures:
        future.cancel()


def _windowed(
    submit: Callable[[T], Any],
    tasks: Iterator[T],
    window: int,
    vet: Vet,
    stop: Callable[[list[Any]], None] = _cancel,
) -> Iterator[tuple[T, Any]]:
    """Results of ``submit(task)`` futures in task order, at most ``window`` in flight, each
    vetted as it comes in; ``stop`` gets the futures still out when the caller stops early
    (by default they are cancelled)."""
    pending: deque[tuple[T, Any]] = deque((task, submit(task)) for task in islice(tasks, window))
    try:
        while pending:
            task, future = pending[0]
            result = vet(task, future)
            stop_if_terminated()
            pending.popleft()
            pending.extend((following, submit(following)) for following in islice(tasks, 1))
            yield task, result
    finally:
        if pending:
            stop([future for _, future in pending])


def _in_worker(function: Callable[[T], R], parent: int, task: T) -> R:
    """``function(task)`` in a local worker that exits once ``parent`` is gone."""
    _exit_with_parent(parent)
    return function(task)


_watching: list[int] = []  # the parent this worker process watches, once it started watching


def _exit_with_parent(parent: int) -> None:
    """Start (once per process) a thread that ends this worker when its parent process dies:
    a killed ``pipeline`` leaves no workers computing for nobody."""
    if _watching or os.getpid() == parent:
        return
    _watching.append(parent)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


#: Names who computed a future's result in an error message ("a local worker process", or a
#: Dask worker's address and the task's key).
Source = Callable[[Any], str]


def vetting(function: Callable[[T], R], check: Check | None, source: Source) -> Vet:
    """``vet(task, future)``: the future's result once it is of the type ``function`` declares
    (:mod:`pipeline.result_types`) and ``check`` accepts it. A result that is not, or that a
    check cannot even read (a field missing), is an :class:`UntrustedResult` naming
    ``source(future)`` and the task: one error line, never a traceback."""
    shape = list[returns(function.function)] if isinstance(function, EachOf) else returns(function)

    def vet(task: T, future: Any) -> R:
        result = future.result()
        wrong = misfit(result, shape)
        if wrong is not None:
            raise UntrustedResult(
                f"{_from(source, future, task)} is not what the task returns: {wrong} (the task "
                f"returns {shown(shape)})"
            )
        try:
            if check is not None:
                check(task, result)
        except UntrustedResult as exc:
            raise UntrustedResult(
                f"{_from(source, future, task)} does not re-verify: {exc}"
            ) from None
        except (LookupError, TypeError, AttributeError, ValueError) as exc:
            raise UntrustedResult(
                f"{_from(source, future, task)} is not what the task returns "
                f"({type(exc).__name__}: {exc})"
            ) from None
        return result

    return vet


def _from(source: Source, future: Any, task: Any) -> str:
    return f"the result {source(future)} returned for {task_name(task)}"


_SHORT = reprlib.Repr()  # a task's repr in an error line: two levels, short strings
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother = 2, 24, 24


def task_name(task: Any) -> str:
    """A task as an error message names it: its chunk (or a batch's first and last), else a
    shortened repr."""
    chunks = [part.chunk.name for part in (task if isinstance(task, tuple) else (task,))
              if hasattr(part, "chunk")]  # fmt: skip
    if chunks:
        return f"chunk {chunks[0]}" if len(chunks) == 1 else f"chunks {chunks[0]} to {chunks[-1]}"
    return f"task {_SHORT.repr(task)}"


def _on_dask(
    function: Callable[[T], R], tasks: Iterable[T], spec: ParallelSpec, check: Check | None
) -> Iterator[tuple[T, R]]:
    with dask_client(spec) as client:
        window = AHEAD * max(1, sum(client.nthreads().values()))
        submit = partial(client.submit, function, pure=False)
        vet = vetting(function, check, partial(_dask_worker, client))
        yield from _windowed(submit, iter(tasks), window, vet)


def _dask_worker(client: Any, future: Any) -> str:
    """The address of the Dask worker that holds ``future``'s result, and the task's key."""
    holders = client.who_has([future]).get(future.key, ())
    return f"Dask worker {' / '.join(holders) or '(gone)'} (task key {future.key})"


def dask_security(spec: ParallelSpec) -> Any:
    """The ``distributed.security.Security`` of a ``tls://`` scheduler (the spec's CA, client
    certificate and key; encryption required), or None for a plain ``tcp://`` one that the spec
    declares ``insecure``, after one line on stderr saying who can then run code here."""
    try:
        address = check_scheduler_address(spec.scheduler or "", spec.insecure)
    except SchedulerAddressError as exc:
        raise ParallelError(f"scheduler: {exc}") from None
    if not address.tls:
        print(
            f"Warning: insecure: the Dask scheduler {spec.scheduler} is plain tcp://: "
            f"{exposure(address)}",
            file=sys.stderr,
        )
        return None
    if spec.tls_ca is None or spec.tls_cert is None:
        raise ParallelError(f"scheduler {spec.scheduler}: tls:// needs tls_ca and tls_cert files")
    for path in (spec.tls_ca, spec.tls_cert, spec.tls_key):
        if path is not None and not os.path.isfile(path):
            raise ParallelError(f"scheduler {spec.scheduler}: no such certificate file {path}")
    from distributed.security import Security

    return Security(
        tls_ca_file=str(spec.tls_ca),
        tls_client_cert=str(spec.tls_cert),
        tls_client_key=None if spec.tls_key is None else str(spec.tls_key),
        require_encryption=True,
    )


@contextmanager
def dask_client(spec: ParallelSpec) -> Iterator[Any]:
    """A ``distributed.Client`` whose workers have prepared the engine, closed on leaving: on a
    private cluster (:func:`private_cluster`) when the spec names no scheduler, else connected
    to the spec's scheduler once its address passed :func:`dask_security` (so an untrusted one
    is refused before any connection) and a worker joined."""
    _need_distributed()
    from distributed import Client

    if spec.scheduler is None:
        with private_cluster(spec.n_jobs) as cluster, Client(cluster) as client:
            prepare_workers(client)
            yield client
        return
    security = dask_security(spec)
    try:
        client = Client(spec.scheduler, timeout=DASK_CONNECT_TIMEOUT, security=security)
    except OSError as exc:
        raise ParallelError(f"cannot reach the Dask scheduler at {spec.scheduler}: {exc}") from None
    with client:
        try:
            client.wait_for_workers(1, timeout=DASK_WORKER_TIMEOUT)
        except TimeoutError:
            raise ParallelError(
                f"no worker joined the Dask scheduler at {spec.scheduler} within "
                f"{DASK_WORKER_TIMEOUT} s"
            ) from None
        prepare_workers(client)
        yield client


def _need_distributed() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ParallelError(
            'backend "dask" needs the optional extra: pip install "sudoku-pipeline[distributed]"'
        ) from None


def private_cluster(n_jobs: int) -> Any:
    """A ``distributed.LocalCluster`` for this command alone: ``n_jobs`` single-threaded worker
    processes (at most the usable cores) and its scheduler, all listening on 127.0.0.1 only,
    over mutual TLS with a key and certificate made now (``Security.temporary``). They exist in
    this process's memory and reach its workers through the pipes that start them (the TLS
    library reads them from a private 0700 temporary folder, removed at once), so no other user
    can connect. Its scheduler and workers still open a plain HTTP port each on 127.0.0.1, so it
    serves nothing there: no dashboard, no status, no logs."""
    import dask
    from distributed import LocalCluster
    from distributed.security import Security

    try:
        security = Security.temporary()
    except ImportError:
        raise ParallelError(
            "a private Dask cluster makes its certificates with the cryptography package: "
            'pip install "sudoku-pipeline[distributed]"'
        ) from None
    with dask.config.set(NO_HTTP_ROUTES):
        return LocalCluster(
            n_workers=_capped_workers(n_jobs),
            threads_per_worker=1,
            processes=True,
            host=PRIVATE_HOST,
            protocol="tls",
            security=security,
            # its HTTP port (serving nothing, NO_HTTP_ROUTES) on a free port: two runs at once
            # must not race for the dashboard's 8787 and warn
            dashboard_address=f"{PRIVATE_HOST}:0",
            scheduler_kwargs={"dashboard": False},
            silence_logs=logging.ERROR,  # not its workers' chatter as the cluster closes
        )


def prepare_workers(client: Any) -> None:
    """Have every worker of the cluster, now and as it joins, prepare the engine before its
    first task (``pipeline.dask_worker``); a worker that already has, only loads."""
    from pipeline.dask_worker import PrepareEngine

    client.register_plugin(PrepareEngine())
