"""Re-verify in this process what a worker sent back, before anything stores it.

A worker on a Dask cluster is another machine: a bug, a stale install or a hostile operator
there must not put a wrong puzzle into a book. So every row a worker returns is checked here
with the engine's public API (:func:`pipeline.parallel.results_in_order` calls these as its
``check``, and a resumed run before it reuses a stored chunk); a row that fails raises
:class:`pipeline.parallel.UntrustedResult` naming the chunk, the item and the field.

Every check reads the puzzle's own units, its variant's (:mod:`pipeline.variants`): X's
diagonals, Windoku's windows, a Jigsaw's regions from the layout the row records.

- dug puzzles (:func:`check_dug`): provenance, shape and variant are the task's, and a Jigsaw's
  layout is n connected regions of n cells (the task's, when it sent the grids); the givens
  agree with the recorded solution; the puzzle has exactly one solution under its variant's
  rules and it is the recorded one; the grade (score, iterations, hardest technique, clues,
  techniques, passes) recomputes the same, the section's band admits it, and the canonical key
  and id recompute the same. One grade per puzzle, where digging grades hundreds of
  candidates: cheap beside the dig.
- solution grids (:func:`check_grids`): each is a complete grid without a clash in any of its
  variant's units, of the task's shape, variant and provenance. Its id is the worker's: its
  canonical form costs as much as making the grid, and nothing downstream trusts it
  (``pipeline dig`` derives its puzzles' ids afresh).
- graded rows of ``pipeline grade`` (:func:`check_verdicts`): one verdict per puzzle sent; an
  ok row's solution is a complete grid without a clash in its variant's units that keeps every
  given. Its score and tier are the worker's: recomputing them would be the whole job again.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

import engine
from engine import Geometry, InvalidPuzzle, MultipleSolutions, NoSolution
from engine.geometry import geometry
from engine.text import parse_many
from pipeline.parallel import UntrustedResult
from pipeline.store import puzzle_id
from pipeline.variants import (
    broken_cage,
    canonical_keys,
    is_jigsaw,
    is_killer,
    row_cages,
    row_variant,
)

if TYPE_CHECKING:
    from pipeline.tasks import DigJob, GradeTask, GridJob, Verdicts

SCORE_TOLERANCE = 1e-9  # relative: the same kernels on another CPU may round the last bit


def _fail(where: str, what: str) -> NoReturn:
    raise UntrustedResult(f"{where}: {what}")


def _expect(where: str, row: Mapping[str, Any], expected: Mapping[str, Any]) -> None:
    for key, value in expected.items():
        if row.get(key) != value:
            _fail(where, f"{key} is {row.get(key)!r}, the task gives {value!r}")


def _count(where: str, rows: Sequence[Any], count: int) -> None:
    if len(rows) != count:
        _fail(where, f"{len(rows)} rows for a task of {count}")


def _full_grid(where: str, solution: object, geo: Geometry) -> str:
    """``solution`` if it is a complete grid of ``geo`` without a clash in any unit."""
    if not isinstance(solution, str) or "." in solution or "0" in solution:
        _fail(where, "the solution is not a complete grid")
    try:
        engine.parse(solution, geo)
    except InvalidPuzzle as exc:
        _fail(where, f"the solution is not a valid grid ({exc})")
    return solution


def _first_invalid(grids: list[str], geo: Geometry) -> int | None:
    """Index of the first string that is not a complete grid of ``geo`` without a clash (all at
    once: every unit of every grid must hold each value once), or None."""
    if not grids:
        return None
    try:
        values = parse_many(grids, geo)
    except InvalidPuzzle:
        return next((i for i, grid in enumerate(grids) if not _parses(grid, geo)), 0)
    if values.shape[1] != geo.ncells:
        return 0
    units = np.sort(values[:, geo.units], axis=2)
    wrong = (units != np.arange(1, geo.n + 1, dtype=units.dtype)).any(axis=(1, 2))
    return int(np.argmax(wrong)) if wrong.any() else None


def _parses(grid: str, geo: Geometry) -> bool:
    try:
        engine.parse(grid, geo)
    except InvalidPuzzle:
        return False
    return True


def _row_geometry(
    where: str, row: Mapping[str, Any], box: tuple[int, int], variant: str, task_regions: object
) -> Geometry:
    """The grid a worker's row is on: the task's box shape and variant and, for a Jigsaw, the
    row's layout (the task's, when it sent one: ``task_regions`` is then not None), which must be
    n connected regions of n cells; for a Killer the row's cages, which must cover the grid."""
    if row_variant(row) != variant:
        _fail(where, f"variant is {row.get('variant')!r}, the task gives {variant!r}")
    regions = row.get("regions")
    if not is_jigsaw(variant):
        _expect(where, row, {"regions": None})
    elif task_regions is not None and regions != task_regions:
        _fail(where, "the regions are not the layout the task sent")
    if not is_killer(variant):
        _expect(where, row, {"cages": None})
    try:
        cages = row_cages(row.get("cages"), box[0] * box[1])
    except ValueError as exc:  # InvalidCages names the cage at fault
        _fail(where, f"the cages do not make a {variant} grid ({exc})")
    if is_killer(variant) and cages is None:
        _fail(where, f"a {variant} row has no cages")
    try:
        return geometry(*box, variant, regions, cages)
    except ValueError as exc:  # InvalidLayout names the region at fault
        _fail(where, f"the regions are not a {variant} layout ({exc})")


def _keeps_givens(where: str, givens: str, solution: str) -> None:
    if len(givens) != len(solution) or any(
        g != s for g, s in zip(givens, solution, strict=True) if g not in ".0"
    ):
        _fail(where, "the givens disagree with the recorded solution")


def check_dug(job: DigJob, rows: Sequence[Mapping[str, Any]]) -> None:
    """Raise :class:`UntrustedResult` unless ``rows`` are what ``job`` must give (see above)."""
    section, chunk = job.section, job.chunk
    _count(f"chunk {chunk.name}", rows, chunk.count)
    band = job.tiers[section.tier]
    geos = []
    for position, row in enumerate(rows):
        where = f"chunk {chunk.name} item {position}"
        _expect(where, row, {"section": chunk.section, "chunk": chunk.index, "position": position})
        _expect(where, row, {"seed": job.run_seed, "run_id": job.run_id, "tier": section.tier})
        _expect(where, row, {"size": section.size, "box_rows": section.box_rows})
        _expect(where, row, {"box_cols": section.box_cols})
        sent = job.regions[position] if job.regions else None
        geo = _row_geometry(where, row, (section.box_rows, section.box_cols), section.variant, sent)
        geos.append(geo)
        solution = str(row["solution"])  # the grade below proves it the one valid completion
        if job.solutions and solution != job.solutions[position]:
            _fail(where, "the solution is not the grid the task sent")
        _keeps_givens(where, row["givens"], solution)
        try:
            grade = engine.grade(row["givens"], job.tiers, geo)
        except (NoSolution, MultipleSolutions, InvalidPuzzle) as exc:
            _fail(where, f"the puzzle has no single solution ({exc})")
        if engine.to_text(geo, grade.solution) != solution:
            _fail(where, "the puzzle's one solution is not the recorded solution")
        if (broken := broken_cage(solution, geo)) is not None:
            _fail(where, f"the solution breaks {broken}")
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
            },
        )
        if not band.admits(grade.score, grade.iterations, grade.clues, grade.hardest):
            _fail(where, f"the puzzle's grade is outside the {section.tier!r} band")
    keys = canonical_keys([(str(row["givens"]), geo) for row, geo in zip(rows, geos, strict=True)])
    for position, (row, key) in enumerate(zip(rows, keys, strict=True)):
        where = f"chunk {chunk.name} item {position}"
        expected = {"canonical": key, "id": puzzle_id(section.box_rows, section.box_cols, key)}
        _expect(where, row, expected)


def check_grids(job: GridJob, rows: Sequence[Mapping[str, Any]]) -> None:
    """Raise :class:`UntrustedResult` unless ``rows`` are ``job``'s count of valid grids."""
    chunk = job.chunk
    _count(f"chunk {chunk.name}", rows, chunk.count)
    box = engine.geometry_for(job.size, job.box).shape_tuple
    expected = {"section": chunk.section, "chunk": chunk.index, "seed": job.run_seed}
    expected |= {"size": job.size, "box_rows": box[0], "box_cols": box[1]}
    by_grid: dict[Geometry, list[int]] = {}  # a Jigsaw's grids each on a layout of their own
    for position, row in enumerate(rows):
        where = f"chunk {chunk.name} item {position}"
        _expect(where, row, expected)
        geo = _row_geometry(where, row, box, job.variant, None)
        by_grid.setdefault(geo, []).append(position)
    for geo, positions in by_grid.items():
        bad = _first_invalid([str(rows[i]["solution"]) for i in positions], geo)
        if bad is not None:
            where = f"chunk {chunk.name} item {positions[bad]}"
            _full_grid(where, rows[positions[bad]]["solution"], geo)  # names the fault
            _fail(where, f"the solution is not a complete {geo} grid")


def check_verdicts(task: GradeTask, verdicts: Verdicts) -> None:
    """Raise :class:`UntrustedResult` unless there is one verdict per puzzle of ``task`` and
    every ok one has a valid solution that keeps the puzzle's givens."""
    from pipeline.tasks import OK

    puzzles = task[0]
    _count("graded chunk", verdicts.seconds, len(puzzles))
    _count("graded chunk", range(verdicts.columns.num_rows), len(puzzles))
    status = verdicts.columns.column("status").to_pylist()
    solutions = verdicts.columns.column("solution").to_pylist()
    for (puzzle, shape), state, solution in zip(puzzles, status, solutions, strict=True):
        if state == OK:
            where = f"graded puzzle {puzzle}"
            geo = geometry(*shape)
            text = _full_grid(where, solution, geo)
            _keeps_givens(where, puzzle, text)
            if (broken := broken_cage(text, geo)) is not None:
                _fail(where, f"the solution breaks {broken}")
