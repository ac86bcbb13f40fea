"""The pass loop: the logic solver that the grade is built on.

One *iteration* (pass) is defined as follows. From the state at the start of the pass, take the
rungs of the ladder in order, easiest first; the first rung that yields any deduction is run to
completion: *all* its deductions are found from that same state, then applied together, and the
pass ends. The count of passes is therefore deterministic and independent of scan order. Placing
a digit also removes it from the cell's peers (pencil marks are always kept up to date).

Rungs: the three singles (full house, naked single, hidden single) form the first rung, so one
pass places every single visible at its start; every other technique is a rung of its own. The
grader's loop also takes SE's *direct* steps (a locked candidate or hidden pair or triple that
leaves a hidden single) as a pass of their own before the plain rungs (``_direct_pass``), as SE
does, in every pass. Rungs
are ordered by their Sudoku Explainer rating (``RUNGS``): that is the order a rater would reach
for them, and it is what makes the score rank puzzles the way SE does. The contract's ladder
(``TECHNIQUES``) orders the same ids for ``hardest`` and for tier bands. The last rung,
``trial_and_error``, is one-level trial (``engine.logic.forcing``): where no technique applies it
still makes progress, so most puzzles get a finite, meaningful iteration count.

Each cell records the pass that solved it (0 for givens, -1 when even one-level trial could not).

Every deduction is sound, so a puzzle that the loop completes without a contradiction has exactly
one solution, the one found: the grade needs the solution counter only when logic gets stuck.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from engine.geometry import CLASSIC, Geometry, kept_for, with_cages
from engine.jit import kernel
from engine.logic.aligned import find_aligned_triplets
from engine.logic.chains import (
    TURBOT_LEVELS,
    find_chains,
    find_remote_pairs,
    find_short_x_chains,
)
from engine.logic.colouring import find_colouring
from engine.logic.fish import find_finned_fish, find_fish
from engine.logic.forcing import find_forcing
from engine.logic.franken import find_franken_fish, search_index
from engine.logic.group_chains import find_als, find_grouped, find_grouped_x_chains
from engine.logic.intersections import find_locked
from engine.logic.killer import (
    find_cage_combinations,
    find_cage_confined,
    find_cage_subsets,
    find_sum_groups,
)
from engine.logic.loops import find_unique_loops
from engine.logic.se_chains import BASE_TENTHS, find_se_chains, settled_tenths, step_tenths
from engine.logic.se_cycles import find_se_cycles
from engine.logic.single_digit import find_empty_rectangles, find_turbot
from engine.logic.singles import find_singles
from engine.logic.state import (
    AIC,
    ALIGNED_TRIPLET_EXCLUSION,
    ALS_CHAIN,
    ALS_XY_WING,
    ALS_XZ,
    AVOIDABLE_RECTANGLE,
    BUG_PLUS_ONE,
    C_EFFECTS,
    C_OVERFLOW,
    C_PROOF,
    C_STEPS,
    CAGE_COMBINATION,
    CAGE_CONFINED,
    CAGE_HIDDEN_SUBSET,
    CAGE_NAKED_SUBSET,
    CAGE_SPLIT,
    CYCLE,
    DYNAMIC_FORCING_CHAIN,
    EMPTY_RECTANGLE,
    FINNED_JELLYFISH,
    FINNED_SWORDFISH,
    FINNED_X_WING,
    FORCING_CHAIN,
    FORCING_X_CHAIN,
    FRANKEN_FISH,
    FULL_HOUSE,
    GROUPED_AIC,
    GROUPED_X_CHAIN,
    HIDDEN_PAIR,
    HIDDEN_QUAD,
    HIDDEN_RECTANGLE,
    HIDDEN_SINGLE,
    HIDDEN_TRIPLE,
    INNIES_OUTIES,
    JELLYFISH,
    LOCKED_CLAIMING,
    LOCKED_POINTING,
    MAX_FRANKEN,
    MULTIPLE_FORCING_CHAIN,
    MUTANT_FISH,
    NAKED_PAIR,
    NAKED_QUAD,
    NAKED_SINGLE,
    NAKED_TRIPLE,
    NISHIO_FORCING_CHAIN,
    PLACE,
    RULE_OF_45,
    S_DIRECT,
    S_EFF0,
    S_EFF1,
    S_EXTRA,
    S_PASS,
    S_PROOF0,
    S_PROOF1,
    S_TECH,
    SASHIMI_X_WING,
    SIMPLE_COLOURING,
    SKYSCRAPER,
    SUE_DE_COQ,
    SWORDFISH,
    TECHNIQUES,
    TRIAL_AND_ERROR,
    TUVWXYZ_WING,
    TWO_STRING_KITE,
    U0,
    UNIQUE_LOOP,
    UNIQUE_RECTANGLE,
    UVWXYZ_WING,
    VWXYZ_WING,
    W_WING,
    WXYZ_WING,
    X_CHAIN,
    X_WING,
    XY_CHAIN,
    XY_WING,
    XYZ_WING,
    RecordArrays,
    Tables,
    WorkArrays,
    bit,
    bit_index,
    build_layers,
    consistent,
    direct_singles,
    full_mask,
    init_candidates,
    lowest_bit,
    new_record,
    new_work,
)
from engine.logic.subsets import find_subsets
from engine.logic.sue_de_coq import find_sue_de_coq
from engine.logic.tables import tables
from engine.logic.uniqueness import find_avoidable_rectangles, find_bug, find_unique_rectangles
from engine.logic.variants import allowed_techniques
from engine.logic.wings import find_als_wings, find_wings, find_wxyz_wings

#: Rungs that are no technique of their own: X-chains of two (turbot fish), three and four strong
#: links, which SE rates below the other chains as its strong-linked fishes (recorded as X_CHAIN).
TURBOT = len(TECHNIQUES)
THREE_LINKS = TURBOT + 1
FOUR_LINKS = TURBOT + 2
#: Rungs of the person's ladder only (``PERSON_RUNGS``), narrower forms of a technique that
#: HoDoKu takes early: naked pairs and triples locked in a box and a line, remote pairs (XY-chains
#: through cells holding one pair of digits), grouped nice loops without ALS nodes.
LOCKED_PAIR = TURBOT + 3
LOCKED_TRIPLE = TURBOT + 4
REMOTE_PAIR = TURBOT + 5
GROUPED_NICE_LOOP = TURBOT + 6
#: Rungs of Sukaku Explainer's grouped strong-linked fishes: X-chains of two, three and four
#: strong links through a group (a digit's cells of a box that lie in one line), which SE rates
#: 0.3 above the plain ones. Each comes after the plain and the finned fish of its size, so it
#: records only the chains that need a group (as grouped X-chains). The grade climbs them; the
#: person's ladder meets the same chains as grouped X-chains.
GROUPED_TWO_LINKS = TURBOT + 7
GROUPED_THREE_LINKS = TURBOT + 8
GROUPED_FOUR_LINKS = TURBOT + 9
#: The grader's search at the first of those rungs: all three lengths on one node graph, the
#: longer chains held for their own rungs (``pass_loop``), which the pass reaches with the
#: state unchanged.
GROUPED_AHEAD = TURBOT + 10

#: Rungs of the pass loop in Sukaku Explainer's order (the order of its techniques, mostly by
#: rating: its strong-linked fishes of two links, the finned X-wing among them, come before the
#: XY-wing; of three links after the hidden quad, of four after BUG; the VWXYZ- and UVWXYZ-wings
#: before the chains, the TUVWXYZ-wing after them); FULL_HOUSE stands for the singles rung (all
#: three singles), a finned fish's rung finds the sashimi fish of its size too. SE rates unique
#: rectangles 4.5 (type 1) to 4.8 (UniqueLoopHint and its type hints: +0.1 for types 2 and 4,
#: +0.1 per naked-subset digit for type 3), its longer loops after them. SE has no Sue de Coq:
#: HoDoKu scores it 250, between the W-wing (150) and the X-chain (260).
#: The grouped and ALS rungs come after the chains, as HoDoKu rates them. The ALS_XZ rung stands
#: for the three ALS techniques: it climbs ALS-XZ, ALS-XY-wing and ALS chains on one node graph
#: (``find_als``); the grouped AIC, whose nodes include the ALS, comes after it.
RUNGS = (
    FULL_HOUSE,
    CAGE_COMBINATION,
    LOCKED_POINTING,
    LOCKED_CLAIMING,
    INNIES_OUTIES,
    NAKED_PAIR,
    X_WING,
    CAGE_SPLIT,
    HIDDEN_PAIR,
    NAKED_TRIPLE,
    CAGE_CONFINED,
    CAGE_NAKED_SUBSET,
    SWORDFISH,
    RULE_OF_45,
    HIDDEN_TRIPLE,
    CAGE_HIDDEN_SUBSET,
    SKYSCRAPER,
    TWO_STRING_KITE,
    EMPTY_RECTANGLE,
    TURBOT,
    FINNED_X_WING,
    GROUPED_TWO_LINKS,
    XY_WING,
    XYZ_WING,
    UNIQUE_RECTANGLE,
    UNIQUE_LOOP,
    NAKED_QUAD,
    JELLYFISH,
    HIDDEN_QUAD,
    THREE_LINKS,
    FINNED_SWORDFISH,
    GROUPED_THREE_LINKS,
    WXYZ_WING,
    BUG_PLUS_ONE,
    FOUR_LINKS,
    FINNED_JELLYFISH,
    GROUPED_FOUR_LINKS,
    VWXYZ_WING,
    UVWXYZ_WING,
    SIMPLE_COLOURING,
    SUE_DE_COQ,
    X_CHAIN,
    XY_CHAIN,
    GROUPED_X_CHAIN,
    AIC,
    TUVWXYZ_WING,
    ALS_XZ,
    GROUPED_AIC,
    CYCLE,
    ALIGNED_TRIPLET_EXCLUSION,
    NISHIO_FORCING_CHAIN,
    MULTIPLE_FORCING_CHAIN,
    DYNAMIC_FORCING_CHAIN,
    TRIAL_AND_ERROR,
)

#: The ladder in the order a person reaches for the techniques: HoDoKu's (the solver most
#: players learn from), for worked solutions and hints; the grade climbs ``RUNGS``. Our rungs sit
#: at the place of HoDoKu's technique of the same scope; the WXYZ-wing, which HoDoKu finds as an
#: ALS-XZ, sits with it, and grouped AICs with ALS nodes after the ALS rung. Where HoDoKu's own
#: exemplars show another order than its option table, the exemplars win: the empty rectangle
#: before the 2-string kite, the turbot fish (a 3-link X-chain) with the X-chains after simple
#: colouring, grouped X-chains (which HoDoKu names grouped nice loops) after those loops, and
#: Franken fish before the ALS (its table has them after; our ALS chains and grouped AICs
#: through ALS, wider than HoDoKu's, would take their exemplars' places).
PERSON_RUNGS = (
    FULL_HOUSE,
    CAGE_COMBINATION,
    LOCKED_PAIR,
    LOCKED_TRIPLE,
    LOCKED_POINTING,
    LOCKED_CLAIMING,
    INNIES_OUTIES,
    CAGE_SPLIT,
    NAKED_PAIR,
    NAKED_TRIPLE,
    HIDDEN_PAIR,
    HIDDEN_TRIPLE,
    CAGE_CONFINED,
    CAGE_NAKED_SUBSET,
    CAGE_HIDDEN_SUBSET,
    RULE_OF_45,
    NAKED_QUAD,
    HIDDEN_QUAD,
    X_WING,
    SWORDFISH,
    JELLYFISH,
    REMOTE_PAIR,
    BUG_PLUS_ONE,
    SKYSCRAPER,
    EMPTY_RECTANGLE,
    TWO_STRING_KITE,
    W_WING,
    XY_WING,
    XYZ_WING,
    UNIQUE_RECTANGLE,
    HIDDEN_RECTANGLE,
    AVOIDABLE_RECTANGLE,
    UNIQUE_LOOP,
    FINNED_X_WING,
    FINNED_SWORDFISH,
    FINNED_JELLYFISH,
    SUE_DE_COQ,
    SIMPLE_COLOURING,
    TURBOT,
    THREE_LINKS,
    FOUR_LINKS,
    X_CHAIN,
    XY_CHAIN,
    AIC,
    GROUPED_NICE_LOOP,
    GROUPED_X_CHAIN,
    FRANKEN_FISH,
    WXYZ_WING,
    VWXYZ_WING,
    UVWXYZ_WING,
    TUVWXYZ_WING,
    ALS_XZ,
    GROUPED_AIC,
    MUTANT_FISH,
    TRIAL_AND_ERROR,
)
#: SE's forcing chains, aligned triplets and grouped strong-linked fishes rate the grade only:
#: the person's ladder solves as HoDoKu does, with the ALS, grouped chains and one-level trial
#: (``engine.logic.se_chains``, ``engine.logic.aligned``)
GRADE_ONLY_RUNGS = {
    CYCLE,
    ALIGNED_TRIPLET_EXCLUSION,
    NISHIO_FORCING_CHAIN,
    MULTIPLE_FORCING_CHAIN,
    DYNAMIC_FORCING_CHAIN,
    GROUPED_TWO_LINKS,
    GROUPED_THREE_LINKS,
    GROUPED_FOUR_LINKS,
}
#: Rungs the grade climbs only where SE does not rate (Killers, variant units, grids past 9x9;
#: ``_se_rates``), the person's ladder everywhere: our chains, where SE's cycles and forcing
#: chains take their place; SE has no Sue de Coq or ALS, groups cells only in its short
#: strong-linked fishes (``GROUPED_TWO_LINKS`` ...), and the SE that rated
#: the shared file takes no UVWXYZ- or TUVWXYZ-wing before its chains (puzzles whose hardest
#: step was one rated 6.6 and 7.5 where SE gives 6.6-7.1 and 7.7-8.3; without them 85.8 % of
#: the file scores within 0.1 of SE, against 85.0 %)
BEYOND_SE = (
    UVWXYZ_WING,
    SIMPLE_COLOURING,
    SUE_DE_COQ,
    X_CHAIN,
    XY_CHAIN,
    GROUPED_X_CHAIN,
    AIC,
    TUVWXYZ_WING,
    ALS_XZ,
    GROUPED_AIC,
)
assert set(PERSON_RUNGS) >= set(RUNGS) - GRADE_ONLY_RUNGS, "the person's ladder lacks a rung"

# run_rung dispatches on runs of ids and on offsets between them: reordering TECHNIQUES must
# fail here, not give wrong deductions
assert len(set(RUNGS)) == len(RUNGS), "a rung is listed twice"
_FOUND_BY_OTHER_RUNGS = {NAKED_SINGLE, HIDDEN_SINGLE, ALS_XY_WING, ALS_CHAIN}
_FOUND_BY_OTHER_RUNGS |= {FORCING_X_CHAIN, FORCING_CHAIN}  # the cycle rung's
_FOUND_BY_OTHER_RUNGS |= {SASHIMI_X_WING, SASHIMI_X_WING + 1, SASHIMI_X_WING + 2}
#: Techniques only the person's ladder climbs, as SE lacks them and the score is SE's rating: a
#: puzzle they would crack rates by the step SE takes instead. Avoidable and hidden rectangles
#: (SE's unique rectangles are its four types only; HoDoKu's wider forms rated 4.6 puzzles that
#: SE rates up to 7) and the W-wing (SE finds it only as a forcing chain, 6.6 up): on the shared
#: SE-rated file, 68.9 % of scores were within 0.1 of SE with them and 71.7 % without. Franken
#: and mutant fish too, whose search costs tens of milliseconds (``engine.logic.franken``), more
#: than grading a puzzle.
PERSON_ONLY_TECHNIQUES = {
    AVOIDABLE_RECTANGLE,
    HIDDEN_RECTANGLE,
    W_WING,
    FRANKEN_FISH,
    MUTANT_FISH,
}
_LADDERED = set(range(len(TECHNIQUES))) - _FOUND_BY_OTHER_RUNGS
assert set(RUNGS) >= _LADDERED - PERSON_ONLY_TECHNIQUES, "a technique lacks a rung"
assert set(PERSON_RUNGS) >= _LADDERED - GRADE_ONLY_RUNGS, "a technique lacks a person's rung"
_RUNS = (
    ("naked_pair", "hidden_pair", "naked_triple", "hidden_triple", "naked_quad", "hidden_quad"),
    ("x_wing", "swordfish", "jellyfish"),
    ("finned_x_wing", "finned_swordfish", "finned_jellyfish"),
    ("sashimi_x_wing", "sashimi_swordfish", "sashimi_jellyfish"),
    ("xy_wing", "xyz_wing", "w_wing"),
    ("x_chain", "xy_chain", "aic"),
    ("als_xz", "als_xy_wing", "als_chain"),
)
for _run in _RUNS:
    _first = TECHNIQUES.index(_run[0])
    assert TECHNIQUES[_first : _first + len(_run)] == _run, f"run_rung needs {_run} in order"

# kernel results (PLACED: the cells a pass loop watched are placed, see ``pass_loop``)
SOLVED, STUCK, OVERFLOW, CONTRADICTION, PLACED = range(5)
#: ``until`` for a pass loop that watches no cell (it ends solved, stuck or contradicted);
#: read-only like the digger's orbit rows, so that both compile one ``solve_passes``
NO_CELLS = np.empty(0, dtype=np.int32)
NO_CELLS.setflags(write=False)


@kernel(inline="always")
def _is_core(rung):
    return (
        rung in (FULL_HOUSE, LOCKED_POINTING, LOCKED_CLAIMING)
        or NAKED_PAIR <= rung <= HIDDEN_QUAD
        or X_WING <= rung <= JELLYFISH
        or rung in (CAGE_COMBINATION, INNIES_OUTIES, CAGE_SPLIT, RULE_OF_45)
        or CAGE_CONFINED <= rung <= CAGE_HIDDEN_SUBSET
    )


@kernel(inline="always")
def run_core_rung(rung, cand, placed, pos, T, enabled, rec, work):
    """Record every deduction of a core rung (``_is_core``: singles, locked candidates, subsets,
    basic fish, the Killer techniques) from the current state: the dispatch of the pass loop
    that compiles in seconds."""
    if rung == FULL_HOUSE:
        if enabled[FULL_HOUSE] or enabled[NAKED_SINGLE] or enabled[HIDDEN_SINGLE]:
            find_singles(
                cand, placed, pos, T, enabled, rec, work.hidden_unit, work.hidden_digit, work.house
            )
        return
    if not enabled[rung]:
        return
    if rung in (LOCKED_POINTING, LOCKED_CLAIMING):
        find_locked(cand, pos, T, rec, rung)
    elif NAKED_PAIR <= rung <= HIDDEN_QUAD:
        offset = rung - NAKED_PAIR
        find_subsets(cand, placed, pos, T, rec, 2 + offset // 2, offset % 2 == 1, False)
    elif X_WING <= rung <= JELLYFISH:
        find_fish(cand, pos, T, rec, 2 + rung - X_WING)
    elif rung == CAGE_COMBINATION:
        find_cage_combinations(cand, placed, T, rec)
    elif rung in (INNIES_OUTIES, CAGE_SPLIT, RULE_OF_45):
        find_sum_groups(cand, placed, T, rec, rung)
    elif rung == CAGE_CONFINED:
        find_cage_confined(cand, placed, pos, T, rec)
    elif rung in (CAGE_NAKED_SUBSET, CAGE_HIDDEN_SUBSET):
        find_cage_subsets(cand, placed, T, rec, rung == CAGE_HIDDEN_SUBSET)


@kernel(inline="always")
def run_rung(rung, cand, placed, pos, T, enabled, rec, work):
    """Record every deduction of one rung from the current state (layers already built)."""
    if _is_core(rung):
        run_core_rung(rung, cand, placed, pos, T, enabled, rec, work)
        return
    if rung in (TURBOT, THREE_LINKS, FOUR_LINKS):
        if enabled[X_CHAIN]:
            length = TURBOT_LEVELS + rung - TURBOT
            find_short_x_chains(cand, placed, pos, T, rec, work, length, TURBOT_LEVELS + 2)
        return
    if GROUPED_TWO_LINKS <= rung <= GROUPED_AHEAD:
        # SE's short grouped X-chains; elsewhere the grouped X-chain rung finds them, later
        if enabled[GROUPED_X_CHAIN] and _se_rates(T):
            links = TURBOT_LEVELS + min(rung, GROUPED_FOUR_LINKS) - GROUPED_TWO_LINKS
            shortest = TURBOT_LEVELS if rung == GROUPED_AHEAD else links
            find_grouped_x_chains(cand, placed, pos, T, rec, work, shortest, links)
        return
    if rung == ALIGNED_TRIPLET_EXCLUSION:  # SE's, between its forcing and its Nishio chains
        if enabled[rung] and _se_rates(T):
            find_aligned_triplets(cand, placed, T, rec)
        return
    if rung in BEYOND_SE or CYCLE <= rung <= DYNAMIC_FORCING_CHAIN:
        # SE's chains where SE rates (``_se_rates``), our techniques elsewhere
        if (rung >= CYCLE) == _se_rates(T):
            run_beyond_rung(rung, cand, placed, pos, T, enabled, rec)
        return
    if FINNED_X_WING <= rung <= FINNED_JELLYFISH:
        run_finned_rung(rung, cand, pos, T, enabled, rec, False)
        return
    if not enabled[rung]:
        return
    if rung in (SKYSCRAPER, TWO_STRING_KITE):
        find_turbot(cand, placed, pos, T, rec, rung)
    elif rung == EMPTY_RECTANGLE:
        find_empty_rectangles(cand, pos, T, rec)
    elif rung == WXYZ_WING:
        find_wxyz_wings(cand, placed, T, rec, True)
    elif rung == VWXYZ_WING:
        find_als_wings(cand, placed, T, rec, rung)
    elif XY_WING <= rung <= W_WING:
        find_wings(cand, placed, pos, T, rec, rung)
    elif rung in (UNIQUE_RECTANGLE, HIDDEN_RECTANGLE):
        find_unique_rectangles(cand, placed, pos, T, rec, rung, _se_rates(T))  # SE's form there
    elif rung == UNIQUE_LOOP:
        find_unique_loops(cand, placed, T, rec)
    elif rung == BUG_PLUS_ONE:
        find_bug(cand, placed, pos, T, rec)
    elif rung == TRIAL_AND_ERROR:
        find_forcing(cand, placed, T, rec)


@kernel(inline="always")
def run_finned_rung(rung, cand, pos, T, enabled, rec, everywhere):
    """A finned fish's rung, which finds the sashimi fish of its size too: on every grid for the
    person's ladder (``everywhere``), for the grade only where SE does not rate (SE has no
    finned fish: its grouped strong-linked fishes stand in). ``run_rung`` calls it on every
    grid, so that the helper lane's warm-up (``engine.warmup``) compiles the finder as the
    pass loop links it."""
    sashimi = rung + SASHIMI_X_WING - FINNED_X_WING
    if (everywhere or not _se_rates(T)) and (enabled[rung] or enabled[sashimi]):
        find_finned_fish(
            cand, pos, T, rec, 2 + rung - FINNED_X_WING, enabled[rung], enabled[sashimi]
        )


@kernel(inline="always")
def _se_rates(T):
    """True where the grade takes SE's forcing chains: grids of up to 9 digits without cages
    and without a variant's extra units (SE's chains are defined on rows, columns and boxes)."""
    return (
        T.units.shape[1] <= 9
        and T.cage_total.shape[0] == 0
        and T.units.shape[0] == 3 * T.units.shape[1]
    )


@kernel(inline="always")
def run_beyond_rung(rung, cand, placed, pos, T, enabled, rec):
    """The rungs of ``BEYOND_SE`` (the ALS rung climbs the three ALS techniques), or SE's
    cycles and forcing chains (the cycle rung finds SE's forcing chains too) and its Nishio,
    multiple and dynamic forcing chains."""
    if rung == ALS_XZ:
        if enabled[ALS_XZ] or enabled[ALS_XY_WING] or enabled[ALS_CHAIN]:
            find_als(cand, placed, pos, T, rec, enabled)
    elif not enabled[rung]:
        return
    elif rung in (UVWXYZ_WING, TUVWXYZ_WING):
        find_als_wings(cand, placed, T, rec, rung)
    elif rung == SIMPLE_COLOURING:
        find_colouring(cand, placed, pos, T, rec)
    elif rung == SUE_DE_COQ:
        find_sue_de_coq(cand, placed, T, rec)
    elif X_CHAIN <= rung <= AIC:
        find_chains(cand, placed, pos, T, rec, rung, cand.shape[0] * T.units.shape[1])
    elif rung in (GROUPED_X_CHAIN, GROUPED_AIC):
        longest = cand.shape[0] * T.units.shape[1]
        find_grouped(cand, placed, pos, T, rec, rung, True, longest, longest)
    elif rung == CYCLE:
        find_se_cycles(cand, placed, T, rec)
    else:
        find_se_chains(cand, placed, T, rec, rung)


@kernel(inline="always")
def run_person_rung(rung, cand, placed, pos, T, enabled, rec, work):
    """:func:`run_rung`, and the rungs only the person's ladder climbs (``PERSON_RUNGS``) or
    climbs in a wider form (the WXYZ-wing): a dispatch of its own, so that the grader's kernels
    do not link their finders."""
    if rung in (LOCKED_PAIR, LOCKED_TRIPLE):
        tech = NAKED_PAIR if rung == LOCKED_PAIR else NAKED_TRIPLE
        if enabled[tech]:
            find_subsets(cand, placed, pos, T, rec, 2 + rung - LOCKED_PAIR, False, True)
        return
    if rung == REMOTE_PAIR:
        if enabled[XY_CHAIN]:
            find_remote_pairs(cand, placed, pos, T, rec)
        return
    if rung == GROUPED_NICE_LOOP:
        if enabled[GROUPED_AIC]:
            longest = cand.shape[0] * T.units.shape[1]
            find_grouped(cand, placed, pos, T, rec, GROUPED_AIC, False, longest, longest)
        return
    if rung in BEYOND_SE:  # the person's ladder takes them on every grid
        run_beyond_rung(rung, cand, placed, pos, T, enabled, rec)
        return
    if FINNED_X_WING <= rung <= FINNED_JELLYFISH:  # the person's on every grid
        run_finned_rung(rung, cand, pos, T, enabled, rec, True)
        return
    if rung in (UNIQUE_RECTANGLE, HIDDEN_RECTANGLE):  # HoDoKu's form on every grid
        if enabled[rung]:
            find_unique_rectangles(cand, placed, pos, T, rec, rung, False)
        return
    if rung == WXYZ_WING:  # HoDoKu's wider form: any four cells, one of which sees the rest
        if enabled[rung]:
            find_wxyz_wings(cand, placed, T, rec, False)
        return
    if rung == AVOIDABLE_RECTANGLE:
        if enabled[rung]:
            find_avoidable_rectangles(cand, placed, work.given, T, rec)
        return
    if rung in (FRANKEN_FISH, MUTANT_FISH):  # HoDoKu's order: basic by size, then finned
        if enabled[rung]:
            first = rec.counts[C_STEPS]
            for finned in (False, True):
                for size in range(2, MAX_FRANKEN + 1):
                    if rec.counts[C_STEPS] == first:
                        mutant = rung == MUTANT_FISH
                        fruitless = work.fish_cells[search_index(size, mutant, finned)]
                        find_franken_fish(cand, pos, T, rec, size, mutant, finned, fruitless)
        return
    run_rung(rung, cand, placed, pos, T, enabled, rec, work)


@kernel
def apply_effects(rec, first, cand, placed, solved_pass, pos, T, pass_no):
    """Apply the effects recorded from ``first`` on; False on a contradiction (an empty cell).

    The layers follow every change (a candidate leaving a cell clears the cell's bit in the
    digit's three unit layers; a placed cell leaves the layers), so they never need a rebuild.
    They hold exactly the open cells' candidates, so a placed digit leaves the peers that still
    hold it straight from its layers in the cell's three units, not by testing every peer.
    """
    effects, counts = rec.effects, rec.counts
    units, cell_units = T.units, T.cell_units
    killer = T.cage_total.shape[0] > 0  # asked once, not for every digit placed
    for i in range(first, counts[C_EFFECTS]):
        cell, digit = effects[i, 0], effects[i, 1]
        b = bit(digit)
        if effects[i, 2] == PLACE:
            if placed[cell]:
                if placed[cell] != digit + 1:
                    return False
                continue
            _drop(pos, T, cell, cand[cell])
            placed[cell] = digit + 1
            cand[cell] = b
            solved_pass[cell] = pass_no
            for k in range(cell_units.shape[1]):
                u = cell_units[cell, k]
                holders = pos[digit, u]  # read per unit: a peer in two has left the second already
                while holders:
                    low = lowest_bit(holders)
                    holders ^= low
                    p = units[u, bit_index(low)]
                    cand[p] &= ~b
                    _drop(pos, T, p, b)
                    if cand[p] == U0:
                        return False
            if killer and not _clear_cage_mates(cand, placed, pos, T, cell, b):
                return False
        elif cand[cell] & b:
            cand[cell] &= ~b
            if placed[cell] == 0:
                _drop(pos, T, cell, b)
            if cand[cell] == U0:
                return False
    return True


@kernel
def _clear_cage_mates(cand, placed, pos, T, cell, b):
    """A Killer's placed digit leaves the open cells of its cage (those outside the cell's units
    too); False when one is left empty."""
    c = T.cage_of[cell]
    for i in range(T.cage_cells.shape[1]):
        p = T.cage_cells[c, i]
        if p < 0:
            break
        if placed[p] == 0 and cand[p] & b:
            cand[p] &= ~b
            _drop(pos, T, p, b)
            if cand[p] == U0:
                return False
    return True


@kernel
def _drop(pos, T, cell, digits):
    """Clear an open cell's bit from the layers of ``digits`` in its row, column and box."""
    cell_units, unit_pos = T.cell_units, T.unit_pos
    while digits:
        low = lowest_bit(digits)
        digits ^= low
        d = bit_index(low)
        for k in range(cell_units.shape[1]):
            pos[d, cell_units[cell, k]] &= ~bit(unit_pos[cell, k])


#: Techniques whose *direct* form raters put below a naked single (SE: 1.7, 1.9, 2.0 < 2.3).
DIRECT_BELOW_NAKED = (LOCKED_POINTING, LOCKED_CLAIMING, HIDDEN_PAIR)
#: Techniques with a direct form, in the order SE looks for them before any other technique
#: (direct locking 1.7-1.9, direct hidden pair 2.0, then after naked singles the direct hidden
#: triple 2.5): ``_direct_pass`` takes their direct steps before the plain rungs.
DIRECT_FORMS = (LOCKED_POINTING, LOCKED_CLAIMING, HIDDEN_PAIR, HIDDEN_TRIPLE)


@kernel(inline="always")
def _direct_alternative(cand, placed, pos, T, enabled, rec, work, first_step):
    """For a singles pass that offers naked singles only, note in its first step (``S_DIRECT``)
    the first technique of DIRECT_BELOW_NAKED with a direct step, which a rater would take
    instead. The look-ahead's own records are discarded. Returns True when the pass offers
    naked singles only and no such alternative (it rates 2.3)."""
    steps, counts = rec.steps, rec.counts
    for s in range(first_step, counts[C_STEPS]):
        if steps[s, S_TECH] != NAKED_SINGLE or steps[s, S_EXTRA] >= 0:
            return False  # an easier single is on offer
    saved_steps, saved_proof, saved_effects = counts[C_STEPS], counts[C_PROOF], counts[C_EFFECTS]
    best = 0
    for tech in DIRECT_BELOW_NAKED:
        run_core_rung(tech, cand, placed, pos, T, enabled, rec, work)
        for s in range(saved_steps, counts[C_STEPS]):
            if steps[s, S_DIRECT]:
                best = tech
        counts[C_STEPS] = saved_steps
        counts[C_PROOF] = saved_proof
        counts[C_EFFECTS] = saved_effects
        if best:
            break
    counts[C_OVERFLOW] = 0
    steps[first_step, S_DIRECT] = best
    return best == 0


@kernel
def _direct_pass(cand, placed, pos, T, enabled, rec, work):
    """Record the direct steps of the first technique of DIRECT_FORMS that has any, dropping
    its other steps: SE takes a direct step before any plain technique, and the plain steps
    only when it needs them. A direct step places the hidden singles it leaves and eliminates
    nothing, as SE's direct hints do (the candidates it would remove stay for later passes to
    find; SE places one single a hint and finds the hint again for the next). True when some
    were recorded."""
    steps, digits, effects, counts = rec.steps, rec.digits, rec.effects, rec.counts
    singles = np.empty((T.units.shape[1] * T.cell_units.shape[1], 2), dtype=np.int64)
    for tech in DIRECT_FORMS:
        first_step, first_effect = counts[C_STEPS], counts[C_EFFECTS]
        run_core_rung(tech, cand, placed, pos, T, enabled, rec, work)
        kept, kept_effects = first_step, first_effect
        for s in range(first_step, counts[C_STEPS]):
            if not steps[s, S_DIRECT]:
                continue
            # no more singles than the step has eliminations: they fit in its own slots
            found = direct_singles(rec, s, pos, T, singles)
            steps[kept] = steps[s]
            digits[kept] = digits[s]
            steps[kept, S_EFF0] = kept_effects
            for k in range(found):
                effects[kept_effects, 0] = singles[k, 0]
                effects[kept_effects, 1] = singles[k, 1]
                effects[kept_effects, 2] = PLACE
                kept_effects += 1
            steps[kept, S_EFF1] = kept_effects
            kept += 1
        counts[C_STEPS], counts[C_EFFECTS] = kept, kept_effects
        if kept > first_step:
            return True
    return False


@kernel
def _rated_at_naked_single_or_more(rung, rec, first_step):
    """True when a (non-singles) pass rates at least a naked single's 2.3: it is no direct form
    of a technique in DIRECT_BELOW_NAKED."""
    steps, counts = rec.steps, rec.counts
    if rung not in DIRECT_BELOW_NAKED:
        return True
    for s in range(first_step, counts[C_STEPS]):  # noqa: SIM110 (a plain loop for numba)
        if steps[s, S_DIRECT]:
            return False
    return True


@kernel
def solve_passes(values, full, T, enabled, rungs, cand, placed, solved_pass, pos, rec, work, until):
    """Run the pass loop from the givens; returns (result, passes). See the module docstring;
    ``until``: cells whose placing ends the loop (``pass_loop``), NO_CELLS for none."""
    return pass_loop(
        values,
        full,
        T,
        enabled,
        rungs,
        cand,
        placed,
        solved_pass,
        pos,
        rec,
        work,
        run_rung,
        True,
        until,
    )


@kernel
def solve_core_passes(
    values, full, T, enabled, rungs, cand, placed, solved_pass, pos, rec, work, until
):
    """:func:`solve_passes` on the core rungs only (``rungs`` must be ``CORE_RUNG_ARRAY``): a
    kernel that compiles in seconds on a new machine (it links only the core finders)."""
    return pass_loop(
        values,
        full,
        T,
        enabled,
        rungs,
        cand,
        placed,
        solved_pass,
        pos,
        rec,
        work,
        run_core_rung,
        True,
        until,
    )


@kernel
def solve_person_passes(
    values, full, T, enabled, rungs, cand, placed, solved_pass, pos, rec, work, until
):
    """:func:`solve_passes` on the person's ladder (``PERSON_RUNG_ARRAY``), which takes each
    technique as it comes (a direct step is the technique's own, as HoDoKu shows it)."""
    return pass_loop(
        values,
        full,
        T,
        enabled,
        rungs,
        cand,
        placed,
        solved_pass,
        pos,
        rec,
        work,
        run_person_rung,
        False,
        until,
    )


@kernel(inline="always")
def pass_loop(
    values,
    full,
    T,
    enabled,
    rungs,
    cand,
    placed,
    solved_pass,
    pos,
    rec,
    work,
    dispatch,
    direct,
    until,
):
    """The pass loop over ``rungs``, each run by ``dispatch`` (``run_rung``, or ``run_core_rung``
    for a loop that compiles in seconds: a kernel links only the finders its dispatch calls).
    ``direct``: True for the grader's loop, which takes SE's direct steps first
    (``_direct_pass``). ``until``: cells (negative ones ignored) whose placing ends the loop,
    PLACED: a digger that blanked them and knows the fuller puzzle solves asks no more (the
    state is then at least as far as the fuller puzzle's start)."""
    peers = T.peers
    steps, counts = rec.steps, rec.counts
    counts[:] = 0
    if not init_candidates(values, full, peers, cand, placed):
        return CONTRADICTION, 0
    given = work.given
    for cell in range(values.shape[0]):
        solved_pass[cell] = 0 if values[cell] else -1
        given[cell] = values[cell] != 0
    build_layers(cand, placed, T, pos)  # from here on apply_effects keeps them up to date
    passes = 0
    settled = False
    held = _hold(rec, counts[C_STEPS], counts[C_PROOF], counts[C_EFFECTS])  # nothing, typed
    while True:
        open_cells = 0
        for cell in range(values.shape[0]):
            open_cells += placed[cell] == 0  # branch-free: it vectorizes
        if open_cells == 0:
            # two singles of one pass can put a digit twice in a unit only if there is no solution
            return (SOLVED if consistent(placed, T.units) else CONTRADICTION), passes
        progress = False
        held_rung = -1  # a rung searched ahead in this pass (``_settled_rung``, GROUPED_AHEAD)
        ahead = False  # the grouped X-chains of every length searched at the first one's turn
        for r in range(rungs.shape[0]):
            first_step, first_effect = counts[C_STEPS], counts[C_EFFECTS]
            first_proof = counts[C_PROOF]
            rung = rungs[r]
            # direct steps come before the plain rungs in every pass, as SE looks for its direct
            # hints first at every step: one that places a single spares a plain step later
            # (taken only while the rating was low, 55 puzzles that SE rates below 4 scored more)
            taken = direct and rung == LOCKED_POINTING
            taken = taken and _direct_pass(cand, placed, pos, T, enabled, rec, work)
            search, top = rung, 0  # the chain rungs may search a settled rung first
            if direct and rung == SKYSCRAPER and _se_rates(T):
                search, top = _settled_rung(rec, enabled)
                if top == 0:
                    search = rung  # not settled: the chain rungs wait for their turn
            if direct and rung == GROUPED_TWO_LINKS:
                search = GROUPED_AHEAD
            while not taken:  # one call of ``dispatch``: the pass loop inlines it
                if rung == held_rung:
                    _restore(rec, held)
                    break
                if ahead and GROUPED_TWO_LINKS < rung <= GROUPED_FOUR_LINKS:
                    break  # nothing of this length: the search ahead found none or shorter
                dispatch(search, cand, placed, pos, T, enabled, rec, work)
                if search == rung:
                    break
                if search == GROUPED_AHEAD:
                    ahead = True
                    owner = _grouped_rung(steps, first_step, counts[C_STEPS])
                    if owner != rung:  # longer chains: their own rung's, later in the pass
                        held_rung, held = owner, _hold(rec, first_step, first_proof, first_effect)
                    break
                if counts[C_STEPS] > first_step and step_tenths(steps, first_step) <= top:
                    rung = search  # rated no higher than the grade so far: taken
                    break
                held_rung, held = search, _hold(rec, first_step, first_proof, first_effect)
                search = rung  # the search is that rung's own in this pass: kept for its turn
            if counts[C_OVERFLOW]:
                return OVERFLOW, passes
            if counts[C_STEPS] > first_step:
                # the look-ahead for direct alternatives only matters while no pass has rated
                # 2.3 or more (the puzzle's rating is its hardest pass's)
                if not settled:
                    if rung == FULL_HOUSE:
                        settled = _direct_alternative(
                            cand, placed, pos, T, enabled, rec, work, first_step
                        )
                    elif taken:
                        settled = steps[first_step, S_TECH] == HIDDEN_TRIPLE
                    else:
                        settled = _rated_at_naked_single_or_more(rung, rec, first_step)
                passes += 1
                for s in range(first_step, counts[C_STEPS]):
                    steps[s, S_PASS] = passes
                if not apply_effects(rec, first_effect, cand, placed, solved_pass, pos, T, passes):
                    return CONTRADICTION, passes
                if until.shape[0] and _all_placed(placed, until):
                    return PLACED, passes
                progress = True
                break
        if not progress:
            return STUCK, passes


@kernel
def _grouped_rung(steps, first_step, end):
    """The rung of the grouped X-chains recorded by GROUPED_AHEAD from ``first_step`` (all of
    one length: a step's ``extra`` is its chain's 2 * pairs + 1), GROUPED_TWO_LINKS for none."""
    if end == first_step:
        return GROUPED_TWO_LINKS
    pairs = (steps[first_step, S_EXTRA] - 1) // 2
    return GROUPED_TWO_LINKS + pairs - TURBOT_LEVELS


@kernel
def _settled_rung(rec, enabled):
    """The rung a pass searches first past the basic fish once the grade holds one of SE's
    chain steps, and the grade so far in tenths (``settled_tenths``; 0: no such step, and no
    search ahead). With a dynamic (or multiple) forcing chain step it is that rung, else the
    cycle rung. Its first hint rated no higher than the grade so far is taken at once and
    leaves the rating as it was (only which step comes first changes), while the wings, loops
    and lower chain rungs it spares cost more on a hard puzzle."""
    top = settled_tenths(rec)
    hardest = 0
    for s in range(rec.counts[C_STEPS]):
        hardest = max(hardest, rec.steps[s, S_TECH])
    for rung in (DYNAMIC_FORCING_CHAIN, MULTIPLE_FORCING_CHAIN):
        if hardest >= rung and top >= BASE_TENTHS[rung - CYCLE] and enabled[rung]:
            return rung, top
    return CYCLE, top


@kernel
def _hold(rec, first_step, first_proof, first_effect):
    """Take the steps recorded from ``first_step`` (with their proof and effects) out of the
    record, as copies for :func:`_restore`."""
    counts = rec.counts
    held = (
        rec.steps[first_step : counts[C_STEPS]].copy(),
        rec.digits[first_step : counts[C_STEPS]].copy(),
        rec.proof[first_proof : counts[C_PROOF]].copy(),
        rec.effects[first_effect : counts[C_EFFECTS]].copy(),
    )
    counts[C_STEPS], counts[C_PROOF], counts[C_EFFECTS] = first_step, first_proof, first_effect
    return held


@kernel
def _restore(rec, held):
    """Put back the steps :func:`_hold` took out. Nothing is recorded in between (a pass ends
    at its first step), so they go back to their places."""
    steps, digits, proof, effects = held
    counts = rec.counts
    s, p, e = counts[C_STEPS], counts[C_PROOF], counts[C_EFFECTS]
    rec.steps[s : s + steps.shape[0]] = steps
    rec.digits[s : s + digits.shape[0]] = digits
    rec.proof[p : p + proof.shape[0]] = proof
    rec.effects[e : e + effects.shape[0]] = effects
    counts[C_STEPS] += steps.shape[0]
    counts[C_PROOF] += proof.shape[0]
    counts[C_EFFECTS] += effects.shape[0]


@kernel
def _all_placed(placed, cells):
    for cell in cells:  # noqa: SIM110 (a plain loop for numba)
        if cell >= 0 and placed[cell] == 0:
            return False
    return True


@kernel
def find_once(rung, cand, placed, T, enabled, pos, rec, work):
    """Record one rung's deductions from a given state (for tests and explanations)."""
    rec.counts[:] = 0
    build_layers(cand, placed, T, pos)
    run_person_rung(rung, cand, placed, pos, T, enabled, rec, work)
    return rec.counts[C_OVERFLOW] == 0


@dataclass(frozen=True)
class Step:
    """One deduction: its technique, pass, the cells and digits that prove it, and its effects.

    ``eliminations`` and ``placements`` are (cell, value) pairs, values 1-based as in grids.
    """

    technique: str
    pass_no: int
    cells: tuple[int, ...]
    digits: tuple[int, ...]
    eliminations: tuple[tuple[int, int], ...]
    placements: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Record:
    """The raw steps of a solve, as arrays (decode them with :meth:`step`)."""

    steps: np.ndarray  # (count, STEP_COLUMNS) int32, columns S_*
    digits: np.ndarray  # (count,) uint64 digit masks
    proof: np.ndarray  # int32 cells, indexed by S_PROOF0/S_PROOF1
    effects: np.ndarray  # (m, 3) int32: cell, 0-based digit, ELIMINATE/PLACE

    def __len__(self) -> int:
        return self.steps.shape[0]

    def step(self, index: int) -> Step:
        row = self.steps[index]
        mask = int(self.digits[index])
        effects = self.effects[row[S_EFF0] : row[S_EFF1]]
        pairs = [(int(c), int(d) + 1, int(kind)) for c, d, kind in effects]
        return Step(
            technique=TECHNIQUES[row[S_TECH]],
            pass_no=int(row[S_PASS]),
            cells=tuple(int(c) for c in self.proof[row[S_PROOF0] : row[S_PROOF1]]),
            digits=tuple(d + 1 for d in range(64) if mask >> d & 1),
            eliminations=tuple((c, d) for c, d, kind in pairs if kind != PLACE),
            placements=tuple((c, d) for c, d, kind in pairs if kind == PLACE),
        )

    def all_steps(self) -> tuple[Step, ...]:
        return tuple(self.step(i) for i in range(len(self)))


@dataclass(frozen=True)
class LogicRun:
    """The outcome of the pass loop on one puzzle."""

    solved: bool
    passes: int
    values: np.ndarray  # uint8 per cell: givens and every digit logic placed (0 = still open)
    candidates: np.ndarray  # uint64 per cell at the end
    solved_pass: np.ndarray  # int32 per cell: 0 given, k solved in pass k, -1 open
    record: Record


class Contradiction(ValueError):
    """The puzzle contradicts itself: logic emptied a cell (the givens have no solution)."""


ALL_ENABLED = np.ones(len(TECHNIQUES), dtype=np.int8)
RUNG_ARRAY = np.array(RUNGS, dtype=np.int64)
PERSON_RUNG_ARRAY = np.array(PERSON_RUNGS, dtype=np.int64)
#: The ladder's first rungs, all of them core (``run_core_rung``): most published puzzles never
#: climb higher, and a pass loop over them alone compiles in seconds on a new machine.
CORE_RUNGS = RUNGS[: RUNGS.index(SKYSCRAPER)]
# a rung the core dispatch does not know would find nothing there, and every row take the slow path
assert all(getattr(_is_core, "py_func", _is_core)(rung) for rung in CORE_RUNGS)
CORE_RUNG_ARRAY = np.array(CORE_RUNGS, dtype=np.int64)


class PassLoop(NamedTuple):
    """The arguments of :func:`solve_passes` after the puzzle, as one value: what a kernel that
    runs many pass loops (a batch of grades, a digger's walk) takes."""

    full: np.uint64
    T: Tables
    enabled: np.ndarray
    rungs: np.ndarray
    cand: np.ndarray
    placed: np.ndarray
    solved_pass: np.ndarray
    pos: np.ndarray
    rec: RecordArrays
    work: WorkArrays


class Workspace:
    """Preallocated state and record arrays for one geometry (one per thread), or for the cage
    layouts of Killers on one grid (:func:`layout_workspace`)."""

    def __init__(self, geo: Geometry, variant: str | None = None) -> None:
        self.geometry = geo  # for a Killer's layouts, the grid under their cages
        self.variant = variant or geo.variant
        self.T: Tables = tables(geo)  # for a Killer's layouts, each sets its own
        self.allowed = allowed_techniques(self.variant)  # its sound techniques (logic.variants)
        ncells, n = geo.ncells, geo.n
        self.full = full_mask(n)
        self.cand = np.zeros(ncells, dtype=np.uint64)
        self.placed = np.zeros(ncells, dtype=np.int32)
        self.solved_pass = np.zeros(ncells, dtype=np.int32)
        self.pos = np.zeros((n, len(geo.units)), dtype=np.uint64)
        self.work = new_work(ncells)
        self.scale = 1
        self.rec = new_record(geo, self.scale)
        self.runs = 0  # pass loops run: tells whether the state is still a given run's

    def within_allowed(self, enabled: np.ndarray) -> np.ndarray:
        """``enabled`` without the techniques this grid's variant switches off."""
        return enabled if self.variant == CLASSIC else np.minimum(enabled, self.allowed)

    def grow(self) -> None:
        self.scale *= 2
        self.rec = new_record(self.geometry, self.scale)

    def pass_loop(self, rungs: np.ndarray, enabled: np.ndarray = ALL_ENABLED) -> PassLoop:
        """This workspace's arrays as :func:`solve_passes` takes them (until the next
        :meth:`grow`), climbing ``rungs`` with the techniques ``enabled``. A kernel given them
        runs pass loops of its own, so the state is no longer the last :meth:`solve`'s."""
        self.runs += 1
        return PassLoop(
            self.full,
            self.T,
            self.within_allowed(enabled),
            rungs,
            self.cand,
            self.placed,
            self.solved_pass,
            self.pos,
            self.rec,
            self.work,
        )

    def run(
        self, values: np.ndarray, enabled: np.ndarray = ALL_ENABLED, rungs: np.ndarray = RUNG_ARRAY
    ) -> LogicRun:
        """The pass loop on a grid's values (givens 1..n, 0 = blank), climbing ``rungs``."""
        return self.outcome(*self.solve(values, enabled, rungs))

    def solve(
        self, values: np.ndarray, enabled: np.ndarray = ALL_ENABLED, rungs: np.ndarray = RUNG_ARRAY
    ) -> tuple[bool, int]:
        """The pass loop, leaving its state in the workspace: (solved, passes). Raises
        Contradiction. :meth:`outcome` copies the state out, :meth:`steps` reads the steps.
        ``rungs`` is the grader's ladder or part of it, or ``PERSON_RUNG_ARRAY`` itself (whose
        own rungs only its kernel dispatches)."""
        values = np.require(values, np.uint8, ("C", "W"))  # one kernel type (parse: read-only)
        enabled = self.within_allowed(enabled)
        self.runs += 1
        # the person's ladder has rungs of its own, which only its kernel dispatches
        solve = solve_person_passes if rungs is PERSON_RUNG_ARRAY else solve_passes
        while True:
            result, passes = solve(
                values,
                self.full,
                self.T,
                enabled,
                rungs,
                self.cand,
                self.placed,
                self.solved_pass,
                self.pos,
                self.rec,
                self.work,
                NO_CELLS,
            )
            if result != OVERFLOW:
                break
            self.grow()
        if result == CONTRADICTION:
            text = "".join(map(str, values))
            raise Contradiction(f"the puzzle has no solution (logic emptied a cell): {text}")
        return result == SOLVED, int(passes)

    def outcome(self, solved: bool, passes: int) -> LogicRun:
        """The last :meth:`solve`'s state, copied out of the workspace."""
        return LogicRun(
            solved=solved,
            passes=passes,
            values=self.placed.astype(np.uint8),
            candidates=self.cand.copy(),
            solved_pass=self.solved_pass.copy(),
            record=self._record(),
        )

    def steps(self) -> np.ndarray:
        """The last :meth:`solve`'s steps (a view: valid until the next solve)."""
        return self.rec.steps[: self.rec.counts[C_STEPS]]

    def find(
        self,
        technique: str,
        cand: np.ndarray,
        placed: np.ndarray,
        given: np.ndarray | None = None,
    ) -> Record:
        """Every deduction of one technique's rung from a given candidate state; ``given`` flags
        the cells that were givens (default: every placed cell)."""
        rung = _rung_of(technique)
        enabled = np.zeros(len(TECHNIQUES), dtype=np.int8)
        if rung == FULL_HOUSE:
            enabled[[FULL_HOUSE, NAKED_SINGLE, HIDDEN_SINGLE]] = 1
        else:
            enabled[TECHNIQUES.index(technique)] = 1  # a sashimi fish's, not its rung's
        return self.find_on(rung, cand, placed, given, enabled)

    def find_on(
        self,
        rung: int,
        cand: np.ndarray,
        placed: np.ndarray,
        given: np.ndarray | None = None,
        enabled: np.ndarray = ALL_ENABLED,
    ) -> Record:
        """Every deduction of one rung (of ``RUNGS`` or ``PERSON_RUNGS``) from a given
        candidate state, with the techniques ``enabled``; ``given`` as for :meth:`find`."""
        cand = np.ascontiguousarray(cand, dtype=np.uint64)
        placed = np.ascontiguousarray(placed, dtype=np.int32)
        self.work.given[:] = placed != 0 if given is None else given
        enabled = self.within_allowed(enabled)
        while not find_once(rung, cand, placed, self.T, enabled, self.pos, self.rec, self.work):
            self.grow()
        return self._record()

    def _record(self) -> Record:
        counts = self.rec.counts.tolist()  # Python ints: indexing the array is dearer, per element
        steps = counts[C_STEPS]
        return Record(
            steps=self.rec.steps[:steps].copy(),
            digits=self.rec.digits[:steps].copy(),
            proof=self.rec.proof[: counts[C_PROOF]].copy(),
            effects=self.rec.effects[: counts[C_EFFECTS]].copy(),
        )


def _rung_of(technique: str) -> int:
    if technique not in TECHNIQUES:
        raise ValueError(f"unknown technique {technique!r}; expected one of {TECHNIQUES}")
    index = TECHNIQUES.index(technique)
    if SASHIMI_X_WING <= index < SASHIMI_X_WING + 3:
        return index - SASHIMI_X_WING + FINNED_X_WING  # found by the finned fish's rung
    if ALS_XZ <= index <= ALS_CHAIN:
        return ALS_XZ
    return FULL_HOUSE if index <= HIDDEN_SINGLE else index


_local = threading.local()


def workspace(geo: Geometry) -> Workspace:
    """This thread's logic workspace for a geometry."""
    return kept_for(_local.__dict__.setdefault("spaces", OrderedDict()), geo, Workspace)


def layout_workspace(under: Geometry) -> Workspace:
    """This thread's workspace for the cage layouts of Killers on the grid ``under``: a Killer
    dig grades several layouts a puzzle without making a Geometry for each, so each sets its
    tables in ``T`` (``engine.logic.tables.layout_tables``) before it is solved."""
    spaces = _local.__dict__.setdefault("layout_spaces", OrderedDict())
    return kept_for(spaces, under, lambda geo: Workspace(geo, with_cages(geo.variant)))


def techniques_mask(names: Iterable[str]) -> np.ndarray:
    """Technique switches for :meth:`Workspace.run` with only the named techniques on."""
    mask = np.zeros(len(TECHNIQUES), dtype=np.int8)
    for name in names:
        _rung_of(name)  # validates the name
        mask[TECHNIQUES.index(name)] = 1
    return mask
