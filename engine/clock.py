"""A clock that kernels can read: the CPU's cycle counter, converted to seconds in Python.

A batch kernel grades thousands of puzzles in one call, yet a publisher still wants to know which
puzzles were slow to grade. Numba offers no clock inside compiled code; the cycle counter
(``llvm.readcyclecounter``, the TSC on x86-64, which ticks at a constant rate) costs a few
nanoseconds to read. It is read only on x86-64, where it is known to be safe from user code;
elsewhere :data:`HAS_CYCLES` is False and callers share a batch's time out evenly.
"""

from __future__ import annotations

import platform
import time
from functools import cache

from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

import engine.kernel_cache  # noqa: F401 (installs the cache locators before any kernel exists)

HAS_CYCLES = platform.machine().lower() in {"x86_64", "amd64"}
CALIBRATION_SECONDS = 0.005  # long enough for a rate within a fraction of a percent


@intrinsic
def _read_counter(typingctx):
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        counter = builder.module.declare_intrinsic("llvm.readcyclecounter", fnty=fnty)
        return builder.call(counter, [])

    return types.uint64(), codegen


@njit(cache=True)
def cycles():
    """The cycle counter (0 where :data:`HAS_CYCLES` is False)."""
    if HAS_CYCLES:
        return _read_counter()
    return 0


@cache
def seconds_per_cycle() -> float:
    """The counter's period, measured once per process against ``time.perf_counter``."""
    if not HAS_CYCLES:
        return 0.0
    start_cycles, start = cycles(), time.perf_counter()
    while time.perf_counter() - start < CALIBRATION_SECONDS:
        pass
    return (time.perf_counter() - start) / max(1, int(cycles()) - int(start_cycles))
