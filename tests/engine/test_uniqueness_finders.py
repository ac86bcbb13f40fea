"""Unique, hidden and avoidable rectangles and Sue de Coq on every box shape: on pencil-mark states
that keep a unique puzzle's solution (some wrong candidates left, some open cells solved by
"logic"), whatever these finders claim is true, and each of them finds something."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.geometry import Geometry, geometry
from engine.logic import workspace
from tests.conftest import TEST_DATA, read_puzzles
from tests.helpers import dig, solution_states

FINDERS = ("unique_rectangle", "hidden_rectangle", "avoidable_rectangle", "sue_de_coq")
STATES = 40  # per puzzle


def sweep(geo: Geometry, puzzles: list[str]) -> Counter:
    """Steps found per finder over every state of ``puzzles``; asserts each one true."""
    space = workspace(geo)
    found: Counter = Counter()
    for seed, text in enumerate(puzzles):
        for cand, placed, given, solution in solution_states(geo, text, seed, STATES):
            for technique in FINDERS:
                for step in space.find(technique, cand, placed, given).all_steps():
                    assert all(solution[c] != d for c, d in step.eliminations), (technique, text)
                    assert all(solution[c] == d for c, d in step.placements), (technique, text)
                    found[technique] += 1
    return found


@pytest.mark.parametrize(
    ("rows", "cols", "expected"),
    [(2, 2, set()), (2, 3, {"unique_rectangle", "avoidable_rectangle"}), (3, 3, set(FINDERS))],
)
def test_small_shapes(rows: int, cols: int, expected: set[str]) -> None:
    """4x4 states are too small for these patterns to show: there only soundness is checked."""
    geo = geometry(rows, cols)
    found = sweep(geo, [dig(geo, seed) for seed in range(3)])
    assert set(found) >= expected, found


def test_sixteen_by_sixteen(shared_data: Path) -> None:
    found = sweep(geometry(4, 4), read_puzzles(shared_data / "sudoku16x16.tsv")[:3])
    assert set(found) == set(FINDERS), found


def test_twenty_five_by_twenty_five() -> None:
    found = sweep(geometry(5, 5), read_puzzles(TEST_DATA / "dug_25x25_hard.txt")[:1])
    assert set(found) >= {"unique_rectangle", "avoidable_rectangle"}, found
