"""The hole digger: from a full grid to a unique puzzle whose grade lands in a target band.

How it works (``dig``):

* Clues are removed a symmetry *orbit* at a time (the cells the symmetry maps onto each other),
  in an order drawn from the seed, by a numba kernel (``engine.dig_kernels``) that tests each
  removal on the raw values, cheapest proof first: the clues alone force every blanked cell (a
  naked or hidden single: no test); an *unavoidable set* of the grid is left without clues
  (a second solution is known: keep the orbit); for singles-level bands, naked and hidden
  singles alone complete the grid (which proves uniqueness and easiness at once); else
  ``unique``: no solution puts another value in a blanked cell, one limit-1 search per blanked
  cell with its value excluded (``search_except``; on 9x9 grids the bitboard counter
  ``engine.search9``, about 3.7 times faster), cheaper than counting to two. Unavoidable
  sets come from swapping two rows of a band, two columns of a stack or two values where the
  grid allows it (they settle about half the orbits that must stay), and from every second
  solution a search finds; each kept orbit remembers one (its *witness*). One pass over all
  orbits leaves a puzzle that is minimal under its symmetry, since a removal that once breaks
  uniqueness breaks it for every subset of the clues.
* Only unique candidates are graded, and not those that singles alone solve when the band wants
  more (they rate a naked single's 2.3 at most, so below medium). A minimal puzzle
  for a singles-level band is dug as a singles-minimal one (no clue can go while singles still
  solve it) that is also minimal; one that can lose a further clue is dropped ungraded (it then
  needs more than singles, and it was easy in 1 of 140 such cases measured). Fresh digs run in
  one kernel call until one is worth grading (``dig_fresh``), so the dropped ones, often half
  of all, cost no Python; each still counts against the budget. Candidates are *rated*
  (``engine.grade.rate_within``: the figures a band tests) and only the returned puzzle gets its
  full grade.
* Fresh digs come first: a band that a few percent of random digs reach is met fastest by
  drawing again (measured: local moves from a near miss reach medium and hard no more often).
  After FRESH_TRIES misses the band is rare, and a local search (after tdoku's generator)
  starts from the closest candidate: *add* one orbit back when a non-minimal puzzle is too hard
  (that move is also used at once), else *swap*: blank a clue orbit and give back orbits that
  hold a cell of its witness until the puzzle is unique again, then dig again over the orbits
  whose witness now has a clue, keeping the new puzzle when it is no farther from the band, so
  the score climbs towards rare bands (measured: fewer candidates than drawing again for
  extreme). A search that stalls restarts from a fresh dig; a minimal puzzle that is too hard is
  dropped at once.
* Every result is checked again before it is returned: exactly one solution (the grid's) and
  graded into the band; minimal puzzles are minimal by construction (every clue orbit was
  tested or keeps a witness), which the tests check with the public counter. Bands that cannot
  be met raise :class:`ImpossibleBand` at once; bands not met within the budget raise
  :class:`DigFailed` naming the closest grade seen.

* Large grids (16x16 up), not minimal, for a band that stops short of trial and error and needs
  more than singles (the sizes' hard and expert tiers), and variants' bands up to hard (a
  variant's extra units make its minimal puzzles sparse and mostly harder): a *graded walk*.
  Starting from the full grid, orbits go in a random order while the grader's ladder, cut at
  the band's top score (``rate_within``), still solves the puzzle, which proves it unique as
  well (a puzzle that used a uniqueness step is counted). The walk ends as hard as the band
  allows and lands in it nearly every time (measured: 16x16 hard in about a second, where the
  walk above took tens of seconds and failed on some seeds); each walk counts as one candidate.
  One kernel call runs a walk (``engine.graded_walk``); a solve stops once it has placed the
  blanked orbit again, and walks past the core rungs test uniqueness first, so a removal that
  leaves a second solution costs no stuck solve.

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

from engine.dig_kernels import (
    NO_CELL,
    NO_SET,
    UNLIMITED,
    Counters,
    Orbits,
    Pool,
    Provers,
    Walk,
    dig_fresh,
    dig_orbits,
    seed_sets,
    solved_by_singles,
    swap_orbit,
)
from engine.geometry import Box, Geometry
from engine.grade import (
    NESTED_BASE,
    RATINGS,
    Grade,
    Rating,
    rate_within,
    rungs_within,
)
from engine.graded_walk import COUNT, GROW, walk_orbits
from engine.grids import Seed, rng_from
from engine.logic.passes import CORE_RUNG_ARRAY
from engine.logic.passes import workspace as logic_workspace
from engine.logic.state import TECHNIQUE_INDEX
from engine.search9 import scratch9
from engine.solver import count_grid, workspace
from engine.text import Grid, parse, parse_unchecked, to_text
from engine.tiers import DEFAULT_TIERS, Tier, techniques_clash

SYMMETRIES = (
    "none",
    "rotate180",
    "rotate90",
    "mirror_horizontal",
    "mirror_vertical",
    "diagonal",
    "anti_diagonal",
)

DEFAULT_BUDGET = 4_000  # 9x9 candidates before DigFailed, when no budget is given
BUDGET_CELLS = 81  # the default budget shrinks with the square of the cell count beyond this
MIN_DEFAULT_BUDGET = 10  # ... but never below this (36x36 digs take about a second each)
FRESH_TRIES = 30  # fresh digs before the local search starts (common bands need no search)
STALL_RESTART = 8  # local-search moves without progress before a fresh dig
FRESH_BATCH_CELLS = 1296  # one kernel call digs at most this many cells' worth of grids
LARGE_GRID = 16  # from this size the default tiers are singles-level (see tiers_for)
# a variant's bands up to this score (medium, hard) take the graded walk: fresh digs of a
# 9x9 Jigsaw+X or 12x12 Jigsaw missed them in 60 s; expert's fresh digs land faster (9x9 X:
# 78 against 46 a CPU second, the walk testing uniqueness first)
WALK_TOP = 6.0
CAPPED_VARIANT_SIZE = 12  # variant grids from this size are capped as large ones
LARGE_NODE_CAP = 64  # branches per uniqueness count per grid side on grids larger than 16x16
SINGLES_ONLY = "hidden_single"  # the hardest technique the singles test accounts for
POINTING = RATINGS["locked_pointing"]  # the first rating beyond singles-level bands
SINGLES_TOP = RATINGS["naked_single"]  # the highest score of a puzzle that singles solve
MIN_SCORE = RATINGS["full_house"]  # no puzzle rates below a full house
KNOWN_MIN_CLUES = {9: 17}  # proven minimum clue counts of unique puzzles, by grid side
WORD = 64  # cells per word of a cell bitmask (see engine.dig_kernels)
RANK_MISS = 1.0  # distance to the band per technique rank outside it
ITERATION_MISS = 0.05  # ... per iteration outside it
CLUE_MISS = 0.1  # ... per clue outside it
TIER_MISS = 0.01  # inside the band's limits, but an earlier band claims the puzzle
BEYOND_TOP = 0.05  # a candidate the band's ladder cannot finish rates at least this above its top

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
    """A dug puzzle, its solution and grade, and how many candidates were tried to find it."""

    puzzle: str
    solution: str
    grade: Grade
    attempts: int
    symmetry: str


@cache
def orbits(n: int, symmetry: str) -> np.ndarray:
    """Cells of an n x n grid grouped by the symmetry, one orbit per row padded with NO_CELL, in
    first-cell order (cached and read-only: every dig of a size shares it, whatever its variant).

    mirror_horizontal swaps top and bottom, mirror_vertical left and right; diagonal reflects in
    the main diagonal, anti_diagonal in the other one; rotate90 is the group of quarter turns.
    """
    if symmetry not in SYMMETRIES:
        raise UnknownSymmetry(
            f"unknown symmetry {symmetry!r}; choose one of {', '.join(SYMMETRIES)}"
        )
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
    seen = np.zeros(n * n, dtype=bool)
    rows = []
    for cell in range(n * n):
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


@cache
def _layout(n: int, symmetry: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The orbit table, each orbit's cells as a bitmask (rows of uint64 words, as the kernels'
    cell masks) and the orbit of each cell; cached, as the kernels only read them."""
    table = orbits(n, symmetry)
    masks = np.zeros((len(table), -(-n * n // WORD)), dtype=np.uint64)
    owner = np.empty(n * n, dtype=np.int64)
    for index, row in enumerate(table):
        for cell in row[row != NO_CELL].tolist():
            masks[index, cell // WORD] |= np.uint64(1 << (cell % WORD))
            owner[cell] = index
    return table, masks, owner


def tiers_for(geo: Geometry) -> dict[str, Tier]:
    """The default tiers for a grid: the grader's below 16x16; from 16x16 up, bands that people
    solve at that size (easy and medium are singles only, easy with at least half the cells
    given; hard allows locked candidates and pairs, expert triples and wings, extreme chains and
    one-level trial, never nested trial and error: a nested grade scores above NESTED_BASE)."""
    if geo.n < LARGE_GRID:
        return dict(DEFAULT_TIERS)
    dense = math.ceil(LARGE_EASY_CLUES * geo.ncells)
    return {
        "easy": Tier("easy", score=(0.0, 2.4), clues=(dense, geo.ncells)),
        "medium": Tier("medium", score=(0.0, 2.4)),
        "hard": Tier("hard", score=(2.5, 3.4)),
        "expert": Tier("expert", score=(3.5, 5.9)),
        # no nested trial and error, which scores NESTED_BASE and up
        "extreme": Tier("extreme", score=(6.0, NESTED_BASE - 0.1)),
    }


def dig(
    solution: str,
    target: str | Tier,
    *,
    symmetry: str = "none",
    seed: Seed,
    box: Box = None,
    minimal: bool = False,
    tiers: Mapping[str, Tier] | None = None,
    budget: int | None = None,
    time_limit: float | None = None,
) -> DigResult:
    """Dig a unique puzzle from the full grid ``solution`` whose grade lands in ``target``.

    ``target`` is a tier name of ``tiers`` (default :func:`tiers_for` the grid) or a band.
    ``budget`` caps the candidates, graded or not (default :func:`default_budget`),
    ``time_limit`` the seconds: checked before each batch of candidates goes to the kernels, never
    inside them, so a run overshoots by up to one batch's dig and grade (plus numba's compile on
    first use; :func:`engine.warmup.warm` does that beforehand).
    ``box`` names the grid's shape, or is the variant's :class:`Geometry`.
    Deterministic for a given seed. Raises :class:`ImpossibleBand`, :class:`DigFailed`.
    """
    check_limits(budget, time_limit)
    grid = _full_grid(solution, box)
    geo = grid.geometry
    layout = _layout(geo.n, symmetry)
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
    digger = _Digger(grid, layout, band, mapping, minimal, rng_from(seed))
    return digger.run(budget or default_budget(geo), time_limit, symmetry)


def check_limits(budget: int | None, time_limit: float | None) -> None:
    """Raise :class:`InvalidBudget` for a budget below one attempt or a time limit not positive
    (every digger takes both)."""
    if budget is not None and budget < 1:
        raise InvalidBudget(f"budget must be at least 1 attempt, got {budget}")
    if time_limit is not None and time_limit <= 0:
        raise InvalidBudget(f"time_limit must be positive seconds, got {time_limit}")


def run_kernels(solution: str, symmetry: str = "rotate180") -> None:
    """Run each of the digger's own kernels once on the full grid ``solution``, grading nothing,
    so that they compile (or load) apart from the grader's, which a graded dig needs too:
    ``engine.warmup`` has another process compile those meanwhile."""
    grid = _full_grid(solution)
    mapping = tiers_for(grid.geometry)
    layout = _layout(grid.geometry.n, symmetry)
    digger = _Digger(grid, layout, mapping["extreme"], mapping, True, rng_from(0))
    candidate, _ = digger.dig_fresh(1)
    digger.dig(candidate, 0, False)
    digger.solved_by_singles(candidate)
    clue = candidate.puzzle[digger.orbits[:, 0]] != 0
    witnessed = np.flatnonzero(clue & (candidate.witnesses != NO_SET))
    if witnessed.size:
        digger.swap(candidate, int(witnessed[0]))


def default_budget(geo: Geometry) -> int:
    """Candidates to grade when no budget is given: a dig costs about the square of the cells."""
    scale = min(1.0, BUDGET_CELLS / geo.ncells) ** 2
    return max(MIN_DEFAULT_BUDGET, round(DEFAULT_BUDGET * scale))


def _full_grid(text: str, box: Box = None) -> Grid:
    """The complete grid to dig from. Clashes are left to the counter (a clashing grid counts
    0); on any fault ``parse`` names it precisely."""
    grid = parse_unchecked(text, box)
    geo, values = grid.geometry, grid.values
    if not values.all():
        blank = int(np.flatnonzero(values == 0)[0])
        raise NotASolution(f"cannot dig from a grid with blanks: {geo.cell_name(blank)} is empty")
    if workspace(geo).search(values, 1, np.zeros_like(values)) != 1:
        parse(text, box)  # raises InvalidPuzzle naming the clash
    return Grid(geo, values)


def check_possible(band: Tier, geo: Geometry, minimal: bool) -> None:
    """Raise :class:`ImpossibleBand` when no dug puzzle of this grid can meet the band (cheap:
    a recipe is checked with it when read)."""
    where = f"tier {band.name!r} on {geo}"
    if minimal and geo.n >= LARGE_GRID and singles_level(band):
        raise ImpossibleBand(
            f"{where}: minimal puzzles of this size are almost never solvable "
            "by singles alone; dig them with minimal=False"
        )
    clash = techniques_clash(band)
    if clash:
        raise ImpossibleBand(f"{where}: needs = {clash}")
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


def miss(band: Tier, found: Rating) -> float:
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


def too_hard(band: Tier, found: Rating) -> bool:
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


def beyond_singles(band: Tier) -> bool:
    """True when no puzzle that singles alone solve can meet the band: such a puzzle needs no
    technique beyond them and scores SINGLES_TOP (a naked single's rating) at most."""
    needs = band.needs is not None and TECHNIQUE_INDEX[band.needs] > TECHNIQUE_INDEX[SINGLES_ONLY]
    return needs or (band.score is not None and band.score[0] > SINGLES_TOP)


@dataclass
class _Candidate:
    """A unique puzzle in the search, its rating, and each orbit's witness (the pool index of an
    unavoidable set whose only clues lie in the orbit, or NO_SET; see engine.dig_kernels)."""

    puzzle: np.ndarray
    witnesses: np.ndarray
    rating: Rating | None = None


class _Digger:
    """The state of one dig: the grid, its orbits, the band and the seeded random stream."""

    def __init__(
        self,
        grid: Grid,
        layout: tuple[np.ndarray, np.ndarray, np.ndarray],
        band: Tier,
        mapping: dict[str, Tier],
        minimal: bool,
        rng: np.random.Generator,
    ) -> None:
        self.geo = grid.geometry
        self.solution = np.ascontiguousarray(grid.values, dtype=np.uint8)
        table, masks, owner = layout
        self.orbits = table
        self.orbit_sets = Orbits(cells=table, masks=masks, of_cell=owner)
        self.band = band
        self.mapping = mapping
        self.minimal = minimal
        self.rng = rng
        # the kernels' random stream (fresh digs' orders, swaps)
        self.stream = np.array([rng.integers(1, 2**63)], dtype=np.uint64)
        space = workspace(self.geo)
        self.tables = space.tables
        self.singles_tables = self.tables._replace(alldifferent=False)  # singles only
        self.counters = Counters(counter=space.buffers, nine=scratch9())
        self.singles = singles_level(band)
        self.beyond_singles = beyond_singles(band)
        self.scratch = np.zeros(self.geo.ncells, dtype=np.uint8)  # the singles test's solution
        # non-minimal digs stop at the band's fewest clues; minimal ones go all the way
        self.floor = band.clues[0] if band.clues and not minimal else 0
        self.walk = Walk(self.floor, self.singles, minimal, self.beyond_singles)
        self.batch = max(1, FRESH_BATCH_CELLS // self.geo.ncells)  # fresh digs per call at most
        self.dug = 0  # candidates dug so far
        # big non-minimal digs keep a clue whose removal is slow to prove (minimal ones cannot);
        # so do 12x12 Jigsaws, where one count in a few hundred ran for minutes
        big = self.geo.n > LARGE_GRID or (
            self.geo.n >= CAPPED_VARIANT_SIZE and not self.geo.classic
        )
        capped = big and not minimal
        self.max_nodes = LARGE_NODE_CAP * self.geo.n if capped else UNLIMITED
        self.provers = Provers(self.tables, self.singles_tables, self.counters, self.max_nodes)
        self.walking = (
            not minimal
            and not self.singles
            and band.score is not None
            and band.score[1] < RATINGS["trial_and_error"]
            and (self.geo.n >= LARGE_GRID or (not self.geo.classic and band.score[1] <= WALK_TOP))
        )
        rows = self.geo.n**3 // 2 + len(table)  # room for the seeded sets and one dig's finds
        self.sets = np.zeros((rows, masks.shape[1]), dtype=np.uint64)
        self.set_count = np.zeros(2, dtype=np.int64)  # sets stored, sets seeded
        seed_sets(self.solution, self.tables, self.sets, self.set_count)
        self.set_count[1] = self.set_count[0]

    def pool(self) -> Pool:
        """The unavoidable sets, with room for two digs' finds (a dig adds at most one set per
        orbit; ``dig_fresh`` makes room its own condition to go on)."""
        if self.set_count[0] + 2 * len(self.orbits) > len(self.sets):
            self.sets = np.concatenate([self.sets, np.zeros_like(self.sets)])
        return Pool(self.sets, self.set_count)

    def run(self, budget: int, time_limit: float | None, symmetry: str) -> DigResult:
        deadline = None if time_limit is None else time.monotonic() + time_limit
        current: _Candidate | None = None
        current_miss = math.inf
        closest: _Candidate | None = None
        closest_miss = math.inf
        skipped: _Candidate | None = None  # the first candidate returned ungraded
        stalled = 0
        searching = False  # FRESH_TRIES candidates dug: the local search has started
        while self.walking and self.dug < budget:
            if deadline is not None and time.monotonic() > deadline:
                break
            candidate = self.graded_walk()
            self.dug += 1
            if candidate.rating is None:
                continue
            distance = miss(self.band, candidate.rating)
            if distance == 0.0 and self.accept(candidate.puzzle):
                return self.result(candidate, symmetry)
            if distance < closest_miss:
                closest, closest_miss = candidate, distance
        while not self.walking and self.dug < budget:
            if deadline is not None and time.monotonic() > deadline:
                break
            if not searching and self.dug >= FRESH_TRIES:
                searching = True
                if closest is not None:  # search from the closest
                    current, current_miss, stalled = closest, closest_miss, 0
            local = current is not None and (
                searching or (not self.minimal and too_hard(self.band, current.rating))
            )
            if current is None or not local or stalled >= STALL_RESTART:
                limit = budget if searching else min(budget, FRESH_TRIES)
                candidate = self.fresh(min(limit - self.dug, self.batch))
                current, current_miss, stalled = None, math.inf, 0
            else:
                candidate = self.move(current)
            if candidate.rating is None:  # certainly outside the band: not graded
                skipped = skipped or candidate
                stalled += 1
                continue
            found = candidate.rating
            distance = miss(self.band, found)
            if distance == 0.0 and self.accept(candidate.puzzle):
                return self.result(candidate, symmetry)
            stalled = 0 if distance < current_miss else stalled + 1
            if distance <= current_miss:
                current, current_miss = candidate, distance
            if self.minimal and too_hard(self.band, found):
                current = None  # minimal puzzles only get easier by a fresh dig
            if distance < closest_miss:
                closest, closest_miss = candidate, distance
        if closest is None and skipped is not None:  # name the grade of an ungraded one
            closest = skipped
        if closest is not None and (closest.rating is None or closest.rating.hardest is None):
            closest = self.rated(closest, capped=False)  # unrated, or only bounded (beyond)
        raise DigFailed(self.failure(closest.rating if closest else None, self.dug))

    def result(self, candidate: _Candidate, symmetry: str) -> DigResult:
        assert candidate.rating is not None
        return DigResult(
            puzzle=to_text(self.geo, candidate.puzzle),
            solution=to_text(self.geo, self.solution),
            grade=candidate.rating.grade(),
            attempts=self.dug,
            symmetry=symmetry,
        )

    def graded_walk(self) -> _Candidate:
        """One graded walk (see the module doc): the puzzle left when no further orbit can go
        while the ladder cut at the band's top still solves it, rated (None if no orbit went)."""
        assert self.band.score is not None
        space = logic_workspace(self.geo)
        rungs = rungs_within(self.band.score[1])
        screen = len(rungs) > len(CORE_RUNG_ARRAY)  # stuck solves past the core cost most
        candidate = _Candidate(self.solution.copy(), np.empty(0, dtype=np.int64))
        puzzle = candidate.puzzle
        order = self.rng.permutation(len(self.orbits))
        position = 0
        while position < len(order):
            position, how = walk_orbits(
                puzzle,
                self.solution,
                self.orbits,
                order,
                position,
                space.pass_loop(rungs),
                screen,
                self.provers,
                self.scratch,
            )
            if how == GROW:
                space.grow()
            elif how == COUNT:  # the solve assumed one solution: count it
                if count_grid(Grid(self.geo, puzzle.copy()), 2)[0] != 1:
                    cells = self.orbits[order[position]]
                    cells = cells[cells != NO_CELL]
                    puzzle[cells] = self.solution[cells]
                position += 1
        # the last orbit that went left a unique puzzle the cut ladder solves: rated, never bound
        went = bool((puzzle == 0).any())
        return self.rated(candidate) if went else candidate

    def fresh(self, tries: int) -> _Candidate:
        """The first of up to ``tries`` new digs from the full grid, each in a fresh random
        order, that is worth grading (see ``dig_fresh``), rated; else the last one, unrated."""
        candidate, worth = self.dig_fresh(tries)
        return self.rated(candidate) if worth else candidate

    def dig_fresh(self, tries: int) -> tuple[_Candidate, bool]:
        """Up to ``tries`` new digs (``dig_fresh``): the first worth grading, or the last one,
        and whether it is worth grading."""
        candidate = _Candidate(self.solution.copy(), np.empty(len(self.orbits), dtype=np.int64))
        dug, worth = dig_fresh(
            candidate.puzzle,
            candidate.witnesses,
            self.solution,
            self.orbit_sets,
            self.walk,
            tries,
            self.pool(),
            self.provers,
            self.stream,
            self.scratch,
        )
        self.dug += dug
        return candidate, worth

    def move(self, current: _Candidate) -> _Candidate:
        """One local-search step from a unique puzzle: add an orbit, or swap (see module)."""
        candidate = _Candidate(current.puzzle.copy(), current.witnesses.copy())
        puzzle = candidate.puzzle
        clue = puzzle[self.orbits[:, 0]] != 0
        if not self.minimal and too_hard(self.band, current.rating):
            restore = self.orbits[self.rng.choice(np.flatnonzero(~clue))]
            restore = restore[restore != NO_CELL]
            puzzle[restore] = self.solution[restore]
            self.dug += 1
            return self.graded(candidate)
        witnessed = np.flatnonzero(clue & (candidate.witnesses != NO_SET))
        if not witnessed.size or not self.swap(candidate, self.rng.choice(witnessed)):
            return self.fresh(1)  # nothing to swap against: draw again
        self.dig(candidate, self.floor, self.singles and not self.minimal)
        self.dug += 1
        return self.graded(candidate)

    def swap(self, candidate: _Candidate, orbit: int) -> bool:
        """Swap the clue orbit ``orbit`` of a unique candidate for others (``swap_orbit``)."""
        return swap_orbit(
            candidate.puzzle,
            self.solution,
            self.orbit_sets,
            orbit,
            candidate.witnesses,
            self.pool(),
            self.stream,
            self.provers,
        )

    def dig(self, candidate: _Candidate, floor: int, singles: bool) -> int:
        """Dig the candidate in a fresh random order (see dig_orbits); returns its clue count."""
        return dig_orbits(
            candidate.puzzle,
            self.solution,
            self.orbit_sets,
            self.rng.permutation(len(self.orbits)),
            floor=floor,
            singles=singles,
            first_only=False,
            witnesses=candidate.witnesses,
            pool=self.pool(),
            provers=self.provers,
        )

    def graded(self, candidate: _Candidate) -> _Candidate:
        """The candidate rated, or left unrated when singles alone solve it and the band wants
        more (:func:`beyond_singles`)."""
        if self.beyond_singles and self.solved_by_singles(candidate):
            return candidate
        return self.rated(candidate)

    def solved_by_singles(self, candidate: _Candidate) -> bool:
        return solved_by_singles(candidate.puzzle, self.singles_tables, self.counters, self.scratch)

    def rated(self, candidate: _Candidate, capped: bool = True) -> _Candidate:
        """The candidate with its rating (the full grade is built for the one returned), left
        None when it needs a technique rated above the band's top score (``capped``: see
        ``rate_within``)."""
        grid = Grid(self.geo, candidate.puzzle.copy())
        top = self.band.score[1] if capped and self.band.score else math.inf
        # every candidate is unique by construction (see the module doc)
        found = rate_within(grid, top, self.mapping, unique_solution=self.solution)
        candidate.rating = found if found is not None else self.beyond(grid)
        return candidate

    def beyond(self, grid: Grid) -> Rating:
        """A rating for a candidate the ladder cut at the band's top could not finish: its score
        is at least the first rung left out, so it is too hard, and the local search adds clues
        back without paying for the expensive rungs (forcing chains run for many passes)."""
        assert self.band.score is not None
        score = self.band.score[1] + BEYOND_TOP

        def complete() -> Grade:
            return self.rated(_Candidate(grid.values, np.empty(0)), capped=False).rating.grade()

        return Rating(score, None, 0, None, grid.givens, complete)

    def accept(self, puzzle: np.ndarray) -> bool:
        """The final check: exactly one solution, the grid's. (Minimality needs no check: every
        clue orbit was tested or has a witness, an unavoidable set with no other clue.)"""
        count, solution = count_grid(Grid(self.geo, puzzle), 2)
        return count == 1 and np.array_equal(solution, self.solution)

    def failure(self, closest: Rating | None, attempts: int) -> str:
        where = f"tier {self.band.name!r} on {self.geo}"
        if closest is None:
            return f"{where}: no candidate within the time limit"
        return (
            f"{where}: not reached in {attempts} candidates; closest had score {closest.score}, "
            f"hardest {closest.hardest}, {closest.iterations} iterations, {closest.clues} clues"
        )
