"""The digger: every puzzle unique, in its band when re-graded, symmetric, minimal when asked;
impossible bands fail fast; the kernels' shortcuts (the singles test, unavoidable sets, the
limit-1 uniqueness test, skipping singles-solvable candidates) agree with the public counter,
the grader or a slow reference."""

from __future__ import annotations

import importlib
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.dig import (
    DEFAULT_BUDGET,
    MIN_DEFAULT_BUDGET,
    SINGLES_TOP,
    SYMMETRIES,
    DigFailed,
    ImpossibleBand,
    InvalidBudget,
    NotASolution,
    UnknownSymmetry,
    UnknownTier,
    default_budget,
    dig,
    orbits,
    tiers_for,
)
from engine.dig_kernels import Counters, seed_sets, singles_solve, unique_without
from engine.geometry import Geometry, geometry_for
from engine.grade import NESTED_BASE
from engine.search import Workspace
from engine.search9 import scratch9, singles9
from engine.text import parse
from engine.tiers import Tier, tiers_from_mapping
from engine.warmup import warm

IMPOSSIBLE_SECONDS = 1.0  # an impossible band must be refused at once


@pytest.fixture(scope="module")
def warm_kernels() -> None:
    """Compile (or load) the grid and digger kernels before a timed test, so a cold numba
    cache costs the fixture, not the time limit under test."""
    for family in ("grids", "digger"):
        warm(family)


DIG_MODULE = importlib.import_module("engine.dig")  # the package exports the function as dig


def mirror(n: int, symmetry: str, row: int, col: int) -> list[tuple[int, int]]:
    """The images of a cell under the symmetry's generators, written out independently."""
    last = n - 1
    return {
        "none": [],
        "rotate180": [(last - row, last - col)],
        "rotate90": [(col, last - row)],
        "mirror_horizontal": [(last - row, col)],
        "mirror_vertical": [(row, last - col)],
        "diagonal": [(col, row)],
        "anti_diagonal": [(last - col, last - row)],
    }[symmetry]


def check(result: engine.DigResult, target: str, tiers=None, minimal: bool = False) -> None:
    """The promises of dig, checked with the public string API (not the digger's kernels)."""
    puzzle, solution = result.puzzle, result.solution
    geo = parse(puzzle).geometry
    assert engine.count_solutions(puzzle) == 1
    assert engine.solve(puzzle) == solution
    regraded = engine.grade(puzzle, tiers or tiers_for(geo))
    assert regraded.tier == target == result.grade.tier
    assert regraded.score == result.grade.score
    n = geo.n
    for cell, symbol in enumerate(puzzle):
        row, col = divmod(cell, n)
        for r, c in mirror(n, result.symmetry, row, col):
            assert (puzzle[r * n + c] == ".") == (symbol == "."), (result.symmetry, cell)
    if minimal:
        for orbit in orbits(geo.n, result.symmetry):
            cells = [c for c in orbit if c >= 0]
            if puzzle[cells[0]] == ".":
                continue
            fewer = list(puzzle)
            for c in cells:
                fewer[c] = "."
            assert engine.count_solutions("".join(fewer)) == 2, cells


@pytest.mark.parametrize(
    ("target", "symmetry", "minimal"),
    [
        ("easy", "rotate180", False),
        ("easy", "none", True),
        ("medium", "mirror_vertical", True),
        ("hard", "none", False),
        ("expert", "rotate180", True),
    ],
)
def test_9x9_tiers_land_in_their_band(target: str, symmetry: str, minimal: bool) -> None:
    for seed in range(3):
        solution = engine.random_grid(9, seed=seed)
        result = dig(solution, target, symmetry=symmetry, seed=seed, minimal=minimal)
        check(result, target, minimal=minimal)
        assert result.attempts >= 1


def test_extreme_comes_from_the_local_search() -> None:
    result = dig(engine.random_grid(9, seed=7), "extreme", seed=7, minimal=True)
    check(result, "extreme", minimal=True)
    assert result.grade.score >= engine.tiers.DEFAULT_TIERS["extreme"].score[0]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    size=st.sampled_from([4, 6]),
    symmetry=st.sampled_from(SYMMETRIES),
    minimal=st.booleans(),
)
def test_small_grids_any_symmetry(seed: int, size: int, symmetry: str, minimal: bool) -> None:
    solution = engine.random_grid(size, seed=seed)
    result = dig(solution, "easy", symmetry=symmetry, seed=seed, minimal=minimal)
    check(result, "easy", minimal=minimal)


def test_minimal_without_symmetry_means_every_clue_is_needed() -> None:
    result = dig(engine.random_grid(9, seed=11), "medium", seed=11, minimal=True)
    puzzle = result.puzzle
    for cell in (i for i, symbol in enumerate(puzzle) if symbol != "."):
        assert engine.count_solutions(puzzle[:cell] + "." + puzzle[cell + 1 :]) == 2


def test_same_seed_same_puzzle_and_other_seed_other_puzzle() -> None:
    solution = engine.random_grid(9, seed=3)
    first = dig(solution, "hard", seed=[3, 1], symmetry="rotate180")
    again = dig(solution, "hard", seed=[3, 1], symmetry="rotate180")
    other = dig(solution, "hard", seed=[3, 2], symmetry="rotate180")
    assert (first.puzzle, first.attempts) == (again.puzzle, again.attempts)
    assert first.puzzle != other.puzzle


def test_recipe_bands_with_clue_ranges() -> None:
    tiers = tiers_from_mapping(
        {
            "starter": {"hardest": "naked_single", "clues": [8, 10]},
            "explorer": {"hardest": "hidden_single", "clues": [14, 20]},
        }
    )
    for seed in range(4):
        small = dig(engine.random_grid(4, seed=seed), "starter", seed=seed, tiers=tiers)
        check(small, "starter", tiers)
        assert 8 <= small.grade.clues <= 10
        six = dig(engine.random_grid(6, seed=seed), "explorer", seed=seed, tiers=tiers)
        check(six, "explorer", tiers)


def test_band_object_target() -> None:
    band = Tier("pairs", score=(2.9, 3.5), needs="naked_pair")
    result = dig(engine.random_grid(9, seed=5), band, seed=5)
    check(result, "pairs", {"pairs": band})


def test_16x16_singles_tier_with_symmetry() -> None:
    solution = engine.random_grid(16, seed=2)
    result = dig(solution, "medium", symmetry="rotate180", seed=2)
    check(result, "medium")
    assert result.grade.hardest in ("full_house", "naked_single", "hidden_single")


@pytest.mark.parametrize(
    ("size", "target", "seed"), [(16, "hard", 7), (16, "expert", 3), (25, "hard", 1)]
)
def test_large_grids_harder_tiers_come_from_the_graded_walk(
    size: int, target: str, seed: int
) -> None:
    # the case: 16x16 hard, rotate180, seed 7, failed after 400 candidates before
    solution = engine.random_grid(size, seed=seed)
    result = dig(solution, target, symmetry="rotate180", seed=seed)
    check(result, target)
    assert result.attempts <= 20  # a walk lands in the band nearly every time
    again = dig(solution, target, symmetry="rotate180", seed=seed)
    assert again.puzzle == result.puzzle


def test_large_grids_extreme_never_needs_nested_trial() -> None:
    band = tiers_for(geometry_for(box="4x4"))["extreme"]
    assert band.score is not None and band.score[1] <= NESTED_BASE
    result = dig(engine.random_grid(16, seed=1), "extreme", symmetry="rotate180", seed=1)
    check(result, "extreme")
    assert result.grade.trial_effort == 0.0  # no nested trial and error rated it


@pytest.mark.parametrize(
    ("band", "minimal", "size"),
    [
        (Tier("expert", score=(6.0, 7.5), clues=(36, 81)), False, 9),
        (Tier("dense", clues=(42, 81)), True, 9),
        (Tier("few", clues=(3, 12)), False, 9),
        (Tier("upside", hardest="naked_single", needs="x_wing"), False, 9),
        (Tier("below", score=(0.0, 0.5)), False, 9),
        (Tier("medium", score=(0.0, 2.5)), True, 16),
    ],
)
def test_impossible_bands_fail_fast(band: Tier, minimal: bool, size: int, warm_kernels) -> None:
    start = time.perf_counter()
    with pytest.raises(ImpossibleBand, match=band.name):
        dig(engine.random_grid(size, seed=1), band, seed=1, minimal=minimal)
    assert time.perf_counter() - start < IMPOSSIBLE_SECONDS


def test_budget_exhausted_names_the_band_and_the_closest() -> None:
    band = Tier("chains", score=(6.0, 7.5))  # 4x4 grids never need chains
    with pytest.raises(DigFailed, match=r"'chains' on 4x4.*closest had score") as caught:
        dig(engine.random_grid(4, seed=1), band, seed=1, budget=30)
    assert not isinstance(caught.value, ImpossibleBand)
    assert "not reached in 30 candidates" in str(caught.value)


@pytest.mark.parametrize("budget", [1, 3, 7])
def test_the_budget_counts_every_candidate_graded_or_not(budget: int) -> None:
    """Fresh digs that singles solve are skipped inside one kernel call, yet each one counts."""
    band = Tier("dense chains", needs="aic", clues=(33, 34))  # digs this dense are far easier
    with pytest.raises(DigFailed, match=rf"not reached in {budget} candidates"):
        dig(engine.random_grid(9, seed=2), band, seed=2, budget=budget)


def test_time_limit_stops_the_search(warm_kernels) -> None:
    band = Tier("chains", score=(6.0, 7.5))
    start = time.perf_counter()
    with pytest.raises(DigFailed):
        dig(engine.random_grid(4, seed=1), band, seed=1, budget=10**9, time_limit=0.2)
    assert time.perf_counter() - start < 2.0


def test_bad_inputs_are_named() -> None:
    solution = engine.random_grid(9, seed=1)
    with pytest.raises(UnknownSymmetry, match="spiral"):
        dig(solution, "easy", symmetry="spiral", seed=1)
    with pytest.raises(UnknownTier, match="fiendish"):
        dig(solution, "fiendish", seed=1)
    with pytest.raises(NotASolution, match="r1c1"):
        dig("." + solution[1:], "easy", seed=1)
    with pytest.raises(InvalidBudget, match="budget"):
        dig(solution, "easy", seed=1, budget=0)
    with pytest.raises(InvalidBudget, match="time_limit"):
        dig(solution, "easy", seed=1, time_limit=-1.0)


@pytest.mark.parametrize("symmetry", SYMMETRIES)
@pytest.mark.parametrize("size", [6, 9])
def test_orbits_partition_the_cells_and_are_closed(symmetry: str, size: int) -> None:
    geo = geometry_for(size)
    table = orbits(geo.n, symmetry)
    cells = table[table >= 0]
    assert sorted(cells.tolist()) == list(range(geo.ncells))
    for orbit in table:
        members = {int(c) for c in orbit if c >= 0}
        for cell in members:
            images = mirror(size, symmetry, *divmod(cell, size))
            assert {r * size + c for r, c in images} <= members


def singles_reference(geo, values: np.ndarray) -> bool:
    """Slow naked + hidden singles on sets of candidates."""
    cand = [
        {int(v)} if v else set(range(1, geo.n + 1)) - {int(values[p]) for p in geo.peers[c]}
        for c, v in enumerate(values)
    ]
    grid = [int(v) for v in values]
    changed = True
    while changed:
        changed = False
        for cell in range(geo.ncells):
            if not grid[cell] and len(cand[cell]) == 1:
                grid[cell] = next(iter(cand[cell]))
                changed = True
        for unit in geo.units:
            for value in range(1, geo.n + 1):
                spots = [c for c in unit if value in cand[c]]
                if len(spots) == 1 and not grid[spots[0]]:
                    grid[spots[0]] = value
                    changed = True
        for cell in range(geo.ncells):
            if grid[cell]:
                cand[cell] = {grid[cell]}
                for peer in geo.peers[cell]:
                    cand[peer].discard(grid[cell])
        if any(not c for c in cand):
            return False
    return all(grid)


def partial_puzzle(
    seed: int, keep: float
) -> tuple[Geometry, np.random.Generator, np.ndarray, np.ndarray]:
    """A random 9x9 grid from ``seed`` with about ``keep`` of its cells kept as givens: the
    geometry, the random stream (for further draws), the grid and the partial puzzle."""
    geo = geometry_for(9)
    rng = np.random.default_rng(seed)
    solution = parse(engine.random_grid(9, seed=seed)).values.copy()  # writable, as dig's
    return geo, rng, solution, np.where(rng.random(geo.ncells) < keep, solution, 0).astype(np.uint8)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), keep=st.floats(0.2, 0.6))
def test_singles_kernels_match_the_reference(seed: int, keep: float) -> None:
    geo, _, _, values = partial_puzzle(seed, keep)
    space = Workspace(geo, alldifferent=False)
    found = np.zeros(geo.ncells, dtype=np.uint8)
    fast = singles_solve(values, space.tables, found, space.buffers)
    assert fast == singles_reference(geo, values) == singles9(values, scratch9())


def test_default_budget_shrinks_with_size_but_stays_useful() -> None:
    budgets = [default_budget(geometry_for(size)) for size in (4, 9, 12, 16, 25, 36, 49)]
    assert budgets == sorted(budgets, reverse=True)
    assert budgets[1] == DEFAULT_BUDGET
    assert min(budgets) >= MIN_DEFAULT_BUDGET


@pytest.mark.parametrize(
    ("target", "symmetry"), [("medium", "none"), ("hard", "rotate180"), ("expert", "diagonal")]
)
def test_the_local_search_keeps_puzzles_unique_and_minimal(
    monkeypatch: pytest.MonkeyPatch, target: str, symmetry: str
) -> None:
    """From the first candidate on, every candidate comes from swap moves and re-digs that trust
    the witnesses: the results must still be unique, in band and minimal."""
    monkeypatch.setattr(DIG_MODULE, "FRESH_TRIES", 0)
    for seed in range(3):
        solution = engine.random_grid(9, seed=[seed, 9])
        result = dig(solution, target, symmetry=symmetry, seed=seed, minimal=True)
        check(result, target, minimal=True)


def cells_of(row: np.ndarray, ncells: int) -> list[int]:
    return [cell for cell in range(ncells) if int(row[cell // 64]) >> (cell % 64) & 1]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.sampled_from([4, 6, 9, 12]))
def test_seeded_sets_are_unavoidable(seed: int, size: int) -> None:
    """Blanking any seeded set of a full grid leaves a second solution."""
    geo = geometry_for(size)
    solution = parse(engine.random_grid(size, seed=seed)).values.copy()  # writable, as dig's
    space = Workspace(geo)
    sets = np.zeros((size**3, -(-geo.ncells // 64)), dtype=np.uint64)
    count = np.zeros(2, dtype=np.int64)
    seed_sets(solution, space.tables, sets, count)
    assert count[0] > 0
    for row in sets[: count[0]]:
        cells = cells_of(row, geo.ncells)
        assert 4 <= len(cells) < 2 * size
        blanked = solution.copy()
        blanked[cells] = 0
        assert engine.count_solutions(engine.to_text(geo, blanked)) == 2, cells


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), keep=st.floats(0.25, 0.5))
def test_limit_one_uniqueness_test_matches_the_counter(seed: int, keep: float) -> None:
    """unique_without on a clue of a unique puzzle answers as counting to two does, and a failed
    test's witness is another solution that differs in that cell."""
    geo, rng, solution, puzzle = partial_puzzle(seed, keep)
    space = Workspace(geo)
    if space.search(puzzle, 2, np.zeros_like(puzzle)) != 1:
        puzzle = solution.copy()  # the full grid is unique
    cell = int(rng.choice(np.flatnonzero(puzzle)))
    puzzle[cell] = 0
    witness = np.zeros_like(puzzle)
    orbit = np.array([cell], dtype=np.int32)
    orbit.setflags(write=False)  # as dig's orbit rows: one compiled signature
    spaces = Counters(counter=space.buffers, nine=scratch9())
    unique = unique_without(puzzle, orbit, solution, witness, space.tables, spaces, 0)
    assert unique == (engine.count_solutions(engine.to_text(geo, puzzle)) == 1)
    if not unique:
        assert witness[cell] != solution[cell]
        assert engine.count_solutions(engine.to_text(geo, witness)) == 1
        assert (witness[puzzle > 0] == puzzle[puzzle > 0]).all()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), keep=st.floats(0.3, 0.6))
def test_singles_solvable_puzzles_score_a_naked_single_at_most(seed: int, keep: float) -> None:
    """The digger leaves such candidates ungraded for bands that start above SINGLES_TOP."""
    geo, _, _, values = partial_puzzle(seed, keep)
    space = Workspace(geo, alldifferent=False)
    found = np.zeros(geo.ncells, dtype=np.uint8)
    if singles_solve(values, space.tables, found, space.buffers):
        assert engine.grade(engine.to_text(geo, values)).score <= SINGLES_TOP
