"""``kernel``: numba's ``njit(cache=True)`` with one compiled specialisation per argument type.

When a kernel calls another with a constant (``commit(rec, unit, 22, ...)``), numba types the
argument as that literal value and compiles the callee anew for each value: ``commit`` was
compiled twelve times, the counter's ``_search`` five, a third of the grader's compile time
on a new machine. A kernel made with :func:`kernel` is typed on the plain types of its
arguments instead (``int64``, not ``Literal[int](22)``), so each is compiled once per type
signature. Where a constant must specialise a callee, because branches on it are pruned in a
hot loop (the digger's kernels), use plain ``njit``. Under ``NUMBA_DISABLE_JIT=1`` a kernel is
the plain Python function, as ``njit`` gives it (``make coverage`` runs so).

Importing this module also makes every kernel compiled after it leave out the counting of the
arrays it borrows (``drop_borrowed_refcounts_when_compiling``, ``engine.borrowed_refs``): that
counting took a third of the grader's time on 17-clue puzzles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import config, njit

import engine.kernel_cache  # noqa: F401 (installs the cache locators before any kernel exists)
from engine.numba_internals import (
    drop_borrowed_refcounts_when_compiling,
    type_calls_without_literals,
)

drop_borrowed_refcounts_when_compiling()


def kernel(function: Callable[..., Any] | None = None, **options: Any) -> Any:
    """``njit(cache=True, **options)`` whose calls from other kernels are typed without literals."""

    def decorate(python_function: Callable[..., Any]) -> Any:
        dispatcher = njit(cache=True, **options)(python_function)
        if config.DISABLE_JIT:  # NUMBA_DISABLE_JIT=1 (coverage runs): the plain Python function
            return dispatcher
        type_calls_without_literals(dispatcher)
        return dispatcher

    return decorate if function is None else decorate(function)
