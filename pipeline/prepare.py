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

import hashlib
import multiprocessing
import os
import platform
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import cache
from pathlib import Path
from typing import TextIO

#: The kernel families each kind of work needs (``engine.warmup.FAMILIES``).
RUN = ("counter", "grids", "grader", "digger", "canonical forms")
GENERATE = ("grids", "canonical forms")
DIG = ("counter", "grader", "digger", "canonical forms")
GRADE = ("counter", "grader")
VERIFY = ("counter",)
ALL_FAMILIES = RUN
NOTICE = "preparing the engine for this machine, once"
#: The families by compile time, largest first (``bench/startup_bench.py`` measures them); the
#: counter goes before the grids and the digger, which need the counter's kernels too.
LARGEST_FIRST = ("grader", "canonical forms", "counter", "grids", "digger")


@cache
def machine_key() -> str:
    """What numba's cached code depends on: engine sources, versions and the CPU's features."""
    import llvmlite
    import numba
    from numba.core.registry import cpu_target

    import engine

    digest = hashlib.sha256()
    for part in (numba.__version__, llvmlite.__version__, platform.python_version()):
        digest.update(part.encode() + b"\0")
    digest.update(repr(cpu_target.target_context.codegen().magic_tuple()).encode())
    root = Path(engine.__file__).parent
    for source in sorted(root.rglob("*.py")):
        digest.update(str(source.relative_to(root)).encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


def cache_folder() -> Path:
    """The folder numba caches the engine's kernels in (it follows ``NUMBA_CACHE_DIR``)."""
    from engine.search import search

    return Path(search._cache._cache_path)


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

    numba compiles one function at a time in a process, so with several families to compile and
    more than one core, they are compiled side by side in fresh processes that share numba's
    cache (the largest first); this process then loads each family, which also compiles
    anything the others raced each other for, and leaves the stamps."""
    from engine.warmup import warm

    out = out or sys.stderr
    missing = unprepared(families)
    if not missing:
        return []
    print(f"{NOTICE} ({', '.join(missing)}; a minute or two, never again) ...", file=out)
    start = time.perf_counter()
    lanes = min(len(missing), os.cpu_count() or 1)
    if lanes > 1:
        order = sorted(missing, key=LARGEST_FIRST.index)
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(lanes, mp_context=context) as pool:
            running = {pool.submit(_timed_warm, family): family for family in order}
            for number, done in enumerate(as_completed(running), 1):
                _report(out, number, len(order), running[done], done.result())
        for family in missing:
            warm(family)
            _mark_prepared(family)
    else:
        for number, family in enumerate(missing, 1):
            print(f"  [{number}/{len(missing)}] {family} ...", file=out, flush=True)
            _report(out, number, len(missing), family, _timed_warm(family))
            _mark_prepared(family)
    print(f"engine ready in {time.perf_counter() - start:.1f} s", file=out, flush=True)
    return missing


def _timed_warm(family: str) -> float:
    from engine.warmup import warm

    start = time.perf_counter()
    warm(family)
    return time.perf_counter() - start


def _mark_prepared(family: str) -> None:
    _stamp(family).parent.mkdir(parents=True, exist_ok=True)
    _stamp(family).touch()


def _report(out: TextIO, number: int, total: int, family: str, seconds: float) -> None:
    print(f"  [{number}/{total}] {family}: compiled in {seconds:.1f} s", file=out, flush=True)
