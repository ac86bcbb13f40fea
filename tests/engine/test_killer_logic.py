"""Killer logic: each cage finder on a case worked out by hand, the soundness sweep over Killer
states (every technique that runs on them, checked against the one solution that an independent
SAT encoding finds), and grades of Solo's puzzles that match that solution."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from engine.cages import checked_cages
from engine.geometry import Geometry, geometry
from engine.grade import grade
from engine.grade_table import grade_many
from engine.grids import random_grid
from engine.killer import killer_geometry, random_cages
from engine.layouts import random_layout
from engine.logic import TECHNIQUES, workspace
from engine.logic.killer import KILLER_TECHNIQUES, UNIT_FACTOR, _regions, sum_groups
from engine.logic.state import CAGE_SPLIT, INNIES_OUTIES, RULE_OF_45
from engine.logic.tables import layout_tables, tables
from engine.logic.variants import switched_off
from engine.path import PathStep
from pipeline.explain import explain, format_text, reason
from pipeline.formats.solo import solo_killer
from tests.helpers import solution_states
from tests.variant_rules import sat_solutions

#: ``sgt-solo --generate 1 <params>`` (kept in a file: the tests need no Solo installed)
SOLO = dict(
    line.split()
    for line in (Path(__file__).parent.parent / "data" / "solo_killers.txt")
    .read_text()
    .splitlines()
    if not line.startswith("#")
)

#: A 4x4 Killer worked out by hand: its solution, and cages cut from it
SOLUTION_4 = "1234341221434321"
CAGES_4 = [
    (3, [0, 1]),
    (9, [2, 3, 7]),  # row 1's innies r1c3-r1c4 add up to 10 - 3; its outie r2c4 is 9 - 7 = 2
    (7, [4, 5]),
    (5, [6, 10]),
    (3, [8, 9]),
    (4, [11, 15]),
    (7, [12, 13]),
    (2, [14]),
]


def four_by_four() -> Geometry:
    return geometry(2, 2, "killer", None, checked_cages(CAGES_4, 4))


def state(geo: Geometry, cand: dict[int, str], placed: str = "") -> tuple[np.ndarray, np.ndarray]:
    """Full candidates, but ``cand``'s cells (digits as a string) and ``placed`` cells."""
    values = np.array([int(c) if c not in ".0" else 0 for c in placed.ljust(geo.ncells, ".")])
    cands = np.full(geo.ncells, (1 << geo.n) - 1, dtype=np.uint64)
    for cell, digits in cand.items():
        cands[cell] = sum(1 << (int(d) - 1) for d in digits)
    for cell in np.flatnonzero(values):
        cands[cell] = 1 << (int(values[cell]) - 1)
    return cands, values.astype(np.int32)


def test_the_hand_made_cages_fit_their_solution() -> None:
    found = sat_solutions(four_by_four(), np.zeros(16, dtype=np.int32), limit=50)
    assert SOLUTION_4 in {"".join(map(str, grid)) for grid in found}


def test_cage_combinations_leave_the_digits_no_set_holds() -> None:
    geo, _ = solo_killer(SOLO["2x3kdb"])  # r1c1-r1c2 adds up to 6: {1,5} or {2,4}
    found = workspace(geo).find("cage_combination", *state(geo, {}))
    step = next(s for s in found.all_steps() if s.cells == (0, 1))
    assert step.digits == (1, 2, 4, 5)
    assert set(step.eliminations) == {(0, 3), (0, 6), (1, 3), (1, 6)}


def test_innies_outies_and_cage_splits() -> None:
    geo = four_by_four()
    groups = sum_groups(geo)
    cells = [tuple(c for c in row if c >= 0) for row in groups["grp_cells"]]
    assert groups["grp_tech"][cells.index((2, 3))] == CAGE_SPLIT
    assert groups["grp_tech"][cells.index((7,))] == INNIES_OUTIES
    assert (groups["grp_tech"] == RULE_OF_45).any()
    space = workspace(geo)
    outie = space.find("innies_outies", *state(geo, {}))
    assert (7, 2) in {p for s in outie.all_steps() for p in s.placements}
    split = space.find("cage_split", *state(geo, {}))
    step = next(s for s in split.all_steps() if s.cells == (2, 3))  # 3 + 4 in a row
    assert set(step.eliminations) >= {(2, 1), (2, 2), (3, 1), (3, 2)}


def test_a_digit_the_cage_must_hold_leaves_the_unit() -> None:
    geo = four_by_four()  # r1c3-r2c4 adds up to 9 = 2+3+4; its 2 can only be in r2c4
    found = workspace(geo).find("cage_confined", *state(geo, {2: "34", 3: "34", 7: "24"}))
    eliminated = {e for s in found.all_steps() for e in s.eliminations}
    assert {(4, 2), (5, 2), (6, 2), (11, 2), (15, 2)} <= eliminated


def test_subsets_inside_a_cage() -> None:
    geo = four_by_four()
    space = workspace(geo)
    naked = space.find("cage_naked_subset", *state(geo, {2: "34", 3: "34", 7: "234"}))
    assert {(7, 3), (7, 4)} <= {e for s in naked.all_steps() for e in s.eliminations}
    hidden = space.find("cage_hidden_subset", *state(geo, {2: "134", 3: "134", 7: "124"}))
    assert (7, 2) in {p for s in hidden.all_steps() for p in s.placements}


#: SOLUTION_4 cut another way: r1c2-r1c3-r2c3 (2 + 3 + 1 = 6, so {1, 2, 3}) bends round a corner,
#: so its ends r1c2 and r2c3 share no unit
CAGES_L = [
    (4, [0, 4]),
    (6, [1, 2, 6]),
    (6, [3, 7]),
    (5, [5, 9]),
    (6, [8, 12]),
    (8, [10, 11, 15]),
    (5, [13, 14]),
]


def test_chains_link_through_cages() -> None:
    """The bent cage must hold a 1 and only its ends can: a strong link that no unit gives, so
    r2c2, which sees both ends, loses its 1 to an X-chain and to an AIC."""
    geo = geometry(2, 2, "killer", None, checked_cages(CAGES_L, 4))
    space = workspace(geo)
    cands = state(geo, {1: "12", 2: "23", 6: "13", 5: "14"})
    for technique in ("x_chain", "aic"):
        found = space.find(technique, *cands)
        assert (5, 1) in {e for s in found.all_steps() for e in s.eliminations}, technique


def test_trials_read_cage_totals() -> None:
    """r1c1-r1c2 adds up to 3: a 3 in r1c1 leaves r1c2 nothing, a 4 in r1c2 leaves r1c1 less
    than nothing; no single says so, the cage's total does."""
    geo = four_by_four()
    found = workspace(geo).find("trial_and_error", *state(geo, {0: "13", 1: "24"}))
    assert {(0, 3), (1, 4)} <= {e for s in found.all_steps() for e in s.eliminations}


@pytest.fixture(scope="module")
def solved() -> dict[str, tuple[Geometry, str, np.ndarray]]:
    made = {}
    for name, description in SOLO.items():
        geo, puzzle = solo_killer(description)
        (solution,) = sat_solutions(geo, np.zeros(geo.ncells, dtype=np.int32))  # unique
        made[name] = geo, puzzle, solution
    return made


def test_soundness_sweep_over_killer_states(solved) -> None:
    found: Counter = Counter()
    for geo, puzzle, solution in solved.values():
        space = workspace(geo)
        running = [t for t in TECHNIQUES if t not in switched_off(geo)]
        for seed, (cand, placed, given, _) in enumerate(solution_states(geo, puzzle, 7, 4)):
            for technique in running:
                for step in space.find(technique, cand, placed, given).all_steps():
                    found[step.technique] += 1
                    for cell, digit in step.eliminations:
                        assert solution[cell] != digit, (technique, seed, step)
                    for cell, digit in step.placements:
                        assert solution[cell] == digit, (technique, seed, step)
    assert set(KILLER_TECHNIQUES) <= set(found), found


def test_uniqueness_techniques_are_off_on_killers(solved) -> None:
    off = switched_off(solved["3x3kdb"][0])
    assert {"unique_rectangle", "bug_plus_one", "avoidable_rectangle"} <= set(off)


def test_solo_grades_match_the_sat_solution(solved) -> None:
    for name, (geo, puzzle, solution) in solved.items():
        found = grade(puzzle, box=geo)
        assert found.solved, name
        assert list(found.solution) == list(solution), name
        for cage in geo.cages:
            digits = [int(found.solution[c]) for c in cage.cells]
            assert sum(digits) == cage.total and len(set(digits)) == len(digits)
        table = grade_many([puzzle], box=geo)
        assert (table.score[0], table.tiers[0]) == (found.score, found.tier), name


def test_explain_speaks_of_cages_and_units(solved) -> None:
    geo, puzzle, _ = solved["2x3kdb"]
    text = format_text(explain(puzzle, box=geo))
    assert "The cage of 6 at r1c1-r1c2 can only hold digits among 1, 2, 4 and 5" in text
    assert "The cage of 10 at r2c6-r3c6 must hold 4 and 6" in text
    texts = [format_text(explain(p, box=g)) for g, p, _ in solved.values()]
    innies = [line for t in texts for line in t.splitlines() if "Innies and Outies:" in line]
    assert innies and all("Rule of 45 on " in line for line in innies)
    four = four_by_four()
    groups = sum_groups(four)
    cells = [tuple(c for c in row if c >= 0) for row in groups["grp_cells"]]
    rows = next(g for g, t in enumerate(groups["grp_tech"]) if t == RULE_OF_45 and cells[g][0] < 4)
    step = PathStep("rule_of_45", "Rule of 45", 1, rows, cells[rows], (), (), ())
    # rows 2-3 hold 20 = 7 + 5 + 3 (cages inside) + r2c4 of the cage of 9, r3c4 of the cage of 4
    assert reason(step, four) == (
        "Rule of 45 on rows 2 and 3 (the cages inside it and across its edge): "
        "r1c3, r1c4 and r4c4 add up to 8"
    )


def plain_sum_groups(geo: Geometry) -> dict[tuple, tuple[int, int, int]]:
    """The rule of 45's groups read plainly from the cages as sets: (cells, signs) -> (total,
    technique, unit), first met kept."""
    n, cages, found = geo.n, geo.cages, {}
    for units in _regions(geo):
        held = [int(c) for u in units for c in geo.units[u]]
        if len(set(held)) < len(held):
            continue  # overlapping units do not add up
        inside = set(held)
        crossing = [
            k for k, cage in enumerate(cages) if 0 < len(inside & set(cage.cells)) < len(cage.cells)
        ]
        if not crossing:
            continue
        whole = sum(cage.total for cage in cages if set(cage.cells) <= inside)
        known = len(units) * n * (n + 1) // 2 - whole
        crossed = sum(cages[k].total for k in crossing)
        unit = units[0] + UNIT_FACTOR * (units[-1] - units[0])
        most = 5 if len(units) == 1 else 4
        for side, total in ((True, known), (False, crossed - known)):
            cells = sorted(c for k in crossing for c in cages[k].cells if (c in inside) == side)
            if len(cells) <= most:
                split = len(crossing) == 1 and len(cells) > 1
                tech = RULE_OF_45 if len(units) > 1 else CAGE_SPLIT if split else INNIES_OUTIES
                found.setdefault((tuple(cells), (1,) * len(cells)), (total, tech, unit))
        if len(crossing) != 2:
            continue
        for kept, chosen in ((crossing[1], crossing[0]), (crossing[0], crossing[1])):
            ins = [c for c in cages[kept].cells if c in inside]
            outs = [c for c in cages[chosen].cells if c not in inside]
            if len(ins) == 1 and len(outs) == 1:
                (inner,), (outer,) = ins, outs
                key = ((inner, outer), (1, -1)) if inner < outer else ((outer, inner), (-1, 1))
                total = known - cages[chosen].total
                found.setdefault(
                    key, (total, RULE_OF_45 if len(units) > 1 else INNIES_OUTIES, unit)
                )
    return found


#: every grid that takes cages
CAGED_BASES = [
    geometry(2, 2),
    geometry(2, 3),
    geometry(3, 3),
    geometry(3, 3, "x"),
    geometry(3, 3, "windoku"),
    random_layout(9, seed=5),
    random_layout(9, seed=6, variant="jigsaw+x"),
    geometry(3, 4),
]


@pytest.mark.parametrize("base", CAGED_BASES, ids=str)
def test_the_sum_groups_are_the_rule_of_45_read_plainly(base: Geometry) -> None:
    """The kernel's groups, in order, against the rule read from the cages as sets, on random
    layouts of every variant that takes cages."""
    for seed in range(12):
        grid = random_grid(base.n, seed=seed, box=base)
        geo = killer_geometry(base, random_cages(grid, seed=seed, box=base))
        table = sum_groups(geo)
        got = {
            (tuple(int(c) for c in row if c >= 0), tuple(int(x) for x in signs if x)): (
                int(total),
                int(tech),
                int(unit),
            )
            for row, signs, total, tech, unit in zip(
                *(table[k] for k in ("grp_cells", "grp_sign", "grp_total", "grp_tech", "grp_unit")),
                strict=True,
            )
        }
        assert len(got) == len(table["grp_total"])  # each group once
        assert list(got.items()) == list(plain_sum_groups(geo).items())


@pytest.mark.parametrize("base", [b for b in CAGED_BASES if b.n <= 9], ids=str)
def test_a_layouts_tables_are_its_killer_geometrys(base: Geometry) -> None:
    """A Killer geometry's peers and cages are the rules' (a cell's peers share a unit or a
    cage with it), and a Killer dig grades its layouts on tables made without a Geometry
    (``layout_tables``, from any labelling of the cells): every field, type and write flag is
    the geometry's."""
    rng = np.random.default_rng(4)
    for seed in range(10):
        grid = random_grid(base.n, seed=seed, box=base)
        cages = random_cages(grid, seed=seed, box=base)
        labels = rng.permutation(len(cages) + 3)[: len(cages)]  # any labels, with gaps
        owner = np.empty(base.ncells, dtype=np.int64)
        totals = np.zeros(len(cages) + 3, dtype=np.int64)
        for label, cage in zip(labels, cages, strict=True):
            owner[list(cage.cells)] = label
            totals[label] = cage.total
        geo = killer_geometry(base, cages)
        expected = tables(geo)
        for cell in range(base.ncells):  # the peers as the rules define them
            mates = {int(c) for unit in base.units if cell in unit for c in unit}
            mates |= {c for cage in cages if cell in cage.cells for c in cage.cells}
            mates.discard(cell)
            row = geo.peers[cell].tolist()
            assert row[: len(mates)] == sorted(mates) and set(row[len(mates) :]) <= {row[0]}
            bits = sum(1 << c for c in mates)
            words = expected.peer_bits[cell].tolist()
            assert sum(int(w) << (64 * i) for i, w in enumerate(words)) == bits
        for k, cage in enumerate(cages):
            assert geo.cage_cells[k].tolist() == [
                *cage.cells,
                *[-1] * (geo.cage_cells.shape[1] - len(cage.cells)),
            ]
            assert geo.cage_total[k] == cage.total and set(geo.cage_of[list(cage.cells)]) == {k}
        got = layout_tables(base, owner, totals)
        for name, want in expected._asdict().items():
            have = getattr(got, name)
            assert have.dtype == want.dtype and have.flags.writeable == want.flags.writeable, name
            assert np.array_equal(have, want), name
