"""CDCL SAT counter: settles the grids whose search trees the DFS counter cannot finish.

Some big puzzles (the MiniZinc Challenge 25x25) defeat propagation plus branching: the DFS meets
the same dead end again in millions of subtrees. A conflict-driven clause-learning solver turns
each dead end into a clause saying why it failed, so it is met once.

Encoding: one variable per (open cell, candidate value); literal ``2 * var`` places the value,
``2 * var + 1`` excludes it. Long clauses: each cell takes a value, each value missing from a unit
takes a place in it (two watched literals). At most one of each: a placement excludes the cell's
other values and the value in peer cells; these binary clauses stay implicit, as an implication
list per variable. Counting goes on past a solution by adding the clause "not all of these
decisions again", which is asserting, so search resumes one level up.

The solver follows MiniSat, Glucose and CaDiCaL's stable mode: 1-UIP learning with recursive
minimisation, VSIDS on a binary heap (also bumping the variables that implied the learnt
literals, which halves the time on the 25x25), target phases (the longest conflict-free
assignment) over saved phases, Luby restarts on a long unit, and every few thousand conflicts the
deletion of half the learnt clauses by LBD (glue clauses stay), which compacts the clause arena.
Every buffer is sized before the search starts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.search import U0, U1

# Reason codes: a clause index (>= 0), NO_REASON (a decision or a level-0 fact), or
# IMPLICIT - lit for a binary clause (an implication), ``lit`` being its other, false literal.
NO_REASON = -1
NO_CONFLICT = -1
BINARY_CONFLICT = -2  # a placement implies an exclusion whose literal is false: see CONFLICT_A/B
IMPLICIT = -3
PERMANENT = 0  # LBD mark of clauses that are never deleted (the problem and blocking clauses)
GLUE = 2  # learnt clauses with LBD up to this are kept for good
LBD_BUCKETS = 64  # LBDs above this share the top bucket when picking clauses to delete
RESTART_UNIT = 1024  # conflicts per Luby unit (CaDiCaL's stable mode)
FIRST_REDUCE = 2_000  # conflicts before the first deletion round (Glucose's schedule)
REDUCE_GROWTH = 300  # and more between each round and the next
LEARNT_CLAUSES = 30_000  # room for learnt clauses (more forces a deletion round early)
LEARNT_LITERALS_PER_CLAUSE = 40
REASON_BUMPS = 10  # reason literals bumped per learnt literal, at most (CaDiCaL's bumpreason)
VAR_DECAY = 0.95
RESCALE = 1e100

# counters in the ``meta`` array
TRAIL = 0  # trail length
QHEAD = 1  # next trail entry to propagate
DEPTH = 2  # current decision level
NCLAUSES = 3  # clause headers in use
ARENA = 4  # arena literals in use
HEAP = 5  # heap size
CONFLICT_A = 6  # the two literals of a binary conflict
CONFLICT_B = 7
STAMP = 8  # LBD counting stamp
TARGET = 9  # length of the conflict-free trail the target phases come from
META_SIZE = 10


@njit(cache=True, inline="always")
def _enqueue(lit, why, assign, meta):
    """Make ``lit`` true at the current level, for ``why`` (a reason code)."""
    value, level, reason, trail = assign[0], assign[1], assign[2], assign[3]
    var = lit >> 1
    value[lit] = 1
    value[lit ^ 1] = -1
    level[var] = meta[DEPTH]
    reason[var] = why
    trail[meta[TRAIL]] = lit
    meta[TRAIL] += 1


@njit(cache=True)
def _propagate(assign, implied, db, watch, meta):
    """Unit propagation from the queue; returns a clause index, BINARY_CONFLICT or NO_CONFLICT."""
    value, trail = assign[0], assign[3]
    imp_start, imp_lits = implied
    arena, cl_start, cl_size = db[0], db[1], db[2]
    whead, wnext, wblock = watch
    while meta[QHEAD] < meta[TRAIL]:
        p = trail[meta[QHEAD]]
        meta[QHEAD] += 1
        false_lit = p ^ 1
        if not p & 1:  # a placement excludes the cell's other values and its value's peers
            var = p >> 1
            for k in range(imp_start[var], imp_start[var + 1]):
                q = imp_lits[k]
                if value[q] == 0:
                    _enqueue(q, IMPLICIT - false_lit, assign, meta)
                elif value[q] < 0:
                    meta[CONFLICT_A] = false_lit
                    meta[CONFLICT_B] = q
                    return BINARY_CONFLICT
        prev = -1
        w = whead[false_lit]
        while w >= 0:
            nxt = wnext[w]
            if value[wblock[w]] > 0:
                prev = w
                w = nxt
                continue
            c = w >> 1
            k = w & 1
            start = cl_start[c]
            other = arena[start + 1 - k]
            if value[other] > 0:
                wblock[w] = other
                prev = w
                w = nxt
                continue
            moved = False
            for j in range(start + 2, start + cl_size[c]):
                q = arena[j]
                if value[q] >= 0:  # watch q instead: move w from false_lit's list to q's
                    arena[j] = false_lit
                    arena[start + k] = q
                    if prev < 0:
                        whead[false_lit] = nxt
                    else:
                        wnext[prev] = nxt
                    wnext[w] = whead[q]
                    whead[q] = w
                    wblock[w] = other
                    moved = True
                    break
            if not moved:
                if value[other] < 0:
                    return c
                _enqueue(other, c, assign, meta)
                prev = w
            w = nxt
    return NO_CONFLICT


@njit(cache=True)
def _explain(code, implied, db, meta, out):
    """Write the false literals of reason or conflict ``code`` to ``out`` (leaving out the
    literal ``implied`` it made true); returns how many."""
    if code >= 0:
        arena, start = db[0], db[1][code]
        size = 0
        for j in range(start, start + db[2][code]):
            if arena[j] != implied:
                out[size] = arena[j]
                size += 1
        return size
    if code == BINARY_CONFLICT:
        out[0] = meta[CONFLICT_A]
        out[1] = meta[CONFLICT_B]
        return 2
    out[0] = IMPLICIT - code
    return 1


@njit(cache=True, inline="always")
def _heap_up(i, order):
    activity, heap, heap_pos = order[0], order[1], order[2]
    var = heap[i]
    while i > 0:
        parent = (i - 1) >> 1
        if activity[heap[parent]] >= activity[var]:
            break
        heap[i] = heap[parent]
        heap_pos[heap[i]] = i
        i = parent
    heap[i] = var
    heap_pos[var] = i


@njit(cache=True, inline="always")
def _heap_down(i, size, order):
    activity, heap, heap_pos = order[0], order[1], order[2]
    var = heap[i]
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and activity[heap[child + 1]] > activity[heap[child]]:
            child += 1
        if activity[heap[child]] <= activity[var]:
            break
        heap[i] = heap[child]
        heap_pos[heap[i]] = i
        i = child
    heap[i] = var
    heap_pos[var] = i


@njit(cache=True, inline="always")
def _heap_insert(var, order, meta):
    if order[2][var] < 0:
        i = meta[HEAP]
        meta[HEAP] += 1
        order[1][i] = var
        _heap_up(i, order)


@njit(cache=True)
def _pick_branch(value, order, meta):
    """The unassigned variable of highest activity, or -1 when every variable is assigned."""
    heap, heap_pos = order[1], order[2]
    while meta[HEAP] > 0:
        var = heap[0]
        heap_pos[var] = -1
        meta[HEAP] -= 1
        if meta[HEAP] > 0:
            heap[0] = heap[meta[HEAP]]
            _heap_down(0, meta[HEAP], order)
        if value[2 * var] == 0:
            return var
    return -1


@njit(cache=True, inline="always")
def _bump(var, order, inc):
    activity = order[0]
    activity[var] += inc[0]
    if activity[var] > RESCALE:
        for v in range(activity.shape[0]):
            activity[v] /= RESCALE
        inc[0] /= RESCALE
    if order[2][var] >= 0:
        _heap_up(order[2][var], order)


@njit(cache=True)
def _backjump(target, assign, order, meta):
    """Undo every level above ``target``, saving each variable's phase."""
    if meta[DEPTH] <= target:
        return
    value, trail, trail_lim = assign[0], assign[3], assign[4]
    phase = order[3]
    stop = trail_lim[target + 1]
    for i in range(meta[TRAIL] - 1, stop - 1, -1):
        lit = trail[i]
        value[lit] = 0
        value[lit ^ 1] = 0
        phase[lit >> 1] = lit & 1
        _heap_insert(lit >> 1, order, meta)
    meta[TRAIL] = stop
    meta[QHEAD] = stop
    meta[DEPTH] = target


@njit(cache=True)
def _update_target(assign, order, meta):
    """On a conflict: if the trail below the conflict level is the longest conflict-free one so
    far, its values become the target phases (CaDiCaL's stable mode)."""
    trail, trail_lim = assign[3], assign[4]
    phase, target = order[3], order[4]
    free = trail_lim[meta[DEPTH]]
    if free <= meta[TARGET]:
        return
    meta[TARGET] = free
    target[:] = phase
    for i in range(free):
        target[trail[i] >> 1] = trail[i] & 1


@njit(cache=True)
def _attach(lits, size, lbd, db, watch, meta):
    """Store a clause of ``size`` >= 2 literals, watching its first two; returns its index."""
    arena, cl_start, cl_size, cl_lbd = db
    whead, wnext, wblock = watch
    c = meta[NCLAUSES]
    start = meta[ARENA]
    for k in range(size):
        arena[start + k] = lits[k]
    cl_start[c] = start
    cl_size[c] = size
    cl_lbd[c] = lbd
    for k in range(2):
        w = 2 * c + k
        lit = lits[k]
        wnext[w] = whead[lit]
        whead[lit] = w
        wblock[w] = lits[1 - k]
    meta[NCLAUSES] += 1
    meta[ARENA] += size
    return c


@njit(cache=True)
def _analyze(conflict, assign, db, order, work, meta, inc):
    """First-UIP learnt clause into ``work[1]`` (asserting literal first); returns its size."""
    level, reason, trail = assign[1], assign[2], assign[3]
    seen, learnt, lits = work[0], work[1], work[6]
    pathc = 0
    size = 1
    index = meta[TRAIL] - 1
    p = -1
    code = conflict
    while True:
        for i in range(_explain(code, p, db, meta, lits)):
            q = lits[i]
            var = q >> 1
            if not seen[var] and level[var] > 0:
                _bump(var, order, inc)
                seen[var] = 1
                if level[var] >= meta[DEPTH]:
                    pathc += 1
                else:
                    learnt[size] = q
                    size += 1
        while not seen[trail[index] >> 1]:
            index -= 1
        p = trail[index]
        index -= 1
        seen[p >> 1] = 0
        pathc -= 1
        if pathc == 0:
            break
        code = reason[p >> 1]
    learnt[0] = p ^ 1
    size = _minimise(size, assign, db, work, meta)
    _bump_reasons(size, assign, db, order, work, meta, inc)
    return size


@njit(cache=True)
def _bump_reasons(size, assign, db, order, work, meta, inc):
    """Bump the variables that implied the learnt literals as well (CaDiCaL's bumpreason: they
    are where the next conflicts will come from)."""
    level, reason = assign[1], assign[2]
    seen, learnt, toclear, lits = work[0], work[1], work[3], work[6]
    for i in range(size):
        seen[learnt[i] >> 1] = 1
    nclear = 0
    budget = REASON_BUMPS * size
    for i in range(1, size):
        var = learnt[i] >> 1
        if reason[var] == NO_REASON:
            continue
        for j in range(_explain(reason[var], learnt[i] ^ 1, db, meta, lits)):
            u = lits[j] >> 1
            if seen[u] or level[u] == 0:
                continue
            seen[u] = 1
            toclear[nclear] = u
            nclear += 1
            _bump(u, order, inc)
            budget -= 1
        if budget <= 0:
            break
    for i in range(size):
        seen[learnt[i] >> 1] = 0
    for i in range(nclear):
        seen[toclear[i]] = 0


@njit(cache=True)
def _minimise(size, assign, db, work, meta):
    """Drop learnt literals implied by the others (MiniSat's recursive minimisation)."""
    level, reason = assign[1], assign[2]
    seen, learnt, toclear = work[0], work[1], work[3]
    abstract = 0
    for i in range(1, size):
        abstract |= 1 << (level[learnt[i] >> 1] & 63)
    for i in range(size):
        toclear[i] = learnt[i]
    nclear = size
    kept = 1
    for i in range(1, size):
        q = learnt[i]
        if reason[q >> 1] != NO_REASON:
            redundant, nclear = _redundant(q, abstract, nclear, assign, db, work, meta)
            if redundant:
                continue
        learnt[kept] = q
        kept += 1
    for i in range(nclear):
        seen[toclear[i] >> 1] = 0
    return kept


@njit(cache=True)
def _redundant(q, abstract, nclear, assign, db, work, meta):
    """Is false literal ``q`` implied by literals already in the clause? (explicit-stack DFS)"""
    level, reason = assign[1], assign[2]
    seen, stack, toclear, lits = work[0], work[2], work[3], work[6]
    top = nclear
    sp = 1
    stack[0] = q
    while sp > 0:
        sp -= 1
        r = stack[sp]
        for i in range(_explain(reason[r >> 1], r ^ 1, db, meta, lits)):
            lit = lits[i]
            u = lit >> 1
            if seen[u] or level[u] == 0:
                continue
            if reason[u] != NO_REASON and (abstract >> (level[u] & 63)) & 1:
                seen[u] = 1
                stack[sp] = lit
                sp += 1
                toclear[nclear] = lit
                nclear += 1
            else:
                for t in range(top, nclear):
                    seen[toclear[t] >> 1] = 0
                return False, top
    return True, nclear


@njit(cache=True)
def _lbd(lits, size, level, stamps, meta):
    """Number of distinct decision levels among the literals (Glucose's glue)."""
    meta[STAMP] += 1
    lbd = 0
    for i in range(size):
        lv = level[lits[i] >> 1]
        if stamps[lv] != meta[STAMP]:
            stamps[lv] = meta[STAMP]
            lbd += 1
    return lbd


@njit(cache=True)
def _learn(lits, size, lbd, assign, db, watch, order, meta):
    """Jump back to where ``lits`` (all false, ``lits[0]`` the only one at the top level) becomes
    unit and assert its first literal there."""
    level = assign[1]
    if size == 1:
        _backjump(0, assign, order, meta)
        _enqueue(lits[0], NO_REASON, assign, meta)
        return
    top = 1
    for i in range(2, size):
        if level[lits[i] >> 1] > level[lits[top] >> 1]:
            top = i
    lits[1], lits[top] = lits[top], lits[1]
    _backjump(level[lits[1] >> 1], assign, order, meta)
    c = _attach(lits, size, lbd, db, watch, meta)
    _enqueue(lits[0], c, assign, meta)


@njit(cache=True, inline="always")
def _locked(c, assign, db):
    """Is clause ``c`` the reason of a current assignment? (Its implied literal is watched.)"""
    value, reason = assign[0], assign[2]
    arena, start = db[0], db[1][c]
    for k in range(2):
        lit = arena[start + k]
        if value[lit] > 0 and reason[lit >> 1] == c:
            return True
    return False


@njit(cache=True)
def _reduce(keep_glue, assign, db, watch, meta, buckets):
    """Delete clauses satisfied at level 0 and about half the learnt ones (highest LBD first;
    with ``keep_glue`` false, every learnt one), keeping reasons; compact the arena, rewatch."""
    value, level, reason, trail, trail_lim = assign
    arena, cl_start, cl_size, cl_lbd = db
    whead, wnext, wblock = watch
    facts = trail_lim[1] if meta[DEPTH] > 0 else meta[TRAIL]
    for i in range(facts):  # level-0 facts need no reasons, and theirs may go
        reason[trail[i] >> 1] = NO_REASON
    floor = GLUE if keep_glue else PERMANENT  # clauses with a higher LBD may go
    buckets[:] = 0
    ndeletable = 0
    for c in range(meta[NCLAUSES]):
        if cl_lbd[c] > floor:
            buckets[min(cl_lbd[c], LBD_BUCKETS)] += 1
            ndeletable += 1
    quota = ndeletable // 2 if keep_glue else ndeletable
    threshold = LBD_BUCKETS
    above = 0  # deletable clauses with LBD above the threshold
    while threshold > 0 and above + buckets[threshold] <= quota:
        above += buckets[threshold]
        threshold -= 1
    at_threshold = quota - above  # clauses deleted from the threshold bucket, oldest first
    kept = 0
    used = 0
    for c in range(meta[NCLAUSES]):
        lbd = cl_lbd[c]
        start, size = cl_start[c], cl_size[c]
        locked = _locked(c, assign, db)
        if lbd > floor and not locked:
            bucket = min(lbd, LBD_BUCKETS)
            if bucket > threshold:
                continue
            if bucket == threshold and at_threshold > 0:
                at_threshold -= 1
                continue
        satisfied = False
        for j in range(start, start + size):
            if value[arena[j]] > 0 and level[arena[j] >> 1] == 0:
                satisfied = True
                break
        if satisfied:
            continue
        if locked:  # its implied literal keeps its reason under the clause's new index
            for k in range(2):
                lit = arena[start + k]
                if value[lit] > 0 and reason[lit >> 1] == c:
                    reason[lit >> 1] = kept
        for j in range(size):
            arena[used + j] = arena[start + j]
        cl_start[kept] = used
        cl_size[kept] = size
        cl_lbd[kept] = lbd
        used += size
        kept += 1
    meta[NCLAUSES] = kept
    meta[ARENA] = used
    whead[:] = -1
    for c in range(kept):
        for k in range(2):
            w = 2 * c + k
            lit = arena[cl_start[c] + k]
            wnext[w] = whead[lit]
            whead[lit] = w
            wblock[w] = arena[cl_start[c] + 1 - k]


@njit(cache=True)
def _luby(i):
    """The i-th term (from 0) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    size = 1
    seq = 0
    while size < i + 1:
        seq += 1
        size = 2 * size + 1
    while size - 1 != i:
        size = (size - 1) >> 1
        seq -= 1
        i = i % size
    return 1 << seq


@njit(cache=True)
def _candidates(values, peers, n, cand):
    """Each cell's candidates left by the givens (a given cell: its value); False when a given
    clashes or an open cell has none left."""
    full = ~U0 if n == 64 else (U1 << np.uint64(n)) - U1
    for cell in range(values.shape[0]):
        given = values[cell]
        mask = full
        for k in range(peers.shape[1]):
            other = values[peers[cell, k]]
            if other:
                if other == given:
                    return False
                mask &= ~(U1 << np.uint64(other - 1))
        if given:
            mask = U1 << np.uint64(given - 1)
        elif mask == U0:
            return False
        cand[cell] = mask
    return True


@njit(cache=True)
def _variables(values, cand, n):
    """One variable per (open cell, candidate): its number by (cell, value index), and back."""
    ncells = cand.shape[0]
    var_of = np.full((ncells, n), -1, dtype=np.int32)
    nvars = 0
    for cell in range(ncells):
        if not values[cell]:
            for d in range(n):
                if (cand[cell] >> np.uint64(d)) & U1:
                    var_of[cell, d] = nvars
                    nvars += 1
    var_cell = np.empty(nvars, dtype=np.int32)
    var_value = np.empty(nvars, dtype=np.int32)
    for cell in range(ncells):
        for d in range(n):
            if var_of[cell, d] >= 0:
                var_cell[var_of[cell, d]] = cell
                var_value[var_of[cell, d]] = d
    return var_of, var_cell, var_value


@njit(cache=True)
def _implications(var_of, var_cell, var_value, peers):
    """Per variable, the exclusions its placement implies (CSR: start offsets, literals)."""
    nvars = var_cell.shape[0]
    n = var_of.shape[1]
    start = np.zeros(nvars + 1, dtype=np.int32)
    for var in range(nvars):
        cell, d = var_cell[var], var_value[var]
        total = 0
        for e in range(n):
            total += var_of[cell, e] >= 0 and e != d
        for k in range(peers.shape[1]):
            total += var_of[peers[cell, k], d] >= 0
        start[var + 1] = start[var] + total
    imp_lits = np.empty(start[nvars], dtype=np.int32)
    for var in range(nvars):
        cell, d = var_cell[var], var_value[var]
        at = start[var]
        for e in range(n):
            if var_of[cell, e] >= 0 and e != d:
                imp_lits[at] = 2 * var_of[cell, e] + 1
                at += 1
        for k in range(peers.shape[1]):
            other = var_of[peers[cell, k], d]
            if other >= 0:
                imp_lits[at] = 2 * other + 1
                at += 1
    return start, imp_lits


@njit(cache=True)
def count(values, tables, limit, solution):
    """Count the completions of ``values`` (0 = blank) up to ``limit``; the first goes to
    ``solution``. ``tables`` as for ``engine.search.search``; clashing givens count 0, as there.
    """
    n, peers, units = tables[0], tables[3], tables[4]
    ncells = values.shape[0]
    cand = np.zeros(ncells, dtype=np.uint64)
    if not _candidates(values, peers, n, cand):
        return 0
    var_of, var_cell, var_value = _variables(values, cand, n)
    nvars = var_cell.shape[0]
    implied = _implications(var_of, var_cell, var_value, peers)

    max_static = ncells + units.shape[0] * n
    room_clauses = max_static + LEARNT_CLAUSES + limit
    room_literals = (
        4 * nvars + LEARNT_CLAUSES * LEARNT_LITERALS_PER_CLAUSE + (limit + 2) * (nvars + 1)
    )
    db = (
        np.empty(room_literals, dtype=np.int32),  # arena of clause literals
        np.empty(room_clauses, dtype=np.int32),  # clause start in the arena
        np.empty(room_clauses, dtype=np.int32),  # clause size
        np.empty(room_clauses, dtype=np.int32),  # LBD, PERMANENT for kept clauses
    )
    watch = (
        np.full(2 * nvars, -1, dtype=np.int32),  # first watcher of each literal
        np.empty(2 * room_clauses, dtype=np.int32),  # next watcher (watcher 2c + k: literal k)
        np.empty(2 * room_clauses, dtype=np.int32),  # a literal of the clause, true = skip it
    )
    assign = (
        np.zeros(2 * nvars, dtype=np.int8),  # literal value: 1 true, -1 false, 0 open
        np.zeros(nvars, dtype=np.int32),  # decision level of each variable
        np.full(nvars, NO_REASON, dtype=np.int32),  # reason code of each variable
        np.empty(nvars, dtype=np.int32),  # trail of true literals
        np.zeros(nvars + 2, dtype=np.int32),  # trail length at the start of each level
    )
    order = (
        np.zeros(nvars, dtype=np.float64),  # activity
        np.arange(nvars, dtype=np.int32),  # heap of variables
        np.arange(nvars, dtype=np.int32),  # position of each variable in the heap, -1 if out
        np.zeros(nvars, dtype=np.int8),  # saved phase: 0 place, 1 exclude
        np.zeros(nvars, dtype=np.int8),  # target phase: the longest conflict-free trail's
    )
    lits = np.empty(max(n, nvars) + 1, dtype=np.int32)
    work = (
        np.zeros(nvars, dtype=np.int8),  # seen
        lits,  # learnt clause
        np.empty(nvars, dtype=np.int32),  # minimisation stack
        np.empty(nvars + 1, dtype=np.int32),  # literals (or variables) whose seen flag to clear
        np.zeros(nvars + 2, dtype=np.int64),  # LBD stamps per level
        np.zeros(LBD_BUCKETS + 1, dtype=np.int64),  # deletable clauses per LBD (see _reduce)
        np.empty(max(n, nvars) + 1, dtype=np.int32),  # literals of one reason
    )
    meta = np.zeros(META_SIZE, dtype=np.int64)
    meta[HEAP] = nvars
    inc = np.ones(1, dtype=np.float64)

    # the long clauses: a value for each open cell, a place for each value a unit lacks
    facts = np.empty(max_static, dtype=np.int32)  # clauses of one literal
    nfacts = 0
    for cell in range(ncells):
        size = 0
        for d in range(n):
            if var_of[cell, d] >= 0:
                lits[size] = 2 * var_of[cell, d]
                size += 1
        if size == 1:
            facts[nfacts] = lits[0]
            nfacts += 1
        elif size > 1:
            _attach(lits, size, PERMANENT, db, watch, meta)
    for u in range(units.shape[0]):
        for d in range(n):
            size = 0
            given = False
            for k in range(n):
                cell = units[u, k]
                given |= values[cell] == d + 1
                if var_of[cell, d] >= 0:
                    lits[size] = 2 * var_of[cell, d]
                    size += 1
            if given:
                continue
            if size == 0:
                return 0
            if size == 1:
                facts[nfacts] = lits[0]
                nfacts += 1
            else:
                _attach(lits, size, PERMANENT, db, watch, meta)
    for i in range(nfacts):
        if assign[0][facts[i]] < 0:
            return 0
        if assign[0][facts[i]] == 0:
            _enqueue(facts[i], NO_REASON, assign, meta)
    model = np.zeros(nvars, dtype=np.int8)
    found = _search(limit, assign, implied, db, watch, order, work, meta, inc, model)
    if found:
        for cell in range(ncells):
            solution[cell] = values[cell]
        for var in range(nvars):
            if model[var]:
                solution[var_cell[var]] = var_value[var] + 1
    return found


@njit(cache=True)
def _search(limit, assign, implied, db, watch, order, work, meta, inc, model):
    """The CDCL loop: counts models up to ``limit``; ``model`` flags the true variables of the
    first."""
    value, level, trail, trail_lim = assign[0], assign[1], assign[3], assign[4]
    lits = work[1]
    nvars = level.shape[0]
    room_literals = db[0].shape[0] - (nvars + 1)  # a clause of any size still fits below this
    room_clauses = db[1].shape[0] - 1
    found = 0
    restarts = 0
    conflicts = 0  # since the last restart
    restart_at = RESTART_UNIT * _luby(0)
    reduce_in = FIRST_REDUCE
    reduce_interval = FIRST_REDUCE
    while True:
        conflict = _propagate(assign, implied, db, watch, meta)
        if conflict != NO_CONFLICT:
            if meta[DEPTH] == 0:
                return found
            conflicts += 1
            reduce_in -= 1
            _update_target(assign, order, meta)
            size = _analyze(conflict, assign, db, order, work, meta, inc)
            lbd = _lbd(lits, size, level, work[4], meta)
            _learn(lits, size, lbd, assign, db, watch, order, meta)
            inc[0] /= VAR_DECAY
            continue
        if reduce_in <= 0 or meta[ARENA] > room_literals or meta[NCLAUSES] > room_clauses:
            _reduce(True, assign, db, watch, meta, work[5])
            reduce_interval += REDUCE_GROWTH
            reduce_in = reduce_interval
            if meta[ARENA] > room_literals or meta[NCLAUSES] > room_clauses:
                _backjump(0, assign, order, meta)  # no reasons left to keep
                _reduce(False, assign, db, watch, meta, work[5])
        if conflicts >= restart_at:
            _backjump(0, assign, order, meta)
            restarts += 1
            conflicts = 0
            restart_at = RESTART_UNIT * _luby(restarts)
        var = _pick_branch(value, order, meta)
        if var >= 0:
            meta[DEPTH] += 1
            trail_lim[meta[DEPTH]] = meta[TRAIL]
            _enqueue(2 * var + order[4][var], NO_REASON, assign, meta)
            continue
        found += 1
        if found == 1:
            for i in range(meta[TRAIL]):
                model[trail[i] >> 1] = not trail[i] & 1
        if found >= limit or meta[DEPTH] == 0:
            return found
        # block this model: "not all of these decisions again", asserting one level up
        depth = meta[DEPTH]
        for d in range(depth):
            lits[d] = trail[trail_lim[depth - d]] ^ 1
        _learn(lits, depth, PERMANENT, assign, db, watch, order, meta)
