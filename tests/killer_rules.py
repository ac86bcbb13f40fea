"""Killer rules written out again for the tests, apart from the engine: each cage's digit sets
from itertools (not ``engine.cages.combinations``), a Killer checker, and a SAT count (Glucose,
not the engine's CaDiCaL counter) whose cage constraint is the list of the digit sets the
cage's total allows: one selector per set, exactly the set's digits in the cage's cells.

``solo_killer`` reads Simon Tatham's Solo killer descriptions for the tests and the bench until
``pipeline/formats/solo.py`` (helper B's reader) is merged; then they import that one instead.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
from pysat.solvers import Glucose4

from engine.cages import checked_cages
from engine.geometry import Geometry, geometry
from tests.variant_rules import obeys, rule_units


def digit_sets(size: int, total: int, n: int) -> list[frozenset[int]]:
    """Every set of ``size`` different digits 1..n adding up to ``total``."""
    return [frozenset(s) for s in combinations(range(1, n + 1), size) if sum(s) == total]


def obeys_killer(geo: Geometry, values: np.ndarray) -> bool:
    """A complete grid that keeps the variant's units and every cage (its total, no repeat),
    with the cages covering every cell once."""
    covered = sorted(c for cage in geo.cages for c in cage.cells)
    if covered != list(range(geo.ncells)) or not obeys(geo, values):
        return False
    for cage in geo.cages:
        digits = [int(values[c]) for c in cage.cells]
        if len(set(digits)) != len(digits) or sum(digits) != cage.total:
            return False
    return True


def killer_solutions(geo: Geometry, values: np.ndarray, limit: int = 2) -> list[np.ndarray]:
    """Up to ``limit`` solutions of a Killer (or any variant: no cages, no cage clauses)."""
    n = geo.n

    def var(cell: int, digit: int) -> int:  # digit 1..n
        return cell * n + digit

    clauses = []
    for cell in range(n * n):
        clauses.append([var(cell, d) for d in range(1, n + 1)])
        clauses += [[-var(cell, a), -var(cell, b)] for a, b in combinations(range(1, n + 1), 2)]
        if values[cell]:
            clauses.append([var(cell, int(values[cell]))])
    for unit in rule_units(geo):
        for d in range(1, n + 1):
            clauses.append([var(c, d) for c in sorted(unit)])
            clauses += [[-var(a, d), -var(b, d)] for a, b in combinations(sorted(unit), 2)]
    selector = n * n * n
    for cage in geo.cages or ():
        cells = cage.cells
        choices = []
        for allowed in digit_sets(len(cells), cage.total, n):
            selector += 1
            choices.append(selector)
            for d in range(1, n + 1):
                if d in allowed:  # the set's digits all appear ...
                    clauses.append([-selector] + [var(c, d) for c in cells])
                else:  # ... and no other
                    clauses += [[-selector, -var(c, d)] for c in cells]
        clauses.append(choices)  # empty (unsatisfiable) when no set makes the total
        for d in range(1, n + 1):  # no repeat
            clauses += [[-var(a, d), -var(b, d)] for a, b in combinations(cells, 2)]
    found = []
    with Glucose4(bootstrap_with=clauses) as solver:
        while len(found) < limit and solver.solve():
            model = {lit for lit in solver.get_model() if 0 < lit <= n * n * n}
            grid = np.array(
                [next(d for d in range(1, n + 1) if var(c, d) in model) for c in range(n * n)]
            )
            found.append(grid)
            solver.add_clause([-var(c, int(grid[c])) for c in range(n * n)])
    return found


def solo_killer(description: str) -> tuple[Geometry, str]:
    """A Solo killer description (``3x3k:<givens>,<cage walls>,<sums>``) as the killer geometry
    and the givens. Walls: the internal edges, vertical ones row by row, then horizontal ones
    column by column, each letter a run of that many open edges before a wall (``_`` none,
    ``z`` 26 open edges and no wall); givens and sums: numbers, letters for runs of empty cells.
    """
    shape, _, body = description.partition(":")
    rows, cols = (int(x) for x in shape.rstrip("kdx").split("x"))
    n = rows * cols
    givens, walls, sums = body.split(",")
    given_values = _run_length(givens, n * n)
    totals = _run_length(sums, n * n)
    parent = list(range(n * n))

    def root(cell: int) -> int:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    edges = 2 * n * (n - 1)
    position = 0
    for char in walls:
        run = 26 if char == "z" else (0 if char == "_" else ord(char) - ord("a") + 1)
        for edge in range(position, min(position + run, edges)):
            a, b = _edge_cells(edge, n)
            parent[root(a)] = root(b)
        position += run + (char != "z")
    cages: dict[int, list[int]] = {}
    for cell in range(n * n):
        cages.setdefault(root(cell), []).append(cell)
    made = []
    for cells in cages.values():
        total = sum(totals[c] for c in cells)
        made.append((total, cells))
    geo = geometry(rows, cols, "killer", None, checked_cages(made, n))
    symbols = geo.symbols
    return geo, "".join(symbols[v - 1] if v else "." for v in given_values)


def _edge_cells(edge: int, n: int) -> tuple[int, int]:
    if edge < n * (n - 1):
        y, x = divmod(edge, n - 1)
        return y * n + x, y * n + x + 1
    x, y = divmod(edge - n * (n - 1), n - 1)
    return y * n + x, (y + 1) * n + x


def _run_length(text: str, cells: int) -> list[int]:
    out: list[int] = []
    at = 0
    while at < len(text):
        char = text[at]
        if char.isdigit():
            end = at
            while end < len(text) and text[end].isdigit():
                end += 1
            out.append(int(text[at:end]))
            at = end
        else:
            if char != "_":
                out += [0] * (ord(char) - ord("a") + 1)
            at += 1
    if len(out) != cells:
        raise ValueError(f"Solo description field has {len(out)} cells, expected {cells}")
    return out
