"""Compile the engine's kernels once per machine, up front and out loud.

numba compiles a kernel on its first call and keeps the machine code in its cache (beside the
engine's sources, or under ``NUMBA_CACHE_DIR``). Left alone, that first call happens inside a
command's first task, in every worker process at once, for minutes, with nothing on screen.
:func:`prepare_engine` runs in the parent before any worker starts: when a family of kernels
has not been prepared for this machine, it says so on stderr in one line, compiles the family
(``engine.warmup``) with a line per family, and leaves a stamp in numba's cache folder. Workers
then only load. The stamp's name holds everything that makes numba compile again: the engine's
source, the numba and Python versions and the CPU, so a changed source or a new machine
prepares again.
"""

from __future__ import annotations

import atexit
import hashlib
import multiprocessing
import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from contextlib import AbstractContextManager, nullcontext, suppress
from functools import cache, partial
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

#: The kernel families each kind of work needs (``engine.warmup.FAMILIES``).
RUN = ("counter", "grids", "grader", "digger", "canonical forms")
GENERATE = ("grids", "canonical forms")
DIG = ("counter", "grader", "digger", "canonical forms")
GRADE = ("counter", "grader")
#: What worked solutions and hints add: the pass loop on the person's ladder.
WORDED = ("explainer",)
EXPLAIN = (*GRADE, *WORDED)
#: What grading needs first on a machine not prepared yet: the pass loop over the core rungs
#: (``engine.grade_many(before_full_ladder=...)``), which compiles in seconds.
CORE = ("grader core",)
VERIFY = ("counter",)
#: What a Killer section or file adds: the kernels typed for cages.
KILLER = ("killer",)
#: The engine's API for one technique on a candidate state (``Workspace.find``; no command).
FINDER = ("technique finder",)
#: What ``pipeline prepare`` compiles: every family a command can reach (the core pass loop too,
#: which grading uses before the whole grader is ready) and the technique finder.
ALL_FAMILIES = (*RUN, *CORE, *WORDED, *KILLER, *FINDER)
NOTICE = "preparing the engine for this machine, once"
#: The order this process compiles families in: the counter first, which the grader, the grids
#: and the digger call, the grader before the digger, which calls it; helpers start from the end.
MAIN_ORDER = (
    "counter",
    "grader core",
    "grader",
    "digger",
    "grids",
    "canonical forms",
    "explainer",
    "killer",
    "technique finder",
)


@cache
def machine_key() -> str:
    """What numba's cached code depends on: engine sources, versions and the CPU's features."""
    import llvmlite
    import numba

    from engine.kernel_cache import SOURCES  # the digest numba's cache entries carry
    from engine.numba_internals import cpu_description

    digest = hashlib.sha256()
    for part in (numba.__version__, llvmlite.__version__, platform.python_version(), SOURCES):
        digest.update(part.encode() + b"\0")
    digest.update(repr(cpu_description()).encode())
    return digest.hexdigest()[:16]


def cache_folder() -> Path:
    """The folder numba caches the engine's kernels in (it follows ``NUMBA_CACHE_DIR``)."""
    from engine.numba_internals import cache_folder as folder_of
    from engine.search import search

    return folder_of(search)


def _stamp(family: str) -> Path:
    name = family.replace(" ", "-")
    return cache_folder() / f"sudoku-prepared-{name}-{machine_key()}.stamp"


def unprepared(families: Iterable[str]) -> list[str]:
    """The families not yet compiled for this machine, in order."""
    return [family for family in dict.fromkeys(families) if not _stamp(family).exists()]


def prepare_engine(families: Iterable[str], out: TextIO | None = None) -> list[str]:
    """Make sure the kernels of ``families`` are compiled before any work starts; compile the
    missing ones with a notice and a line per family on ``out`` (stderr). Returns the families
    compiled now (none when the machine is already prepared).

    numba compiles one function at a time in a process, so with more than one core the work is
    shared by lanes: this process compiles the families in ``MAIN_ORDER`` (it goes on to use
    them), while spawned helpers first compile the parts of those families that this process
    reaches last (``engine.warmup.PARTS``), then the families from the other end. numba's cache
    is shared, so what a helper has compiled this process loads. Each job is claimed by the
    first lane to reach it; this process then loads every family again, which compiles anything
    two lanes raced each other for, and leaves the stamps."""
    from engine.warmup import PARTS

    out = out or sys.stderr
    missing = unprepared(families)
    if not missing:
        return []
    print(f"{NOTICE} ({', '.join(missing)}; a few minutes, never again) ...", file=out)
    start = time.perf_counter()
    order = sorted(missing, key=MAIN_ORDER.index)
    # each family's first part before any family's second: the lanes start on disjoint work
    ranked = [
        (rank, family, part) for family in order for rank, part in enumerate(PARTS.get(family, ()))
    ]
    parts = [(family, part) for _, family, part in sorted(ranked, key=lambda job: job[0])]
    side = [*parts, *((family, None) for family in reversed(order))]
    helpers = min(len(side) - 1, (os.cpu_count() or 1) - 1)
    report = _Reporter(out, len(order))
    if helpers < 1:
        _lane([(family, None) for family in order], None, report)
    else:
        with tempfile.TemporaryDirectory(prefix="sudoku-prepare-") as claims:
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(helpers, mp_context=context) as pool:
                running = [pool.submit(_lane, side, claims) for _ in range(helpers)]
                _lane([(family, None) for family in order], claims, report)
                Path(claims, DONE).touch()  # helpers start nothing more
                by_helpers = [job for lane in running for job in lane.result()]
        from engine.warmup import warm

        for family, part, seconds in by_helpers:
            if part is None:
                warm(family)  # loads what the helper compiled, compiles what lanes raced for
                report(family, seconds)
        # two lanes compiling kernels of one file at once can each rewrite its cache index,
        # dropping what the other added (the Killer family types the digger's kernels too): a
        # second pass over this lane's families loads them, and compiles any entry so lost
        done_here = {family for family, part, _ in by_helpers if part is None}
        for family in order:
            if family not in done_here:
                warm(family)
    for family in order:
        _mark_prepared(family)
    print(f"engine ready in {time.perf_counter() - start:.1f} s", file=out, flush=True)
    return missing


Job = tuple[str, str | None]  # (family, part of it or None for the whole family)
DONE = "done"


def _lane(
    jobs: list[Job], claims: str | None, report: Callable[[str, float], None] | None = None
) -> list[tuple[str, str | None, float]]:
    """Compile each job that no other lane has claimed (in ``claims``, a folder shared by the
    lanes; None: no other lane); returns the jobs done here with their seconds."""
    from engine.warmup import warm, warm_part

    done = []
    for family, part in jobs:
        if claims is not None:
            if report is None and Path(claims, DONE).exists():
                break
            name = family if part is None else f"{family}.{part}"
            try:
                Path(claims, name).touch(exist_ok=False)
            except FileExistsError:
                continue
            except FileNotFoundError:  # the lanes are over: their folder is gone
                break
        start = time.perf_counter()
        if part is None:
            with report.compiling(family) if report is not None else nullcontext():
                warm(family)
        else:
            warm_part(family, part)
        seconds = time.perf_counter() - start
        if report is not None and part is None:
            report(family, seconds)
        done.append((family, part, seconds))
    return done


class _Reporter:
    """Prints a numbered line per family compiled (and a spinner while it compiles)."""

    def __init__(self, out: TextIO, total: int) -> None:
        self.out, self.total, self.number = out, total, 0

    def __call__(self, family: str, seconds: float) -> None:
        self.number += 1
        line = f"  [{self.number}/{self.total}] {family}: compiled in {seconds:.1f} s"
        print(line, file=self.out, flush=True)

    def compiling(self, family: str) -> AbstractContextManager[Any]:
        """A spinner line for ``family`` while its kernels compile, gone when they are."""
        return _spinner(self.out, f"  [{self.number + 1}/{self.total}] {family}: compiling")


def _spinner(out: TextIO, text: str) -> AbstractContextManager[Any]:
    """``text`` with a spinner and the time so far on ``out`` while the block runs, when ``out``
    is a terminal: numba says nothing while it compiles, for minutes."""
    console = Console(file=out)
    if not console.is_terminal:
        return nullcontext()
    ticker = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
    ticker.add_task(text, total=None)
    return ticker


def _mark_prepared(family: str) -> None:
    _stamp(family).parent.mkdir(parents=True, exist_ok=True)
    _stamp(family).touch()


def prepare_grading(out: TextIO | None = None) -> Callable[[], None] | None:
    """Before grading, on a machine where the grader is not prepared yet: compile the core rungs'
    pass loop now (seconds) and the rest of GRADE in a background process, so that the puzzles
    the core rungs settle (most published ones) are graded meanwhile. Returns what
    ``engine.grade_many`` calls before a row needs the whole ladder (:func:`wait_prepared`);
    None when the machine is prepared. The background process ends with this one: what it
    compiled stays in numba's cache, and the next command goes on from there."""
    rest = unprepared(GRADE)
    if not rest:
        return None
    out = out or sys.stderr
    start = time.perf_counter()
    lock = cache_folder() / f"sudoku-preparing-{machine_key()}.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    claims = tempfile.mkdtemp(prefix="sudoku-prepare-")
    atexit.register(shutil.rmtree, claims, ignore_errors=True)
    context = multiprocessing.get_context("spawn")
    holding = context.Event()
    background = context.Process(
        target=_prepare_behind, args=(rest, str(lock), claims, holding), daemon=True
    )
    background.start()
    later = ", ".join(rest)
    if unprepared(CORE):
        print(f"{NOTICE} (the core rungs now; {later} in the background) ...", file=out)
        _prepare_core(lock.with_name(f"sudoku-preparing-core-{machine_key()}.lock"), out)
    else:
        print(f"{NOTICE} ({later} in the background) ...", file=out)
    seconds = time.perf_counter() - start
    print(f"grading with the core rungs after {seconds:.1f} s", file=out, flush=True)
    while background.is_alive() and not holding.wait(timeout=0.1):
        pass  # set once the background process holds the lock (or found it held)
    return partial(wait_prepared, tuple(rest), str(lock), claims)


def _prepare_core(lock: Path, out: TextIO) -> None:
    """Compile the core rungs' pass loop, or wait while another command compiles it and load
    it: two commands started together on a cold machine would each spend a core on it."""
    from pipeline.locks import FileLock, Locked

    held = FileLock(lock)
    start = time.perf_counter()
    try:
        held.acquire(wait=False)
    except Locked:
        with _spinner(out, f"  [1/1] {CORE[0]}: another command compiles it"):
            held.acquire(wait=True)
    try:
        if unprepared(CORE):  # first here, or the other command died before it was done
            _lane([(CORE[0], None)], None, _Reporter(out, 1))
            _mark_prepared(CORE[0])
        else:
            seconds = time.perf_counter() - start
            print(f"  [1/1] {CORE[0]}: compiled by another command in {seconds:.1f} s", file=out)
    finally:
        held.release()


def _prepare_behind(families: list[str], lock: str, claims: str, holding: Any) -> None:
    """The background lane of :func:`prepare_grading`: compiles ``families`` holding ``lock``
    (exclusive), which waiters take shared once it is released, at the end or at its death.
    When another command's background lane holds it, that one does the work."""
    from pipeline.locks import FileLock, Locked

    held = FileLock(Path(lock))
    try:
        held.acquire(wait=False)
    except Locked:  # another command's background lane compiles them: wait for it
        holding.set()
        return
    try:
        holding.set()
        _lane([(family, None) for family in families], None)
        for family in families:
            _mark_prepared(family)
    finally:
        held.release()
    with suppress(FileNotFoundError):  # the command may have ended, and removed the folder
        Path(claims, DONE).touch()  # waiters helping with parts start nothing more


def wait_prepared(families: tuple[str, ...], lock: str, claims: str) -> None:
    """Wait (saying so on stderr) until the background lane of :func:`prepare_grading` has
    compiled ``families``, helping it meanwhile: this process compiles the families' parts
    (``engine.warmup.PARTS``) that the background lane reaches last. When the background lane
    died first, what it did not compile compiles here on first use."""
    from engine.warmup import PARTS
    from pipeline.locks import file_lock

    if not unprepared(families):
        return
    named = ", ".join(families)
    print(f"compiling the rest of the engine ({named}) once, here too ...", file=sys.stderr)
    start = time.perf_counter()
    _lane([(family, part) for family in families for part in PARTS.get(family, ())], claims)
    with file_lock(Path(lock), wait=True, shared=True):
        pass
    seconds = time.perf_counter() - start
    print(f"engine ready after {seconds:.1f} s more", file=sys.stderr, flush=True)
