"""What SE's multiple and dynamic forcing chains can share, bounded before their runs are made.

The multiple chains run on the grid as it is, so a run reaches no more than its source's reach
on the static graph (``_may_share``); a dynamic run through cells and units follows naked and
hidden singles, so it reaches no more than the singles closure of its assumption, and meets a
contradiction only where that closure fails (``_closures_share``, ``_closure_fails``). The
searches pass over a cell's values, a unit's places of a digit, or a candidate on and off whose
bounds share nothing a hint could conclude. Here the runs are made anyway and what they share
is compared with the bounds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.geometry import geometry
from engine.logic.passes import DYNAMIC_FORCING_CHAIN, MULTIPLE_FORCING_CHAIN, RUNGS, workspace
from engine.logic.se_chains import (
    _closure_fails,
    _closures,
    _closures_share,
    _may_share,
    _members,
    _run,
    _static_bounds,
    _workspace,
    board_of,
)
from engine.logic.tables import tables

TOP = Path(__file__).resolve().parents[3] / "shared/data/magictour_top1465.txt"
GEO = geometry(3, 3)
T = tables(GEO)
NODES = 2 * 81 * 9


def below(rung: int) -> np.ndarray:
    """The grader's ladder below ``rung``: its stuck states are where that rung runs."""
    return np.array(RUNGS[: RUNGS.index(rung)], dtype=np.int64)


def groups(grid: np.ndarray, dynamic: bool) -> list[tuple[list[int], bool]]:
    """The candidate sets (``cell * 9 + digit``) whose runs the chains intersect, each with
    whether it is assumed on: a cell's values, a unit's places of a digit, and in the dynamic
    chains a candidate of a cell of three or more on and off (one entry, ``False``)."""
    found = []
    for cell in range(81):
        values = [cell * 9 + d for d in range(9) if int(grid[cell]) >> d & 1]
        if len(values) >= 2:
            found.append((values, True))
        if dynamic and len(values) >= 3:
            found.extend(([value], False) for value in values)
    for unit in T.units:
        for d in range(9):
            places = [int(c) * 9 + d for c in unit if int(grid[c]) >> d & 1]
            if len(places) >= 2:
                found.append((places, True))
    return found


def members(grid: np.ndarray, placed: np.ndarray, source: int, dynamic: bool) -> tuple:
    """The nodes of the run from node ``source`` (without a contradiction's last record), and
    whether it met a contradiction."""
    ws = _workspace(81, 9, 4 * (NODES + 2), 16 * (NODES + 2))
    slot = source >> 1
    _run(ws, slot, source, grid, board_of(grid, placed, T), T, dynamic, True)
    assert not ws[5][3], "the run found no room"
    lo, hi = _members(ws, slot)
    return {int(node) for node in ws[2][lo:hi]}, bool(ws[11][slot, 2] >= 0)


def shared_conclusions(grid, placed, candidates: list[int], on: bool, dynamic: bool) -> set:
    """The nodes that the runs of a group all reach and that a hint could conclude: a
    candidate off, or on in a cell holding another."""
    sources = [2 * c + 1 for c in candidates] if on else [2 * candidates[0] + 1, 2 * candidates[0]]
    common = None
    for source in sources:
        nodes, _ = members(grid, placed, source, dynamic)
        common = nodes if common is None else common & nodes
    assert common is not None
    return {
        node for node in common if not node & 1 or bin(int(grid[(node >> 1) // 9])).count("1") > 1
    }


def check(grid: np.ndarray, placed: np.ndarray, dynamic: bool) -> tuple[int, int]:
    """Every group whose runs share a conclusion passes its bound, and in the dynamic chains
    every run that meets a contradiction is one whose closure fails; returns how many groups
    share one and how many the bound passes over."""
    board = board_of(grid, placed, T)
    bounds = _static_bounds(grid, T, board, dynamic)
    closures = _closures(grid, placed, 9, dynamic)
    sharing = skipped = 0
    for candidates, on in groups(grid, dynamic):
        array = np.array(candidates, dtype=np.int64)
        may = _may_share(bounds, array, len(candidates))
        may = may and _closures_share(closures, array, len(candidates), on)
        shared = shared_conclusions(grid, placed, candidates, on, dynamic)
        assert may or not shared, f"bound passed over {candidates}, whose runs share {shared}"
        sharing += bool(shared)
        skipped += not may
    if dynamic:
        for slot in [c * 9 + d for c in range(81) for d in range(9) if int(grid[c]) >> d & 1]:
            for on in (1, 0):
                _, contradiction = members(grid, placed, 2 * slot + on, True)
                assert _closure_fails(closures, slot // 9, slot % 9, on) or not contradiction
    return sharing, skipped


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 511), min_size=81, max_size=81), st.booleans())
def test_the_bounds_never_pass_over_a_shared_conclusion(masks: list[int], dynamic: bool):
    """On any candidates (open cells only), runs never share more than their bounds."""
    check(np.array(masks, dtype=np.uint64), np.zeros(81, dtype=np.int32), dynamic)


@pytest.mark.skipif(not TOP.exists(), reason="magictour_top1465.txt (shared data) not present")
@pytest.mark.parametrize("rung", [MULTIPLE_FORCING_CHAIN, DYNAMIC_FORCING_CHAIN])
def test_the_bounds_keep_every_sharing_group_where_the_chains_run(rung: int) -> None:
    """On states of top1465 puzzles where the ladder below the rung is stuck, the bounds keep
    every group whose runs share a conclusion, and pass over others (the runs they spare)."""
    ws = workspace(GEO)
    sharing = skipped = states = 0
    for line in [x for x in TOP.read_text().splitlines() if not x.startswith("#")][:40]:
        values = np.array([int(c) if c != "." else 0 for c in line[:81]], dtype=np.uint8)
        solved, _ = ws.solve(values, rungs=below(rung))
        if solved:
            continue
        grid = np.where(ws.placed == 0, ws.cand, 0).astype(np.uint64)
        found = check(grid, ws.placed.copy(), rung == DYNAMIC_FORCING_CHAIN)
        sharing, skipped, states = sharing + found[0], skipped + found[1], states + 1
        if states == 6:
            break
    assert states == 6 and sharing > 0 and skipped > 0
