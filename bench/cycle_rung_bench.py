"""SE's cycle rung, and the static graphs it stands on, per state where it runs.

Run: ``.venv/bin/python bench/cycle_rung_bench.py [--limit N] [--repeats R]``. For the first
``limit`` puzzles of ``magictour_top1465.txt`` and ``17_clue.txt`` the grader's ladder below the
cycle rung runs first; on the states it leaves stuck (where the pass loop calls the rung) one
core times, in CPU microseconds a state (the best of ``repeats`` rounds, each after an untimed
one): the rung (``find_se_cycles``), the three static graphs it may build (``static_reach``
with X-links, Y-links and both, on ``board_of``'s tables) and ``board_of`` alone. The rung
builds a graph per kind of link it searches and stops once a hint rated low enough is in hand,
so it costs at most its three graphs and its searches.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from figures import Table, number
from public_sets import DATA, read

from engine.geometry import geometry
from engine.logic.passes import CYCLE, RUNGS, workspace
from engine.logic.se_chains import board_of
from engine.logic.se_cycles import find_se_cycles
from engine.logic.se_graph import static_reach
from engine.logic.state import new_record
from engine.logic.tables import tables

SETS = ("magictour_top1465.txt", "17_clue.txt")
LINKS = ((False, True), (True, False), (True, True))  # (Y-links, X-links): X, Y, both
GEO = geometry(3, 3)
State = tuple[np.ndarray, np.ndarray]


def stuck_states(puzzles: list[str]) -> list[State]:
    """(candidates, placed) where the ladder below the cycle rung is stuck."""
    space = workspace(GEO)
    below = np.array(RUNGS[: RUNGS.index(CYCLE)], dtype=np.int64)
    states = []
    for puzzle in puzzles:
        values = np.array([int(c) if c != "." else 0 for c in puzzle], dtype=np.uint8)
        solved, _ = space.solve(values, rungs=below)
        if not solved:
            states.append((space.cand.copy(), space.placed.copy()))
    return states


def per_state(
    work: Callable[[np.ndarray, np.ndarray], None], states: list[State], repeats: int
) -> float:
    """CPU microseconds a state of ``work`` (the best round, after an untimed one)."""
    for cand, placed in states:
        work(cand, placed)
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for cand, placed in states:
            work(cand, placed)
        best = min(best, time.process_time() - start)
    return best / len(states) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=number, default=10_000, help="puzzles read of each set")
    parser.add_argument("--repeats", type=number, default=3, help="timed rounds (the best kept)")
    args = parser.parse_args()
    T = tables(GEO)
    rec = new_record(GEO, 1)

    def rung(cand: np.ndarray, placed: np.ndarray) -> None:
        rec.counts[:] = 0
        find_se_cycles(cand.copy(), placed, T, rec)

    def graphs(links: tuple[tuple[bool, bool], ...]) -> Callable[[np.ndarray, np.ndarray], None]:
        def build(cand: np.ndarray, placed: np.ndarray) -> None:
            grid = np.where(placed == 0, cand, 0).astype(np.uint64)
            board = board_of(grid, placed, T)
            for y_links, x_links in links:
                static_reach(grid, T, y_links, x_links, *board[1:4])

        return build

    table = Table(
        "SE's cycle rung on states where it runs, CPU microseconds a state (one core)",
        ["set", "states", "the rung", "three static graphs", "board_of alone"],
    )
    for name in SETS:
        states = stuck_states(read(DATA / name)[: args.limit])
        if not states:  # the ladder below the rung solved every puzzle read
            table.add([name, "0", "-", "-", "-"])
            continue
        figures = [per_state(work, states, args.repeats) for work in (rung, graphs(LINKS))]
        alone = per_state(graphs(()), states, args.repeats)
        table.add([name, f"{len(states):,}", *(f"{us:,.1f}" for us in figures), f"{alone:,.1f}"])
    table.emit(None)


if __name__ == "__main__":
    main()
