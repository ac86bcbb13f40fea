"""Slow, obviously correct reference: sets of candidates and plain backtracking.

No bit tricks, no propagation beyond "a cell's candidates are the values its peers lack".
"""

from __future__ import annotations


def units_of(n: int, box_rows: int, box_cols: int) -> list[list[int]]:
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [
        [(br + r) * n + bc + c for r in range(box_rows) for c in range(box_cols)]
        for br in range(0, n, box_rows)
        for bc in range(0, n, box_cols)
    ]
    return rows + cols + boxes


def peers_of(n: int, box_rows: int, box_cols: int) -> list[set[int]]:
    peers: list[set[int]] = [set() for _ in range(n * n)]
    for unit in units_of(n, box_rows, box_cols):
        for cell in unit:
            peers[cell].update(unit)
    for cell, cell_peers in enumerate(peers):
        cell_peers.discard(cell)
    return peers


def is_valid_solution(values: list[int], n: int, box_rows: int, box_cols: int) -> bool:
    """Every unit holds each value 1..n exactly once."""
    return all(
        sorted(values[c] for c in unit) == list(range(1, n + 1))
        for unit in units_of(n, box_rows, box_cols)
    )


def count(values: list[int], n: int, box_rows: int, box_cols: int, limit: int) -> int:
    """Number of completions of ``values`` (0 = blank), counted up to ``limit``."""
    peers = peers_of(n, box_rows, box_cols)
    grid = list(values)
    for cell, value in enumerate(grid):
        if value and any(grid[p] == value for p in peers[cell]):
            return 0

    def search() -> int:
        blanks = [c for c in range(n * n) if grid[c] == 0]
        if not blanks:
            return 1
        options = {c: set(range(1, n + 1)) - {grid[p] for p in peers[c]} for c in blanks}
        cell = min(blanks, key=lambda c: len(options[c]))
        found = 0
        for value in sorted(options[cell]):
            grid[cell] = value
            found += search()
            grid[cell] = 0
            if found >= limit:
                break
        return found

    return min(search(), limit)
