"""Canonical form: invariance under the group, equivalence to the input, and an exact oracle.

The group is rebuilt here from its definition (band, row, stack, column permutations, transpose,
relabelling) without the module under test, and the 4x4 and 6x6 oracle enumerates all of it.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.canon import CanonTooLarge, canonical, canonical_many, canonical_transform
from engine.geometry import SYMBOLS
from engine.grids import random_grid
from engine.solver import solve
from engine.text import parse
from tests.conftest import read_puzzles

# (size, box rows, box cols) of the shapes tested
SHAPES = [(4, 2, 2), (6, 2, 3), (9, 3, 3)]
# box shapes whose transposes are tested: square, wide, and tall (their transposes are wide)
BOXES = [(2, 2), (3, 3), (2, 3), (3, 2), (2, 4), (4, 2), (3, 4), (4, 3)]


def values_of(text: str) -> np.ndarray:
    n = int(len(text) ** 0.5)
    table = {ch: i + 1 for i, ch in enumerate(SYMBOLS)}
    return np.array([table.get(ch, 0) for ch in text]).reshape(n, n)


def text_of(square: np.ndarray) -> str:
    return "".join("." if v == 0 else SYMBOLS[v - 1] for v in square.reshape(-1))


def nested_order(outer: list[int], inners: list[list[int]], width: int) -> list[int]:
    """Line order from an order of blocks and an order inside each block."""
    return [block * width + inners[block][j] for block in outer for j in range(width)]


def transform(square: np.ndarray, rows: int, cols: int, rng: np.random.Generator) -> np.ndarray:
    """A random member of the validity-preserving group applied to a grid of values."""
    n = rows * cols
    row_order = nested_order(
        list(rng.permutation(cols)), [list(rng.permutation(rows)) for _ in range(cols)], rows
    )
    col_order = nested_order(
        list(rng.permutation(rows)), [list(rng.permutation(cols)) for _ in range(rows)], cols
    )
    moved = square[np.ix_(row_order, col_order)]
    if rows == cols and rng.integers(2):
        moved = moved.T
    labels = np.concatenate([[0], rng.permutation(n) + 1])
    return labels[moved]


def disguise(
    square: np.ndarray, rows: int, cols: int, rng: np.random.Generator
) -> tuple[np.ndarray, tuple[int, int]]:
    """A random member of the group, the transpose included whatever the boxes: the disguised
    grid and its box shape (rows x cols, or cols x rows once transposed)."""
    moved = transform(square, rows, cols, rng)
    if rng.integers(2):
        return moved.T, (cols, rows)
    return moved, (rows, cols)


def first_appearance(square: np.ndarray) -> tuple[int, ...]:
    labels: dict[int, int] = {}
    flat = square.reshape(-1)
    for v in flat:
        if v and v not in labels:
            labels[int(v)] = len(labels) + 1
    return tuple(labels.get(int(v), 0) for v in flat)


def brute_force(text: str, rows: int, cols: int) -> str:
    """The minlex form by trying every arrangement of rows, columns and transpose."""
    square = values_of(text)
    n = rows * cols

    def orders(block: int, count: int):
        for outer in itertools.permutations(range(count)):
            for inners in itertools.product(itertools.permutations(range(block)), repeat=count):
                yield nested_order(list(outer), [list(i) for i in inners], block)

    row_orders = list(orders(rows, cols))
    col_orders = list(orders(cols, rows))
    best = None
    for base in [square, square.T] if rows == cols else [square]:
        for row_order in row_orders:
            for col_order in col_orders:
                key = first_appearance(base[np.ix_(row_order, col_order)])
                best = key if best is None or key < best else best
    return text_of(np.array(best).reshape(n, n))


def random_puzzle(size: int, rows: int, cols: int, seed: int, keep: float) -> str:
    rng = np.random.default_rng(seed)
    grid = random_grid(size, seed=seed, box=(rows, cols))
    return "".join(ch if rng.random() < keep else "." for ch in grid)


@pytest.fixture(scope="module")
def seventeen(shared_data) -> list[str]:
    return read_puzzles(shared_data / "17_clue.txt")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shape=st.sampled_from(SHAPES),
    seed=st.integers(0, 2**32 - 1),
    keep=st.sampled_from([0.0, 0.15, 0.3, 0.5, 1.0]),
)
def test_transformed_puzzle_has_the_same_form(shape, seed, keep):
    size, rows, cols = shape
    puzzle = random_puzzle(size, rows, cols, seed, keep)
    disguised = text_of(transform(values_of(puzzle), rows, cols, np.random.default_rng(seed)))
    assert canonical(disguised, (rows, cols)) == canonical(puzzle, (rows, cols))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    box=st.sampled_from(BOXES),
    seed=st.integers(0, 2**32 - 1),
    keep=st.sampled_from([0.0, 0.2, 0.35, 0.5, 0.8, 1.0]),
)
def test_every_symmetry_and_the_shape_swapping_transpose_keep_the_form(box, seed, keep):
    rows, cols = box
    puzzle = random_puzzle(rows * cols, rows, cols, seed, keep)
    moved, shape = disguise(values_of(puzzle), rows, cols, np.random.default_rng(seed))
    form = canonical(puzzle, box)
    assert canonical(text_of(moved), shape) == form
    assert canonical(text_of(values_of(puzzle).T), (cols, rows)) == form


def test_tall_boxes_take_the_form_of_their_wide_transpose():
    puzzle = random_puzzle(6, 3, 2, seed=5, keep=0.4)
    result = canonical_transform(puzzle, "3x2")
    assert result.transposed
    assert (
        result.text == canonical(puzzle, "3x2") == brute_force(text_of(values_of(puzzle).T), 2, 3)
    )
    assert result.apply(puzzle) == result.text
    # the same transform takes the 3x2 solution to a valid 2x3 grid through the form's givens
    moved = result.apply(random_grid(6, seed=5, box=(3, 2)))
    assert parse(moved, "2x3").givens == 36
    assert all(f in (".", m) for f, m in zip(result.text, moved, strict=True))


@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, 10_000), seed=st.integers(0, 2**32 - 1))
def test_transformed_17_clue_has_the_same_form(seventeen, index, seed):
    puzzle = seventeen[index]
    disguised = text_of(transform(values_of(puzzle), 3, 3, np.random.default_rng(seed)))
    assert canonical(disguised) == canonical(puzzle)


@settings(max_examples=30, deadline=None)
@given(index=st.integers(0, 10_000))
def test_form_is_equivalent_to_the_puzzle(seventeen, index):
    puzzle = seventeen[index]
    result = canonical_transform(puzzle)
    form = result.text
    assert result.apply(puzzle) == form
    assert solve(form) == result.apply(solve(puzzle))
    given_counts = sorted(Counter(ch for ch in puzzle if ch != ".").values())
    assert sorted(Counter(ch for ch in form if ch != ".").values()) == given_counts
    assert canonical(form) == form


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("keep", [0.2, 0.6, 1.0])
def test_form_is_a_fixed_point(shape, keep):
    size, rows, cols = shape
    puzzle = random_puzzle(size, rows, cols, seed=size * 100 + int(keep * 10), keep=keep)
    form = canonical(puzzle, (rows, cols))
    assert canonical(form, (rows, cols)) == form


@pytest.mark.slow
def test_distinct_17_clue_puzzles_have_distinct_forms(seventeen):
    forms = canonical_many(seventeen)
    assert len(set(forms)) == len(set(seventeen)) == len(seventeen)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.sampled_from([0.1, 0.25, 0.4, 0.7, 1.0]))
def test_4x4_matches_full_enumeration(seed, keep):
    puzzle = random_puzzle(4, 2, 2, seed, keep)
    assert canonical(puzzle) == brute_force(puzzle, 2, 2)


@pytest.mark.parametrize("seed", range(4))
def test_6x6_matches_full_enumeration(seed):
    puzzle = random_puzzle(6, 2, 3, seed, keep=0.35)
    assert canonical(puzzle, "2x3") == brute_force(puzzle, 2, 3)


def test_full_grids_of_one_orbit_share_a_form():
    grid = random_grid(9, seed=7)
    rng = np.random.default_rng(7)
    disguised = [text_of(transform(values_of(grid), 3, 3, rng)) for _ in range(5)]
    assert set(canonical_many([grid, *disguised])) == {canonical(grid)}


@pytest.mark.parametrize("keep", [0.45, 1.0])
@pytest.mark.parametrize(("size", "box"), [(8, (2, 4)), (12, (3, 4)), (16, (4, 4))])
def test_large_grids_are_invariant(size, box, keep):
    rows, cols = box
    puzzle = random_puzzle(size, rows, cols, seed=size, keep=keep)
    disguised = text_of(transform(values_of(puzzle), rows, cols, np.random.default_rng(size)))
    assert canonical(disguised, box) == canonical(puzzle, box)


def test_grids_past_the_size_limit_are_refused_at_once():
    with pytest.raises(CanonTooLarge, match=r"36x36 grids have no canonical form.* up to 25"):
        canonical("." * 36 * 36)
    with pytest.raises(CanonTooLarge, match="36x36"):
        canonical_transform(random_grid(36, seed=1))


def test_empty_batch_and_bad_input():
    assert canonical_many([]) == []
    with pytest.raises(ValueError, match="symbols"):
        canonical("123")
