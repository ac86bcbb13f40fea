"""Candidate state, lookup tables and step records shared by every technique finder.

Glossary (see also ``engine.geometry``):
    cand    uint64 per cell: bit d set = digit d+1 still possible (a placed cell keeps its one bit)
    placed  int32 per cell: the digit placed there (1..n), 0 while open
    layer   ``pos[d, u]``: the per-digit layer of unit u, bit k set = digit d+1 may still go in
            the unit's k-th cell ``units[u, k]``; built from ``cand`` when a solve starts and
            kept up to date as effects are applied
    step    one deduction: a technique, the pass it belongs to, the cells and digits that prove it
            (``proof``, ``digits``) and its effects (eliminations and placements)

Finders never change the state: they append steps to preallocated record arrays
(:class:`RecordArrays`), and the pass loop applies the effects afterwards. Record arrays are plain
numpy arrays so that the finders can be numba kernels; when they run out of room the kernel flags
it and the caller retries with larger ones.

Kernel state travels as named tuples (:class:`Tables`, :class:`RecordArrays`, :class:`WorkArrays`),
as in ``engine.search``: numba compiles them to plain structs, and a reader sees ``T.units`` and
``rec.counts`` where a positional read would need a table of indices.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from engine.geometry import Geometry
from engine.jit import kernel
from engine.search import U0, U1, bit_index, lowest_bit, popcount  # one set of bit helpers

#: Technique ids, easiest first (the contract shared with the recipe's tier bands).
TECHNIQUES = (
    "full_house",
    "naked_single",
    "hidden_single",
    "cage_combination",  # Killer only: the cage techniques, each at its place in difficulty
    "locked_pointing",
    "locked_claiming",
    "innies_outies",
    "cage_split",
    "naked_pair",
    "hidden_pair",
    "naked_triple",
    "hidden_triple",
    "naked_quad",
    "hidden_quad",
    "cage_confined",
    "cage_naked_subset",
    "cage_hidden_subset",
    "rule_of_45",
    "x_wing",
    "swordfish",
    "jellyfish",
    "skyscraper",
    "two_string_kite",
    "empty_rectangle",
    "finned_x_wing",
    "finned_swordfish",
    "finned_jellyfish",
    "sashimi_x_wing",  # the sashimi fish follow the finned ones (one rung finds both)
    "sashimi_swordfish",
    "sashimi_jellyfish",
    "wxyz_wing",
    "xy_wing",
    "xyz_wing",
    "w_wing",
    "unique_rectangle",
    "bug_plus_one",
    "hidden_rectangle",
    "avoidable_rectangle",
    "unique_loop",
    "vwxyz_wing",
    "uvwxyz_wing",
    "sue_de_coq",
    "simple_colouring",
    "x_chain",
    "xy_chain",
    "aic",
    "tuvwxyz_wing",
    "grouped_x_chain",
    "grouped_aic",
    "als_xz",
    "als_xy_wing",
    "als_chain",
    "franken_fish",
    "mutant_fish",
    "cycle",
    "forcing_x_chain",
    "forcing_chain",
    "aligned_triplet_exclusion",  # SE's, between its chains (engine.logic.aligned)
    "nishio_forcing_chain",
    "multiple_forcing_chain",
    "dynamic_forcing_chain",
    "trial_and_error",
)
TECHNIQUE_INDEX = {name: index for index, name in enumerate(TECHNIQUES)}
(
    FULL_HOUSE,
    NAKED_SINGLE,
    HIDDEN_SINGLE,
    CAGE_COMBINATION,
    LOCKED_POINTING,
    LOCKED_CLAIMING,
    INNIES_OUTIES,
    CAGE_SPLIT,
    NAKED_PAIR,
    HIDDEN_PAIR,
    NAKED_TRIPLE,
    HIDDEN_TRIPLE,
    NAKED_QUAD,
    HIDDEN_QUAD,
    CAGE_CONFINED,
    CAGE_NAKED_SUBSET,
    CAGE_HIDDEN_SUBSET,
    RULE_OF_45,
    X_WING,
    SWORDFISH,
    JELLYFISH,
    SKYSCRAPER,
    TWO_STRING_KITE,
    EMPTY_RECTANGLE,
    FINNED_X_WING,
    FINNED_SWORDFISH,
    FINNED_JELLYFISH,
    SASHIMI_X_WING,
    SASHIMI_SWORDFISH,
    SASHIMI_JELLYFISH,
    WXYZ_WING,
    XY_WING,
    XYZ_WING,
    W_WING,
    UNIQUE_RECTANGLE,
    BUG_PLUS_ONE,
    HIDDEN_RECTANGLE,
    AVOIDABLE_RECTANGLE,
    UNIQUE_LOOP,
    VWXYZ_WING,
    UVWXYZ_WING,
    SUE_DE_COQ,
    SIMPLE_COLOURING,
    X_CHAIN,
    XY_CHAIN,
    AIC,
    TUVWXYZ_WING,
    GROUPED_X_CHAIN,
    GROUPED_AIC,
    ALS_XZ,
    ALS_XY_WING,
    ALS_CHAIN,
    FRANKEN_FISH,
    MUTANT_FISH,
    CYCLE,
    FORCING_X_CHAIN,
    FORCING_CHAIN,
    ALIGNED_TRIPLET_EXCLUSION,
    NISHIO_FORCING_CHAIN,
    MULTIPLE_FORCING_CHAIN,
    DYNAMIC_FORCING_CHAIN,
    TRIAL_AND_ERROR,
) = range(len(TECHNIQUES))

# effect kinds
ELIMINATE = 0
PLACE = 1

# columns of the step table: technique, pass, a technique-specific detail (the proving unit, a
# chain's length ...), the proof and effect ranges, and the direct flag (see flag_direct; for a
# singles pass, the technique whose direct form a rater would take instead)
S_TECH, S_PASS, S_EXTRA, S_PROOF0, S_PROOF1, S_EFF0, S_EFF1, S_DIRECT = range(8)
STEP_COLUMNS = 8
# slots of the record counters
C_STEPS, C_PROOF, C_EFFECTS, C_OVERFLOW = range(4)


MAX_FRANKEN = 4  # the largest Franken or mutant fish the rungs search (jellyfish), as HoDoKu
#: The Franken and mutant fish searches: either kind, with or without fins, of sizes 2 to 4.
FISH_SEARCHES = 2 * 2 * (MAX_FRANKEN - 1)


class WorkArrays(NamedTuple):
    """The pass loop's work arrays, per cell."""

    hidden_unit: np.ndarray  # singles' scratch: the unit where the cell is a hidden single ...
    hidden_digit: np.ndarray  # ... and the digit
    house: np.ndarray  # ... and the unit where it is the last open cell
    given: np.ndarray  # 1 where the cell was given (avoidable rectangles reason over the others)
    # per digit, its open cells when X-chains were last searched (a bitset over the cells) and
    # the length up to which no X-chain refuted anything (``engine.logic.chains``)
    chain_cells: np.ndarray  # uint64 (n, words)
    chain_clear: np.ndarray  # int64 (n,)
    # per Franken or mutant fish search (``engine.logic.franken.search_index``) and digit, the
    # digit's open cells when that search last found nothing there
    fish_cells: np.ndarray  # uint64 (FISH_SEARCHES, n, words)
    # per digit, its open cells when the grader's short grouped X-chains last refuted nothing,
    # and the length up to which they did not (``engine.logic.group_chains``)
    grouped_cells: np.ndarray  # uint64 (n, words)
    grouped_clear: np.ndarray  # int64 (n,)


def new_work(ncells: int) -> WorkArrays:
    """Zeroed work arrays for a grid of ``ncells`` cells."""
    arrays = {name: np.zeros(ncells, dtype=np.int32) for name in WorkArrays._fields}
    n = math.isqrt(ncells)
    words = (ncells + 63) // 64
    arrays["chain_cells"] = np.zeros((n, words), dtype=np.uint64)
    arrays["chain_clear"] = np.zeros(n, dtype=np.int64)
    arrays["fish_cells"] = np.zeros((FISH_SEARCHES, n, words), dtype=np.uint64)
    arrays["grouped_cells"] = np.zeros((n, words), dtype=np.uint64)
    arrays["grouped_clear"] = np.zeros(n, dtype=np.int64)
    return WorkArrays(**arrays)


@kernel
def same_cells(cells, known):
    """True when two bit sets of cells (arrays of words) are equal."""
    for i in range(cells.shape[0]):  # noqa: SIM110 (a plain loop for numba)
        if cells[i] != known[i]:
            return False
    return True


@kernel
def bit(index):
    return U1 << np.uint64(index)


@kernel
def sees(a, b, peer_bits):
    """True when two distinct cells cannot hold the same digit: they share a unit (a row,
    column, box or a variant's unit) or a Killer cage (``peer_bits`` holds both)."""
    return (peer_bits[a, b >> 6] >> np.uint64(b & 63)) & np.uint64(1) != U0


@kernel
def build_layers(cand, placed, T, pos):
    """Rebuild every per-digit unit layer ``pos[d, u]`` from the open cells' candidates (cell by
    cell: each candidate bit sets its position in the layers of the cell's units)."""
    cell_units, unit_pos = T.cell_units, T.unit_pos
    pos[:, :] = U0
    for cell in range(cand.shape[0]):
        if placed[cell] == 0:
            m = cand[cell]
            while m:
                low = lowest_bit(m)
                m ^= low
                d = bit_index(low)
                for k in range(cell_units.shape[1]):
                    pos[d, cell_units[cell, k]] |= bit(unit_pos[cell, k])


@kernel
def init_candidates(values, full, peers, cand, placed):
    """Candidates after the givens: every open cell keeps the digits no peer holds.

    Returns False when two givens clash (a peer holds a cell's own digit) or a cell has none left.
    """
    for cell in range(values.shape[0]):
        v = values[cell]
        placed[cell] = v
        cand[cell] = bit(v - 1) if v else full
    for cell in range(values.shape[0]):
        v = values[cell]
        if v:
            b = bit(v - 1)
            for k in range(peers.shape[1]):
                p = peers[cell, k]
                if placed[p] == v:
                    return False
                cand[p] &= ~b
    for cell in range(values.shape[0]):  # noqa: SIM110 (a plain loop for numba)
        if cand[cell] == U0:
            return False
    return True


@kernel
def consistent(placed, units):
    """True when no unit holds a digit twice (a completed grid is then a solution). Unit by unit:
    each cell is read three times, where a scan of every cell's peers reads it once per peer."""
    for u in range(units.shape[0]):
        seen = U0
        for k in range(units.shape[1]):
            v = placed[units[u, k]]
            if v:
                b = bit(v - 1)
                if seen & b:
                    return False
                seen |= b
    return True


# ---- step records ---------------------------------------------------------------------------


@kernel
def add_effect(rec, cell, digit, kind):
    """Append one effect (an elimination or placement of 0-based ``digit`` at ``cell``)."""
    effects, counts = rec.effects, rec.counts
    i = counts[C_EFFECTS]
    if i >= effects.shape[0]:
        counts[C_OVERFLOW] = 1
        return
    effects[i, 0] = cell
    effects[i, 1] = digit
    effects[i, 2] = kind
    counts[C_EFFECTS] = i + 1


@kernel
def add_proof(rec, cell):
    """Append one cell of the pattern that proves the current step."""
    proof, counts = rec.proof, rec.counts
    i = counts[C_PROOF]
    if i >= proof.shape[0]:
        counts[C_OVERFLOW] = 1
        return
    proof[i] = cell
    counts[C_PROOF] = i + 1


@kernel
def eliminate(rec, cand, cell, digit):
    """Record the elimination of ``digit`` at ``cell`` when it is still a candidate there."""
    if cand[cell] & bit(digit):
        add_effect(rec, cell, digit, ELIMINATE)


@kernel
def eliminate_all(rec, cand, cell, digits):
    """Record the elimination of every one of ``digits`` (a mask) still a candidate at ``cell``."""
    m = cand[cell] & digits
    while m:
        low = lowest_bit(m)
        m ^= low
        add_effect(rec, cell, bit_index(low), ELIMINATE)


@kernel
def mark(rec):
    """Where the next step's proof and effects start (pass both to :func:`commit`)."""
    counts = rec.counts
    return counts[C_PROOF], counts[C_EFFECTS]


@kernel
def commit(rec, start, tech, extra, digits):
    """Close the step begun at ``start``; a step with no effect is dropped. Returns True if kept."""
    steps, step_digits, counts = rec.steps, rec.digits, rec.counts
    proof0, eff0 = start
    if counts[C_EFFECTS] == eff0:
        counts[C_PROOF] = proof0
        return False
    i = counts[C_STEPS]
    if i >= steps.shape[0]:
        counts[C_OVERFLOW] = 1
        return False
    steps[i, S_TECH] = tech
    steps[i, S_PASS] = 0
    steps[i, S_EXTRA] = extra
    steps[i, S_PROOF0] = proof0
    steps[i, S_PROOF1] = counts[C_PROOF]
    steps[i, S_EFF0] = eff0
    steps[i, S_EFF1] = counts[C_EFFECTS]
    steps[i, S_DIRECT] = 0
    step_digits[i] = digits
    counts[C_STEPS] = i + 1
    return True


@kernel
def flag_direct(rec, pos, T, unit, same_kind):
    """Mark the last step *direct* when its eliminations leave a digit one place in ``unit`` (a
    hidden set's own unit) or, with ``same_kind``, in a unit of ``unit``'s kind (locked
    candidates: a box when pointing, a line of the inside line's kind when claiming): SE takes
    such a step as its hidden single, rated lower (``DIRECT_RATINGS``), and only there (its
    ``HiddenSet(direct)`` and ``Locking(direct)``). ``S_DIRECT`` keeps where to look again,
    ``1 + 2 * unit + same_kind``, for :func:`direct_singles`."""
    i = rec.counts[C_STEPS] - 1
    single = np.empty((1, 2), dtype=np.int64)
    if _left_singles(rec, i, pos, T, unit, same_kind, single) > 0:
        rec.steps[i, S_DIRECT] = 1 + 2 * unit + same_kind


@kernel
def direct_singles(rec, i, pos, T, out):
    """The hidden singles (cell, 0-based digit) that direct step i leaves, into ``out``; their
    count. Every one, so that the singles do not depend on the order the cells are read in."""
    code = rec.steps[i, S_DIRECT] - 1
    return _left_singles(rec, i, pos, T, code // 2, code % 2 == 1, out)


@kernel
def _left_singles(rec, i, pos, T, unit, same_kind, out):
    """Up to ``len(out)`` distinct hidden singles that step i's eliminations leave (see
    :func:`flag_direct`); their count."""
    steps, effects = rec.steps, rec.effects
    cell_units, unit_pos = T.cell_units, T.unit_pos
    n = T.units.shape[1]
    e0, e1 = steps[i, S_EFF0], steps[i, S_EFF1]
    found = 0
    for e in range(e0, e1):
        cell, digit = effects[e, 0], effects[e, 1]
        for k in range(cell_units.shape[1]):
            u = cell_units[cell, k]
            if u != unit and not (same_kind and u // n == unit // n):
                continue
            layer = pos[digit, u]
            for f in range(e0, e1):
                other = effects[f, 0]
                if effects[f, 1] != digit:
                    continue
                for j in range(cell_units.shape[1]):
                    if cell_units[other, j] == u:
                        layer &= ~bit(unit_pos[other, j])
            if layer == U0 or popcount(layer) != 1:
                continue
            target = T.units[u, bit_index(layer)]
            known = False
            for s in range(found):
                known |= out[s, 0] == target and out[s, 1] == digit
            if not known and found < out.shape[0]:
                out[found, 0] = target
                out[found, 1] = digit
                found += 1
            if found == out.shape[0]:
                return found
    return found


class RecordArrays(NamedTuple):
    """The arrays the finders append steps to (see the module docstring)."""

    steps: np.ndarray  # (room, STEP_COLUMNS) int32, columns S_*
    digits: np.ndarray  # (room,) uint64: each step's digit mask
    proof: np.ndarray  # int32 cells, indexed by S_PROOF0/S_PROOF1
    effects: np.ndarray  # (room, 3) int32: cell, 0-based digit, ELIMINATE/PLACE
    counts: np.ndarray  # int64 counters, slots C_*


def new_record(geo: Geometry, scale: int = 1) -> RecordArrays:
    """Empty record arrays sized for a whole solve of this geometry (``scale`` grows them)."""
    room = geo.ncells * (geo.n + 1) * 2 * scale
    return RecordArrays(
        steps=np.zeros((room, STEP_COLUMNS), dtype=np.int32),
        digits=np.zeros(room, dtype=np.uint64),
        proof=np.zeros(room * 4, dtype=np.int32),
        effects=np.zeros((room, 3), dtype=np.int32),
        counts=np.zeros(4, dtype=np.int64),
    )


# ---- geometry tables --------------------------------------------------------------------------


class Tables(NamedTuple):
    """Lookup tables the finders take (as ``T``), built once per geometry.

    units, cell_units, peers   as in :class:`engine.geometry.Geometry`
    unit_pos                   (ncells, k): the cell's index inside each unit of ``cell_units``
    inter                      (m, 2): (box, line) for every box and row/column that cross
    inter_masks                (m, 2): the crossing as positions in the box and in the line
    cross, cross_masks         ``inter`` and then each variant unit's crossings of two cells
                               or more with any other unit (locked candidates reads these)
    peer_bits                  (ncells, words): each cell's peers as a bitset over the cells
                               (a Killer's cage mates among them)
    cage_of, cage_cells,       a Killer's cages as in the geometry (empty otherwise)
    cage_total
    combos, combo_count        ``combos[size, total, :combo_count[size, total]]``: the digit
                               sets of ``size`` different digits adding up to ``total``
                               (``engine.cages.combinations``; one entry on non-Killers)
    grp_cells, grp_sign,       the rule of 45's sum groups (``engine.logic.killer``): cells
    grp_total, grp_tech,       padded with -1, +1 for an innie and -1 for an outie, the sum
    grp_unit                   of the innies less the outies, the technique that finds the
                               group and its units (``engine.logic.killer.UNIT_FACTOR``)
    """

    units: np.ndarray
    cell_units: np.ndarray
    peers: np.ndarray
    unit_pos: np.ndarray
    inter: np.ndarray
    inter_masks: np.ndarray
    cross: np.ndarray
    cross_masks: np.ndarray
    peer_bits: np.ndarray
    cage_of: np.ndarray
    cage_cells: np.ndarray
    cage_total: np.ndarray
    combos: np.ndarray
    combo_count: np.ndarray
    grp_cells: np.ndarray
    grp_sign: np.ndarray
    grp_total: np.ndarray
    grp_tech: np.ndarray
    grp_unit: np.ndarray


def full_mask(n: int) -> np.uint64:
    """All n digits as a candidate mask."""
    return np.uint64((1 << n) - 1)


@kernel
def eliminate_common(rec, cand, placed, peers, peer_bits, x, y, digit):
    """Record the elimination of ``digit`` from every open cell that sees both x and y."""
    b = bit(digit)
    for k in range(peers.shape[1]):
        p = peers[x, k]
        if placed[p] == 0 and cand[p] & b and sees(p, y, peer_bits):
            add_effect(rec, p, digit, ELIMINATE)


@kernel
def eliminate_seeing_holders(rec, cand, placed, peers, peer_bits, cells, digit, also):
    """Record the elimination of ``digit`` (a bit) from every open cell outside ``cells`` that
    sees all of ``cells`` holding it, and cell ``also`` too unless it is -1 (one of those
    holders has the digit: wings, unique loops)."""
    first = -1
    for c in cells:
        if cand[c] & digit:
            first = c
            break
    for k in range(peers.shape[1]):  # cells that see every holder: peers of the first
        p = peers[first, k]
        if placed[p] or cand[p] & digit == U0 or p == also or p in cells:
            continue
        seen = also < 0 or sees(p, also, peer_bits)
        for c in cells:
            if cand[c] & digit and c != first:
                seen &= sees(p, c, peer_bits)
        if seen:
            add_effect(rec, p, bit_index(digit), ELIMINATE)


@kernel
def next_als(cand, cells, count, size, pick, unions, depth):
    """Step to the next almost locked set of ``size`` of ``cells[:count]`` (``size`` cells
    holding ``size + 1`` digits), subsets in lexicographic order; returns (its digits, depth),
    depth -1 when there is none. ``pick`` holds the chosen positions; start with ``pick[0] =
    -1`` and depth 0, then pass back the depth returned. A subset whose first cells already
    hold more digits is left with all its completions (more cells only add digits)."""
    while depth >= 0:
        pick[depth] += 1
        if pick[depth] > count - size + depth:
            depth -= 1
            continue
        digits = unions[depth] | cand[cells[pick[depth]]]
        if popcount(digits) > size + 1:
            continue
        if depth + 1 < size:
            unions[depth + 1] = digits
            depth += 1
            pick[depth] = pick[depth - 1]
            continue
        if popcount(digits) == size + 1:
            return digits, depth
    return U0, depth


@kernel
def digit_cells(pos, units, digit, cells):
    """Write the digit's open cells into ``cells``, a bitset over the cells (as ``peer_bits``
    rows), from its row layers: the rows cover every cell once."""
    cells[:] = U0
    for u in range(units.shape[1]):
        add_unit_cells(pos, units, digit, u, cells)


@kernel(inline="always")
def add_unit_cells(pos, units, digit, u, cells):
    """Add the digit's open cells in unit ``u`` (its layer there) to the bitset ``cells``."""
    layer = pos[digit, u]
    while layer:
        low = lowest_bit(layer)
        layer ^= low
        cell = units[u, bit_index(low)]
        cells[cell >> 6] |= bit(cell & 63)


@kernel
def line_links(pos, units, digit, ends):
    """The digit's strong links in rows and columns (lines where it has exactly two cells).

    Writes (line, first cell, second cell) rows into ``ends``; returns how many.
    """
    n = units.shape[1]
    count = 0
    for u in range(2 * n):
        layer = pos[digit, u]
        if layer != U0 and popcount(layer) == 2:
            first = lowest_bit(layer)
            ends[count, 0] = u
            ends[count, 1] = units[u, bit_index(first)]
            ends[count, 2] = units[u, bit_index(layer ^ first)]
            count += 1
    return count
