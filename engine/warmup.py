"""Small calls that make numba compile (or load from its cache) each family of kernels.

The kernels compile on first use, for minutes on a new machine. A program that calls
:func:`warm` for the families it needs, before its real work, can say so and show progress,
and its worker processes then only load the compiled code from numba's cache. Each call below
goes through the public API with the argument types real callers use (the kernels are
specialised on them), on inputs chosen to reach every kernel of the family: a puzzle the pass
loop solves, one that needs trial and error, one with two solutions, one with none.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress

import numpy as np

from engine.canon import canonical, canonical_many
from engine.dig import FRESH_TRIES, DigFailed, dig, run_kernels
from engine.geometry import geometry, geometry_for
from engine.grade import grade, grade_within
from engine.grade_table import grade_many
from engine.grids import random_grid, random_grids
from engine.killer import dig_killer
from engine.layouts import random_layout
from engine.logic.passes import (
    ALL_ENABLED,
    PERSON_RUNG_ARRAY,
    PERSON_RUNGS,
    RUNGS,
    Workspace,
    run_person_rung,
    run_rung,
)
from engine.solver import count_many, count_solutions
from engine.text import parse
from engine.tiers import Tier

# Singles solve it.
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
# Arto Inkala's "Easter Monster": the pass loop needs trial, then nested trial and error.
HARDEST = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
# Two solutions (the easy one with two clues gone); a clash (two 5s in its first row).
TWO_SOLUTIONS = "..3...6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
NO_SOLUTION = "5.3.2.6.59..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
RARE = Tier("rare", score=(5.0, 5.01))
SHAPES = ("2x2", "2x3", "3x3", "4x4")  # sizes past 9x9 take the generic paths of every kernel


def _counter() -> None:
    count_many([EASY, TWO_SOLUTIONS], 2, solutions=True)
    count_solutions(EASY)


def _grids() -> None:
    for box in SHAPES:
        size = int(box[0]) * int(box[2])
        random_grids(2, size, seed=0, box=box)
        random_grid(size, seed=0, box=box)
    random_layout(9, seed=0)  # a Jigsaw section draws a layout per puzzle


def _technique_finder() -> None:
    """``Workspace.find``, one technique on a candidate state (the engine's API for it): a
    dispatch over the rungs of both ladders, whose finders the grader's families compiled."""
    space = Workspace(geometry_for(box="3x3"))
    space.find("naked_single", np.full(space.cand.shape, space.full), np.zeros_like(space.placed))


def _grader() -> None:
    grade_many([EASY, HARDEST, TWO_SOLUTIONS, NO_SOLUTION])
    grade(EASY)
    grade(parse(EASY))  # a parsed grid reaches the kernels as a read-only array
    grade_within(HARDEST, 6.0)


def _grader_core() -> None:
    grade_many([EASY], before_full_ladder=_needs_no_more)


def _needs_no_more() -> None:
    raise AssertionError("the core rungs solve EASY: no row needs the whole ladder")


def _finders() -> None:
    """Every finder of the pass loop, hardest rung first: the rung dispatch run as plain Python
    calls each with the argument types the compiled pass loop gives it (one workspace's arrays),
    on an empty grid, where none finds anything. A rung added to ``RUNGS`` is covered as is."""
    space = Workspace(geometry_for(box="3x3"))
    space.cand[:] = space.full  # every digit open in every cell, so in every place of each unit
    space.pos[:] = space.full
    for rung in reversed(RUNGS):
        arrays = (space.cand, space.placed, space.pos, space.T, ALL_ENABLED, space.rec)
        run_rung.py_func(rung, *arrays, space.work)


def _person_finders() -> None:
    """The finders of the rungs only the person's ladder climbs, as :func:`_finders` does."""
    space = Workspace(geometry_for(box="3x3"))
    space.cand[:] = space.full
    space.pos[:] = space.full
    for rung in PERSON_RUNGS:
        if rung not in RUNGS:
            arrays = (space.cand, space.placed, space.pos, space.T, ALL_ENABLED, space.rec)
            run_person_rung.py_func(rung, *arrays, space.work)


def _explainer() -> None:
    """The pass loop on the person's ladder (worked solutions and hints)."""
    space = Workspace(geometry_for(box="3x3"))
    for puzzle in (EASY, HARDEST):
        space.run(parse(puzzle).values, rungs=PERSON_RUNG_ARRAY)


def _canonical_form() -> None:
    canonical(HARDEST)  # what a nested trial-and-error score needs of the canonical forms


def _digger() -> None:
    for box in SHAPES[:3]:
        size = int(box[0]) * int(box[2])
        grid = random_grid(size, seed=1, box=box)
        dig(grid, "easy", symmetry="rotate180", seed=1, minimal=False)
        dig(grid, "easy", symmetry="none", seed=1)
    dig(random_grid(9, seed=2), "hard", symmetry="rotate180", seed=2)
    dig(random_grid(9, seed=3), "extreme", seed=3, minimal=True)
    x = geometry(3, 3, "x")  # variants' medium and hard digs take the graded walk
    dig(random_grid(9, seed=5, box=x), "hard", seed=5, box=x)
    with suppress(DigFailed):  # a band too narrow for fresh digs: the local search runs
        dig(random_grid(9, seed=4), RARE, seed=4, minimal=True, budget=FRESH_TRIES + 10)


def _dig_kernels() -> None:
    for box in SHAPES[:3]:
        size = int(box[0]) * int(box[2])
        run_kernels(random_grid(size, seed=1, box=box))


def _canon() -> None:
    canonical_many([EASY, HARDEST], "3x3")
    canonical_many([random_grid(6, seed=0, box="2x3")], "2x3")
    canonical_many([random_grid(16, seed=0, box="4x4")], "4x4")


def _killer() -> None:
    """Killer grids type the counter's cage tables apart (classic kernels compile without
    them): the counter with its SAT fallback, the grader's cage finders and the Killer digger,
    through a dig per tier kind, a batch grade and a count."""
    for box, tier, seed in (("2x3", "easy", 1), ("3x3", "medium", 1), ("3x3", "extreme", 2)):
        size = int(box[0]) * int(box[2])
        made = dig_killer(random_grid(size, seed=seed, box=box), tier, seed=seed, box=box)
        grade_many([made.puzzle, made.solution], box=made.geometry)
        count_many([made.puzzle], 2, made.geometry, solutions=True)


#: Kernel families by name, each with the call that compiles or loads it.
FAMILIES: dict[str, Callable[[], None]] = {
    "counter": _counter,
    "grids": _grids,
    "grader core": _grader_core,
    "grader": _grader,
    "digger": _digger,
    "canonical forms": _canon,
    "explainer": _explainer,
    "killer": _killer,
    "technique finder": _technique_finder,
}

#: Parts of a family that another process can compile while the family's own call runs, in
#: the order that call reaches them last first (numba's cache is shared: what one process has
#: compiled, the other loads). The grader's call reaches the counter's search, then the pass
#: loop's finders easiest first, then the canonical form (for nested trial and error). The
#: digger's own kernels need nothing of the grader's, which its graded digs need too.
PARTS: dict[str, dict[str, Callable[[], None]]] = {
    "grader": {"finders": _finders, "canonical form": _canonical_form},
    "digger": {"dig kernels": _dig_kernels},
    "explainer": {"person finders": _person_finders},
}


def warm(family: str) -> None:
    """Compile (or load from numba's cache) every kernel of ``family`` (a key of FAMILIES)."""
    if family not in FAMILIES:
        known = ", ".join(FAMILIES)
        raise ValueError(f"unknown kernel family {family!r}; known: {known}")
    FAMILIES[family]()


def warm_part(family: str, part: str) -> None:
    """Compile (or load) one part of a family (``PARTS``), to help the family's own call."""
    PARTS[family][part]()
