"""Every finder against HoDoKu's regression library (read at test time: GPL data, not copied).

Each case is a pencil-mark state and the eliminations or placements one technique must find there.
Only that technique's finder runs; it must find the expected effects in at least 99 % of a
technique's cases, and everything it finds must be true (checked against the solution).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from engine.geometry import geometry
from engine.logic import TECHNIQUES, workspace
from engine.solver import count_grid
from engine.text import parse

REGLIB = "hodoku_reglib_techniques.tsv"
MIN_FOUND = 0.99
GEO = geometry(3, 3)

#: HoDoKu code (variant suffix dropped) -> our technique id; codes not listed are techniques we do
#: not implement (finned/Franken fish, unique rectangle type 3, hidden and avoidable rectangles,
#: grouped chains, ALS, ...).
CODES = {
    "0000": "full_house",
    "0002": "hidden_single",
    "0003": "naked_single",
    "0100": "locked_pointing",
    "0101": "locked_claiming",
    "0110": "naked_pair",  # locked pair: a naked pair in a box and a line
    "0111": "naked_triple",  # locked triple
    "0200": "naked_pair",
    "0201": "naked_triple",
    "0202": "naked_quad",
    "0210": "hidden_pair",
    "0211": "hidden_triple",
    "0212": "hidden_quad",
    "0300": "x_wing",
    "0301": "swordfish",
    "0302": "jellyfish",
    "0400": "skyscraper",
    "0401": "two_string_kite",
    "0600": "unique_rectangle",  # type 1
    "0601": "unique_rectangle",  # type 2
    "0603": "unique_rectangle",  # type 4
    "0604": "unique_rectangle",  # type 5
    "0605": "unique_rectangle",  # type 6
    "0610": "bug_plus_one",
    "0500": "simple_colouring",  # trap
    "0501": "simple_colouring",  # wrap
    "0701": "x_chain",
    "0702": "xy_chain",
    "0703": "xy_chain",  # remote pairs are XY-chains
    "0706": "aic",  # continuous nice loop
    "0707": "aic",  # discontinuous nice loop
    "0708": "aic",
    "0800": "xy_wing",
    "0801": "xyz_wing",
    "0803": "w_wing",
    # patterns that one of our finders subsumes
    "0310": "x_chain",  # finned X-wing
    "0403": "x_chain",  # turbot fish
    "0404": "two_string_kite",  # dual 2-string kite
    "0502": "x_chain",  # multi-colours
    "0503": "x_chain",
    "1202": "trial_and_error",  # template delete
}
SUBSUMED = {"0310", "0403", "0404", "0502", "0503", "1202"}  # the codes just above
SOUNDNESS_SAMPLE = 5  # every 5th state of the library, for the all-finders soundness sweep
SINGLES = ("full_house", "naked_single", "hidden_single")


def _cells(field: str) -> set[tuple[int, int]]:
    """``<digit><row><col>`` entries as (cell, digit) pairs."""
    return {(9 * (int(e[1]) - 1) + int(e[2]) - 1, int(e[0])) for e in field.split()}


def load_cases(path: Path) -> list[dict]:
    cases = []
    with path.open() as handle:
        for line in handle:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            fields += [""] * (9 - len(fields))
            code = fields[1]
            if code.endswith("-x"):
                technique = CODES.get(code[:-2].split("-")[0])
                fail = True
            else:
                technique = CODES.get(code.split("-")[0])
                fail = False
            if technique is None:
                continue
            cases.append(
                {
                    "grid": fields[0],
                    "code": code,
                    "technique": technique,
                    "deleted": _cells(fields[5]),
                    "eliminations": _cells(fields[6]),
                    "placements": _cells(fields[7]),
                    "fail": fail,
                }
            )
    return cases


def pencil_marks(case: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(candidates, placed, solution) of a case: peers' digits and the deleted entries removed."""
    grid = parse(case["grid"])
    placed = grid.values.astype(np.int32)
    count, solution = count_grid(grid, 2)
    assert count == 1
    cand = np.zeros(GEO.ncells, dtype=np.uint64)
    for cell in range(GEO.ncells):
        if placed[cell]:
            cand[cell] = 1 << (int(placed[cell]) - 1)
            continue
        mask = (1 << 9) - 1
        for peer in GEO.peers[cell]:
            if placed[peer]:
                mask &= ~(1 << (int(placed[peer]) - 1))
        cand[cell] = mask
    for cell, digit in case["deleted"]:
        cand[cell] &= ~np.uint64(1 << (digit - 1))
    return cand, placed, solution


def run_case(case: dict) -> tuple[bool, bool]:
    """(found the expected effects, everything found is true) for one case."""
    cand, placed, solution = pencil_marks(case)
    space = workspace(GEO)
    steps = space.find(case["technique"], cand, placed).all_steps()
    if case["technique"] == "trial_and_error":
        # a trial pass holds only its shortest refutations: run the rung until it finds no more
        latest = steps
        while latest:
            for cell, digit in (e for s in latest for e in s.eliminations):
                cand[cell] &= ~np.uint64(1 << (digit - 1))
            latest = space.find(case["technique"], cand, placed).all_steps()
            steps += latest
    if case["technique"] in SINGLES:
        allowed = SINGLES[: SINGLES.index(case["technique"]) + 1]
        steps = tuple(s for s in steps if s.technique in allowed)
    else:
        steps = tuple(s for s in steps if s.technique == case["technique"])
    eliminated = {e for s in steps for e in s.eliminations}
    placed_now = {p for s in steps for p in s.placements}
    true = all(solution[c] != d for c, d in eliminated) and all(
        solution[c] == d for c, d in placed_now
    )
    if case["fail"]:
        return not (eliminated or placed_now), true
    found = case["eliminations"] <= eliminated and case["placements"] <= placed_now
    return found, true


@pytest.fixture(scope="module")
def results(shared_data: Path) -> dict[str, list[tuple[str, bool, bool]]]:
    by_technique: dict[str, list[tuple[str, bool, bool]]] = defaultdict(list)
    for case in load_cases(shared_data / REGLIB):
        found, true = run_case(case)
        by_technique[case["technique"]].append((case["code"], found, true))
    return by_technique


def test_every_mapped_technique_is_ours() -> None:
    assert set(CODES.values()) <= set(TECHNIQUES)


@pytest.mark.parametrize("technique", sorted(set(CODES.values())))
def test_finder_finds_the_expected_effects(results: dict, technique: str) -> None:
    cases = results[technique]
    assert cases, f"no reglib case for {technique}"
    missed = [code for code, found, _ in cases if not found]
    rate = 1 - len(missed) / len(cases)
    assert rate >= MIN_FOUND, f"{technique}: found {rate:.1%} of {len(cases)}, missed {missed}"


@pytest.mark.parametrize("technique", sorted(set(CODES.values())))
def test_finder_finds_only_true_effects(results: dict, technique: str) -> None:
    wrong = [code for code, _, true in results[technique] if not true]
    assert not wrong, f"{technique}: false eliminations or placements in cases {wrong}"


@pytest.fixture(scope="module")
def all_states(shared_data: Path) -> list[dict]:
    """Every pencil-mark state of the library, whatever its technique."""
    states = []
    with (shared_data / REGLIB).open() as handle:
        for line in handle:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            states.append({"grid": fields[0], "deleted": _cells(fields[5])})
    return states[::SOUNDNESS_SAMPLE]


@pytest.mark.parametrize("technique", [t for t in TECHNIQUES if t not in SINGLES[:2]])
def test_every_finder_is_sound_on_every_state(all_states: list[dict], technique: str) -> None:
    """On states made for other techniques too, whatever a finder claims is true."""
    space = workspace(GEO)
    for state in all_states:
        cand, placed, solution = pencil_marks(state)
        for step in space.find(technique, cand, placed).all_steps():
            assert all(solution[c] != d for c, d in step.eliminations), (technique, state["grid"])
            assert all(solution[c] == d for c, d in step.placements), (technique, state["grid"])
