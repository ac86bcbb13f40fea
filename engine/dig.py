"""The hole digger: from a full grid to a unique puzzle whose grade lands in a target band.

How it works (``dig``):

* Clues are removed a symmetry *orbit* at a time (the cells the symmetry maps onto each other),
  in an order drawn from the seed, by a numba kernel that tests each removal
  on the raw values: ``unique`` (the solution counter's count to 2 is 1) or, for singles-level
  bands, ``singles`` (naked and hidden singles alone complete the grid, which proves uniqueness
  and easiness at once); a blanked cell that the other clues force needs no test. One pass
  over all orbits leaves a puzzle that is minimal under its symmetry, since a removal that once
  breaks uniqueness breaks it for every subset of the clues.
* Only unique candidates are graded. Fresh digs come first: the grade is cheap and a band that
  a few percent of random digs reach is met fastest by drawing again. After FRESH_TRIES misses
  the band is rare, and a local search (after tdoku's generator) starts from the closest
  candidate: *add* one orbit back when a non-minimal puzzle is too hard (that move is also used
  at once), else *swap*: put back one or two blank orbits and dig again over the others,
  keeping the new puzzle when it is no farther from the band, so the score climbs towards rare
  bands (measured: fewer candidates than drawing again for scores of 8.3 and up). A search
  that stalls restarts from a fresh dig; a minimal puzzle that is too hard is dropped at once.
* Every result is checked again before it is returned: exactly one solution (the grid's) and
  graded into the band; minimal puzzles are minimal by construction (an uncapped pass over
  every orbit), which the tests check with the public counter. Bands that cannot be met raise
  :class:`ImpossibleBand` at once; bands not met within the budget raise :class:`DigFailed`
  naming the closest grade seen.

With a symmetry, ``minimal`` means that no *orbit* can be removed: removing a single clue would
break the symmetry (so a symmetric minimal puzzle may have a lone removable clue).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np

from engine.dig_kernels import NO_CELL, UNLIMITED, dig_orbits
from engine.geometry import Geometry
from engine.grade import RATINGS, Grade, grade
from engine.grids import Seed, rng_from
from engine.logic.state import TECHNIQUE_INDEX
from engine.solver import workspace
from engine.text import BAD, Grid, infer_geometry, lookup_table, parse, to_text
from engine.tiers import DEFAULT_TIERS, Tier

SYMMETRIES = (
    "none",
    "rotate180",
    "rotate90",
    "mirror_horizontal",
    "mirror_vertical",
    "diagonal",
    "anti_diagonal",
)

DEFAULT_BUDGET = 4_000  # graded 9x9 candidates before DigFailed, when no budget is given
BUDGET_CELLS = 81  # the default budget shrinks with the square of the cell count beyond this
MIN_DEFAULT_BUDGET = 10  # ... but never below this (36x36 digs take about a second each)
FRESH_TRIES = 30  # fresh digs before the local search starts (common bands need no search)
STALL_RESTART = 8  # local-search moves without progress before a fresh dig
SWAP_ORBITS = (1, 2)  # a swap puts back one or two blank orbits (chosen at random)
LARGE_GRID = 16  # from this size the default tiers are singles-level (see tiers_for)
LARGE_NODE_CAP = 64  # branches per uniqueness count per grid side on grids larger than 16x16
SINGLES_ONLY = "hidden_single"  # the hardest technique the singles test accounts for
POINTING = RATINGS["locked_pointing"]  # the first rating beyond singles-level bands
MIN_SCORE = RATINGS["full_house"]  # no puzzle rates below a full house
KNOWN_MIN_CLUES = {9: 17}  # proven minimum clue counts of unique puzzles, by grid side
RANK_MISS = 1.0  # distance to the band per technique rank outside it
ITERATION_MISS = 0.05  # ... per iteration outside it
CLUE_MISS = 0.1  # ... per clue outside it
TIER_MISS = 0.01  # inside the band's limits, but an earlier band claims the puzzle

#: Densest clue fraction at which each difficulty level is still reachable by digging: bands
#: that need more (e.g. "expert with >= 36 clues" on 9x9) raise ImpossibleBand. Levels are
#: minimum ratings on the score scale: beyond singles, hard (triples, wings), expert (chains).
CLUE_CEILINGS = ((6.0, 0.43), (3.5, 0.48), (POINTING, 0.55))
MINIMAL_CLUE_CEILING = 0.5  # no minimal puzzle is denser (9x9: the densest known have 40)
LARGE_EASY_CLUES = 0.5  # large grids: "easy" keeps at least this fraction of the cells as clues


class DigFailed(ValueError):
    """The band was not reached within the budget; the message names the closest grade."""


class ImpossibleBand(DigFailed):
    """The band cannot be met at all (contradictory, or beyond what digging can reach)."""


class UnknownSymmetry(ValueError):
    """The symmetry name is not one of :data:`SYMMETRIES`."""


class UnknownTier(ValueError):
    """The target names no tier of the tiers in use."""


class InvalidBudget(ValueError):
    """The attempt budget or time limit is not positive."""


class NotASolution(ValueError):
    """The grid to dig from has blanks (it must be a complete, valid grid)."""


@dataclass(frozen=True)
class DigResult:
    """A dug puzzle, its solution and grade, and how many candidates were graded to find it."""

    puzzle: str
    solution: str
    grade: Grade
    attempts: int
    symmetry: str


@cache
def orbits(geo: Geometry, symmetry: str) -> np.ndarray:
    """Cells grouped by the symmetry, one orbit per row padded with NO_CELL, in first-cell order
    (cached and read-only: every dig of a size shares it).

    mirror_horizontal swaps top and bottom, mirror_vertical left and right; diagonal reflects in
    the main diagonal, anti_diagonal in the other one; rotate90 is the group of quarter turns.
    """
    if symmetry not in SYMMETRIES:
        raise UnknownSymmetry(
            f"unknown symmetry {symmetry!r}; choose one of {', '.join(SYMMETRIES)}"
        )
    n = geo.n
    last = n - 1
    maps = {
        "none": [],
        "rotate180": [lambda r, c: (last - r, last - c)],
        "rotate90": [
            lambda r, c: (c, last - r),
            lambda r, c: (last - r, last - c),
            lambda r, c: (last - c, r),
        ],
        "mirror_horizontal": [lambda r, c: (last - r, c)],
        "mirror_vertical": [lambda r, c: (r, last - c)],
        "diagonal": [lambda r, c: (c, r)],
        "anti_diagonal": [lambda r, c: (last - c, last - r)],
    }[symmetry]
    seen = np.zeros(geo.ncells, dtype=bool)
    rows = []
    for cell in range(geo.ncells):
        if seen[cell]:
            continue
        r, c = divmod(cell, n)
        orbit = sorted({cell, *(rr * n + cc for rr, cc in (m(r, c) for m in maps))})
        seen[orbit] = True
        rows.append(orbit)
    table = np.full((len(rows), 1 + len(maps)), NO_CELL, dtype=np.int32)
    for i, orbit in enumerate(rows):
        table[i, : len(orbit)] = orbit
    table.setflags(write=False)
    return table


def tiers_for(geo: Geometry) -> dict[str, Tier]:
    """The default tiers for a grid: the grader's below 16x16; from 16x16 up, bands that people
    solve at that size (easy and medium are singles only, easy with at least half the cells
    given; hard allows locked candidates and pairs, expert triples and wings)."""
    if geo.n < LARGE_GRID:
        return dict(DEFAULT_TIERS)
    dense = math.ceil(LARGE_EASY_CLUES * geo.ncells)
    return {
        "easy": Tier("easy", score=(0.0, 2.5), clues=(dense, geo.ncells)),
        "medium": Tier("medium", score=(0.0, 2.5)),
        "hard": Tier("hard", score=(2.5, 3.5)),
        "expert": Tier("expert", score=(3.5, 6.0)),
        "extreme": Tier("extreme", score=(6.0, math.inf)),
    }


def dig(
    solution: str,
    target: str | Tier,
    *,
    symmetry: str = "none",
    seed: Seed,
    minimal: bool = False,
    tiers: Mapping[str, Tier] | None = None,
    budget: int | None = None,
    time_limit: float | None = None,
) -> DigResult:
    """Dig a unique puzzle from the full grid ``solution`` whose grade lands in ``target``.

    ``target`` is a tier name of ``tiers`` (default :func:`tiers_for` the grid) or a band.
    ``budget`` caps the graded candidates (default :func:`default_budget`), ``time_limit`` the
    seconds.
    Deterministic for a given seed. Raises :class:`ImpossibleBand`, :class:`DigFailed`.
    """
    if budget is not None and budget < 1:
        raise InvalidBudget(f"budget must be at least 1 attempt, got {budget}")
    if time_limit is not None and time_limit <= 0:
        raise InvalidBudget(f"time_limit must be positive seconds, got {time_limit}")
    grid = _full_grid(solution)
    geo = grid.geometry
    table = orbits(geo, symmetry)
    mapping = dict(tiers) if tiers is not None else tiers_for(geo)
    if isinstance(target, Tier):
        band = target
        if mapping.get(band.name) != band:
            mapping = {band.name: band}
    elif target in mapping:
        band = mapping[target]
    else:
        raise UnknownTier(f"unknown tier {target!r}; the tiers in use are {', '.join(mapping)}")
    check_possible(band, geo, minimal)
    if minimal and geo.n >= LARGE_GRID and singles_level(band):
        raise ImpossibleBand(
            f"tier {band.name!r} on {geo}: minimal puzzles of this size are almost never solvable "
            "by singles alone; dig them with minimal=False"
        )
    digger = _Digger(grid, table, band, mapping, minimal, rng_from(seed))
    return digger.run(budget or default_budget(geo), time_limit, symmetry)


def default_budget(geo: Geometry) -> int:
    """Candidates to grade when no budget is given: a dig costs about the square of the cells."""
    scale = min(1.0, BUDGET_CELLS / geo.ncells) ** 2
    return max(MIN_DEFAULT_BUDGET, round(DEFAULT_BUDGET * scale))


_symbol_table = cache(lookup_table)


def _full_grid(text: str) -> Grid:
    """The complete grid to dig from. The fast path reads symbols by table and lets the counter
    find clashes (a clashing grid counts 0); on any fault ``parse`` names it precisely."""
    text = text.strip()
    geo = infer_geometry(len(text))
    values = None
    if text.isascii():
        values = _symbol_table(geo.n)[np.frombuffer(text.encode(), dtype=np.uint8)]
    if values is None or (values == BAD).any():
        values = parse(text).values
    if not values.all():
        blank = int(np.flatnonzero(values == 0)[0])
        raise NotASolution(f"cannot dig from a grid with blanks: {geo.cell_name(blank)} is empty")
    if workspace(geo).search(values, 1, np.zeros_like(values)) != 1:
        parse(text)  # raises InvalidPuzzle naming the clash
    return Grid(geo, values)


def check_possible(band: Tier, geo: Geometry, minimal: bool) -> None:
    """Raise :class:`ImpossibleBand` when no dug puzzle of this grid can meet the band."""
    where = f"tier {band.name!r} on {geo}"
    if band.hardest and band.needs and TECHNIQUE_INDEX[band.needs] > TECHNIQUE_INDEX[band.hardest]:
        raise ImpossibleBand(f"{where}: needs {band.needs} but allows at most {band.hardest}")
    if band.score and band.score[1] < MIN_SCORE:
        raise ImpossibleBand(f"{where}: no puzzle scores below {MIN_SCORE} (band {band.score})")
    if not band.clues:
        return
    low, high = band.clues
    fewest = KNOWN_MIN_CLUES.get(geo.n, geo.n - 1)  # n-1 symbols must appear for uniqueness
    if high < fewest:
        raise ImpossibleBand(f"{where}: at most {high} clues, but unique puzzles need {fewest}")
    if low > geo.ncells:
        raise ImpossibleBand(f"{where}: at least {low} clues, but the grid has {geo.ncells} cells")
    if minimal and low > MINIMAL_CLUE_CEILING * geo.ncells:
        raise ImpossibleBand(f"{where}: minimal puzzles do not have {low} clues or more")
    level = max(band.score[0] if band.score else 0.0, _needs_rating(band))
    for rating, fraction in CLUE_CEILINGS:
        if level >= rating and low > fraction * geo.ncells:
            raise ImpossibleBand(
                f"{where}: puzzles rated {level} or more do not have {low} clues or more "
                f"(at most {math.floor(fraction * geo.ncells)})"
            )


def _needs_rating(band: Tier) -> float:
    return RATINGS[band.needs] if band.needs else 0.0


def miss(band: Tier, found: Grade) -> float:
    """How far a grade is from the band (0 inside it): score gap, plus weighted technique-rank,
    iteration and clue gaps."""
    rank = TECHNIQUE_INDEX[found.hardest] if found.hardest else -1
    distance = 0.0
    if band.score:
        distance += max(0.0, band.score[0] - found.score, found.score - band.score[1])
    if band.hardest:
        distance += RANK_MISS * max(0, rank - TECHNIQUE_INDEX[band.hardest])
    if band.needs:
        distance += RANK_MISS * max(0, TECHNIQUE_INDEX[band.needs] - rank)
    if band.iterations:
        low, high = band.iterations
        distance += ITERATION_MISS * max(0, low - found.iterations, found.iterations - high)
    if band.clues:
        low, high = band.clues
        distance += CLUE_MISS * max(0, low - found.clues, found.clues - high)
    if distance == 0.0 and found.tier != band.name:
        distance = TIER_MISS
    return distance


def too_hard(band: Tier, found: Grade) -> bool:
    """True when adding clues would bring the grade nearer the band."""
    rank = TECHNIQUE_INDEX[found.hardest] if found.hardest else -1
    return bool(
        (band.score and found.score > band.score[1])
        or (band.hardest and rank > TECHNIQUE_INDEX[band.hardest])
        or (band.iterations and found.iterations > band.iterations[1])
        or (band.clues and found.clues < band.clues[0])
    )


def singles_level(band: Tier) -> bool:
    """True when every puzzle the singles test passes suits the band's upper limits, and the band
    wants nothing harder: then digging with the cheap singles test is the right walk."""
    capped = (band.score is not None and band.score[1] < POINTING) or (
        band.hardest is not None and TECHNIQUE_INDEX[band.hardest] <= TECHNIQUE_INDEX[SINGLES_ONLY]
    )
    return capped and (
        band.needs is None or band.needs in ("full_house", "naked_single", SINGLES_ONLY)
    )


class _Digger:
    """The state of one dig: the grid, its orbits, the band and the seeded random stream."""

    def __init__(
        self,
        grid: Grid,
        table: np.ndarray,
        band: Tier,
        mapping: dict[str, Tier],
        minimal: bool,
        rng: np.random.Generator,
    ) -> None:
        self.geo = grid.geometry
        self.solution = np.ascontiguousarray(grid.values, dtype=np.uint8)
        self.orbits = table
        self.band = band
        self.mapping = mapping
        self.minimal = minimal
        self.rng = rng
        space = workspace(self.geo)
        self.tables, self.buffers = space.tables, space.buffers
        self.singles_tables = (*self.tables[:6], False)  # singles only: no all-different
        self.state = np.zeros(2, dtype=np.uint64)
        self.singles = singles_level(band)
        # non-minimal digs stop at the band's fewest clues; minimal ones go all the way
        self.floor = band.clues[0] if band.clues and not minimal else 0
        # big non-minimal digs keep a clue whose removal is slow to prove (minimal ones cannot)
        capped = self.geo.n > LARGE_GRID and not minimal
        self.max_nodes = LARGE_NODE_CAP * self.geo.n if capped else UNLIMITED

    def run(self, budget: int, time_limit: float | None, symmetry: str) -> DigResult:
        deadline = None if time_limit is None else time.monotonic() + time_limit
        current: np.ndarray | None = None
        current_found: Grade | None = None
        current_miss = math.inf
        closest: Grade | None = None
        closest_puzzle: np.ndarray | None = None
        closest_miss = math.inf
        stalled = tried = 0
        for attempt in range(1, budget + 1):
            if deadline is not None and time.monotonic() > deadline:
                break
            tried = attempt
            if attempt == FRESH_TRIES + 1 and closest_puzzle is not None:  # search from the closest
                current, current_found, current_miss = closest_puzzle, closest, closest_miss
                stalled = 0
            local = current_found is not None and (
                attempt > FRESH_TRIES or (not self.minimal and too_hard(self.band, current_found))
            )
            if current is None or current_found is None or not local or stalled >= STALL_RESTART:
                candidate, found = self.fresh()
                current, current_miss, stalled = None, math.inf, 0
            else:
                candidate, found = self.move(current, current_found)
            distance = miss(self.band, found)
            if distance == 0.0 and self.accept(candidate):
                return DigResult(
                    puzzle=to_text(self.geo, candidate),
                    solution=to_text(self.geo, self.solution),
                    grade=found,
                    attempts=attempt,
                    symmetry=symmetry,
                )
            stalled = 0 if distance < current_miss else stalled + 1
            if distance <= current_miss:
                current, current_found, current_miss = candidate, found, distance
            if self.minimal and too_hard(self.band, found):
                current = None  # minimal puzzles only get easier by a fresh dig
            if distance < closest_miss:
                closest, closest_puzzle, closest_miss = found, candidate, distance
        raise DigFailed(self.failure(closest, tried))

    def fresh(self) -> tuple[np.ndarray, Grade]:
        """A new dig from the full grid in a fresh random order."""
        puzzle = self.solution.copy()
        self.dig(puzzle, self.rng.permutation(len(self.orbits)), self.floor, self.singles)
        if self.minimal and self.singles:  # the singles walk stops early: finish with uniqueness
            self.dig(puzzle, self.rng.permutation(len(self.orbits)), 0, False)
        return puzzle, self.grade(puzzle)

    def move(self, puzzle: np.ndarray, found: Grade) -> tuple[np.ndarray, Grade]:
        """One local-search step from a unique puzzle: add an orbit, or swap some (see module)."""
        candidate = puzzle.copy()
        blank = np.flatnonzero(candidate[self.orbits[:, 0]] == 0)
        if blank.size == 0:
            return candidate, found
        if not self.minimal and too_hard(self.band, found):
            self.restore(candidate, self.rng.choice(blank))
            return candidate, self.grade(candidate)
        count = min(blank.size, int(self.rng.choice(SWAP_ORBITS)))
        added = self.rng.choice(blank, size=count, replace=False)
        for orbit in added:
            self.restore(candidate, orbit)
        others = np.setdiff1d(np.arange(len(self.orbits)), added)
        order = np.concatenate([self.rng.permutation(others), added])  # put-back orbits last
        self.dig(candidate, order, self.floor, self.singles and not self.minimal)
        return candidate, self.grade(candidate)

    def restore(self, puzzle: np.ndarray, orbit: int) -> None:
        cells = self.orbits[orbit]
        cells = cells[cells != NO_CELL]
        puzzle[cells] = self.solution[cells]

    def dig(self, puzzle: np.ndarray, order: np.ndarray, floor: int, singles: bool) -> None:
        order = np.ascontiguousarray(order, dtype=np.int64)
        dig_orbits(
            puzzle,
            self.solution,
            self.orbits,
            order,
            floor,
            singles,
            self.max_nodes,
            self.tables,
            self.singles_tables,
            self.buffers,
            self.state,
        )

    def grade(self, puzzle: np.ndarray) -> Grade:
        return grade(Grid(self.geo, puzzle.copy()), self.mapping)

    def accept(self, puzzle: np.ndarray) -> bool:
        """The final check: exactly one solution, the grid's. (Minimality needs no check: an
        uncapped pass over every orbit leaves none removable, since a removal that breaks
        uniqueness breaks it for every subset of the clues.)"""
        solution = np.zeros_like(puzzle)
        count = workspace(self.geo).search(puzzle, 2, solution)
        return count == 1 and np.array_equal(solution, self.solution)

    def failure(self, closest: Grade | None, attempts: int) -> str:
        where = f"tier {self.band.name!r} on {self.geo}"
        if closest is None:
            return f"{where}: no candidate within the time limit"
        return (
            f"{where}: not reached in {attempts} candidates; closest had score {closest.score}, "
            f"hardest {closest.hardest}, {closest.iterations} iterations, {closest.clues} clues"
        )
