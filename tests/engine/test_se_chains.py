"""SE's dynamic chains through cells and units follow naked and hidden singles: an assumption's
run meets a contradiction exactly when singles after it fail (``assumption_fails9``), and a
Nishio run (units only) only when they fail, which lets the settled searches skip the runs
that cannot end in one."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.geometry import geometry
from engine.logic.passes import CYCLE, RUNGS, workspace
from engine.logic.se_chains import _digit_fails, _digit_room, _run, _workspace, board_of
from engine.logic.tables import tables
from engine.search9 import STATE_WORDS, assumption_fails9, candidates_state9
from tests.engine.test_se_rating import SAMPLE

GEO = geometry(3, 3)
T = tables(GEO)
NODES = 2 * 81 * 9
#: ladders whose stuck states have no single left: the singles' own, and all below the chains
LADDERS = [np.array(RUNGS[:cut], dtype=np.int64) for cut in (1, RUNGS.index(CYCLE))]


def outcomes(grid: np.ndarray, placed: np.ndarray) -> list[tuple[bool, bool, bool]]:
    """For every candidate of ``grid`` (the open cells'; placed cells hold none): whether SE's
    dynamic chain run from it meets a contradiction, whether its Nishio run does, and whether
    singles after it fail."""
    board = board_of(grid, placed, T)
    state = np.zeros(STATE_WORDS, dtype=np.int64)
    trial = np.empty(STATE_WORDS, dtype=np.int64)
    candidates_state9(grid, placed, state)
    found = []
    for cell in range(81):
        for digit in range(9):
            if not int(grid[cell]) >> digit & 1:
                continue
            runs = []
            for cells_too in (True, False):
                ws = _workspace(81, 9, 4 * (NODES + 2), 16 * (NODES + 2))
                slot = cell * 9 + digit
                _run(ws, slot, 2 * slot + 1, grid, board, T, True, cells_too)
                assert not ws[5][3], "the run found no room"
                runs.append(bool(ws[11][slot, 2] >= 0))
            found.append((*runs, bool(assumption_fails9(state, trial, cell, digit, True))))
    return found


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 511), min_size=81, max_size=81))
def test_a_contradiction_of_a_run_is_one_of_singles(masks: list[int]) -> None:
    """On any candidates (open cells only), a run that meets a contradiction is an assumption
    that singles refute; singles may refute more where the grid holds singles already, which
    a run from one assumption does not follow. Nishio's runs (units only) find fewer."""
    grid = np.array(masks, dtype=np.uint64)
    for dynamic, nishio, singles in outcomes(grid, np.zeros(81, dtype=np.int32)):
        assert singles or not (dynamic or nishio)


def stuck_states() -> list[tuple[np.ndarray, np.ndarray]]:
    """The candidates and placed digits where each ladder of ``LADDERS`` leaves the SE-rated
    sample's puzzles of 7.0 and up: no single left, where the grader reaches SE's chains."""
    ws = workspace(GEO)
    states = []
    for puzzle, rating, _ in SAMPLE:
        if rating < 7.0:
            continue
        values = np.array([int(c) if c != "." else 0 for c in puzzle], dtype=np.uint8)
        for ladder in LADDERS:
            ws.solve(values, rungs=ladder)
            states.append(
                (np.where(ws.placed == 0, ws.cand, 0).astype(np.uint64), ws.placed.copy())
            )
    return states


def test_runs_and_singles_agree_where_the_chains_are_searched() -> None:
    """On states with no single left (where the singles get stuck, and where the grader
    reaches SE's chains), dynamic runs and singles agree on every candidate, contradictions
    found on both sides; a Nishio run finds one only where they do."""
    contradictions = nishio_contradictions = 0
    for grid, placed in stuck_states():
        found = outcomes(grid, placed)
        assert all(dynamic == singles for dynamic, _, singles in found)
        assert all(singles or not nishio for _, nishio, singles in found)
        contradictions += sum(dynamic for dynamic, _, _ in found)
        nishio_contradictions += sum(nishio for _, nishio, _ in found)
    assert contradictions > 20 and nishio_contradictions > 0


def nishio_outcomes(grid: np.ndarray, placed: np.ndarray) -> list[tuple[bool, bool]]:
    """For every candidate of ``grid`` assumed on and assumed off: whether SE's Nishio run
    from it meets a contradiction, and whether ``_digit_fails`` says it does."""
    board = board_of(grid, placed, T)
    room = _digit_room(81, T.units.shape[0])
    found = []
    for cell in range(81):
        for digit in range(9):
            if not int(grid[cell]) >> digit & 1:
                continue
            for on in (1, 0):
                ws = _workspace(81, 9, 4 * (NODES + 2), 16 * (NODES + 2))
                slot = cell * 9 + digit
                _run(ws, slot, 2 * slot + on, grid, board, T, True, False)
                assert not ws[5][3], "the run found no room"
                run = bool(ws[11][slot, 2] >= 0)
                found.append((run, bool(_digit_fails(board[4], T, digit, cell, on, room))))
    return found


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 511), min_size=81, max_size=81))
def test_a_nishio_run_meets_a_contradiction_exactly_when_its_digit_does(masks: list[int]):
    """On any candidates (open cells only, singles or not), a Nishio run from a candidate on
    or off meets a contradiction exactly when the digit's own rules followed to their end
    put a cell on and off: the Nishio searches make only those runs."""
    for run, digit_fails in nishio_outcomes(
        np.array(masks, dtype=np.uint64), np.zeros(81, np.int32)
    ):
        assert run == digit_fails


def test_nishio_runs_and_their_digit_agree_where_the_chains_are_searched() -> None:
    """The same on the stuck states of SE-rated puzzles, where some runs do meet one."""
    contradictions = 0
    for grid, placed in stuck_states():
        found = nishio_outcomes(grid, placed)
        assert all(run == digit_fails for run, digit_fails in found)
        contradictions += sum(run for run, _ in found)
    assert contradictions > 10
