"""Aligned triplet exclusion against a plain reference written from SE's rule: on states where
the grade's ladder below it is stuck, the rung eliminates exactly what the reference does, and
never a digit of the solution."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

import engine
from engine.logic.passes import RUNG_ARRAY, workspace
from engine.logic.state import TECHNIQUE_INDEX
from engine.text import parse
from tests.engine.test_se_rating import SAMPLE
from tests.reference import peers_of

ALIGNED = TECHNIQUE_INDEX["aligned_triplet_exclusion"]
SHARED = Path(__file__).resolve().parents[3] / "shared/data"
RATED = SHARED / "sudoku_exchange_se_rated_train.tsv"
TOP = SHARED / "magictour_top1465.txt"
PEERS = peers_of(9, 3, 3)


def reference(sets: list[set[int]], open_cells: set[int]) -> set[tuple[int, int]]:
    """Every (cell, digit) that SE's aligned triplet exclusion removes, as plainly as it reads:
    base cells hold two digits or more and see a cell holding two or three; a triplet of base
    cells counts when one of its cells holding two or three digits sees another of them."""
    narrow = {c for c in open_cells if 2 <= len(sets[c]) <= 3}
    base = [c for c in sorted(open_cells) if len(sets[c]) >= 2 and PEERS[c] & narrow]
    removed = set()
    for triplet in itertools.combinations(base, 3):
        if not any(r in narrow and PEERS[r] & set(triplet) for r in triplet):
            continue
        excluders = narrow & PEERS[triplet[0]] & PEERS[triplet[1]] & PEERS[triplet[2]]
        if len(excluders) < 2:
            continue
        possible: list[set[int]] = [set(), set(), set()]
        for filling in itertools.product(*(sets[t] for t in triplet)):
            clash = any(
                filling[i] == filling[j] and triplet[j] in PEERS[triplet[i]]
                for i, j in itertools.combinations(range(3), 2)
            )
            if clash or any(sets[e] <= set(filling) for e in excluders):
                continue
            for k in range(3):
                possible[k].add(filling[k])
        removed |= {(t, d) for k, t in enumerate(triplet) for d in sets[t] - possible[k]}
    return removed


def stuck_below_aligned(puzzles: list[str]) -> list[tuple[np.ndarray, np.ndarray, str]]:
    space = workspace(parse("." * 81).geometry)
    below = RUNG_ARRAY[: list(RUNG_ARRAY).index(ALIGNED)]
    states = []
    for puzzle in puzzles:
        solved, _ = space.solve(parse(puzzle).values, rungs=below)
        if not solved:
            states.append((space.cand.copy(), space.placed.copy(), puzzle))
    return states


def check_states(states: list[tuple[np.ndarray, np.ndarray, str]]) -> int:
    """Compare the rung with the reference on each state; the number of states it fired on."""
    space = workspace(parse("." * 81).geometry)
    fired = 0
    for cand, placed, puzzle in states:
        open_cells = {c for c in range(81) if not placed[c]}
        sets = [{d + 1 for d in range(9) if int(cand[c]) >> d & 1} for c in range(81)]
        effects = space.find("aligned_triplet_exclusion", cand, placed).effects
        found = {(int(row[0]), int(row[1]) + 1) for row in effects}
        assert found == reference(sets, open_cells), puzzle
        solution = engine.solve(puzzle)
        assert all(int(solution[cell]) != digit for cell, digit in found), puzzle
        fired += bool(found)
    return fired


def test_the_rung_matches_the_reference_on_se_rated_puzzles() -> None:
    puzzles = [p for p, _, technique in SAMPLE if technique == "aligned_triplet_exclusion"]
    states = stuck_below_aligned(puzzles)
    assert len(states) == len(puzzles) and check_states(states) == len(puzzles)


@pytest.mark.skipif(not RATED.exists(), reason="shared data not present (../shared/data)")
def test_the_rung_matches_the_reference_where_se_rates_7_5() -> None:
    rows = [line.split("\t") for line in RATED.read_text().splitlines() if line[:1] not in "#"]
    puzzles = [row[0].replace("0", ".") for row in rows if float(row[1]) == 7.5][:60]
    states = stuck_below_aligned(puzzles)
    assert check_states(states) >= 10


@pytest.mark.skipif(not TOP.exists(), reason="shared data not present (../shared/data)")
def test_the_rung_matches_the_reference_on_the_hardest_puzzles() -> None:
    lines = [line.split()[0] for line in TOP.read_text().splitlines() if line[:1] not in "#"]
    states = stuck_below_aligned(lines[:40])
    assert len(states) >= 10
    check_states(states)
