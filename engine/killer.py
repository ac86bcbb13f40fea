"""Killer puzzles from full grids: random cage layouts, and the digger that makes one unique and
graded into a tier.

* **Layouts** (:func:`random_cages`): cages grow over the full grid row by row, each from the
  first cell no cage holds yet, to a size drawn from a mix like published books' (mostly 2-4
  cells, a few 5-6; :data:`SIZE_MIX`), through orthogonal neighbours whose digit the cage does
  not hold yet. A cell left alone joins a neighbouring cage that lacks its digit.
* **Digging** (:func:`dig_killer`): each layout is graded first, as Solo does: the ladder up to
  the band's top (``engine.grade.rate_solved_in``) solving it by sound steps proves it has one
  solution, so most layouts need no count at all. A layout is graded on its tables alone
  (``engine.logic.tables.layout_tables``): only the puzzle returned gets a Geometry, whose
  making and checking cost more than a grading. One the ladder leaves stuck (it has several
  solutions, or is too hard for the band) is loosened where the ladder stopped, and graded
  again until it is not: where the tier allows givens (a band that singles solve, and 6x6
  grids) half the time a given; else a cage of four cells or more holding an open cell is
  split in two connected parts of two cells or more; failing that, an open cell moves into a
  neighbouring cage that lacks its digit (leaving no cage of one cell), and last a triple or a
  pair holding one is split (a one-cell cage: a given in disguise, so the last resort). A
  graded puzzle too hard for the band (solved above it) gets a given or its biggest cage split;
  one too easy has two cages merged, kept when the ladder still solves it (for a band of
  chain-level steps, :data:`SETTLE_MERGES_FROM`, loosened as above until it does). After
  :data:`STALL_MOVES` moves without getting closer a fresh layout is drawn. Only the whole
  ladder (a band with no top, as extreme) cannot tell several solutions from nested trial: its
  layouts are counted first, by one incremental SAT solver per dig
  (``engine.sat.OtherSolution``: the grid's units once, each cage once, a layout as
  assumptions, made the first time a dig needs it), and a second solution says where to
  loosen. The final puzzle is counted once more on its own geometry.
"""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np

from engine import sat
from engine.cages import Cage, checked_cages
from engine.dig import DigFailed, ImpossibleBand, UnknownTier, check_limits, miss, tiers_for
from engine.dig import too_hard as band_too_hard
from engine.geometry import Box, Geometry, with_cages
from engine.grade import RUNG_ARRAY, Grade, Rating, rate_solved_in, rate_within, rungs_within
from engine.grids import Seed, rng_from
from engine.logic.passes import layout_workspace
from engine.logic.state import Tables
from engine.logic.tables import layout_tables
from engine.solver import count_grid
from engine.text import Grid, parse, to_text
from engine.tiers import Tier

#: Cage sizes a layout draws, with their weights: mostly 2-4 cells, a few of 5 and 6, none of
#: one (Solo's basic killers are three quarters pairs; newspapers' mostly 2-4 cells).
SIZE_MIX: Mapping[int, float] = {2: 0.30, 3: 0.33, 4: 0.22, 5: 0.10, 6: 0.05}
#: the mix for a band that singles solve: smaller cages, whose sums say more
EASY_MIX: Mapping[int, float] = {2: 0.55, 3: 0.35, 4: 0.10}
DEFAULT_BUDGET = 200  # layouts and moves before DigFailed
STALL_MOVES = 6  # moves without getting closer to the band before a fresh layout
GIVENS_SHARE = 0.15  # at most this share of the cells as givens, where a tier allows them
EASY_TOP = 2.5  # a band whose top score is this or less may have givens (as singles-level)
CHILDREN_SIZE = 6  # grids this size or smaller may have givens at any tier
KEPT_TABLES = 4  # layouts whose tables a dig keeps
#: Bands from this score up (chain-level steps: expert, extreme) loosen a merge that leaves the
#: ladder stuck, as a fresh layout is, instead of dropping it: past an AIC the ladder's next
#: steps mostly rate 7.9 and up (the ALS), so such a merge is mostly one step too hard, and a
#: split where it stuck lands between (measured on 120 expert digs: 44 % -> 68 % landed within
#: the budget, 0.80 -> 1.38 landed a CPU second). Below, dropping it is cheaper.
SETTLE_MERGES_FROM = 6.0


@dataclass(frozen=True)
class KillerResult:
    """A dug Killer: the givens (usually none), the solution, the geometry with its cages, the
    grade, and how many layouts and moves were tried."""

    puzzle: str
    solution: str
    geometry: Geometry
    grade: Grade
    attempts: int


def killer_geometry(base: Geometry, cages) -> Geometry:
    """``base`` (a non-Killer geometry: classic, X, Jigsaw ...) with Killer cages added."""
    return base.with_variant(with_cages(base.variant), base.regions, checked_cages(cages, base.n))


def random_cages(
    solution: str, *, seed: Seed, box: Box = None, sizes: Mapping[int, float] | None = None
) -> tuple[Cage, ...]:
    """A random cage layout over the full grid ``solution`` (see the module doc), checked and
    sorted as :func:`engine.cages.checked_cages` gives it. Deterministic for a given seed."""
    grid = parse(solution, box)
    layout = _Layout.grown(grid.values, grid.geometry.n, rng_from(seed), sizes or SIZE_MIX)
    return checked_cages(layout.cages(grid.values), grid.geometry.n)


class _Layout:
    """Cages as lists of cells and each cell's cage index (an emptied cage stays as [])."""

    def __init__(self, members: list[list[int]], n: int, owner: np.ndarray) -> None:
        self.members = members
        self.n = n
        self.owner = owner  # int64

    @classmethod
    def grown(
        cls, values: np.ndarray, n: int, rng: np.random.Generator, mix: Mapping[int, float]
    ) -> _Layout:
        sizes = list(mix)
        weights = np.array(list(mix.values()), dtype=np.float64)
        weights /= weights.sum()
        # each cage's size is drawn as ``rng.choice(sizes, p=weights)`` draws it (one uniform
        # against the cumulative weights), without that call's 6 us of checks a cage
        cumulative = weights.cumsum()
        cumulative = (cumulative / cumulative[-1]).tolist()
        digits = values.tolist()
        around = _around(n)
        owner = [-1] * (n * n)
        members: list[list[int]] = []
        for start in range(n * n):
            if owner[start] >= 0:
                continue
            target = sizes[bisect.bisect_right(cumulative, rng.random())]
            index = len(members)
            cells, held = [start], {digits[start]}
            owner[start] = index
            while len(cells) < target:
                grow = sorted(
                    {
                        nb
                        for c in cells
                        for nb in around[c]
                        if owner[nb] < 0 and digits[nb] not in held
                    }
                )
                if not grow:
                    break
                cell = grow[int(rng.integers(len(grow)))]
                owner[cell] = index
                cells.append(cell)
                held.add(digits[cell])
            members.append(cells)
        layout = cls(members, n, np.array(owner, dtype=np.int64))
        if 1 not in mix:
            for index, cells in enumerate(members):
                if len(cells) == 1:
                    layout.merge_with_neighbour(index, values, rng, n)
        return layout

    def copy(self) -> _Layout:
        return _Layout([list(cells) for cells in self.members], self.n, self.owner.copy())

    def totals(self, values: np.ndarray) -> np.ndarray:
        """Each cage's sum of ``values`` (int64, 0 for an emptied cage), by cage index."""
        totals = np.bincount(self.owner, weights=values, minlength=len(self.members))
        return totals.astype(np.int64)

    def cages(self, values: np.ndarray) -> list[tuple[int, list[int]]]:
        totals = self.totals(values).tolist()
        return [(totals[i], cells) for i, cells in enumerate(self.members) if cells]

    def neighbour_cages(self, index: int) -> list[int]:
        """Indices of the cages that touch cage ``index`` (sorted)."""
        cells = self.members[index]
        return sorted(
            {int(self.owner[nb]) for c in cells for nb in _neighbours(c, self.n)} - {index}
        )

    def can_merge(self, a: int, b: int, values: np.ndarray, largest: int) -> bool:
        cells = self.members[a] + self.members[b]
        digits = values[cells]
        return len(cells) <= largest and len(set(digits.tolist())) == len(cells)

    def merge(self, a: int, b: int) -> None:
        self.members[a] = sorted(self.members[a] + self.members[b])
        self.owner[self.members[b]] = a
        self.members[b] = []

    def merge_with_neighbour(
        self, index: int, values: np.ndarray, rng: np.random.Generator, largest: int
    ) -> bool:
        """Merge cage ``index`` with a random neighbouring cage it can join; False if none."""
        options = [
            b for b in self.neighbour_cages(index) if self.can_merge(index, b, values, largest)
        ]
        if not options:
            return False
        self.merge(index, options[int(rng.integers(len(options)))])
        return True

    def split(self, index: int, rng: np.random.Generator) -> bool:
        """Split cage ``index`` into two connected cages, neither of one cell when the cage has
        four or more (a one-cell cage is a given in disguise); False when it has one cell."""
        cells = self.members[index]
        if len(cells) < 2:
            return False
        least = 2 if len(cells) >= 4 else 1
        for _ in range(len(cells)):
            piece = {cells[int(rng.integers(len(cells)))]}
            size = int(rng.integers(least, len(cells) - least + 1))
            while len(piece) < size:
                grow = sorted(
                    {nb for c in piece for nb in _neighbours(c, self.n) if nb in cells} - piece
                )
                piece.add(grow[int(rng.integers(len(grow)))])
            rest = [c for c in cells if c not in piece]
            if _connected(rest, self.n):
                self.members[index] = sorted(piece)
                self.members.append(rest)
                self.owner[rest] = len(self.members) - 1
                return True
        return False


def _neighbours(cell: int, n: int) -> tuple[int, ...]:
    return _around(n)[cell]


@cache
def _around(n: int) -> tuple[tuple[int, ...], ...]:
    """Each cell's orthogonal neighbours on an n x n grid."""
    return tuple(
        tuple(
            rr * n + cc
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < n and 0 <= cc < n
        )
        for r, c in (divmod(cell, n) for cell in range(n * n))
    )


def _connected(cells: list[int], n: int) -> bool:
    inside = set(cells)
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        for nb in _neighbours(todo.pop(), n):
            if nb in inside and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(inside)


def dig_killer(
    solution: str,
    target: str | Tier,
    *,
    seed: Seed,
    box: Box = None,
    tiers: Mapping[str, Tier] | None = None,
    budget: int | None = None,
    time_limit: float | None = None,
) -> KillerResult:
    """A unique Killer on the full grid ``solution`` whose grade lands in ``target`` (see the
    module doc). ``box`` is the grid's shape or a non-Killer geometry the cages are added to;
    ``target`` a tier name of ``tiers`` (default ``engine.dig.tiers_for`` the Killer grid) or
    a band; ``budget`` caps the layouts and moves tried, ``time_limit`` the seconds (checked
    between them). Deterministic for a given seed. Raises ``DigFailed``, ``ImpossibleBand``.
    """
    check_limits(budget, time_limit)
    grid = parse(solution, box)
    base = grid.geometry
    if "killer" in base.parts:
        raise ValueError(f"dig_killer adds the cages itself: give the grid without them ({base})")
    if not grid.values.all():
        blank = base.cell_name(int(np.argmin(grid.values)))
        raise ValueError(f"cannot dig from a grid with blanks: {blank} is empty")
    mapping = dict(tiers) if tiers is not None else tiers_for(base)
    if isinstance(target, Tier):
        band = target
        mapping = mapping if mapping.get(band.name) == band else {band.name: band}
    elif target in mapping:
        band = mapping[target]
    else:
        raise UnknownTier(f"unknown tier {target!r}; the tiers in use are {', '.join(mapping)}")
    if band.clues and band.clues[0] > GIVENS_SHARE * base.ncells:
        raise ImpossibleBand(f"tier {band.name!r}: a Killer has at most {GIVENS_SHARE:.0%} givens")
    digger = _KillerDigger(grid, band, mapping, rng_from(seed))
    return digger.run(budget or DEFAULT_BUDGET, time_limit)


@dataclass
class _Candidate:
    layout: _Layout
    puzzle: np.ndarray
    unique: bool = False  # proven to have one solution (a split or a given keeps it so)
    rating: Rating | None = None  # None: the ladder up to the band's top left it stuck
    distance: float = math.inf
    open_cells: np.ndarray | None = None  # where it is stuck: cells left open, or that differ
    geometry: Geometry | None = None  # the Killer's, made when asked for (_KillerDigger.geometry)


class _KillerDigger:
    """One dig's state: the grid, the band, the random stream, and the SAT solver for second
    solutions once a layout needs one."""

    def __init__(
        self, grid: Grid, band: Tier, mapping: dict[str, Tier], rng: np.random.Generator
    ) -> None:
        self.base = grid.geometry
        self.solution = np.ascontiguousarray(grid.values, dtype=np.uint8)
        self.band = band
        self.mapping = mapping
        self.rng = rng
        self.top = band.score[1] if band.score else math.inf
        self.whole_ladder = len(rungs_within(self.top)) == len(RUNG_ARRAY)
        self._others: sat.OtherSolution | None = None
        easy = band.score is not None and band.score[1] <= EASY_TOP
        self.mix = EASY_MIX if easy else SIZE_MIX
        self.givens_allowed = easy or self.base.n <= CHILDREN_SIZE
        self.settle_merges = band.score is not None and band.score[0] >= SETTLE_MERGES_FROM
        self.largest = self.base.n
        self.attempts = 0
        self.space = layout_workspace(self.base)
        self.tables: dict[bytes, Tables] = {}  # the last layouts' (a given keeps the layout)

    def run(self, budget: int, time_limit: float | None) -> KillerResult:
        try:
            return self.walk(budget, time_limit)
        finally:
            if self._others is not None:
                self._others.close()

    def walk(self, budget: int, time_limit: float | None) -> KillerResult:
        deadline = None if time_limit is None else time.monotonic() + time_limit
        closest: _Candidate | None = None
        current: _Candidate | None = None
        stalled = 0
        while self.attempts < budget:
            if deadline is not None and time.monotonic() > deadline:
                break
            self.attempts += 1
            if current is None or stalled >= STALL_MOVES:
                candidate = self.fresh()
                stalled = 0
            else:
                candidate = self.move(current)
            if candidate is None:
                stalled += 1
                continue
            if candidate.distance == 0.0 and self.accept(candidate):
                return self.result(candidate)
            if current is None or candidate.distance <= current.distance:
                # a move that is no further goes on from there
                closer = current is None or candidate.distance < current.distance
                current, stalled = candidate, 0 if closer else stalled + 1
            else:
                stalled += 1
            if closest is None or candidate.distance < closest.distance:
                closest = candidate
        raise DigFailed(self.failure(closest))

    def fresh(self) -> _Candidate | None:
        """A new layout, loosened until graded (:meth:`settled`)."""
        layout = _Layout.grown(self.solution, self.base.n, self.rng, self.mix)
        return self.settled(_Candidate(layout, np.zeros_like(self.solution)))

    def move(self, current: _Candidate) -> _Candidate | None:
        """One graded step towards the band from a graded candidate (see the module doc); None
        when the step finds nothing to change, or a merge leaves the ladder stuck (below
        SETTLE_MERGES_FROM; from there, such a merge is loosened as a fresh layout is)."""
        assert current.rating is not None, "the walk holds graded candidates only"
        layout, puzzle = current.layout.copy(), current.puzzle.copy()
        if band_too_hard(self.band, current.rating):
            moved = _Candidate(layout, puzzle, unique=current.unique)
            if not self.add_given(moved):
                sizes = np.array([len(cells) for cells in layout.members])
                big = np.flatnonzero(sizes == sizes.max())
                if not layout.split(int(big[int(self.rng.integers(len(big)))]), self.rng):
                    return None
            return self.settled(moved)
        live = [i for i, cells in enumerate(layout.members) if cells]
        index = live[int(self.rng.integers(len(live)))]
        if not layout.merge_with_neighbour(index, self.solution, self.rng, self.largest):
            return None
        merged = _Candidate(layout, puzzle)
        if self.settle_merges:
            return self.settled(merged)
        self.rate(merged)
        return merged if merged.rating is not None else None

    def settled(self, candidate: _Candidate) -> _Candidate | None:
        """The candidate graded, loosened first where it is stuck for as long as it is (each
        loosening ends a second solution or a step beyond the band); None when nothing
        loosens it."""
        for _ in range(self.base.ncells):
            self.rate(candidate)
            if candidate.rating is not None:
                return candidate
            assert candidate.open_cells is not None, "rate() says where it is stuck"
            if self.add_given(candidate, candidate.open_cells):
                continue
            refined = self.loosen(candidate.layout, candidate.open_cells)
            if refined is None:
                return None
            candidate.unique = candidate.unique and refined
        return None

    def add_given(self, candidate: _Candidate, among: np.ndarray | None = None) -> bool:
        """Half the time, where the tier allows givens and has room for one, give the digit of
        a random blank cell (of ``among`` when given); False when it does not."""
        puzzle = candidate.puzzle
        if not self.givens_allowed or np.count_nonzero(puzzle) >= GIVENS_SHARE * puzzle.size:
            return False
        if self.rng.random() >= 0.5:
            return False
        blank = np.flatnonzero(puzzle == 0)
        if among is not None:
            blank = np.intersect1d(blank, among)
        if not len(blank):
            return False
        cell = int(blank[int(self.rng.integers(len(blank)))])
        puzzle[cell] = self.solution[cell]
        return True

    def loosen(self, layout: _Layout, stuck: np.ndarray) -> bool | None:
        """Change the cages around the ``stuck`` cells (see the module doc): True for a split
        (every solution of the new layout is one of the old), False for a hand-over (not so),
        None when nothing can change."""
        owners = sorted({int(layout.owner[c]) for c in stuck})
        # least one-cell cages first: split a cage of four or more, hand a cell over, and
        # only then split a triple or a pair
        big = [a for a in owners if len(layout.members[a]) >= 4]
        if big and layout.split(big[int(self.rng.integers(len(big)))], self.rng):
            return True
        if self.hand_over(layout, stuck):
            return False
        small = [a for a in owners if len(layout.members[a]) in (2, 3)]
        if small and layout.split(small[int(self.rng.integers(len(small)))], self.rng):
            return True
        return None

    def second_solution(self, layout: _Layout, puzzle: np.ndarray) -> np.ndarray | None:
        """A solution other than the grid's, or None when there is none (the dig's SAT solver,
        made the first time it is asked)."""
        if self._others is None:
            self._others = sat.OtherSolution(self.solution, self.base)
        return self._others.find(layout.cages(self.solution), puzzle)

    def hand_over(self, layout: _Layout, stuck: np.ndarray) -> bool:
        """When no big cage can split: move a ``stuck`` cell (left open, or where a second
        solution differs) into a neighbouring cage that lacks its digit, if its own cage stays
        connected; False when none can."""
        for cell in self.rng.permutation(stuck).tolist():
            a = int(layout.owner[cell])
            rest = [c for c in layout.members[a] if c != cell]
            if len(rest) == 1 or (rest and not _connected(rest, self.base.n)):
                continue  # nor leave a cage of one cell behind
            for nb in self.rng.permutation(_neighbours(cell, self.base.n)).tolist():
                b = int(layout.owner[nb])
                cells = layout.members[b]
                if (
                    b == a
                    or len(cells) >= self.largest
                    or self.solution[cell] in self.solution[cells]
                ):
                    continue
                layout.members[a] = rest
                layout.members[b] = sorted([*cells, cell])
                layout.owner[cell] = b
                return True
        return False

    def rate(self, candidate: _Candidate) -> None:
        """Grade the candidate: solved by the ladder up to the band's top, it is unique and
        rated; stuck, the cells it left open say where to loosen it. The whole ladder cannot
        tell several solutions from nested trial, so its layouts are counted first, and a
        second solution says where to loosen instead."""
        if self.whole_ladder and not candidate.unique:
            other = self.second_solution(candidate.layout, candidate.puzzle)
            if other is not None:
                self.stuck(candidate, np.flatnonzero(other != self.solution))
                return
            candidate.unique = True
        candidate.geometry = None  # the layout may have changed since
        puzzle = candidate.puzzle.copy()
        if self.whole_ladder:
            grid = Grid(self.geometry(candidate), puzzle)
            rating = rate_within(grid, self.top, self.mapping, unique_solution=self.solution)
        else:
            # the layout's tables, not its Geometry: made only for the puzzle returned
            self.space.T = self.layout_tables(candidate.layout)
            rating, placed = rate_solved_in(
                self.space,
                puzzle,
                self.top,
                self.mapping,
                lambda: Grid(self.geometry(candidate), puzzle),
            )
            if rating is None:
                self.stuck(candidate, np.flatnonzero(placed == 0))
                return
        candidate.rating = rating
        candidate.unique = True
        candidate.distance = miss(self.band, rating)

    def layout_tables(self, layout: _Layout) -> Tables:
        """The finders' tables of a layout (``engine.logic.tables.layout_tables``), kept for
        the last few: a given added keeps the layout."""
        key = layout.owner.tobytes()
        if key not in self.tables:
            totals = layout.totals(self.solution)
            self.tables[key] = layout_tables(self.base, layout.owner, totals)
            if len(self.tables) > KEPT_TABLES:
                del self.tables[next(iter(self.tables))]
        return self.tables[key]

    def geometry(self, candidate: _Candidate) -> Geometry:
        """The candidate's Killer geometry, its cages checked (made once per graded layout)."""
        if candidate.geometry is None:
            cages = candidate.layout.cages(self.solution)
            candidate.geometry = killer_geometry(self.base, cages)
        return candidate.geometry

    @staticmethod
    def stuck(candidate: _Candidate, open_cells: np.ndarray) -> None:
        """Mark a candidate left stuck at ``open_cells`` (see :meth:`settled`)."""
        candidate.rating = None
        candidate.open_cells = open_cells
        candidate.distance = math.inf

    def accept(self, candidate: _Candidate) -> bool:
        """The final check, on the Killer geometry: one solution, the grid's."""
        count, found = count_grid(Grid(self.geometry(candidate), candidate.puzzle), 2)
        return count == 1 and np.array_equal(found, self.solution)

    def result(self, candidate: _Candidate) -> KillerResult:
        assert candidate.rating is not None, "graded first"
        geo = self.geometry(candidate)
        return KillerResult(
            puzzle=to_text(geo, candidate.puzzle),
            solution=to_text(geo, self.solution),
            geometry=geo,
            grade=candidate.rating.grade(),
            attempts=self.attempts,
        )

    def failure(self, closest: _Candidate | None) -> str:
        where = f"tier {self.band.name!r} on {self.base.n}x{self.base.n} killer"
        if closest is None or closest.rating is None:
            return f"{where}: no unique layout within the budget or time limit rated in reach"
        found = closest.rating
        return (
            f"{where}: not reached in {self.attempts} layouts and moves; closest had score "
            f"{found.score}, hardest {found.hardest}, {found.clues} givens"
        )
