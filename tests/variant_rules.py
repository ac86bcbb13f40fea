"""Each variant's rules as a person states them (rows, columns, boxes or a Jigsaw's regions,
windows, diagonals), written out here from scratch rather than read from ``geo.units``, and a
SAT count from them (Glucose, not the engine's CaDiCaL counter): a second, independent check
that a puzzle has exactly one solution."""

from __future__ import annotations

import numpy as np
from pysat.solvers import Glucose4

from engine.geometry import Geometry


def rule_units(geo: Geometry) -> list[set[int]]:
    """Every unit of the grid, from the rules as a person states them (not from ``geo.units``)."""
    n = geo.n
    cells = [(r, c) for r in range(n) for c in range(n)]
    if geo.regions is not None:
        region = {i: geo.regions[i] for i in range(n * n)}
    else:
        region = {r * n + c: (r // geo.box_rows, c // geo.box_cols) for r, c in cells}
    units = [{r * n + c for c in range(n)} for r in range(n)]
    units += [{r * n + c for r in range(n)} for c in range(n)]
    units += [{i for i in region if region[i] == name} for name in set(region.values())]
    if "windoku" in geo.parts:
        units += [
            {(top + r) * 9 + left + c for r in range(3) for c in range(3)}
            for top in (1, 5)
            for left in (1, 5)
        ]
    if "x" in geo.parts:
        units += [{i * n + i for i in range(n)}, {i * n + n - 1 - i for i in range(n)}]
    return units


def obeys(geo: Geometry, values: np.ndarray) -> bool:
    """No digit twice in any unit (blanks aside)."""
    for unit in rule_units(geo):
        digits = [int(values[c]) for c in unit if values[c]]
        if len(digits) != len(set(digits)):
            return False
    return True


def sat_solutions(geo: Geometry, values: np.ndarray, limit: int = 2) -> list[np.ndarray]:
    """Up to ``limit`` solutions, by a CNF: one digit per cell, each digit once per unit."""
    n = geo.n

    def var(cell: int, digit: int) -> int:
        return cell * n + digit + 1

    clauses = []
    for cell in range(n * n):
        clauses.append([var(cell, d) for d in range(n)])
        if values[cell]:
            clauses.append([var(cell, int(values[cell]) - 1)])
    for unit in rule_units(geo):
        members = sorted(unit)
        for d in range(n):
            clauses.append([var(c, d) for c in members])
            for i, a in enumerate(members):
                clauses += [[-var(a, d), -var(b, d)] for b in members[i + 1 :]]
    found = []
    with Glucose4(bootstrap_with=clauses) as solver:
        while len(found) < limit and solver.solve():
            model = {lit for lit in solver.get_model() if lit > 0}
            grid = np.array(
                [next(d + 1 for d in range(n) if var(c, d) in model) for c in range(n * n)]
            )
            found.append(grid)
            solver.add_clause([-var(c, int(grid[c]) - 1) for c in range(n * n)])
    return found
