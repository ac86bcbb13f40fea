"""The counting of borrowed arrays is dropped from a kernel's IR, and only that: what a kernel
owns or keeps is still counted, and the IR left is valid (engine.borrowed_refs)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import llvmlite.binding as llvm
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.borrowed_refs import drop_borrowed_refcounts

DECLARATIONS = """
declare void @NRT_incref(ptr)
declare void @NRT_decref(ptr)
declare void @borrow(ptr)
declare ptr @allocate()
"""


def module(body: str, parameters: str = "ptr %arg.a.0, ptr %arg.b.0, i1 %arg.c") -> str:
    """A module holding one function of numba's calling convention with ``body``."""
    signature = f"define i32 @kernel(ptr %retptr, ptr %excinfo, {parameters})"
    return f"{DECLARATIONS}\n{signature} {{\n{textwrap.dedent(body).strip()}\n}}\n"


def dropped(ir: str) -> tuple[str, int]:
    """The IR without borrowed counting, checked to be a valid module."""
    text, count = drop_borrowed_refcounts(ir)
    llvm.parse_assembly(text).verify()
    return text, count


def test_an_argument_only_counted_and_lent_is_not_counted() -> None:
    text, count = dropped(
        module("""
        entry:
          call void @NRT_incref(ptr %arg.a.0)
          tail call void @borrow(ptr %arg.a.0)
          %same = icmp eq ptr %arg.a.0, %arg.b.0
          tail call void @NRT_decref(ptr %arg.a.0)
          ret i32 0
        """)
    )
    assert count == 2
    assert "NRT_" not in text.split("@kernel")[1]
    assert "call void @borrow(ptr %arg.a.0)" in text


@pytest.mark.parametrize(
    "keeping",
    [
        "store ptr %arg.a.0, ptr %retptr",  # returned
        "%kept = insertvalue { ptr, i64 } undef, ptr %arg.a.0, 0",  # put in a tuple
        "%at = getelementptr i8, ptr %arg.a.0, i64 8",  # read through
    ],
    ids=["stored", "in-a-tuple", "read-through"],
)
def test_an_argument_kept_or_read_through_stays_counted(keeping: str) -> None:
    ir = module(f"""
    entry:
      call void @NRT_incref(ptr %arg.a.0)
      {keeping}
      call void @NRT_incref(ptr %arg.b.0)
      call void @NRT_decref(ptr %arg.b.0)
      ret i32 0
    """)
    text, count = dropped(ir)
    assert count == 2  # b's pair only
    assert "call void @NRT_incref(ptr %arg.a.0)" in text


def test_a_release_merged_with_an_owned_array_keeps_the_owned_one() -> None:
    """LLVM sank the releases of an argument and of a fresh array into one call on a phi: the
    argument's way in becomes null, the fresh array is still released."""
    text, count = dropped(
        module("""
        entry:
          %own = call ptr @allocate()
          call void @NRT_incref(ptr %arg.a.0)
          br i1 %arg.c, label %left, label %right
        left:
          br label %join
        right:
          br label %join
        join:
          %either = phi ptr [ %arg.a.0, %left ], [ %own, %right ]
          call void @NRT_decref(ptr %either)
          ret i32 0
        """)
    )
    assert count == 1
    assert "%either = phi ptr [ null, %left ], [ %own, %right ]" in text
    assert "call void @NRT_decref(ptr %either)" in text


def test_a_release_of_arguments_only_goes_with_them() -> None:
    text, count = dropped(
        module("""
        entry:
          call void @NRT_incref(ptr %arg.a.0)
          call void @NRT_incref(ptr %arg.b.0)
          %one = select i1 %arg.c, ptr %arg.a.0, ptr %arg.b.0
          call void @NRT_decref(ptr %one)
          %other = select i1 %arg.c, ptr %arg.b.0, ptr %arg.a.0
          call void @NRT_decref(ptr %other)
          ret i32 0
        """)
    )
    assert count == 4
    assert "NRT_" not in text.split("@kernel")[1]


def test_a_merge_put_to_other_use_keeps_its_arguments_counted() -> None:
    ir = module("""
    entry:
      call void @NRT_incref(ptr %arg.a.0)
      %one = select i1 %arg.c, ptr %arg.a.0, ptr %arg.b.0
      store ptr %one, ptr %retptr
      call void @NRT_decref(ptr %arg.b.0)
      ret i32 0
    """)
    assert dropped(ir) == (ir, 0)


def test_a_function_of_another_calling_convention_is_left_alone() -> None:
    ir = module(
        """
        entry:
          call void @NRT_incref(ptr %array)
          call void @NRT_decref(ptr %array)
          ret i32 0
        """,
        parameters="ptr %array",
    )
    assert dropped(ir) == (ir, 0)


PARAMETERS = ("%arg.a.0", "%arg.b.0", "%arg.c.0")
#: Instructions on one parameter ``{p}``: whether each leaves it borrowed, and its text.
INSTRUCTIONS = (
    (True, "call void @NRT_incref(ptr {p})"),
    (True, "tail call void @NRT_decref(ptr {p})"),
    (True, "call void @borrow(ptr {p})"),
    (True, "%cmp{k} = icmp eq ptr {p}, null"),
    (False, "store ptr {p}, ptr %retptr"),
    (False, "%gep{k} = getelementptr i8, ptr {p}, i64 8"),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PARAMETERS), st.sampled_from(INSTRUCTIONS)), max_size=12))
def test_only_the_counting_of_parameters_that_stay_borrowed_goes(program: list) -> None:
    """Any straight-line body: the result is valid IR; a parameter used only by counting, calls
    and comparisons loses all its counting; any other keeps all of it; nothing else changes."""
    lines = [text.format(p=p, k=k) for k, (p, (_, text)) in enumerate(program)]
    body = "\n".join(["entry:", *(f"  {line}" for line in lines), "  ret i32 0"])
    text, count = dropped(module(body, parameters=", ".join(f"ptr {p}" for p in PARAMETERS)))
    function = text.split("\n")
    kept = function[function.index("entry:") + 1 : function.index("  ret i32 0")]
    lent = {p for p in PARAMETERS if all(ok for q, (ok, _) in program if q == p)}
    expected = [
        f"  {line}"
        for line, (p, _) in zip(lines, program, strict=True)
        if not (p in lent and "@NRT_" in line)
    ]
    assert kept == expected
    assert count == len(lines) - len(expected)


KERNELS = """
import numpy as np
from numba import njit
from numba.core.runtime import rtsys

import engine.jit  # drops borrowed counting from what compiles after it


@njit
def same(values):
    return values


@njit
def pair(first, second):
    return first, second


@njit
def total(values, n):
    kept = values
    s = 0
    for i in range(n):
        if i % 3 == 0:
            kept = np.arange(i + 1)  # the argument's variable now owns a fresh array
        s += kept[-1] + values[0]
    return s


@njit
def run(n):
    s = 0
    for i in range(n):
        made = np.arange(10) + i
        alias = same(made)
        both = pair(made, alias)
        s += both[0][3] + both[1][4] + total(made, 7)
    return s, same(np.arange(5))


run(1)  # compiled before counting
before = rtsys.get_allocation_stats()
s, kept = run(1000)
kept_sum = kept.sum()
del kept  # the array returned to Python is freed with it
after = rtsys.get_allocation_stats()
print(s, kept_sum, after.alloc - before.alloc - (after.free - before.free),
      after.mi_alloc - before.mi_alloc - (after.mi_free - before.mi_free))
"""


def test_kernels_that_keep_their_arguments_count_them_exactly(tmp_path: Path) -> None:
    """Kernels returning an argument, putting it in a tuple or replacing it by a fresh array, run
    a thousand times: every array made was freed once (numba's allocation statistics; a dropped
    count that was needed would free one early, or leak one), and the results are right."""
    root = Path(engine.__file__).parents[1]
    env = {**os.environ, "NUMBA_NRT_STATS": "1", "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", KERNELS], env=env, cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    result, kept_sum, leaked, leaked_meminfos = (int(x) for x in done.stdout.split())
    assert result == reference_run(1000)
    assert kept_sum == 10
    assert leaked == 0
    assert leaked_meminfos == 0


def reference_run(n: int) -> int:
    """What ``run`` in KERNELS computes, in plain Python."""
    s = 0
    for i in range(n):
        made = [x + i for x in range(10)]
        kept, t = made, 0
        for j in range(7):
            if j % 3 == 0:
                kept = list(range(j + 1))
            t += kept[-1] + made[0]
        s += made[3] + made[4] + t
    return s
