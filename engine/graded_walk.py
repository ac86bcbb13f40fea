"""The graded walk's kernel: blank a grid's orbits in a random order, each kept blank while the
ladder cut at the band's top still solves the puzzle (``engine.dig``'s walk for variants and
large grids, see its module doc).

One kernel call runs a whole walk, one pass loop per orbit, where a Python loop paid a call
into the pass loop per orbit (about a third of a 9x9 walk). It hands the walk back to Python
only for what a kernel cannot do: a solve that took a step sound only for a unique puzzle
(unique rectangles ...) needs the solution counter, and a record that overflowed needs room.

A removal the ladder cannot follow costs a whole stuck solve, every rung climbed in vain: on
a walk past the core rungs that is 0.6 to 2 ms on 9x9 X and Jigsaw grids, against about 0.05
ms to find a second solution, and nine in ten such removals have one. Those walks
(``screen``) ask the counter first (``unique_without``, the digger's own test).
"""

from __future__ import annotations

from engine.dig_kernels import NO_CELL, unique_without
from engine.grade import assumes_uniqueness
from engine.jit import kernel
from engine.logic.passes import OVERFLOW, PLACED, SOLVED, solve_passes
from engine.logic.state import C_STEPS

WALKED, COUNT, GROW = range(3)  # how a call ends: the walk is done, or Python is needed


@kernel
def walk_orbits(puzzle, solution, orbits, order, first, logic, screen, provers, witness):
    """Walk the orbits ``order[first:]`` (rows of ``orbits``) of ``puzzle``, a unique puzzle of
    ``solution``: each is blanked, and restored unless the pass loop ``logic`` (a
    ``PassLoop``) solves the puzzle, or places the orbit's cells again: the state is then
    within the start of the puzzle that solved before (logic on fewer candidates finds no
    less; the final rating checks the walk's end). Returns (position, how): WALKED at the end;
    COUNT with the orbit at ``position`` left blank when its solve assumed uniqueness (the
    caller keeps it if the puzzle is still unique and resumes after it); GROW with the orbit
    restored when the record overflowed (the caller makes room and resumes at it).
    ``screen``: ask ``provers`` (a ``Provers``) first whether the puzzle stays unique
    (``witness``: a solution's scratch), and skip the solve of one that does not."""
    rec = logic.rec
    for position in range(first, order.shape[0]):
        row = orbits[order[position]]
        for cell in row:
            if cell != NO_CELL:
                puzzle[cell] = 0
        unique = screen and unique_without(
            puzzle, row, solution, witness, provers.tables, provers.counters, provers.max_nodes
        )
        if screen and not unique and witness[0] != 0:  # a second solution: no solve
            _restore(puzzle, solution, row)
            continue
        result, _ = solve_passes(
            puzzle,
            logic.full,
            logic.T,
            logic.enabled,
            logic.rungs,
            logic.cand,
            logic.placed,
            logic.solved_pass,
            logic.pos,
            rec,
            logic.work,
            row,
        )
        solved = result in (SOLVED, PLACED)
        if solved and not unique and assumes_uniqueness(rec.steps[: rec.counts[C_STEPS]]):
            return position, COUNT
        if not solved:  # stuck, or a contradiction: a uniqueness step on several solutions
            _restore(puzzle, solution, row)
        if result == OVERFLOW:
            return position, GROW
    return order.shape[0], WALKED


@kernel
def _restore(puzzle, solution, row):
    for cell in row:
        if cell != NO_CELL:
            puzzle[cell] = solution[cell]
