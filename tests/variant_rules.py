"""Each variant's rules as a person states them (rows, columns, boxes or a Jigsaw's regions,
windows, diagonals, a Killer's cages), written out here from scratch rather than read from
``geo.units`` or ``engine.cages``, and a SAT count from them (Glucose, not the engine's CaDiCaL
counter): a second, independent check that a puzzle has exactly one solution. A cage's rule is
the list of the digit sets its total allows (from itertools): one selector per set, exactly
that set's digits in the cage's cells."""

from __future__ import annotations

from itertools import combinations

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


def digit_sets(size: int, total: int, n: int) -> list[frozenset[int]]:
    """Every set of ``size`` different digits 1..n adding up to ``total``."""
    return [frozenset(s) for s in combinations(range(1, n + 1), size) if sum(s) == total]


def obeys(geo: Geometry, values: np.ndarray) -> bool:
    """No digit twice in any unit or cage (blanks aside); a complete grid fills every cage
    with its total, and the cages cover every cell once."""
    groups = rule_units(geo) + [set(cage.cells) for cage in geo.cages or ()]
    for group in groups:
        digits = [int(values[c]) for c in group if values[c]]
        if len(digits) != len(set(digits)):
            return False
    if geo.cages is not None:
        covered = sorted(c for cage in geo.cages for c in cage.cells)
        if covered != list(range(geo.ncells)):
            return False
        if values.all() and any(
            sum(int(values[c]) for c in cage.cells) != cage.total for cage in geo.cages
        ):
            return False
    return True


def sat_solutions(geo: Geometry, values: np.ndarray, limit: int = 2) -> list[np.ndarray]:
    """Up to ``limit`` solutions, by a CNF: one digit per cell, each digit once per unit, and
    in each cage different digits forming one of the sets its total allows."""
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
    selector = n * n * n
    for cage in geo.cages or ():
        cells = cage.cells
        choices = []
        for allowed in digit_sets(len(cells), cage.total, n):
            selector += 1
            choices.append(selector)
            for d in range(n):
                if d + 1 in allowed:  # the set's digits all appear ...
                    clauses.append([-selector] + [var(c, d) for c in cells])
                else:  # ... and no other
                    clauses += [[-selector, -var(c, d)] for c in cells]
        clauses.append(choices)  # empty (unsatisfiable) when no set makes the total
        for d in range(n):  # no repeat
            clauses += [[-var(a, d), -var(b, d)] for a, b in combinations(cells, 2)]
    found = []
    with Glucose4(bootstrap_with=clauses) as solver:
        while len(found) < limit and solver.solve():
            model = {lit for lit in solver.get_model() if 0 < lit <= n * n * n}
            grid = np.array(
                [next(d + 1 for d in range(n) if var(c, d) in model) for c in range(n * n)]
            )
            found.append(grid)
            solver.add_clause([-var(c, int(grid[c]) - 1) for c in range(n * n)])
    return found
