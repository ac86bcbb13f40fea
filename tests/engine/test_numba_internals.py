"""The numba internals the engine relies on (engine.numba_internals) are there and still do their
job: a numba release that moves one fails here, by name, rather than silently."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from numba.core import codegen

import engine
from engine.numba_internals import (
    RELIED_ON,
    cache_folder,
    missing_internals,
    type_calls_without_literals,
)
from engine.search import search
from engine.warmup import EASY


def test_numba_has_every_internal_the_engine_relies_on() -> None:
    assert missing_internals() == []


@pytest.mark.parametrize(("module", "path"), RELIED_ON, ids=[path for _, path in RELIED_ON])
def test_a_missing_internal_is_named(monkeypatch, module: str, path: str) -> None:
    owner = importlib.import_module(module)
    *parents, attribute = path.split(".")
    for parent in parents:
        owner = getattr(owner, parent)
    if isinstance(owner, type):  # a method may be inherited: remove it where it is defined
        owner = next(klass for klass in owner.__mro__ if attribute in vars(klass))
    monkeypatch.delattr(owner, attribute)
    assert f"{module}.{path}" in missing_internals()


def callee_and_caller(plain: bool) -> tuple:
    """A kernel, made plain or not, and a kernel that calls it with two constants."""

    @njit
    def callee(value):
        return value + 1

    if plain:
        type_calls_without_literals(callee)

    @njit
    def caller():
        return callee(22) + callee(23)

    return callee, caller


@pytest.mark.parametrize(("plain", "compiled"), [(True, 1), (False, 2)])
def test_a_kernel_called_with_constants_compiles_once_per_type(plain: bool, compiled: int) -> None:
    """Made plain, the callee compiles once (int64) for both constants; left alone, numba compiles
    it once per value (Literal[int](22), Literal[int](23))."""
    callee, caller = callee_and_caller(plain)
    assert caller() == 47
    assert len(callee.signatures) == compiled


def refcounts_kept(dropping: bool) -> int:
    """The reference-count calls left in the body of a fresh kernel that takes two arrays and
    lends each to a kernel that can raise, compiled with the engine's dropping of borrowed counts
    or as numba leaves it."""

    @njit
    def callee(values, n):
        total = 0
        for i in range(values.shape[0]):
            for j in range(values.shape[0]):
                total += (values[i] * 7 + j) % n  # a modulo by zero raises
                values[j] ^= total
                if total > 1000:
                    total -= values[(i + j) % n]
        return total

    @njit
    def caller(values, others):
        total = callee(values, values.shape[0]) + callee(others, others.shape[0] - 1)
        for i in range(others.shape[0]):
            others[i] += total
        return total

    with pytest.MonkeyPatch.context() as patch:
        if not dropping:
            optimize = codegen.CPUCodeLibrary._optimize_final_module
            patch.setattr(codegen.CPUCodeLibrary, "_optimize_final_module", optimize.numba_original)
        caller(np.arange(10), np.arange(10))
    (library,) = [result.library for result in caller.overloads.values()]
    body = library.get_llvm_str().split("\ndefine ")[1].split("\n}\n")[0]
    return body.count("@NRT_incref(") + body.count("@NRT_decref(")


def test_a_kernel_keeps_no_refcounts_on_the_arrays_it_borrows() -> None:
    """With the engine's setting the caller's arguments cost nothing; as numba has it, some keep
    an atomic increment and decrement (how many depends on what LLVM inlines for the CPU: four
    where the callee stays a call, two on a Rocket Lake with llvmlite 0.50, which inlines both
    calls). A numba that drops them itself fails here: drop
    ``drop_borrowed_refcounts_when_compiling``."""
    assert refcounts_kept(dropping=True) == 0
    assert refcounts_kept(dropping=False) > 0


def test_the_cache_folder_holds_the_kernels_index() -> None:
    """The counter's search kernel, compiled or loaded, has its cache index in the folder named
    for it."""
    engine.count_solutions(EASY)
    indexes = list(cache_folder(search).glob(f"search.{search.py_func.__qualname__}-*.nbi"))
    assert indexes


CPU_DESCRIPTIONS = """
from numba.core.registry import cpu_target
from engine.numba_internals import cpu_description
print(cpu_description() == cpu_target.target_context.codegen().magic_tuple())
"""


@pytest.mark.parametrize(
    "overrides",
    [{}, {"NUMBA_CPU_NAME": "generic"}, {"NUMBA_CPU_NAME": "haswell"}, {"NUMBA_ENABLE_AVX": "0"}],
    ids=["host", "generic", "haswell", "no-avx"],
)
def test_the_cpu_description_is_what_numba_keys_cached_code_on(overrides: dict[str, str]) -> None:
    """Compared with numba's own key (its JIT codegen's ``magic_tuple()``), under the documented
    overrides too, in a fresh process as numba reads them at start."""
    root = Path(engine.__file__).parents[1]
    done = subprocess.run(
        [sys.executable, "-c", CPU_DESCRIPTIONS],
        env={**os.environ, **overrides},
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True"]
