"""The score follows Sudoku Explainer's rules (docs/difficulty.md, "How the score follows SE"):
its strong-linked fishes, its chains' length bonus, and puzzles that SE rates by one of those
rules, graded to SE's own number."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import engine
from engine.geometry import geometry
from engine.grade import se_length_bonus, strong_link_rating
from engine.logic.tables import tables
from tests.conftest import TEST_DATA

CELL_UNITS = tables(geometry(3, 3)).cell_units


def rc(row: int, column: int) -> int:
    """The cell at row and column, counted from 1 as solvers write r1c1."""
    return (row - 1) * 9 + column - 1


def fish(*pairs: tuple[tuple[int, int], tuple[int, int]]) -> float:
    """Sukaku's rating of an X-chain whose strong links are ``pairs`` of (row, column) cells."""
    cells = np.array([rc(*cell) for pair in pairs for cell in pair], dtype=np.int32)
    return round(strong_link_rating.py_func(cells, CELL_UNITS), 1)


@pytest.mark.parametrize(
    ("pairs", "rating"),
    [
        ((((1, 1), (1, 5)), ((4, 2), (4, 7))), 4.0),  # skyscraper: two row links
        ((((1, 1), (1, 5)), ((2, 2), (6, 2))), 4.1),  # 2-string kite: a row and a column
        ((((1, 1), (2, 2)), ((5, 2), (5, 8))), 4.1),  # turbot: a box link and a row
        ((((1, 1), (1, 5)), ((3, 5), (7, 5)), ((7, 7), (9, 9))), 5.6),  # row, column and box
        ((((1, 1), (1, 5)), ((3, 5), (3, 8)), ((6, 8), (6, 2))), 5.4),  # three rows
        ((((1, 1), (1, 5)), ((3, 5), (3, 8)), ((6, 8), (6, 2)), ((9, 2), (9, 9))), 5.8),
        ((((1, 1), (1, 2)), ((4, 2), (4, 7))), 4.0),  # a pair in a box and a row reads as a row
        ((((1, 1), (5, 5)), ((5, 6), (9, 9))), 4.3),  # a link in no row, column or box (a cage)
    ],
)
def test_strong_linked_fishes_rate_as_sukaku(pairs: tuple, rating: float) -> None:
    assert fish(*pairs) == rating


@pytest.mark.parametrize(
    ("nodes", "bonus"),
    [(4, 0.0), (5, 0.1), (6, 0.1), (7, 0.2), (8, 0.2), (9, 0.3), (12, 0.3), (13, 0.4), (17, 0.5),
     (24, 0.5), (25, 0.6), (32, 0.6), (33, 0.7)],
)  # fmt: skip
def test_chains_gain_se_length_bonus(nodes: int, bonus: float) -> None:
    assert round(se_length_bonus.py_func(nodes), 1) == bonus


def read_sample(path: Path) -> list[tuple[str, float, str]]:
    rows = []
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            puzzle, rating, technique = line.split("\t")
            rows.append((puzzle, float(rating), technique))
    return rows


SAMPLE = read_sample(TEST_DATA / "se_rated_sample.tsv")


SAMPLE_IDS = [f"{rating}-{technique}" for _, rating, technique in SAMPLE]


@pytest.mark.parametrize(("puzzle", "se", "technique"), SAMPLE, ids=SAMPLE_IDS)
def test_puzzles_get_se_rating(puzzle: str, se: float, technique: str) -> None:
    """SE's own rating, reached through the technique SE's rule covers (each rule is needed:
    without direct passes the 2.5s rate 2.6 or 3.0, without the wings and loops those rate as
    chains, 6.6 and up)."""
    found = engine.grade(puzzle)
    assert found.score == se
    assert found.steps_per_technique.get(technique, 0) > 0


def test_batch_and_single_grades_agree_on_the_sample() -> None:
    table = engine.grade_many([puzzle for puzzle, _, _ in SAMPLE])
    assert list(table.score) == [se for _, se, _ in SAMPLE]


@pytest.mark.parametrize(("puzzle", "se", "technique"), SAMPLE, ids=SAMPLE_IDS)
def test_a_ladder_cut_at_the_score_still_grades_it(puzzle: str, se: float, technique: str) -> None:
    """The digger's shortened ladder (``rungs_within``) keeps every rung that can rate ``se``:
    a Y-cycle of 6.6 is on the XY-chain rung, whose forcing chains rate from 7.0."""
    within = engine.grade_within(puzzle, se)
    assert within is not None and within.score == se


def test_a_direct_step_places_its_singles_and_eliminates_nothing() -> None:
    """SE's direct hints (DirectHiddenSetHint, DirectLockingHint) apply their hidden single
    only: the candidates the pair or the locked digit would remove stay for later steps. (A
    step places every single it leaves, where SE finds the hint again for each.)"""
    direct = {"locked_pointing", "locked_claiming", "hidden_pair", "hidden_triple"}
    seen = 0
    for puzzle, _, _ in SAMPLE:
        solution = engine.solve(puzzle)
        for step in engine.grade(puzzle).path:
            if step.technique in direct and step.placements:
                assert step.eliminations == ()
                assert all(int(solution[cell]) == value for cell, value in step.placements)
                seen += 1
    assert seen >= 10
