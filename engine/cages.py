"""Killer cages: a set of cells whose digits differ and add up to the cage's total.

A Killer puzzle is a grid (usually with no givens) plus cages that cover every cell once. A cage
is not a unit: it holds some of the digits, not all of them, so it never takes part in hidden
singles. Its cells are peers (no digit twice), and its total limits which digit sets it may hold:
:func:`combinations` lists them, and every kernel and finder reads that list.
"""

from __future__ import annotations

import contextlib
import threading
from functools import cache, lru_cache
from itertools import combinations as choose
from typing import NamedTuple


class Cage(NamedTuple):
    """``total``: the sum printed in the corner; ``cells``: row-major indices from 0, sorted."""

    total: int
    cells: tuple[int, ...]


class InvalidCages(ValueError):
    """Cages that do not make a Killer: a total no digit set can make, a cage in pieces, two
    cages on one cell, a cell in no cage. The message names the cage (or cell) at fault."""


def cage_name(cage: Cage, n: int) -> str:
    """``the cage of 23 at r1c1-r2c2``: its total, first and last cell, as solvers write it."""
    first, last = min(cage.cells), max(cage.cells)
    where = _cell(first, n) if first == last else f"{_cell(first, n)}-{_cell(last, n)}"
    return f"the cage of {cage.total} at {where}"


@cache
def combinations(size: int, total: int, n: int) -> tuple[int, ...]:
    """The digit sets (bit v-1 for digit v) of ``size`` different digits 1..n adding up to
    ``total``, in increasing order of mask. Empty when no such set exists."""
    if not 1 <= size <= n:
        return ()
    return tuple(
        sorted(
            sum(1 << (d - 1) for d in digits)
            for digits in choose(range(1, n + 1), size)
            if sum(digits) == total
        )
    )


def sum_range(size: int, n: int) -> tuple[int, int]:
    """Smallest and largest total of ``size`` different digits 1..n."""
    return size * (size + 1) // 2, size * (2 * n - size + 1) // 2


def checked_cages(cages, n: int) -> tuple[Cage, ...]:
    """Cages as a sorted tuple of :class:`Cage` (each with sorted cells), after checking they
    make a Killer on an n x n grid: cells in range, each cage connected with a total its size
    allows, every cell in exactly one cage. :class:`InvalidCages` names what is wrong."""
    key = (cages, n)
    with contextlib.suppress(TypeError):  # cells in lists: not hashable, not kept
        if key in _CHECKED:
            return _CHECKED[key]
    spelled = _checked(_spelled(cages), n)
    with _CHECKED_LOCK:  # a Dask worker digs in threads
        _CHECKED[spelled, n] = spelled  # a geometry checks again the cages it is given
        while len(_CHECKED) > CHECKED_KEPT:
            del _CHECKED[next(iter(_CHECKED))]
    return spelled


#: Cage layouts :func:`checked_cages` returned, by themselves: a Killer dig checks each layout it
#: grades once, and its geometry checks the answer again. The oldest go first past the limit.
CHECKED_KEPT = 64
_CHECKED: dict[tuple, tuple[Cage, ...]] = {}
_CHECKED_LOCK = threading.Lock()


def _spelled(cages) -> tuple[Cage, ...]:
    return tuple(Cage(int(total), tuple(sorted(map(int, cells)))) for total, cells in cages)


@lru_cache(maxsize=64)
def _checked(cages: tuple[Cage, ...], n: int) -> tuple[Cage, ...]:
    """:func:`checked_cages` of cages spelled as :class:`Cage`, in the order given (cached: the
    same layout comes again spelled otherwise, from a file or a recipe)."""
    for index, cage in enumerate(cages):
        cells = cage.cells
        if not cells:
            raise InvalidCages(f"cage {index + 1} ({cage.total}) has no cells")
        if min(cells) < 0 or max(cells) >= n * n:
            bad = next(c for c in cells if not 0 <= c < n * n)
            raise InvalidCages(
                f"cage {index + 1} ({cage.total}): cell index {bad} is outside the {n}x{n} grid"
            )
        if len(set(cells)) != len(cells):
            raise InvalidCages(f"{cage_name(cage, n)} lists a cell twice")
        if len(cells) > n:
            raise InvalidCages(
                f"{cage_name(cage, n)} has {len(cells)} cells; a cage holds at most {n}"
            )
        if not combinations(len(cells), cage.total, n):
            low, high = sum_range(len(cells), n)
            raise InvalidCages(
                f"{cage_name(cage, n)}: {len(cells)} different digits cannot add up to "
                f"{cage.total} (from {low} to {high})"
            )
        apart = sorted(set(cells) - _reachable(cells, n))
        if apart:
            raise InvalidCages(
                f"{cage_name(cage, n)} is not connected: {_cell(apart[0], n)} cannot be "
                f"reached from {_cell(cells[0], n)}"
            )
    owner: list[Cage | None] = [None] * (n * n)  # every cell is in range by now
    for cage in cages:
        for cell in cage.cells:
            if (other := owner[cell]) is not None:
                raise InvalidCages(
                    f"{cage_name(cage, n)} overlaps {cage_name(other, n)} at {_cell(cell, n)}"
                )
            owner[cell] = cage
    missing = [c for c, cage in enumerate(owner) if cage is None]
    if missing:
        raise InvalidCages(
            f"{_cell(missing[0], n)} is in no cage"
            + (f" ({len(missing)} cells are not covered)" if len(missing) > 1 else "")
        )
    return tuple(sorted(cages, key=lambda cage: cage.cells[0]))


def _cell(cell: int, n: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


@lru_cache(maxsize=4096)
def _reachable(cells: tuple[int, ...], n: int) -> frozenset[int]:
    """The cells of ``cells`` reachable from its first through orthogonal neighbours. Cached:
    the layouts a Killer dig tries differ by a cage or two, so most of their cages were met."""
    inside = set(cells)
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        r, c = divmod(todo.pop(), n)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            other = rr * n + cc
            if 0 <= rr < n and 0 <= cc < n and other in inside and other not in seen:
                seen.add(other)
                todo.append(other)
    return frozenset(seen)
