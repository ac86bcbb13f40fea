"""``grade_many``: grade a batch of puzzles in one kernel call, with the results as columns.

Grading a file of puzzles one ``engine.grade`` call at a time spends more time in Python (a
dispatch, a ``Grade`` object, its step record) than in the pass loop. Here one numba call runs
the pass loop and the rating over the whole batch; the columns it fills are what
``engine.grade`` would report, figure for figure. Puzzles the fast path cannot settle alone (logic
gets stuck, a step assumes uniqueness, a contradiction, a record that overflows) take the
``engine.grade`` path, so every row ends up with a grade or the error ``grade`` would raise.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from engine.clock import HAS_CYCLES, seconds_per_cycle
from engine.clock import cycles as clock
from engine.geometry import Box, Geometry, geometry_for
from engine.grade import (
    DIRECT_ARRAY,
    RATING_ARRAY,
    assumes_uniqueness,
    final_score,
    grade,
    rate_steps,
)
from engine.jit import kernel
from engine.logic.passes import (
    CORE_RUNG_ARRAY,
    NO_CELLS,
    RUNG_ARRAY,
    SOLVED,
    solve_core_passes,
    solve_passes,
    workspace,
)
from engine.logic.state import (
    C_STEPS,
    S_TECH,
    TECHNIQUE_INDEX,
    TECHNIQUES,
)
from engine.search import search
from engine.solver import workspace as solver_workspace
from engine.text import Grid, infer_geometry, parse_many
from engine.tiers import DEFAULT_TIERS, Tier, tier_indices

COUNT_BUDGET = 10_000  # branches for the in-kernel uniqueness count; beyond, grade() settles it
NO_TECHNIQUE = -1  # ``hardest`` of a puzzle that needed no step (every cell given)


@dataclass(frozen=True)
class GradeTable:
    """Grades of a batch, one row per puzzle in input order (see :class:`engine.Grade`).

    A row whose puzzle has no grade has ``errors[i]`` set (the ``NoSolution``,
    ``MultipleSolutions`` or ``InvalidPuzzle`` that ``grade`` raises), score NaN, iterations -1.
    ``steps[i, t]`` counts the steps of technique ``TECHNIQUES[t]``; ``hardest`` holds technique
    indices (``NO_TECHNIQUE`` for none), ``tiers`` the band names (None when no band admits).
    ``seconds`` is read from the cycle counter inside the kernel (see ``engine.clock``).
    """

    geometry: Geometry
    score: np.ndarray  # float64
    iterations: np.ndarray  # int64
    hardest: np.ndarray  # int64 index into TECHNIQUES
    clues: np.ndarray  # int64
    steps: np.ndarray  # (rows, len(TECHNIQUES)) int64
    solutions: np.ndarray  # (rows, ncells) uint8, zeros where there is none
    tiers: list[str | None]
    errors: list[ValueError | None]
    seconds: np.ndarray  # float64: the time each row took to grade

    def __len__(self) -> int:
        return len(self.errors)


def grade_many(
    puzzles: Sequence[str],
    tiers: Mapping[str, Tier] | None = None,
    box: Box = None,
    before_full_ladder: Callable[[], None] | None = None,
) -> GradeTable:
    """Grade equal-size puzzles; raises ``InvalidPuzzle`` naming the first malformed text (wrong
    length or character) by position, as ``count_many`` does. Clashing givens are row errors.

    With ``before_full_ladder``, the rows climb the core rungs first (``CORE_RUNGS``, kernels
    that compile in seconds on a new machine), and the function is called once before any row
    needs more (a program compiling the rest meanwhile waits for it there). The grades are the
    same either way: the core rungs are the ladder's first, so a row they settle has the path
    the whole ladder gives it."""
    values = parse_many(list(puzzles), box)
    geo = infer_geometry(values.shape[1], box) if values.size else geometry_for(box=box or "3x3")
    rows = values.shape[0]
    space = workspace(geo)
    fast = np.zeros(rows, dtype=np.bool_)
    iterations = np.full(rows, -1, dtype=np.int64)
    rating = np.full(rows, np.nan)
    hardest = np.full(rows, NO_TECHNIQUE, dtype=np.int64)
    steps = np.zeros((rows, len(TECHNIQUES)), dtype=np.int64)
    solutions = np.zeros_like(values)
    cycles = np.zeros(rows, dtype=np.uint64)
    start = time.perf_counter()
    logic = space.pass_loop(RUNG_ARRAY)
    counter = solver_workspace(geo)
    out = Columns(fast, iterations, rating, hardest, steps, solutions, cycles)
    if before_full_ladder is None:
        _grade_batch(values, logic, counter.tables, counter.buffers, out)
    else:
        core = logic._replace(rungs=CORE_RUNG_ARRAY)
        _grade_core_batch(values, core, counter.tables, counter.buffers, out)
        if not fast.all():
            before_full_ladder()
            rest = np.flatnonzero(~fast)
            part = Columns(*(column[rest] for column in out))  # copies, as the core left them
            core_cycles = part.cycles.copy()  # the row's time is both batches'
            _grade_batch(values[rest], logic, counter.tables, counter.buffers, part)
            for column, found in zip(out, part, strict=True):
                column[rest] = found
            cycles[rest] += core_cycles
    if HAS_CYCLES:
        seconds = cycles * seconds_per_cycle()
    else:  # no counter: each row gets an equal share of the batch
        seconds = np.full(rows, (time.perf_counter() - start) / max(rows, 1))
    score = np.array([final_score(r) for r in rating.tolist()])
    errors: list[ValueError | None] = [None] * rows
    for index in np.flatnonzero(~fast):
        start = time.perf_counter()
        try:
            found = grade(Grid(geo, values[index]), tiers)
        except ValueError as exc:  # NoSolution, MultipleSolutions, InvalidPuzzle
            errors[index] = exc
            score[index], iterations[index] = np.nan, -1
        else:
            score[index], iterations[index] = found.score, found.iterations
            hardest[index] = TECHNIQUE_INDEX[found.hardest] if found.hardest else NO_TECHNIQUE
            steps[index] = [found.steps_per_technique.get(name, 0) for name in TECHNIQUES]
            solutions[index] = found.solution
        seconds[index] += time.perf_counter() - start
    clues = np.count_nonzero(values, axis=1).astype(np.int64)
    names = tiers or DEFAULT_TIERS
    band = tier_indices(names, score, iterations, clues, hardest)
    labels = [*names, None]  # index -1 (no band) picks the None
    return GradeTable(
        geometry=geo,
        score=score,
        iterations=iterations,
        hardest=hardest,
        clues=clues,
        steps=steps,
        solutions=solutions,
        tiers=[labels[b] if errors[i] is None else None for i, b in enumerate(band.tolist())],
        errors=errors,
        seconds=seconds,
    )


class Columns(NamedTuple):
    """The kernel's output columns, one row per puzzle (see :class:`GradeTable`)."""

    fast: np.ndarray  # True where the kernel settled the row; the others take grade()
    iterations: np.ndarray
    rating: np.ndarray
    hardest: np.ndarray
    steps: np.ndarray
    solutions: np.ndarray
    cycles: np.ndarray  # clock cycles per row


@kernel
def _grade_batch(puzzles, logic, tables, buffers, out):
    """Every row through the whole ladder (``_grade_rows``)."""
    _grade_rows(puzzles, logic, tables, buffers, out, solve_passes, _unique_within_budget)


@kernel
def _grade_core_batch(puzzles, logic, tables, buffers, out):
    """Every row through the core rungs only (``logic.rungs`` must be CORE_RUNG_ARRAY): a row it
    does not settle is left for ``_grade_batch``."""
    _grade_rows(puzzles, logic, tables, buffers, out, solve_core_passes, _not_counted)


@kernel(inline="always")
def _grade_rows(puzzles, logic, tables, buffers, out, solve, unique):
    """Every row through ``_grade_row``, timed by the cycle counter."""
    for i in range(puzzles.shape[0]):
        start = clock()
        out.fast[i] = _grade_row(puzzles[i], i, logic, tables, buffers, out, solve, unique)
        out.cycles[i] = clock() - start


@kernel
def _unique_within_budget(values, tables, buffers, solutions):
    """True when the solution counter finds exactly one solution within COUNT_BUDGET branches
    (``tables`` and ``buffers``: the counter's)."""
    fixed = buffers.fixed_order
    return search(values, tables, 2, solutions, fixed, COUNT_BUDGET, buffers) == 1


@kernel
def _not_counted(values, tables, buffers, solutions):
    """The core batch has no solution counter (no core rung assumes uniqueness)."""
    return False


@kernel(inline="always")
def _grade_row(values, i, logic, tables, buffers, out, solve, unique):
    """The pass loop (``solve``: ``solve_passes`` or ``solve_core_passes``) and the rating for
    row ``i``; True where that settles it: logic solved it, and any step that assumes uniqueness
    (unique rectangle, BUG+1) was justified by ``unique``. The loop is called, not inlined: a
    kernel that inlines it types and optimises the whole ladder again (10 s on a new machine)."""
    rec, placed = logic.rec, logic.placed
    result, passes = solve(
        values,
        logic.full,
        logic.T,
        logic.enabled,
        logic.rungs,
        logic.cand,
        placed,
        logic.solved_pass,
        logic.pos,
        rec,
        logic.work,
        NO_CELLS,
    )
    if result != SOLVED:
        return False
    record = rec.steps[: rec.counts[C_STEPS]]
    # sound only if the solution is unique: if not shown here, grade() raises or counts
    if assumes_uniqueness(record) and not unique(values, tables, buffers, out.solutions[i]):
        return False
    out.iterations[i] = passes
    out.rating[i] = rate_steps(record, rec.proof, logic.T, RATING_ARRAY, DIRECT_ARRAY, out.steps[i])
    hardest = out.hardest
    for s in range(record.shape[0]):
        hardest[i] = max(hardest[i], record[s, S_TECH])
    for cell in range(placed.shape[0]):
        out.solutions[i, cell] = placed[cell]
    return True
