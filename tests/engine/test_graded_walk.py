"""The graded walk's kernel: every orbit it leaves blank keeps the puzzle unique and solved by
the ladder cut at the band's top, though a removal's solve stops once it has placed the removed
clues again (``until``) and hard walks skip the solve of a removal with a second solution."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.dig import _Digger, _layout, tiers_for
from engine.geometry import geometry
from engine.grade import rungs_within
from engine.grids import rng_from
from engine.layouts import random_layout
from engine.logic.passes import NO_CELLS, PLACED, SOLVED, solve_passes
from engine.logic.passes import workspace as logic_workspace
from engine.text import Grid, parse
from engine.tiers import DEFAULT_TIERS
from engine.warmup import EASY
from tests.variant_rules import sat_solutions

VARIANTS = ("x", "windoku", "jigsaw")


def _walk(geo, solution, tier, seed):
    """One whole walk, as the digger runs it (its own driver of the kernel), and its ladder."""
    band = DEFAULT_TIERS[tier]
    digger = _Digger(
        Grid(geo, solution), _layout(geo.n, "none"), band, tiers_for(geo), False, rng_from(seed)
    )
    assert digger.walking  # the digger's choice for these bands
    return digger.graded_walk().puzzle, rungs_within(band.score[1])


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    variant=st.sampled_from(VARIANTS),
    tier=st.sampled_from(["medium", "hard"]),
)
def test_a_walk_ends_unique_and_solved_by_its_cut_ladder(seed, variant, tier) -> None:
    geo = random_layout(9, seed=seed) if variant == "jigsaw" else geometry(3, 3, variant)
    solution = parse(engine.random_grid(seed=seed, box=geo), geo).values
    puzzle, rungs = _walk(geo, solution, tier, seed)
    assert (puzzle == 0).sum() > 30  # the walk went far
    found = sat_solutions(geo, puzzle, 2)  # an independent count
    assert len(found) == 1 and np.array_equal(found[0], solution)
    solved, _ = logic_workspace(geo).solve(puzzle, rungs=rungs)  # the whole solve, no stop
    assert solved


@pytest.mark.parametrize("until", ["orbit", "none"])
def test_a_pass_loop_watching_cells_stops_once_they_are_placed(until) -> None:
    geo = geometry(3, 3)
    puzzle = parse(EASY, geo).values.copy()
    space = logic_workspace(geo)
    assert space.solve(puzzle)[0]
    solution = space.placed.astype(np.uint8)
    blank = np.flatnonzero(puzzle == 0)
    watched = blank[:2].astype(np.int32) if until == "orbit" else NO_CELLS
    watched.setflags(write=False)  # as the digger's orbit rows: no kernel of its own
    args = space.pass_loop(rungs_within(9.9))
    result, _ = solve_passes(puzzle, *args, watched)
    if until == "orbit":
        assert result == PLACED
        assert np.array_equal(space.placed[watched], solution[watched])
        assert (space.placed == 0).any()  # it stopped before the end
    else:
        assert result == SOLVED and np.array_equal(space.placed, solution)
