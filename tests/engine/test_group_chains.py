"""Grouped chains and ALS finders on other geometries and on hard 9x9 states: every deduction
is true, and they do find some (HoDoKu's cases are in test_hodoku_reglib)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import engine
from engine.geometry import geometry
from engine.logic import TECHNIQUES, techniques_mask, workspace
from engine.logic.passes import GROUPED_AHEAD, Workspace
from engine.text import parse
from tests.conftest import read_puzzles
from tests.engine.test_se_rating import SAMPLE as SE_SAMPLE
from tests.helpers import dig

NEW = ("grouped_x_chain", "grouped_aic", "als_xz", "als_xy_wing", "als_chain")
BELOW = TECHNIQUES[: TECHNIQUES.index("aic") + 1]  # the ladder before them
SAMPLE_16 = 4
SAMPLE_HARD = 40


def deductions(geo, text: str, lower: tuple[str, ...]) -> dict[str, list]:
    """Each new finder's steps from the state where ``lower`` gets stuck, with the solution."""
    space = workspace(geo)
    run = space.run(parse(text, geo.shape).values, techniques_mask(lower))
    cand, placed = run.candidates.copy(), run.values.astype(np.int32)
    return {t: space.find(t, cand, placed).all_steps() for t in NEW}


def assert_true(geo, text: str, found: dict[str, list]) -> int:
    """Every elimination is false in the solution; returns how many steps there were."""
    solution = parse(engine.solve(text, box=geo.shape), geo.shape).values
    for technique, steps in found.items():
        for step in steps:
            assert step.technique in NEW, technique
            assert all(solution[c] != d for c, d in step.eliminations), (technique, text)
            assert not step.placements
    return sum(len(steps) for steps in found.values())


def test_sound_on_sixteen_by_sixteen(shared_data: Path) -> None:
    """From the candidates of the givens alone (no technique applied: rich in ALS) and from
    where the singles get stuck, on 4x4-box grids."""
    geo = geometry(4, 4)
    total = 0
    for text in read_puzzles(shared_data / "sudoku16x16.tsv")[:SAMPLE_16]:
        for lower in ((), ("full_house", "naked_single", "hidden_single")):
            total += assert_true(geo, text, deductions(geo, text, lower))
    assert total > 0


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 3), (3, 4)])
def test_sound_on_other_boxes(rows: int, cols: int) -> None:
    geo = geometry(rows, cols)
    for seed in range(2):
        puzzle = dig(geo, seed)
        assert_true(geo, puzzle, deductions(geo, puzzle, ()))


def test_sound_and_useful_where_chains_get_stuck(shared_data: Path) -> None:
    """top1465 puzzles where every technique up to the AIC gets stuck: the new finders find
    something in most, and it is all true."""
    geo = geometry(3, 3)
    useful = stuck = 0
    for text in read_puzzles(shared_data / "magictour_top1465.txt")[:SAMPLE_HARD]:
        if workspace(geo).run(parse(text).values, techniques_mask(BELOW)).solved:
            continue
        stuck += 1
        useful += assert_true(geo, text, deductions(geo, text, BELOW)) > 0
    assert stuck and useful >= stuck // 2


def test_short_grouped_x_chains_skip_only_digits_that_refute_nothing() -> None:
    """The grader's short grouped X-chains keep, per digit, the cells that last refuted
    nothing (``find_grouped_x_chains``): a workspace that carries them from state to state
    records what a fresh one records, on states of hard puzzles reached by ever more
    techniques."""
    geo = geometry(3, 3)
    kept = Workspace(geo)
    last = ("hidden_single", "jellyfish", "aic")
    prefixes = [TECHNIQUES[: TECHNIQUES.index(t) + 1] for t in last]
    steps = skipped = 0
    for puzzle, rating, _ in SE_SAMPLE:
        if rating < 6.0:
            continue
        for lower in prefixes:
            run = kept.run(parse(puzzle, geo.shape).values, techniques_mask(lower))
            cand, placed = run.candidates.copy(), run.values.astype(np.int32)
            known = kept.work.grouped_clear.copy()
            carried = kept.find_on(GROUPED_AHEAD, cand, placed)
            fresh = Workspace(geo).find_on(GROUPED_AHEAD, cand, placed)
            for name in ("steps", "digits", "proof", "effects"):
                assert np.array_equal(getattr(carried, name), getattr(fresh, name)), puzzle
            steps += len(carried)
            skipped += int((known > 0).sum())
    assert steps > 0 and skipped > 0
