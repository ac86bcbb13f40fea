"""The seed's layer method for hidden singles against a naive scan of every unit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.geometry import geometry
from engine.logic.singles import hidden_singles
from engine.logic.state import build_layers
from engine.logic.tables import tables

SHAPES = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)]


@st.composite
def states(draw: st.DrawFn) -> tuple:
    """Random candidate states: random masks, some cells placed."""
    rows, cols = draw(st.sampled_from(SHAPES))
    geo = geometry(rows, cols)
    n = geo.n
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    density = draw(st.floats(0.05, 0.6))
    cand = np.zeros(geo.ncells, dtype=np.uint64)
    for cell in range(geo.ncells):
        digits = np.flatnonzero(rng.random(n) < density)
        cand[cell] = np.uint64(sum(1 << int(d) for d in digits))
    placed = np.where(rng.random(geo.ncells) < 0.2, rng.integers(1, n + 1, geo.ncells), 0)
    return geo, cand, placed.astype(np.int32)


def naive_hidden_singles(geo, cand, placed) -> set[tuple[int, int]]:
    """(cell, digit) pairs where some unit has exactly one open cell with that candidate."""
    found = set()
    for unit in geo.units:
        for d in range(geo.n):
            cells = [c for c in unit if not placed[c] and int(cand[c]) >> d & 1]
            if len(cells) == 1:
                found.add((int(cells[0]), d))
    return found


@settings(max_examples=150, deadline=None)
@given(states())
def test_layers_agree_with_a_naive_unit_scan(state: tuple) -> None:
    geo, cand, placed = state
    units = tables(geo).units
    pos = np.zeros((geo.n, 3 * geo.n), dtype=np.uint64)
    build_layers(cand, placed, tables(geo), pos)
    hidden_unit = np.zeros(geo.ncells, dtype=np.int32)
    hidden_digit = np.zeros(geo.ncells, dtype=np.int32)
    hidden_singles(pos, units, hidden_unit, hidden_digit)
    naive = naive_hidden_singles(geo, cand, placed)
    layered = {(c, int(hidden_digit[c])) for c in range(geo.ncells) if hidden_unit[c] >= 0}
    assert layered <= naive  # each cell reports one of its hidden singles
    assert {c for c, _ in naive} == {c for c, _ in layered}  # and every such cell is reported
    for cell, digit in layered:  # the named unit proves it
        unit = geo.units[hidden_unit[cell]]
        assert cell in unit
        holders = [c for c in unit if not placed[c] and int(cand[c]) >> digit & 1]
        assert holders == [cell]
