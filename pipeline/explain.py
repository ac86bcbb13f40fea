"""Worked solutions and hints in words: a solving path (``engine.path``) as a person reads it.

The path is a person's by default: the pass loop on the ladder in HoDoKu's order, the order most
players learn the techniques in (a naked triple before a hidden pair, a W-wing before an
XY-wing). The grade beside it is the grader's, on the ladder in Sudoku Explainer's order, whose
path ``order="grader"`` shows. Cells and effects are written in the standard notation (``r3c5=7``
places 7, ``r1c2<>4`` removes candidate 4); each step also gets one sentence saying where to
look. A hint is the sentence of the first step that is not a single: the first place where the
puzzle needs more than scanning.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import groupby
from typing import Any

import engine
from engine.cages import cage_name
from engine.geometry import Box, Geometry
from engine.logic.killer import KILLER_TECHNIQUES, UNIT_FACTOR
from engine.logic.names import NAMES
from engine.logic.tables import tables
from engine.path import LOCKED_NAMES, PathStep, person_path, solving_path
from pipeline.errors import UserError

#: Version of the JSON form (``to_json``), for readers that keep it (2: the path's order and
#: passes, which a person's path counts apart from the grade's iterations).
JSON_VERSION = 2
#: The ladders a path can climb, and how the text names each.
ORDERS = {
    "person": "a person's order (HoDoKu's)",
    "grader": "the grader's order (Sudoku Explainer's)",
}
ROW_KEYS = ("id", "givens", "box_rows", "box_cols")  # what --id needs of a run's Parquet
VOWEL_SOUNDS = "AEIOX"
NAKED_SUBSETS = ("naked_pair", "naked_triple", "naked_quad")
HIDDEN_SUBSETS = (
    "hidden_pair",
    "hidden_triple",
    "hidden_quad",
)  # first letters read with a vowel sound: an X-Chain, an AIC (a Unique)


@dataclass(frozen=True)
class Explanation:
    """A puzzle, its grade and its solving path."""

    puzzle: str
    geometry: Geometry
    grade: engine.Grade
    order: str  # a key of ORDERS
    steps: tuple[PathStep, ...]

    @property
    def passes(self) -> int:
        return self.steps[-1].pass_no if self.steps else 0


def explain(puzzle: str, box: Box = None, order: str = "person") -> Explanation:
    """Grade ``puzzle`` and solve it on the ladder in ``order`` (see ``ORDERS``); raises the
    engine's InvalidPuzzle, NoSolution or MultipleSolutions for a puzzle without one solution."""
    if order not in ORDERS:
        raise ValueError(f"unknown order {order!r}; expected one of {', '.join(ORDERS)}")
    grid = engine.parse(puzzle, box=box)
    grade = engine.grade(grid)
    steps = person_path(grid, grade) if order == "person" else solving_path(grade)
    return Explanation(grid.to_text(), grid.geometry, grade, order, steps)


def first_hint(explanation: Explanation) -> str | None:
    """The sentence of the first step that is not a single; None when singles solve it all."""
    for step in explanation.steps:
        if not step.single:
            return reason(step, explanation.geometry)
    return None


def effects(step: PathStep, geo: Geometry, not_equal: str = "<>") -> list[str]:
    """What the step places and removes: ``r3c5=7``, ``r1c2<>4`` (``not_equal`` writes a
    removal: HoDoKu's ``<>`` in plain text, ``≠`` in print)."""
    symbol = geo.symbols
    return [f"{geo.cell_name(c)}={symbol[v - 1]}" for c, v in step.placements] + [
        f"{geo.cell_name(c)}{not_equal}{symbol[v - 1]}" for c, v in step.eliminations
    ]


def reason(step: PathStep, geo: Geometry) -> str:
    """One sentence saying where to look and what follows, in a solver's words."""
    symbol = geo.symbols
    digits = _listed(symbol[d - 1] for d in step.digits) if step.digits else ""
    cells = _listed(geo.cell_name(c) for c in dict.fromkeys(step.cells))  # chains: once each
    kind = step.technique
    if kind == "full_house" and step.placements:
        return f"{geo.unit_name(step.detail).capitalize()} has one empty cell left"
    if kind == "naked_single" and step.placements:
        cell, value = step.placements[0]
        return f"{geo.cell_name(cell)} can only hold {symbol[value - 1]}"
    if kind == "hidden_single" and step.placements:
        cell, value = step.placements[0]
        where = geo.unit_name(step.detail)
        return f"Look at {where}: {symbol[value - 1]} can only go in {geo.cell_name(cell)}"
    if kind in ("locked_pointing", "locked_claiming") and step.cells:
        pointing = kind == "locked_pointing"
        inside = geo.unit_name(_shared_unit(step.cells, geo, box=pointing, other=step.detail))
        outside = geo.unit_name(step.detail)
        return (
            f"Look at {inside}: its {digits} can only go in {outside}, "
            f"so cross {digits} out of the rest of {outside}"
        )
    if step.name == LOCKED_NAMES.get(kind):
        line = geo.unit_name(step.detail)
        box = geo.unit_name(_shared_unit(step.cells, geo, box=True))
        return (
            f"Look at {line} and {box}: {cells} hold only {digits} between them, "
            f"so cross {digits} out of the other cells of both"
        )
    if kind in NAKED_SUBSETS and step.detail >= 0:
        return (
            f"Look at {geo.unit_name(step.detail)}: {cells} hold only {digits} between them, "
            f"so cross {digits} out of the other cells there"
        )
    if kind in HIDDEN_SUBSETS and step.detail >= 0:
        return (
            f"Look at {geo.unit_name(step.detail)}: {digits} can only go in {cells}, "
            "so cross everything else out of those cells"
        )
    if kind in ("x_wing", "swordfish", "jellyfish"):
        by_rows = step.detail == 0
        bases = sorted({(c // geo.n if by_rows else c % geo.n) + 1 for c in step.cells})
        covers = sorted({(c % geo.n if by_rows else c // geo.n) + 1 for c in step.cells})
        base, cover = ("rows", "columns") if by_rows else ("columns", "rows")
        return (
            f"Look at the {digits}s: in {base} {_listed(map(str, bases))} they can only go in "
            f"{cover} {_listed(map(str, covers))}, "
            f"so cross {digits} out of the rest of those {cover}"
        )
    if kind in KILLER_TECHNIQUES:
        return _killer_reason(step, geo, digits, cells)
    if kind == "trial_and_error" and step.eliminations and step.detail >= 0:
        cell, value = step.eliminations[0]
        name, digit = geo.cell_name(cell), symbol[value - 1]
        return (
            f"Suppose {name}={digit}: singles then lead to a contradiction within "
            f"{step.detail} placements, so {digit} cannot go in {name}"
        )
    if kind == "trial_and_error":
        return "No technique applies here: the remaining cells take trial and error"
    article = "an" if step.name[0] in VOWEL_SOUNDS else "a"
    return f"Look for {article} {step.name} on {digits} through {cells}"


def _killer_reason(step: PathStep, geo: Geometry, digits: str, cells: str) -> str:
    """A Killer step in words, naming its cage (``engine.cages.cage_name``) or its units."""
    kind, detail = step.technique, step.detail
    if kind in ("innies_outies", "cage_split", "rule_of_45"):
        T = tables(geo)
        units = _units_name(geo, int(T.grp_unit[detail]))
        total = int(T.grp_total[detail])
        signs = [int(s) for s in T.grp_sign[detail] if s]
        named = [geo.cell_name(int(c)) for c in T.grp_cells[detail] if c >= 0]
        if -1 in signs:
            plus, minus = (named[signs.index(s)] for s in (1, -1))
            what = f"{plus} is {minus} {'+' if total >= 0 else '-'} {abs(total)}"
        elif len(named) == 1:
            what = f"{named[0]} must be {total}"
        else:
            what = f"{_listed(named)} add up to {total}"
        return f"Rule of 45 on {units} (the cages inside it and across its edge): {what}"
    cage = geo.cages[detail % UNIT_FACTOR]
    name = cage_name(cage, geo.n)
    if kind == "cage_combination":
        exact = len(step.digits) == len(cage.cells)
        held = f"must hold {digits}" if exact else f"can only hold digits among {digits}"
        return f"{name.capitalize()} {held}: no other digits add up to {cage.total} there"
    if kind == "cage_confined":
        unit = geo.unit_name(detail // UNIT_FACTOR)
        if any(cell in cage.cells for cell, _ in step.eliminations):
            return (
                f"Look at {unit}: its {digits} can only go in {cells}, inside {name}, "
                f"so {digits} cannot go in the rest of the cage"
            )
        return (
            f"{name.capitalize()} must hold {digits}, and only {cells} in {unit} can take it, "
            f"so cross {digits} out of the rest of {unit}"
        )
    if kind == "cage_naked_subset":
        return (
            f"In {name}, {cells} hold only {digits} between them, "
            f"so cross {digits} out of its other cells"
        )
    return f"{name.capitalize()} must hold {digits}, which can only go in {cells} there"


def _units_name(geo: Geometry, packed: int) -> str:
    """``row 3``, ``rows 3 and 4``, ``boxes 1, 4 and 7`` from a sum group's ``grp_unit``."""
    first = packed % UNIT_FACTOR
    last = first + packed // UNIT_FACTOR
    if first == last:
        return geo.unit_name(first)
    across = geo.n // geo.box_cols  # boxes side by side: a run down a stack steps this far
    step = across if first >= 2 * geo.n and last - first >= across else 1
    kind = geo.unit_name(first).split()[0]
    numbers = [geo.unit_name(u).split()[1] for u in range(first, last + 1, step)]
    return f"{'boxes' if kind == 'box' else kind + 's'} {_listed(numbers)}"


def format_text(explanation: Explanation) -> str:
    """The path grouped by pass, one line per step: name, why, and its effects."""
    grade, geo = explanation.grade, explanation.geometry
    lines = [
        f"Puzzle {explanation.puzzle}",
        f"{geo}, {grade.clues} clues",
        f"Grade: score {grade.score:.1f}, tier {grade.tier} (the grader's path: "
        f"{grade.iterations} passes, hardest {engine_name(grade.hardest)})",
        f"Solved below in {ORDERS[explanation.order]}: {explanation.passes} passes",
    ]
    for pass_no, steps in groupby(explanation.steps, key=lambda step: step.pass_no):
        lines.append(f"\nPass {pass_no}")
        for step in steps:
            lines.append(f"  {step.name}: {reason(step, geo)} => {', '.join(effects(step, geo))}")
    return "\n".join(lines) + "\n"


def to_json(explanation: Explanation) -> dict[str, Any]:
    """The path as plain data (see ``JSON_VERSION``); cells and effects in r/c notation."""
    grade, geo = explanation.grade, explanation.geometry
    return {
        "version": JSON_VERSION,
        "puzzle": explanation.puzzle,
        "box": geo.shape,
        "score": round(float(grade.score), 3),
        "tier": grade.tier,
        "iterations": grade.iterations,
        "hardest": grade.hardest,
        "order": explanation.order,
        "passes": explanation.passes,
        "steps": [_step_json(step, geo) for step in explanation.steps],
    }


def find_row(rows: Iterable[Mapping], wanted: str) -> Mapping:
    """The row whose id is ``wanted`` or starts with it (the short id printed in books)."""
    rows = list(rows)
    missing = [key for key in ROW_KEYS if rows and key not in rows[0]]
    if missing:
        raise ExplainError(f"not a run's puzzle file: no column {', '.join(missing)}")
    found = [row for row in rows if str(row["id"]).startswith(wanted)]
    if len(found) != 1:
        problem = "no puzzle has" if not found else f"{len(found)} puzzles have"
        raise ExplainError(f"{problem} an id starting with {wanted!r}")
    return found[0]


class ExplainError(UserError):
    """The puzzle asked for cannot be found or explained."""


def engine_name(technique: str | None) -> str:
    """A technique id's display name ('none' when there is none)."""
    return NAMES[technique] if technique else "none"


def _step_json(step: PathStep, geo: Geometry) -> dict[str, Any]:
    symbol = geo.symbols
    return {
        "pass": step.pass_no,
        "technique": step.technique,
        "name": step.name,
        "digits": [symbol[d - 1] for d in step.digits],
        "cells": [geo.cell_name(c) for c in step.cells],
        "placements": [f"{geo.cell_name(c)}={symbol[v - 1]}" for c, v in step.placements],
        "eliminations": [f"{geo.cell_name(c)}<>{symbol[v - 1]}" for c, v in step.eliminations],
        "text": reason(step, geo),
    }


def _shared_unit(cells: tuple[int, ...], geo: Geometry, *, box: bool, other: int = -1) -> int:
    """The unit other than ``other`` that holds every one of ``cells``: the box (``box``) or a
    line where there is one, else a variant's unit (a diagonal or window's locked candidates)."""
    shared = set.intersection(*({int(u) for u in geo.cell_units[c]} for c in cells)) - {other}
    kinds = (2,) if box else (0, 1)
    for unit in sorted(shared, key=lambda u: (u // geo.n not in kinds, u)):
        return unit
    raise ValueError(f"cells {cells} share no unit but {other}")


def _listed(items: Iterable[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (or ``a, b or c``)."""
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"
