"""Solving paths as plain data, for worked solutions and hints (wording is the caller's).

Two paths: the grader's (``Grade.path``, the ladder in Sudoku Explainer's order, which the score
is built on) and a person's (:func:`person_path`, the same pass loop on the ladder in HoDoKu's
order, ``PERSON_RUNGS``: naked subsets before hidden ones, wings before uniqueness, and so on).
Each step also carries the one figure the decoded steps leave in the raw record, its *detail*
(``S_EXTRA``): the unit that proves a single, a unique rectangle's type, a chain's length in
links, a trial's placements (-1 where a technique has none).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from engine.grade import Grade, nested_trial_step
from engine.logic.franken import FINNED
from engine.logic.names import NAMES, SINGLES
from engine.logic.passes import PERSON_RUNG_ARRAY, Record, Step, workspace
from engine.logic.state import S_EXTRA
from engine.logic.uniqueness import SUBSET_STEP
from engine.text import Grid


@dataclass(frozen=True)
class PathStep:
    """One deduction; cells are 0-based indices, digits and values 1-based as in grids."""

    technique: str  # id, as in ``engine.TECHNIQUES``
    name: str  # HoDoKu/SE display name
    pass_no: int
    detail: int
    cells: tuple[int, ...]  # the pattern that proves it
    digits: tuple[int, ...]
    placements: tuple[tuple[int, int], ...]  # (cell, value)
    eliminations: tuple[tuple[int, int], ...]  # (cell, value)

    @property
    def single(self) -> bool:
        """True for full house, naked and hidden single: hints skip these."""
        return self.technique in SINGLES


FISH_SIZES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish", 5: "Squirmbag", 6: "Whale"}


def display_name(technique: str, detail: int) -> str:
    """The technique's display name; a unique or avoidable rectangle's carries its type, as
    HoDoKu's do (a type 3's detail also counts its subset's digits: see engine.grade), a Franken
    or mutant fish its size and fins ("Finned Franken Swordfish")."""
    if technique in ("unique_rectangle", "avoidable_rectangle") and detail > 0:
        return f"{NAMES[technique]} Type {detail % SUBSET_STEP}"
    if technique in ("franken_fish", "mutant_fish") and detail % FINNED in FISH_SIZES:
        finned = "Finned " if detail & FINNED else ""
        kind = NAMES[technique].split()[0]
        return f"{finned}{kind} {FISH_SIZES[detail % FINNED]}"
    return NAMES[technique]


def solving_path(grade: Grade) -> tuple[PathStep, ...]:
    """Every step of ``grade``'s path in order, with its detail and display name (the last
    trial-and-error step that ``Grade.path`` may add has no record row: detail -1)."""
    return _path_steps(grade.path, grade.record)


def person_path(grid: Grid, grade: Grade) -> tuple[PathStep, ...]:
    """The path of ``grid`` on the ladder in a person's order (see the module docstring).
    ``grade`` is the grid's own: its one solution places the cells that even one-level trial
    leaves open, in one last trial-and-error pass, as the grader's path does."""
    run = workspace(grid.geometry).run(grid.values, rungs=PERSON_RUNG_ARRAY)
    steps = run.record.all_steps()
    open_cells = np.flatnonzero(run.values == 0)
    if open_cells.size:
        steps += (nested_trial_step(open_cells, grade.solution, run.passes + 1),)
    return _locked_subsets(_path_steps(steps, run.record), grid.geometry.n)


#: HoDoKu's names for a naked pair or triple that eliminates in both its line and its box.
LOCKED_NAMES = {"naked_pair": "Locked Pair", "naked_triple": "Locked Triple"}


def _locked_subsets(path: tuple[PathStep, ...], n: int) -> tuple[PathStep, ...]:
    """The path with each locked subset as one step, as HoDoKu shows it: the finder records a
    naked set once per unit that it clears, here its line and, later in the pass, its box. The
    merged step keeps the line's place and unit (its box is the one that holds its cells)."""
    merged: list[PathStep] = []
    lines: dict[tuple, int] = {}  # a naked set's line record -> its place in ``merged``
    for step in path:
        if step.technique not in LOCKED_NAMES:
            merged.append(step)
            continue
        key = (step.pass_no, step.technique, step.cells, step.digits)
        if step.detail < 2 * n:
            lines[key] = len(merged)
            merged.append(step)
        elif key in lines:
            at = lines.pop(key)
            merged[at] = replace(
                merged[at],
                name=LOCKED_NAMES[step.technique],
                eliminations=tuple(dict.fromkeys(merged[at].eliminations + step.eliminations)),
            )
        else:
            merged.append(step)
    return tuple(merged)


def _path_steps(steps: Sequence[Step], record: Record | None) -> tuple[PathStep, ...]:
    """The steps as a reader wants them: a pattern that the finder met once per unit it lies
    in (a hidden pair in a row and in its box) with the same effects is kept once."""
    recorded = record.steps[:, S_EXTRA].tolist() if record is not None else []
    details = recorded + [-1] * (len(steps) - len(recorded))
    seen = set()
    path = []
    for step, detail in zip(steps, details, strict=True):
        key = (step.pass_no, step.technique, step.cells, step.digits)
        key += (step.placements, step.eliminations)
        if key in seen:
            continue
        seen.add(key)
        path.append(
            PathStep(
                technique=step.technique,
                name=display_name(step.technique, detail),
                pass_no=step.pass_no,
                detail=detail,
                cells=step.cells,
                digits=step.digits,
                placements=step.placements,
                eliminations=step.eliminations,
            )
        )
    return tuple(path)
