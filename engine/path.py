"""A grade's solving path as plain data, for worked solutions and hints (wording is the caller's).

``Grade.path`` holds the steps as the pass loop decoded them; this adds the one figure they leave
in the raw record, the step's *detail* (``S_EXTRA``): the unit that proves a single, a unique
rectangle's type, a chain's length in links, a trial's placements (-1 where a technique has none).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.grade import Grade
from engine.logic.names import NAMES, SINGLES
from engine.logic.state import S_EXTRA
from engine.logic.uniqueness import SUBSET_STEP


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


def display_name(technique: str, detail: int) -> str:
    """The technique's display name; a unique or avoidable rectangle's carries its type, as
    HoDoKu's do (a type 3's detail also counts its subset's digits: see engine.grade)."""
    if technique in ("unique_rectangle", "avoidable_rectangle") and detail > 0:
        return f"{NAMES[technique]} Type {detail % SUBSET_STEP}"
    return NAMES[technique]


def solving_path(grade: Grade) -> tuple[PathStep, ...]:
    """Every step of ``grade``'s path in order, with its detail and display name (the last
    trial-and-error step that ``Grade.path`` may add has no record row: detail -1)."""
    recorded = grade.record.steps[:, S_EXTRA].tolist() if grade.record is not None else []
    details = recorded + [-1] * (len(grade.path) - len(recorded))
    return tuple(
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
        for step, detail in zip(grade.path, details, strict=True)
    )
