"""``engine.grade_many`` reports, row for row, what ``engine.grade`` reports (or raises)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.geometry import geometry
from engine.logic.passes import CORE_RUNGS
from engine.logic.state import TECHNIQUES
from engine.text import to_text
from tests.conftest import TEST_DATA, read_puzzles

GOLDEN = TEST_DATA / "golden_counts.txt"
SAMPLE_EASY = 400  # 17-clue puzzles: mostly singles and locked candidates
SAMPLE_HARD = 60  # top1465: chains, unique rectangles, trial and error


def golden(size: int) -> list[tuple[str, int]]:
    """(puzzle, solution count) lines of the golden file for one grid size."""
    rows = []
    for line in GOLDEN.read_text().splitlines():
        if line and not line.startswith("#"):
            puzzle, count, _ = line.split(":")
            if len(puzzle) == size * size:
                rows.append((puzzle, int(count)))
    return rows


def assert_rows_match(puzzles: list[str], table: engine.GradeTable, box=None) -> None:
    assert len(table) == len(puzzles)
    for i, text in enumerate(puzzles):
        try:
            expected = engine.grade(text, box=box)
        except ValueError as exc:
            assert type(table.errors[i]) is type(exc), text
            assert str(table.errors[i]) == str(exc)
            assert np.isnan(table.score[i]) and table.iterations[i] == -1 and table.tiers[i] is None
            continue
        assert table.errors[i] is None, text
        hardest = TECHNIQUES[table.hardest[i]] if table.hardest[i] >= 0 else None
        steps = {TECHNIQUES[t]: int(c) for t, c in enumerate(table.steps[i]) if c}
        assert (table.score[i], table.iterations[i], table.tiers[i], hardest, table.clues[i]) == (
            expected.score,
            expected.iterations,
            expected.tier,
            expected.hardest,
            expected.clues,
        ), text
        assert steps == dict(expected.steps_per_technique)
        assert to_text(table.geometry, table.solutions[i]) == engine.solve(text, box=box)


def test_public_puzzles_match_grade(shared_data: Path) -> None:
    puzzles = read_puzzles(shared_data / "17_clue.txt")[:SAMPLE_EASY]
    puzzles += read_puzzles(shared_data / "magictour_top1465.txt")[:SAMPLE_HARD]
    start = time.perf_counter()
    table = engine.grade_many(puzzles)
    elapsed = time.perf_counter() - start
    assert_rows_match(puzzles, table)
    # each row's time is its own share of the call (the kernel reads the cycle counter)
    assert (table.seconds > 0).all() and table.seconds.sum() <= elapsed
    used = {TECHNIQUES[h] for h in table.hardest}
    # the batch covers both paths: the kernel alone, and the rows it hands to grade()
    assert {"hidden_single", "unique_rectangle", "trial_and_error"} <= used


def test_errors_are_rows_not_exceptions() -> None:
    """Clashing givens, no solution and several solutions: each row carries grade()'s error."""
    rows = golden(9)
    puzzles = [p for p, count in rows if count == 0][:3] + [p for p, count in rows if count > 1][:3]
    clash = "11" + "." * 79
    puzzles += [clash, rows[0][0]]
    table = engine.grade_many(puzzles)
    assert_rows_match(puzzles, table)
    kinds = {type(e) for e in table.errors if e is not None}
    assert kinds == {engine.NoSolution, engine.MultipleSolutions, engine.InvalidPuzzle}
    assert table.errors[-1] is None


def test_an_empty_batch_keeps_its_geometry() -> None:
    assert len(engine.grade_many([])) == 0
    table = engine.grade_many([], box="4x4")
    assert table.geometry == geometry(4, 4) and table.solutions.shape[0] == 0


def test_malformed_text_names_the_row() -> None:
    with pytest.raises(engine.InvalidPuzzle, match="puzzle #1"):
        engine.grade_many(["." * 81, "x" * 81])


def test_custom_bands_and_other_sizes() -> None:
    bands = engine.tiers_from_mapping({"short": {"iterations": [0, 6]}, "long": {}})
    for size in (4, 6):
        puzzles = [p for p, _ in golden(size)]
        table = engine.grade_many(puzzles, bands)
        assert table.geometry == geometry(*{4: (2, 2), 6: (2, 3)}[size])
        for i, text in enumerate(puzzles):
            if table.errors[i] is None:
                assert table.tiers[i] == engine.grade(text, bands).tier


def partial_grids(size: int, count: int, seed: int, keep: float) -> list[str]:
    """Random clue subsets of random grids, every third with a wrong digit (no solution, or a
    clash): unique, multiple or no solutions."""
    rng = np.random.default_rng(seed)
    puzzles = []
    for index in range(count):
        grid = list(engine.random_grid(size, seed=[seed, index]))
        for cell in np.flatnonzero(rng.random(size * size) > keep):
            grid[cell] = "."
        if index % 3 == 0:
            grid[int(rng.integers(size * size))] = str(int(rng.integers(1, size + 1)))
        puzzles.append("".join(grid))
    return puzzles


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.2, 0.6))
def test_random_partial_grids(seed: int, keep: float) -> None:
    """Random clue subsets of random 6x6 grids: unique, multiple or none, rows still agree."""
    puzzles = partial_grids(6, 6, seed, keep)
    assert_rows_match(puzzles, engine.grade_many(puzzles))


def assert_same_tables(first: engine.GradeTable, second: engine.GradeTable) -> None:
    """Every column but the time each row took."""
    for name in ("score", "iterations", "hardest", "clues", "steps", "solutions"):
        np.testing.assert_array_equal(getattr(first, name), getattr(second, name), err_msg=name)
    assert first.tiers == second.tiers
    assert [repr(e) for e in first.errors] == [repr(e) for e in second.errors]


def test_the_core_rungs_first_give_the_same_grades(shared_data: Path) -> None:
    """With ``before_full_ladder`` the rows climb the core rungs first, and the hook is called
    once, before the first row that needs more: every column is what the whole ladder gives."""
    easy = read_puzzles(shared_data / "17_clue.txt")[:SAMPLE_EASY]
    hard = read_puzzles(shared_data / "magictour_top1465.txt")[:SAMPLE_HARD]
    rows = golden(9)
    errors = [*[p for p, count in rows if count != 1][:6], "11" + "." * 79]
    calls = []
    for puzzles in (easy + hard + errors, hard[:1] + easy):
        table = engine.grade_many(puzzles, before_full_ladder=lambda: calls.append(len(calls)))
        assert_same_tables(table, engine.grade_many(puzzles))
    assert calls == [0, 1]
    core = {*CORE_RUNGS, TECHNIQUES.index("naked_single"), TECHNIQUES.index("hidden_single")}
    hardest = engine.grade_many(easy).hardest
    core_only = [p for p, t in zip(easy, hardest, strict=True) if t in core]
    assert len(core_only) > SAMPLE_EASY // 2
    tables = engine.grade_many(core_only, before_full_ladder=lambda: calls.append("more"))
    assert_same_tables(tables, engine.grade_many(core_only))
    assert calls == [0, 1]  # the core rungs settled every row


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.25, 0.6))
def test_the_core_rungs_first_on_random_grids(seed: int, keep: float) -> None:
    """Random clue subsets of random 9x9 grids, some with a wrong digit: the same grades."""
    puzzles = partial_grids(9, 8, seed, keep)
    table = engine.grade_many(puzzles, before_full_ladder=lambda: None)
    assert_same_tables(table, engine.grade_many(puzzles))


def test_what_a_search_remembers_never_shows(shared_data: Path) -> None:
    """The X-chain and grouped X-chain rungs keep, per digit, what their last search saw in the
    thread's workspace (``find_short_x_chains``, ``find_grouped_x_chains``): a batch graded
    backwards, or each puzzle in a new thread (a fresh workspace), gives the same rows as the
    batch in order. The sample is a stretch of top1465 where both rungs take steps (most of
    its puzzles settle on a forcing chain before those rungs' turn)."""
    puzzles = read_puzzles(shared_data / "magictour_top1465.txt")[180 : 180 + SAMPLE_HARD]
    forward = engine.grade_many(puzzles)
    for technique in ("x_chain", "grouped_x_chain"):
        taken = forward.steps[:, TECHNIQUES.index(technique)].sum()
        assert taken > 0, f"the sample takes {technique} steps"
    backward = engine.grade_many(puzzles[::-1])
    order = np.arange(len(puzzles))[::-1]
    for name in ("score", "iterations", "hardest", "steps"):
        np.testing.assert_array_equal(
            getattr(forward, name), getattr(backward, name)[order], err_msg=name
        )
    for index in range(0, len(puzzles), 6):
        with ThreadPoolExecutor(max_workers=1) as fresh:  # a new thread: a fresh workspace
            row = fresh.submit(engine.grade_many, [puzzles[index]]).result()
        assert row.score[0] == forward.score[index], puzzles[index]
        assert (row.steps[0] == forward.steps[index]).all(), puzzles[index]
