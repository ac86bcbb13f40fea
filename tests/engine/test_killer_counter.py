"""The counter and the SAT counter with Killer cage sums, against tests/variant_rules.py (the
rules written out again, each cage's digit sets from itertools, counted by Glucose): Solo's
killers at every level, and random cage layouts that leave one, several or no solution."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import engine
from engine import sat
from engine.cages import InvalidCages, checked_cages
from engine.geometry import geometry
from engine.solver import workspace
from engine.text import parse
from pipeline.formats.solo import solo_killer
from tests.variant_rules import obeys, sat_solutions

SOLO = "/usr/games/sgt-solo"


def solo_puzzles(level: str, count: int) -> list[str]:
    out = subprocess.run(
        [SOLO, "--generate", str(count), f"3x3kd{level}"], capture_output=True, text=True
    )
    return [line for line in out.stdout.split() if ":" in line]


@pytest.mark.skipif(not shutil.which(SOLO), reason="Solo (Debian sgt-puzzles) is not installed")
@pytest.mark.parametrize("level", ["b", "a", "u"])
def test_solo_killers_have_one_solution_by_every_counter(level: str) -> None:
    for description in solo_puzzles(level, 3):
        geo, givens = solo_killer(description)
        values = parse(givens, geo).values
        assert not values.any()  # Solo's killers have no givens
        solution = engine.solve(givens, box=geo)
        grid = parse(solution, geo).values
        assert obeys(geo, grid)
        found = sat_solutions(geo, values, 2)
        assert len(found) == 1 and np.array_equal(found[0], grid)
        again = np.zeros_like(values)
        assert sat.count(values, workspace(geo).tables, 2, again) == 1
        assert np.array_equal(again, grid)


@st.composite
def killers(draw):
    """A killer on a 4x4 or 6x6 grid: cages grown from a random full grid (each 1-5 connected
    cells, right or down from where it starts), totals from the grid or one of them shifted,
    and a few givens: one, several or no solution. Returned with the full grid."""
    rows, cols = draw(st.sampled_from([(2, 2), (2, 3)]))
    n = rows * cols
    grid = parse(engine.random_grid(seed=draw(st.integers(0, 2**32)), box=f"{rows}x{cols}")).values
    owner = [-1] * (n * n)
    cages: list[list[int]] = []
    for start in range(n * n):
        if owner[start] >= 0:
            continue
        cells = [start]
        owner[start] = len(cages)
        for _ in range(draw(st.integers(0, 4))):
            grow = sorted(
                {
                    nxt
                    for c in cells
                    for nxt in (c + 1 if (c + 1) % n else -1, c + n)
                    if 0 <= nxt < n * n and owner[nxt] < 0
                }
            )
            if not grow:
                break
            cell = draw(st.sampled_from(grow))
            owner[cell] = len(cages)
            cells.append(cell)
        cages.append(cells)
    totals = [int(grid[cells].sum()) for cells in cages]
    if draw(st.booleans()):
        which = draw(st.integers(0, len(cages) - 1))
        totals[which] += draw(st.sampled_from([-2, -1, 1, 2]))
    try:
        checked = checked_cages(list(zip(totals, cages, strict=True)), n)
    except InvalidCages:  # a repeated digit, or a shifted total, that no digit set makes
        checked = checked_cages([(int(grid[c]), [c]) for c in range(n * n)], n)
    geo = geometry(rows, cols, "killer", None, checked)
    values = np.zeros(n * n, dtype=np.uint8)
    for cell in draw(st.lists(st.integers(0, n * n - 1), max_size=3)):
        values[cell] = grid[cell] if draw(st.booleans()) else draw(st.integers(1, n))
    return geo, values, grid


@settings(max_examples=40)
@given(killers())
def test_counters_agree_with_the_rules_on_random_cages(killer) -> None:
    geo, values, _ = killer
    expected = sat_solutions(geo, values, 3)
    solution = np.zeros_like(values)
    count = workspace(geo).search(values, 3, solution)
    assert count == len(expected)
    again = np.zeros_like(values)
    assert sat.count(values, workspace(geo).tables, 3, again) == count
    for found in (solution, again)[: 2 if count else 0]:
        assert obeys(geo, found) and (values[values > 0] == found[values > 0]).all()
        if count < 3:  # every solution is known: the one found is among them
            assert any(np.array_equal(found, s) for s in expected)


@settings(max_examples=40)
@given(killers(), st.lists(st.integers(0, 35), max_size=12))
def test_a_digs_sat_session_finds_a_second_solution_exactly_when_there_is_one(
    killer, blanks: list[int]
) -> None:
    """engine.sat.OtherSolution, one session asked in turn: the drawn layout with and without
    its givens, single-cell cages (the grid's own: then unique), and each row one cage (which
    says nothing) under the grid with ``blanks`` blanked, as a dig asks layout after layout."""
    geo, values, grid = killer
    assume(obeys(geo, grid) and (values[values > 0] == grid[values > 0]).all())
    n = geo.n
    others = sat.OtherSolution(grid, geometry(geo.box_rows, geo.box_cols))
    cages = [(cage.total, cage.cells) for cage in geo.cages]
    singles = [(int(grid[cell]), (cell,)) for cell in range(geo.ncells)]
    rows = [(n * (n + 1) // 2, tuple(range(r * n, r * n + n))) for r in range(n)]
    dug = grid.copy()
    dug[[cell for cell in blanks if cell < geo.ncells]] = 0
    blank = np.zeros_like(values)
    asked = ((cages, values), (cages, blank), (singles, blank), (rows, dug), (cages, values))
    for layout, givens in asked:
        killer_geo = geometry(geo.box_rows, geo.box_cols, "killer", None, checked_cages(layout, n))
        expected = sat_solutions(killer_geo, givens, 3)
        other = others.find(layout, givens)
        if len(expected) == 1:
            assert other is None
        else:
            assert other is not None and obeys(killer_geo, other)
            assert not np.array_equal(other, grid)
            assert any(np.array_equal(other, s) for s in expected) or len(expected) == 3
            assert (other[givens > 0] == givens[givens > 0]).all()
    others.close()
