"""SAT counter: settles the grids whose search trees the DFS counter cannot finish.

Some big puzzles (the MiniZinc Challenge 25x25) defeat propagation plus branching: the DFS meets
the same dead end again in millions of subtrees. A conflict-driven clause-learning solver turns
each dead end into a clause saying why it failed, so it is met once. The solver is CaDiCaL from
python-sat (``bench/sat_bench.py`` measures it against some of the others the package ships).

Encoding: one variable per (open cell, value the givens still allow), so given cells, and values
a given peer holds, have no variable; numbered cell by cell, most candidates first
(``numbering``). Each open cell takes a value and each value a unit lacks takes a place in it (at
least one); a cell takes one value and peers never share one (at most one, pairwise). A Killer
cage (its cells are peers) gets a selector per digit set its total allows that holds the cage's
givens: one selector holds, and a selected set's other digits each take a place in the cage's
open cells, while digits outside it take none. Counting goes on past a solution by blocking it:
a clause that not all of its placements hold again. A Killer dig asks its hundreds of layouts of
one incremental solver instead (:class:`OtherSolution`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from engine.cages import combinations
from engine.geometry import Geometry, per_geometry
from engine.search import Tables

SOLVER = "cadical195"  # a python-sat solver name: CaDiCaL 1.9.5, the fastest here
# CaDiCaL's stable mode only, as its --sat preset: 13-30 % fewer conflicts than its default on the
# grids that reach SAT (bench/sat_bench.py --options '{}'). Solvers other than CaDiCaL ignore it.
OPTIONS = {"stabilizeonly": 1}
ROWS_AT_ONCE = 256  # grids per numpy step in without_singles: bounds its memory on big batches


def count(values: np.ndarray, tables: Tables, limit: int, solution: np.ndarray) -> int:
    """Count the completions of ``values`` (0 = blank) up to ``limit``; the first goes to
    ``solution``. ``tables`` are the counter's; clashing givens count 0, as there.
    """
    found = 0
    for grid in solutions(values, tables, limit):
        if not found:
            solution[:] = grid
        found += 1
    return found


def solutions(values: np.ndarray, tables: Tables, limit: int) -> Iterator[np.ndarray]:
    """Up to ``limit`` distinct completions of ``values``, each a new array of cell values."""
    n, peers, units = tables.n, tables.peers, tables.units
    cand = candidates(values, peers, n)
    if cand is None:
        return
    if values.all():  # nothing open: the givens, which do not clash, are the one solution
        yield values.copy()
        return
    var = numbering(cand)
    clauses = encode(values, cand, var, peers, units)
    placements = np.count_nonzero(cand)  # variables past these select a cage's digit set
    sums = cage_clauses(values, var, tables, placements + 1)
    if clauses is None or sums is None:
        return
    clauses += sums
    from pysat.solvers import Solver  # imported here: `import engine` stays fast

    cells, digits = np.zeros((2, placements + 1), dtype=np.int64)
    cells[var[cand]], digits[var[cand]] = np.nonzero(cand)  # variable v is (cells[v], digits[v])
    with Solver(name=SOLVER) as solver:
        solver.configure(OPTIONS)
        solver.append_formula(clauses)
        for found in range(1, limit + 1):
            if not solver.solve():
                return
            model = np.array(solver.get_model())
            placed = model[(model > 0) & (model <= placements)]  # one per open cell
            grid = values.copy()
            grid[cells[placed]] = digits[placed] + 1
            yield grid
            if found < limit:  # block it: not all of these placements again
                solver.add_clause((-placed).tolist())


def candidates(values: np.ndarray, peers: np.ndarray, n: int) -> np.ndarray | None:
    """Per cell and value index, whether an open cell may still take it given its peers' givens
    (all False for a given cell); None when two givens clash."""
    seen, cand = _seen_and_open(values[None], peers, n)
    given = np.flatnonzero(values)
    if seen[0, given, values[given]].any():
        return None
    return cand[0]


def without_singles(values: np.ndarray, peers: np.ndarray, units: np.ndarray, n: int) -> np.ndarray:
    """Per row of ``values`` (grids of one size), whether the givens leave no single: no open cell
    down to one value and no value a unit lacks down to one place in it (clashing rows: either)."""
    stuck = np.zeros(values.shape[0], dtype=bool)
    for start in range(0, values.shape[0], ROWS_AT_ONCE):
        rows = values[start : start + ROWS_AT_ONCE]
        cand = _seen_and_open(rows, peers, n)[1]
        naked = (np.count_nonzero(cand, axis=2) == 1).any(axis=1)
        # a value a unit holds has no place left in it, so one place is a hidden single
        hidden = (np.count_nonzero(cand[:, units], axis=2) == 1).any(axis=(1, 2))
        stuck[start : start + rows.shape[0]] = ~(naked | hidden)
    return stuck


def _seen_and_open(rows: np.ndarray, peers: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """For grids ``rows``: ``seen[g, cell, v]``, a peer holds v (column 0: blank), and the open
    cells' candidates that leaves (value index ``v - 1``)."""
    ncells = rows.shape[1]
    seen = np.zeros((rows.shape[0], ncells, n + 1), dtype=bool)
    seen[np.arange(rows.shape[0])[:, None, None], np.arange(ncells)[:, None], rows[:, peers]] = True
    return seen, ~seen[..., 1:] & (rows == 0)[..., None]


def numbering(cand: np.ndarray) -> np.ndarray:
    """The variable (1..) of each cell and value index ``cand`` allows, else 0: a cell's
    variables are consecutive, and cells with more candidates come first. CaDiCaL's first
    decisions then fall on the cells with fewest candidates (it seems to break ties towards
    high-numbered variables): 10-16 % fewer conflicts than row-major order on the grids that
    reach SAT (44,258 instead of 49,482 on the 16x16 set, 38,633 instead of 42,564 on the 25x25)."""
    order = np.argsort(-np.count_nonzero(cand, axis=1), kind="stable")
    var = np.zeros(cand.shape, dtype=np.int64)
    var[order] = np.cumsum(cand[order]).reshape(cand.shape) * cand[order]
    return var


def encode(
    values: np.ndarray, cand: np.ndarray, var: np.ndarray, peers: np.ndarray, units: np.ndarray
) -> list[list[int]] | None:
    """The clauses over the variables ``var`` (from :func:`numbering`); None when an open cell,
    or a value missing from a unit, has no place left."""
    ncells, n = cand.shape
    per_cell = np.count_nonzero(cand, axis=1)
    if (per_cell[values == 0] == 0).any():
        return None
    starts = (var.max(axis=1) - per_cell + 1).tolist()  # each cell's first variable
    clauses = [
        list(range(start, start + k))
        for start, k in zip(starts, per_cell.tolist(), strict=True)
        if k
    ]
    # a place for each value a unit lacks: rows (unit, value) of places
    places = var[units].transpose(0, 2, 1).reshape(-1, n)
    lacking = np.ones((units.shape[0], n + 1), dtype=bool)
    lacking[np.arange(units.shape[0])[:, None], values[units]] = False
    places = places[lacking[:, 1:].reshape(-1)]
    if not places.any(axis=1).all():
        return None
    clauses += [row[row > 0].tolist() for row in places]
    first, second = np.triu_indices(n, 1)
    cell = np.repeat(np.arange(ncells), peers.shape[1])
    peer = peers.ravel()
    cell, peer = cell[cell < peer], peer[cell < peer]
    for a, b in (
        (var[:, first], var[:, second]),  # one value per cell: each pair of its candidates
        (var[cell], var[peer]),  # one place per value and unit: each pair of peers sharing it
    ):
        both = (a > 0) & (b > 0)
        clauses += np.stack([-a[both], -b[both]], axis=1).tolist()
    return clauses


def cage_clauses(
    values: np.ndarray, var: np.ndarray, tables: Tables, first: int
) -> list[list[int]] | None:
    """The Killer cages' clauses (see the module doc), their selectors numbered from ``first``;
    [] without cages, None when a cage has no digit set left that holds its givens."""
    clauses: list[list[int]] = []
    if tables.cages is None:
        return clauses
    selector = int(first)
    cage_cells, starts, sets = tables.cages
    for k, row in enumerate(cage_cells):
        cells = row[row >= 0]
        given = 0
        for v in values[cells][values[cells] > 0].tolist():
            given |= 1 << (v - 1)
        open_cells = cells[values[cells] == 0]
        masks = [mask for mask in sets[starts[k] : starts[k + 1]].tolist() if mask & given == given]
        if not open_cells.size:
            if given not in masks:
                return None  # the givens fill the cage but miss its total
            continue
        sums, chosen = digit_set_clauses(var[open_cells], masks, given, selector)
        if not chosen:
            return None
        clauses += sums
        clauses.append(chosen)
        selector += len(chosen)
    return clauses


def digit_set_clauses(
    places: np.ndarray, masks: Sequence[int], given: int, first: int
) -> tuple[list[list[int]], list[int]]:
    """A cage's digit sets ``masks`` over its open cells (``places``: their variable per digit,
    0 for none): one selector each, numbered from ``first``, and clauses that a selected set's
    digits not among the cage's givens ``given`` each take a place, and that digits outside it
    take none. Returns the clauses and the selectors (one of which must hold)."""
    clauses: list[list[int]] = []
    selectors = list(range(first, first + len(masks)))
    columns = [column[column > 0].tolist() for column in places.T]  # each digit's places
    for selector, mask in zip(selectors, masks, strict=True):
        for digit, column in enumerate(columns):
            if mask >> digit & 1 and not given >> digit & 1:
                clauses.append([-selector, *column])
            elif not mask >> digit & 1:
                clauses += [[-selector, -p] for p in column]
    return clauses, selectors


class OtherSolution:
    """One Killer dig's uniqueness question, asked of one incremental SAT solver: has a cage
    layout (and givens) over the full grid ``solution`` a solution other than the grid?

    The grid's units are encoded once, with a clause that some cell differs from the grid; each
    cage (cells and total) the dig tries gets an activation literal the first time, and a
    layout is asked as the activation literals of its cages, and its givens, assumed. A digger
    asks hundreds of layouts that differ by a split or a merge: the solver keeps what it learned
    between them, where encoding each layout afresh cost more than solving it. ``geo`` is the
    grid's geometry without cages (a cage's no-repeat rule comes with the cage here)."""

    def __init__(self, solution: np.ndarray, geo: Geometry) -> None:
        from pysat.solvers import Solver  # imported here: `import engine` stays fast

        self.n = geo.n
        self.var = np.arange(1, geo.ncells * geo.n + 1).reshape(geo.ncells, geo.n)
        self.peers = _peer_pairs(geo)
        self.next_var = self.var.size + 1
        self.activators: dict[tuple[int, tuple[int, ...]], int] = {}
        self.solver = Solver(name=SOLVER)
        self.solver.configure(OPTIONS)
        self.solver.append_formula(_grid_clauses(geo))
        cells = np.arange(geo.ncells)
        self.solver.add_clause((-self.var[cells, solution.astype(np.int64) - 1]).tolist())

    def find(
        self, cages: Iterable[tuple[int, Sequence[int]]], givens: np.ndarray
    ) -> np.ndarray | None:
        """A solution of the layout ``cages`` (total, cells) and ``givens`` (0 = blank) other
        than the grid, or None when the grid is its only one."""
        assumptions = [self._activator(total, tuple(sorted(cells))) for total, cells in cages]
        given = np.flatnonzero(givens)
        assumptions += self.var[given, givens[given].astype(np.int64) - 1].tolist()
        if not self.solver.solve(assumptions=assumptions):
            return None
        model = np.array(self.solver.get_model()[: self.var.size])
        chosen = model[model > 0] - 1  # variable v + 1 is cell v // n taking digit v % n + 1
        other = np.zeros(givens.size, dtype=givens.dtype)
        other[chosen // self.n] = chosen % self.n + 1
        return other

    def close(self) -> None:
        self.solver.delete()

    def _activator(self, total: int, cells: tuple[int, ...]) -> int:
        key = (total, cells)
        if key not in self.activators:
            self.activators[key] = self._new_var()
            self.solver.append_formula(self._cage_clauses(self.activators[key], total, cells))
        return self.activators[key]

    def _cage_clauses(self, active: int, total: int, cells: tuple[int, ...]) -> list[list[int]]:
        """When ``active`` holds: one digit set of the total is selected; its digits each take a
        place in the cage, the others none (so no digit twice), and no two cells share a digit
        (said again pairwise, for propagation)."""
        places = self.var[list(cells)]  # (cell, digit) variables
        masks = combinations(len(cells), total, self.n)
        clauses, selectors = digit_set_clauses(places, masks, 0, self.next_var)
        self.next_var += len(selectors)
        clauses.append([-active, *selectors])
        rows = places.tolist()
        for i, a in enumerate(cells):
            for j in range(i + 1, len(cells)):
                if (a, cells[j]) not in self.peers:
                    clauses += [[-active, -p, -q] for p, q in zip(rows[i], rows[j], strict=True)]
        return clauses

    def _new_var(self) -> int:
        self.next_var += 1
        return self.next_var - 1


@per_geometry
def _grid_clauses(geo: Geometry) -> list[list[int]]:
    """The clauses of an empty grid of ``geo`` (variable ``cell * n + digit index + 1``), shared
    by the digs on one geometry."""
    cand = np.ones((geo.ncells, geo.n), dtype=bool)
    var = np.arange(1, cand.size + 1).reshape(cand.shape)  # numbering() with no givens
    clauses = encode(np.zeros(geo.ncells, dtype=np.uint8), cand, var, geo.peers, geo.units)
    assert clauses is not None, "an empty grid has completions"
    return clauses


@per_geometry
def _peer_pairs(geo: Geometry) -> frozenset[tuple[int, int]]:
    return frozenset((a, b) for a, row in enumerate(geo.peers.tolist()) for b in row)
