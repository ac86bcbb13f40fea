"""SE's multiple forcing chains run on the grid as it is, so a run reaches no more than its
source's reach on the static graph: the search passes over a cell's values, or a unit's places
of a digit, whose reaches share nothing a hint could conclude (``_may_share``). Here the runs
are made anyway and what they share is compared with that bound."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.geometry import geometry
from engine.logic.passes import MULTIPLE_FORCING_CHAIN, RUNGS, workspace
from engine.logic.se_chains import _may_share, _members, _run, _static_bounds, _workspace, board_of
from engine.logic.tables import tables

TOP = Path(__file__).resolve().parents[3] / "shared/data/magictour_top1465.txt"
GEO = geometry(3, 3)
T = tables(GEO)
NODES = 2 * 81 * 9
#: the grader's ladder below the multiple forcing chains: its stuck states are where they run
BELOW_MULTIPLE = np.array(RUNGS[: RUNGS.index(MULTIPLE_FORCING_CHAIN)], dtype=np.int64)


def sources(grid: np.ndarray) -> list[list[int]]:
    """The sets of candidates (``cell * 9 + digit``) whose runs SE's multiple chains intersect:
    a cell's values, and a unit's places of a digit."""
    found = []
    for cell in range(81):
        values = [cell * 9 + d for d in range(9) if int(grid[cell]) >> d & 1]
        if len(values) >= 2:
            found.append(values)
    for unit in T.units:
        for d in range(9):
            places = [int(c) * 9 + d for c in unit if int(grid[c]) >> d & 1]
            if len(places) >= 2:
                found.append(places)
    return found


def shared_conclusions(grid: np.ndarray, placed: np.ndarray, group: list[int]) -> set[int]:
    """The nodes that the static runs from every candidate of ``group`` (assumed on) reach and
    that a hint could conclude: a candidate off, or on in a cell holding another."""
    board = board_of(grid, placed, T)
    ws = _workspace(81, 9, 4 * (NODES + 2), 16 * (NODES + 2))
    common = None
    for slot in group:
        _run(ws, slot, 2 * slot + 1, grid, board, T, False, True)
        assert not ws[5][3], "the run found no room"
        lo, hi = _members(ws, slot)
        nodes = {int(node) for node in ws[2][lo:hi]}
        common = nodes if common is None else common & nodes
    assert common is not None
    return {
        node for node in common if not node & 1 or bin(int(grid[(node >> 1) // 9])).count("1") > 1
    }


def check(grid: np.ndarray, placed: np.ndarray) -> tuple[int, int]:
    """Every group whose runs share a conclusion passes ``_may_share``; returns how many groups
    share one and how many the bound passes over."""
    bounds = _static_bounds(grid, T, board_of(grid, placed, T), False)
    sharing = skipped = 0
    for group in sources(grid):
        may = _may_share(bounds, np.array(group, dtype=np.int64), len(group))
        shared = shared_conclusions(grid, placed, group)
        assert may or not shared, f"bound passed over {group}, whose runs share {shared}"
        sharing += bool(shared)
        skipped += not may
    return sharing, skipped


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 511), min_size=81, max_size=81))
def test_the_bound_never_passes_over_a_shared_conclusion(masks: list[int]) -> None:
    """On any candidates (open cells only), runs never share more than their reaches."""
    check(np.array(masks, dtype=np.uint64), np.zeros(81, dtype=np.int32))


@pytest.mark.skipif(not TOP.exists(), reason="magictour_top1465.txt (shared data) not present")
def test_the_bound_keeps_every_sharing_group_where_the_multiple_chains_run() -> None:
    """On states of top1465 puzzles where the ladder below the multiple chains is stuck, the
    bound keeps every group whose runs share a conclusion, and passes over others (the runs it
    spares)."""
    ws = workspace(GEO)
    sharing = skipped = states = 0
    for line in [x for x in TOP.read_text().splitlines() if not x.startswith("#")][:40]:
        values = np.array([int(c) if c != "." else 0 for c in line[:81]], dtype=np.uint8)
        solved, _ = ws.solve(values, rungs=BELOW_MULTIPLE)
        if solved:
            continue
        grid = np.where(ws.placed == 0, ws.cand, 0).astype(np.uint64)
        found = check(grid, ws.placed.copy())
        sharing, skipped, states = sharing + found[0], skipped + found[1], states + 1
        if states == 8:
            break
    assert states == 8 and sharing > 0 and skipped > 0
