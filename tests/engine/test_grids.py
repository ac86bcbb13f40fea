"""Random complete grids: valid for every geometry, reproducible from the seed."""

from __future__ import annotations

import numpy as np
import pytest

import engine
from tests import reference

SEARCH_SIZES = [(4, None), (6, None), (8, None), (9, None), (10, None), (12, None), (12, "4x3")]
SEARCH_SIZES += [(16, None), (20, None), (25, None), (36, None)]


def assert_complete(grid: np.ndarray, rows: int, cols: int) -> None:
    n = rows * cols
    assert grid.shape == (n, n)
    assert reference.is_valid_solution(grid.ravel().tolist(), n, rows, cols)


@pytest.mark.parametrize(("size", "box"), SEARCH_SIZES)
def test_search_grids_are_valid_and_reproducible(size: int, box: str | None) -> None:
    geo = engine.geometry_for(size, box)
    for seed in range(3):
        grid = engine.random_grid(size, seed=seed, box=box)
        assert_complete(engine.parse(grid, box=box).values.reshape(size, size), *geo.shape_tuple)
        assert engine.random_grid(size, seed=seed, box=box) == grid
    assert len({engine.random_grid(size, seed=s, box=box) for s in range(5)}) == 5


@pytest.mark.parametrize(
    ("size", "box"), [(6, None), (9, None), (12, "4x3"), (49, None), (100, None)]
)
def test_template_grids_are_valid_and_reproducible(size: int, box: str | None) -> None:
    geo = engine.geometry_for(size, box)
    grid = engine.random_grid_array(size, seed=11, box=box, method="template")
    assert_complete(grid, *geo.shape_tuple)
    again = engine.random_grid_array(size, seed=11, box=box, method="template")
    assert np.array_equal(grid, again)
    other = engine.random_grid_array(size, seed=12, box=box, method="template")
    assert not np.array_equal(grid, other)


def test_seed_forms_are_explicit() -> None:
    first = engine.random_grid(9, seed=[2026, 1, 3])
    assert engine.random_grid(9, seed=np.random.SeedSequence([2026, 1, 3])) == first
    assert engine.random_grid(9, seed=np.random.default_rng(5)) == engine.random_grid(9, seed=5)
    with pytest.raises(TypeError, match="seed"):
        engine.random_grid(9, seed=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown method"):
        engine.random_grid(9, seed=1, method="magic")  # type: ignore[arg-type]


def test_text_form_stops_at_64() -> None:
    with pytest.raises(ValueError, match="no text form"):
        engine.random_grid(100, seed=1, method="template")
