"""Finned and sashimi fish, empty rectangles and WXYZ-wings on every geometry: on pencil-mark
states made from a known solution (some cells placed, the others' candidates thinned at random,
never of the solution's digit), everything a finder eliminates is false, and each finds something.

HoDoKu's regression library covers 9x9 only, and has no WXYZ-wing: this checks the finders
against the solution on the other box shapes, and the WXYZ-wing on 9x9 too.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.geometry import Geometry, geometry
from engine.logic import workspace
from engine.logic.killer import KILLER_TECHNIQUES
from engine.logic.state import C_STEPS, S_EXTRA, S_PROOF0, S_PROOF1
from engine.logic.wings import find_wxyz_wings
from engine.text import parse

TECHNIQUES = (
    "empty_rectangle",
    "finned_x_wing",
    "finned_swordfish",
    "finned_jellyfish",
    "sashimi_x_wing",
    "sashimi_swordfish",
    "sashimi_jellyfish",
    "wxyz_wing",
)
SHAPES = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)]
STATES = 12  # per shape, for the "finds something" check


def state(geo: Geometry, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(candidates, placed, solution): a random solution, a third of its cells placed, the open
    cells' candidates those no placed peer holds, each other than the solution's dropped with
    a probability drawn per state (thin states hold more patterns, thick ones larger fish)."""
    rng = np.random.default_rng(seed)
    solution = parse(engine.random_grid(geo.n, seed=seed, box=geo.shape), geo.shape).values
    placed = np.where(rng.random(geo.ncells) < 1 / 3, solution, 0).astype(np.int32)
    thin = rng.uniform(0.2, 0.6)
    cand = np.zeros(geo.ncells, dtype=np.uint64)
    for cell in range(geo.ncells):
        if placed[cell]:
            cand[cell] = 1 << (int(placed[cell]) - 1)
            continue
        mask = (1 << geo.n) - 1
        for peer in geo.peers[cell]:
            if placed[peer]:
                mask &= ~(1 << (int(placed[peer]) - 1))
        for digit in range(geo.n):
            if digit + 1 != solution[cell] and rng.random() < thin:
                mask &= ~(1 << digit)
        cand[cell] = mask
    return cand, placed, solution


def found_and_check(geo: Geometry, seed: int, technique: str) -> int:
    """Steps the finder records on one state; asserts each elimination is false there."""
    cand, placed, solution = state(geo, seed)
    steps = workspace(geo).find(technique, cand, placed).all_steps()
    for step in steps:
        assert step.technique == technique
        assert step.eliminations and not step.placements
        for cell, value in step.eliminations:
            assert solution[cell] != value, (technique, geo.shape, seed, step)
            assert cand[cell] >> np.uint64(value - 1) & np.uint64(1)
    return len(steps)


@settings(max_examples=60, deadline=None)
@given(
    shape=st.sampled_from(SHAPES),
    seed=st.integers(0, 2**32 - 1),
    technique=st.sampled_from(TECHNIQUES),
)
def test_every_elimination_is_false(shape: tuple[int, int], seed: int, technique: str) -> None:
    found_and_check(geometry(*shape), seed, technique)


@pytest.mark.parametrize("shape", [(3, 3), (4, 4)])
def test_each_finder_finds_something(shape: tuple[int, int]) -> None:
    geo = geometry(*shape)
    classic = [t for t in TECHNIQUES if t not in KILLER_TECHNIQUES]  # no cages: nothing to find
    counts = Counter({t: sum(found_and_check(geo, s, t) for s in range(STATES)) for t in classic})
    assert all(counts[t] for t in classic), counts


def wxyz_found(geo: Geometry, seed: int, se_form: bool) -> dict[frozenset[int], int]:
    """The WXYZ-wings ``find_wxyz_wings`` records on one state: cells -> the step's extra."""
    cand, placed, _ = state(geo, seed)
    space = workspace(geo)
    rec = space.rec
    rec.counts[:] = 0
    find_wxyz_wings(cand, placed, space.T, rec, se_form)
    steps = rec.steps[: rec.counts[C_STEPS]]
    return {
        frozenset(rec.proof[s[S_PROOF0] : s[S_PROOF1]].tolist()): int(s[S_EXTRA]) for s in steps
    }


def se_reading(geo: Geometry, cand: np.ndarray, cells: frozenset[int]) -> int:
    """Sukaku Explainer's WXYZ-wing reading of four cells, by hand: a bivalue cell and three
    that see each other; the widest of those three (a 3 only when every reading has one)."""
    widths = []
    for pair in cells:
        rest = cells - {pair}
        mutual = all(b in geo.peers[a] for a in rest for b in rest if a != b)
        if bin(int(cand[pair])).count("1") == 2 and mutual:
            widths.append(max(bin(int(cand[c])).count("1") for c in rest))
    return 0 if not widths else min(widths, key=lambda width: width == 3)


def rated(width: int) -> str:
    """What SE rates a reading of this width: no WXYZ-wing, 5.5 or 5.6."""
    return "none" if width == 0 else "5.6" if width == 3 else "5.5"


def test_the_grade_takes_only_sukaku_explainers_wxyz_wings() -> None:
    """The grade's finder keeps the person's WXYZ-wings that SE reads as one (a bivalue cell
    and three that see each other), with the width SE rates them by; the person's keeps the
    others too, and the states hold some of each."""
    geo = geometry(3, 3)
    kinds: Counter[str] = Counter()
    for seed in range(STATES * 4):
        cand = state(geo, seed)[0]
        person, grade = wxyz_found(geo, seed, False), wxyz_found(geo, seed, True)
        assert grade.items() <= person.items()
        for cells, width in person.items():
            assert rated(width) == rated(se_reading(geo, cand, cells)), (seed, sorted(cells))
            assert (cells in grade) == (width > 0)
            kinds[rated(width)] += 1
    assert kinds["none"] and kinds["5.5"] + kinds["5.6"], kinds
