"""The soundness sweep on variant grids: on pencil-mark states that keep a unique variant
puzzle's solution, every technique that runs on the variant claims only what is true, and the
ones switched off (``engine.logic.variants``) never run."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine.geometry import Geometry, geometry
from engine.layouts import random_layout
from engine.logic import TECHNIQUES, Workspace, workspace
from engine.logic.variants import OFF_ON_JIGSAW, OFF_ON_VARIANTS, switched_off
from tests.helpers import dig, solution_states

pytestmark = [pytest.mark.xdist_group("variant_logic"), pytest.mark.slow]

STATES = 6  # per puzzle
PUZZLES = 2  # per variant (one on grids past 9x9, dug three quarters of the way)
#: Found on the states of every variant (the sweep is not vacuous): the core of the ladder
EVERYWHERE = {"naked_single", "hidden_single", "locked_pointing", "naked_pair", "xy_wing", "aic"}

GEOMETRIES = {
    "x": lambda: geometry(3, 3, "x"),
    "windoku": lambda: geometry(3, 3, "windoku"),
    "jigsaw": lambda: random_layout(9, seed=21),
    "jigsaw+x": lambda: random_layout(9, seed=22, variant="jigsaw+x"),
    "x-6x6": lambda: geometry(2, 3, "x"),
    "jigsaw-12x12": lambda: random_layout(12, seed=23),
}


def sweep(geo: Geometry) -> Counter:
    """Steps found per technique over the states of a few dug puzzles; asserts each one true."""
    space = workspace(geo)
    running = [t for t in TECHNIQUES if t not in switched_off(geo)]
    found: Counter = Counter()
    big = geo.n > 9
    for seed in range(1 if big else PUZZLES):
        text = dig(geo, seed, 0.75 if big else 1.0)  # near-minimal 12x12 counts take seconds
        for cand, placed, given, solution in solution_states(geo, text, seed, STATES):
            for technique in running:
                for step in space.find(technique, cand, placed, given).all_steps():
                    assert all(solution[c] != d for c, d in step.eliminations), (technique, text)
                    assert all(solution[c] == d for c, d in step.placements), (technique, text)
                    found[step.technique] += 1
    return found


@pytest.mark.parametrize("name", GEOMETRIES)
def test_every_running_technique_is_sound(name: str) -> None:
    geo = GEOMETRIES[name]()
    found = sweep(geo)
    assert set(found) >= EVERYWHERE, found
    assert not set(found) & set(switched_off(geo))


def test_switched_off_techniques_never_run_on_a_variant() -> None:
    """A variant's grades never name them, and its workspace refuses to find them even when
    asked: the switch is in the workspace, not in each caller."""
    geo = random_layout(9, seed=24, variant="jigsaw+x")
    space = workspace(geo)
    for seed in range(PUZZLES):
        text = dig(geo, seed)
        grade = engine.grade(text, box=geo)
        assert not set(grade.steps_per_technique) & set(switched_off(geo))
        for cand, placed, given, _ in solution_states(geo, text, seed, 3):
            for technique in switched_off(geo):
                assert not space.find(technique, cand, placed, given).all_steps()


@pytest.mark.parametrize(
    ("name", "unsound"),
    [("x", {"avoidable_rectangle"}), ("jigsaw", {"sashimi_x_wing", "finned_x_wing"})],
)
def test_the_switch_is_needed(name: str, unsound: set[str]) -> None:
    """With the switch bypassed, the same sweep catches these techniques eliminating a
    solution's digit on the variant: the switch guards against real wrong steps."""
    geo = GEOMETRIES[name]()
    space = Workspace(geo)  # its own, so the bypass stays here
    space.within_allowed = lambda enabled: enabled
    wrong = set()
    for seed in range(PUZZLES):
        text = dig(geo, seed)
        for cand, placed, given, solution in solution_states(geo, text, seed, STATES):
            for technique in switched_off(geo):
                for step in space.find(technique, cand, placed, given).all_steps():
                    if any(solution[c] == d for c, d in step.eliminations):
                        wrong.add(step.technique)
    assert unsound <= wrong


def test_which_techniques_are_off_is_written_down() -> None:
    assert switched_off(geometry(3, 3)) == {}
    assert set(switched_off(geometry(3, 3, "x"))) == set(OFF_ON_VARIANTS)
    jigsaw = switched_off(random_layout(9, seed=25))
    assert set(jigsaw) == set(OFF_ON_VARIANTS) | set(OFF_ON_JIGSAW)
    assert all(reason.strip() for reason in jigsaw.values())
    assert set(jigsaw) <= set(TECHNIQUES)
