"""The trial rung against a slow reference: a pass holds exactly the shortest refutations, their
length counted in synchronous rounds of singles, and the SE-scale rating grows with it."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from engine.grade import RATINGS, TRIAL_BASE, _trial_rating, grade
from engine.logic.passes import RUNG_ARRAY, find_once, workspace
from engine.logic.state import C_EFFECTS, S_EXTRA, TECHNIQUE_INDEX
from engine.text import parse
from engine.tiers import DEFAULT_TIERS
from tests.reference import peers_of, units_of

TOP = Path(__file__).resolve().parents[3] / "shared/data/magictour_top1465.txt"


def top_puzzles(count: int) -> list[str]:
    lines = [line.split()[0] for line in TOP.read_text().splitlines() if line[:1] not in "#"]
    return [line for line in lines if line][:count]


def reference_length(cands: list[set[int]], cell: int, digit: int, n: int) -> int | None:
    """Placements until a contradiction when ``digit`` goes to ``cell`` and singles follow in
    synchronous rounds (None when none comes), as plainly as it can be written."""
    peers, units = peers_of(n, 3, 3), units_of(n, 3, 3)
    cands = [set(c) for c in cands]
    solved = {c: next(iter(s)) for c, s in enumerate(cands) if len(s) == 1}
    fresh = {cell: digit}
    made = 0
    while fresh:
        made += len(fresh)
        for c, d in fresh.items():
            cands[c], solved[c] = {d}, d
        for c, d in fresh.items():
            for p in peers[c]:
                if solved.get(p) == d:
                    return made
                if p not in solved:
                    cands[p].discard(d)
                    if not cands[p]:
                        return made
        found: dict[int, int] = {}
        for c in range(n * n):
            if c not in solved and len(cands[c]) == 1:
                found[c] = next(iter(cands[c]))
        for unit in units:
            for d in range(1, n + 1):
                if any(solved.get(c) == d for c in unit):
                    continue
                places = [c for c in unit if c not in solved and d in cands[c]]
                if not places:
                    return made
                if len(places) == 1 and found.setdefault(places[0], d) != d:
                    return made
        fresh = found
    return None


def stuck_states(count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """States of top1465 puzzles where the grade's ladder below SE's chains is stuck (on a
    classic grid those rate the puzzles that trial rates elsewhere)."""
    space = workspace(parse("." * 81).geometry)
    below_se = RUNG_ARRAY[: list(RUNG_ARRAY).index(TECHNIQUE_INDEX["cycle"])]
    states = []
    for line in top_puzzles(6 * count):
        solved, _ = space.solve(parse(line).values, rungs=below_se)
        if not solved:
            states.append((space.cand.copy(), space.placed.copy()))
        if len(states) == count:
            break
    return states


@pytest.mark.skipif(not TOP.exists(), reason="shared data not present")
def test_a_trial_pass_holds_exactly_the_shortest_refutations() -> None:
    space = workspace(parse("." * 81).geometry)
    for cand, placed in stuck_states(2):
        sets = [
            {d + 1 for d in range(9) if int(cand[c]) >> d & 1} if not placed[c] else {placed[c]}
            for c in range(81)
        ]
        lengths = {
            (c, d): reference_length(sets, c, d, 9)
            for c in range(81)
            if not placed[c]
            for d in sets[c]
        }
        refuted = {key: length for key, length in lengths.items() if length is not None}
        shortest = min(refuted.values())
        assert find_once(
            TECHNIQUE_INDEX["trial_and_error"],
            cand.copy(),
            placed.copy(),
            space.T,
            np.ones(len(TECHNIQUE_INDEX), dtype=np.int8),
            space.pos,
            space.rec,
            space.work,
        )
        assert set(space.steps()[:, S_EXTRA].tolist()) == {shortest}
        effects = space.rec.effects[: space.rec.counts[C_EFFECTS]]  # rows of (cell, digit, kind)
        eliminated = {(int(row[0]), int(row[1]) + 1) for row in effects}
        assert eliminated == {key for key, length in refuted.items() if length == shortest}


def test_the_trial_rating_grows_with_length_from_its_base() -> None:
    ratings = [_trial_rating(np.int32(length)) for length in range(1, 40)]  # as rate_steps
    assert ratings[0] == TRIAL_BASE
    assert all(a <= b for a, b in itertools.pairwise(ratings))
    assert ratings[-1] > ratings[0]


@pytest.mark.skipif(not TOP.exists(), reason="shared data not present")
def test_puzzles_that_need_forcing_chains_score_in_extreme() -> None:
    """Extreme holds what SE needs forcing chains past the Nishio for (cell, region and dynamic
    chains, 8.0 up), and a puzzle only Nishio chains or less solve is extreme only when one of
    its Nishio chains is long enough to rate 7.9."""
    grades = [grade(line) for line in top_puzzles(40)]
    extreme = DEFAULT_TIERS["extreme"].score[0]
    past_nishio = {"multiple_forcing_chain", "dynamic_forcing_chain", "trial_and_error"}
    assert any(past_nishio & set(g.steps_per_technique) for g in grades)
    for g in grades:
        used = set(g.steps_per_technique)
        if past_nishio & used:
            assert g.score >= RATINGS["multiple_forcing_chain"] and g.tier == "extreme"
        elif g.tier == "extreme":
            assert "nishio_forcing_chain" in used and g.score >= extreme
