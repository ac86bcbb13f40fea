"""Re-verify in this process what a worker sent back, before anything stores it.

A worker on a Dask cluster is another machine: a bug, a stale install or a hostile operator
there must not put a wrong puzzle into a book. So every row a worker returns is checked here
with the engine's public API (:func:`pipeline.parallel.results_in_order` calls these as its
``check``, and a resumed run before it reuses a stored chunk); a row that fails raises
:class:`pipeline.parallel.UntrustedResult` naming the chunk, the item and the field.

- dug puzzles (:func:`check_dug`): provenance and shape are the task's; the givens agree with
  the recorded solution; the puzzle has exactly one solution and it is the recorded one; the
  grade (score, iterations, hardest technique, clues, techniques, passes) recomputes the same,
  the section's band admits it, and the canonical form and id recompute the same. One grade per
  puzzle, where digging grades hundreds of candidates: cheap beside the dig.
- solution grids (:func:`check_grids`): each is a complete grid without a clash, of the task's
  shape and provenance. Its id is the worker's: its canonical form costs as much as making the
  grid, and nothing downstream trusts it (``pipeline dig`` derives its puzzles' ids afresh).
- graded rows of ``pipeline grade`` (:func:`check_verdicts`): one verdict per puzzle sent; an
  ok row's solution is a complete grid without a clash that keeps every given. Its score and
  tier are the worker's: recomputing them would be the whole job again.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

import engine
from engine import InvalidPuzzle, MultipleSolutions, NoSolution
from engine.text import parse_many
from pipeline.parallel import UntrustedResult
from pipeline.store import puzzle_id

if TYPE_CHECKING:
    from pipeline.tasks import DigJob, GradeTask, GridJob, Verdicts

SCORE_TOLERANCE = 1e-9  # relative: the same kernels on another CPU may round the last bit


def _fail(where: str, what: str) -> None:
    raise UntrustedResult(f"{where}: {what}")


def _expect(where: str, row: Mapping[str, Any], expected: Mapping[str, Any]) -> None:
    for key, value in expected.items():
        if row.get(key) != value:
            _fail(where, f"{key} is {row.get(key)!r}, the task gives {value!r}")


def _count(where: str, rows: Sequence[Any], count: int) -> None:
    if len(rows) != count:
        _fail(where, f"{len(rows)} rows for a task of {count}")


def _full_grid(where: str, solution: object, box: str) -> str:
    """``solution`` if it is a complete grid of the box shape without a clash."""
    if not isinstance(solution, str) or "." in solution or "0" in solution:
        _fail(where, "the solution is not a complete grid")
    try:
        engine.parse(solution, box)
    except InvalidPuzzle as exc:
        _fail(where, f"the solution is not a valid grid ({exc})")
    return solution


def _first_invalid(grids: list[str], size: int, box: str) -> int | None:
    """Index of the first string that is not a complete ``size`` grid without a clash (all at
    once: every unit of every grid must hold each value once), or None."""
    if not grids:
        return None
    geo = engine.geometry_for(size, box)
    try:
        values = parse_many(grids, box)
    except InvalidPuzzle:
        return next((i for i, grid in enumerate(grids) if not _parses(grid, box)), 0)
    if values.shape[1] != geo.ncells:
        return 0
    units = np.sort(values[:, geo.units], axis=2)
    wrong = (units != np.arange(1, geo.n + 1, dtype=units.dtype)).any(axis=(1, 2))
    return int(np.argmax(wrong)) if wrong.any() else None


def _parses(grid: str, box: str) -> bool:
    try:
        engine.parse(grid, box)
    except InvalidPuzzle:
        return False
    return True


def _keeps_givens(where: str, givens: str, solution: str) -> None:
    if len(givens) != len(solution) or any(
        g != s for g, s in zip(givens, solution, strict=True) if g not in ".0"
    ):
        _fail(where, "the givens disagree with the recorded solution")


def check_dug(job: DigJob, rows: Sequence[Mapping[str, Any]]) -> None:
    """Raise :class:`UntrustedResult` unless ``rows`` are what ``job`` must give (see above)."""
    section, chunk = job.section, job.chunk
    _count(f"chunk {chunk.name}", rows, chunk.count)
    forms = engine.canonical_many([str(row["givens"]) for row in rows], section.box)
    band = job.tiers[section.tier]
    for position, (row, form) in enumerate(zip(rows, forms, strict=True)):
        where = f"chunk {chunk.name} item {position}"
        _expect(where, row, {"section": chunk.section, "chunk": chunk.index, "position": position})
        _expect(where, row, {"seed": job.run_seed, "run_id": job.run_id, "tier": section.tier})
        _expect(where, row, {"size": section.size, "box_rows": section.box_rows})
        _expect(where, row, {"box_cols": section.box_cols})
        solution = str(row["solution"])  # the grade below proves it the one valid completion
        if job.solutions and solution != job.solutions[position]:
            _fail(where, "the solution is not the grid the task sent")
        _keeps_givens(where, row["givens"], solution)
        try:
            grade = engine.grade(row["givens"], job.tiers, section.box)
        except (NoSolution, MultipleSolutions, InvalidPuzzle) as exc:
            _fail(where, f"the puzzle has no single solution ({exc})")
        if engine.to_text(engine.geometry_for(section.size, section.box), grade.solution) != (
            solution
        ):
            _fail(where, "the puzzle's one solution is not the recorded solution")
        if not math.isclose(row["score"], grade.score, rel_tol=SCORE_TOLERANCE):
            _fail(where, f"score is {row['score']!r}, the puzzle grades {grade.score!r}")
        techniques = [
            {"technique": name, "steps": steps} for name, steps in grade.steps_per_technique.items()
        ]
        _expect(
            where,
            row,
            {
                "iterations": grade.iterations,
                "hardest": grade.hardest,
                "clues": grade.clues,
                "techniques": techniques,
                "passes": [int(p) for p in grade.cell_passes],
                "canonical": form,
                "id": puzzle_id(section.box_rows, section.box_cols, form),
            },
        )
        if not band.admits(grade.score, grade.iterations, grade.clues, grade.hardest):
            _fail(where, f"the puzzle's grade is outside the {section.tier!r} band")


def check_grids(job: GridJob, rows: Sequence[Mapping[str, Any]]) -> None:
    """Raise :class:`UntrustedResult` unless ``rows`` are ``job``'s count of valid grids."""
    chunk = job.chunk
    _count(f"chunk {chunk.name}", rows, chunk.count)
    box_rows, box_cols = engine.geometry_for(job.size, job.box).shape_tuple
    expected = {"section": chunk.section, "chunk": chunk.index, "seed": job.run_seed}
    expected |= {"size": job.size, "box_rows": box_rows, "box_cols": box_cols}
    for position, row in enumerate(rows):
        _expect(f"chunk {chunk.name} item {position}", row, expected)
    bad = _first_invalid([str(row["solution"]) for row in rows], job.size, job.box)
    if bad is not None:
        where = f"chunk {chunk.name} item {bad}"
        _full_grid(where, rows[bad]["solution"], job.box)  # names the fault where it can
        _fail(where, f"the solution is not a complete {job.size}x{job.size} grid")


def check_verdicts(task: GradeTask, verdicts: Verdicts) -> None:
    """Raise :class:`UntrustedResult` unless there is one verdict per puzzle of ``task`` and
    every ok one has a valid solution that keeps the puzzle's givens."""
    from pipeline.tasks import OK

    puzzles = task[0]
    _count("graded chunk", verdicts.seconds, len(puzzles))
    _count("graded chunk", range(verdicts.columns.num_rows), len(puzzles))
    status = verdicts.columns.column("status").to_pylist()
    solutions = verdicts.columns.column("solution").to_pylist()
    for (puzzle, box), state, solution in zip(puzzles, status, solutions, strict=True):
        if state == OK:
            where = f"graded puzzle {puzzle}"
            text = _full_grid(where, solution, f"{box[0]}x{box[1]}")
            _keeps_givens(where, puzzle, text)
