"""Random complete grids, by seeded search or by transforming a template.

``search`` fills an empty grid with the solver kernel, branching in random order; a search that
wanders past its node budget restarts with fresh random numbers (a few restarts tame the heavy
tail that makes plain backtracking take hours on 36x36 grids). :func:`random_grids` makes many
in one kernel call, for throughput. ``template`` takes the shifted base
pattern and applies a random member of the validity-preserving group; it is instant at any size,
but all its grids of one shape are the same grid in disguise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

from engine import sat
from engine.geometry import Box, Geometry, geometry_for
from engine.solver import workspace
from engine.text import to_text

Seed = int | Sequence[int] | np.random.SeedSequence | np.random.Generator
Method = Literal["search", "template"]
METHODS = ("search", "template")


def rng_from(seed: Seed) -> np.random.Generator:
    """A Generator from an explicit seed: an int, a sequence of ints (e.g. run seed, section,
    chunk), a SeedSequence, or a Generator itself."""
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, np.random.SeedSequence):
        return np.random.default_rng(seed)
    if isinstance(seed, bool) or seed is None:
        raise TypeError(f"seed must be an int, ints, SeedSequence or Generator, got {seed!r}")
    if isinstance(seed, (int, np.integer)):
        return np.random.default_rng(int(seed))
    return np.random.default_rng(np.random.SeedSequence([int(part) for part in seed]))


def _geometry(size: int | None, box: Box) -> Geometry:
    """The grid asked for: 9x9 when neither size nor box says otherwise."""
    return geometry_for(9 if size is None and box is None else size, box)


def template_grid(geo: Geometry, rng: np.random.Generator) -> np.ndarray:
    """Base pattern randomised by digit relabelling, row/band and column/stack permutations and,
    for square boxes, a transpose. Works for any n (returns values 1..n as an n x n array)."""
    rows, cols, n = geo.box_rows, geo.box_cols, geo.n
    r = np.arange(n)
    base = (cols * (r[:, None] % rows) + r[:, None] // rows + r[None, :]) % n
    # bands are `rows` rows tall (there are `cols` of them); stacks are `cols` wide (`rows` of them)
    bands, stacks = rng.permutation(cols), rng.permutation(rows)
    row_order = np.concatenate([band * rows + rng.permutation(rows) for band in bands])
    col_order = np.concatenate([stack * cols + rng.permutation(cols) for stack in stacks])
    grid = base[row_order][:, col_order]
    if rows == cols and rng.integers(2):
        grid = grid.T
    labels = rng.permutation(n) + 1
    return labels[grid]


def search_grids(geo: Geometry, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` random complete grids from the randomised solver, as (count, n, n) values. A
    grid the solver gives up on (``engine.search.fill_batch``) is a SAT solver's, its digits
    relabelled at random: rare, and the only way some 12x12 Jigsaw layouts get filled."""
    state = int(rng.integers(1, 2**63))
    space = workspace(geo)
    grids = space.fill_batch(count, state)
    for row in np.flatnonzero(grids[:, 0] == 0).tolist():
        found = next(sat.solutions(grids[row], space.tables, 1), None)
        if found is None:
            raise ValueError(f"no complete grid obeys {geo}")
        labels = np.random.default_rng([state, row]).permutation(geo.n).astype(np.uint8) + 1
        grids[row] = labels[found - 1]
    return grids.reshape(count, geo.n, geo.n)


def random_grid_array(
    size: int | None = None,
    *,
    seed: Seed,
    box: Box = None,
    method: Method = "search",
) -> np.ndarray:
    """A random complete n x n grid of values 1..n (``template`` also works beyond 64x64)."""
    geo = _geometry(size, box)
    rng = rng_from(seed)
    if method == "template":
        if not geo.classic:
            raise ValueError(f"the template method makes classic grids, not {geo.variant}")
        return template_grid(geo, rng)
    if method == "search":
        return search_grids(geo, 1, rng)[0]
    raise ValueError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")


def random_grid(
    size: int | None = None,
    *,
    seed: Seed,
    box: Box = None,
    method: Method = "search",
) -> str:
    """A random complete grid in text form, reproducible from ``seed``."""
    grid = random_grid_array(size, seed=seed, box=box, method=method)
    return to_text(_geometry(size, box), grid.ravel())


def random_grids(
    count: int,
    size: int | None = None,
    *,
    seed: Seed,
    box: Box = None,
) -> list[str]:
    """``count`` random complete grids in text form from one seed, filled in one kernel call."""
    geo = _geometry(size, box)
    grids = search_grids(geo, count, rng_from(seed))
    return [to_text(geo, grid.ravel()) for grid in grids]
