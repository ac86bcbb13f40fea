"""The SAT fallback: python-sat's solvers on the hard public grids, end to end through the engine.

Run: .venv/bin/python bench/sat_bench.py [--solvers cadical195,glucose4] [--budgets 700,1000]
     [--repeats 3] [--options '{"stabilizeonly": 1}']
Each figure is CPU time of this process (the solvers run in it), the DFS and its branch budget in
front as in production: `sudoku25x25.txt` counted to 2 (one puzzle; must be proven unique) and
the 194 puzzles of `sudoku16x16.tsv` counted to 2 in one `engine.count_many` call. Prints the
median (and min) of the repeats per solver and DFS budget, and how many 16x16 puzzles reach SAT.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Callable

import numpy as np
from public_sets import DATA, read

import engine
from engine import sat, solver
from engine.search import OUT_OF_BUDGET

SOLVERS = "cadical195,cadical153,glucose4,minisat22"


def cpu_seconds(work: Callable[[], object], repeats: int) -> list[float]:
    """CPU seconds of each of ``repeats`` runs of ``work``."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return times


def show(times: list[float]) -> str:
    return f"{statistics.median(times):8.2f} ({min(times):.2f})"


def reaching_sat(puzzles: list[str]) -> int:
    """How many of a batch run past the DFS budget and go to SAT."""
    grids = [engine.parse(p) for p in puzzles]
    geo = grids[0].geometry
    space = solver.workspace(geo)
    budgets = solver.dfs_budgets(geo, np.stack([g.values for g in grids]), 2)
    return sum(
        space.search(g.values, 2, g.values.copy(), max_nodes=int(budget)) == OUT_OF_BUDGET
        for g, budget in zip(grids, budgets, strict=True)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--solvers", default=SOLVERS, help="python-sat solver names, comma-separated"
    )
    parser.add_argument("--budgets", default=str(solver.DFS_BUDGET), help="DFS branch budgets")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--options", type=json.loads, default=sat.OPTIONS, help="CaDiCaL options as JSON"
    )
    args = parser.parse_args()
    sat.OPTIONS = args.options
    grid25 = read(DATA / "sudoku25x25.txt")[0]
    grids16 = read(DATA / "sudoku16x16.tsv")
    print(
        f"machine: {platform.processor() or platform.machine()}, python "
        f"{platform.python_version()}; CPU seconds, median (min) of {args.repeats}; "
        f"CaDiCaL options {json.dumps(sat.OPTIONS)}"
    )
    engine.count_many(grids16[:2], 2)  # warm-up: numba compile or cache load
    engine.count_solutions(grid25, limit=1)
    print(f"{'solver':12} {'DFS budget':>10} {'to SAT':>6} {'25x25':>15} {'16x16 (194)':>15}")
    for budget in (int(b) for b in args.budgets.split(",")):
        if budget < 1:
            parser.error("a DFS budget must be at least 1 (0 means no SAT fallback)")
        solver.DFS_BUDGET = budget
        to_sat = reaching_sat(grids16)
        for name in args.solvers.split(","):
            sat.SOLVER = name
            assert engine.count_solutions(grid25) == 1
            assert (engine.count_many(grids16, 2) == 1).all()
            big = cpu_seconds(lambda: engine.count_solutions(grid25), args.repeats)
            batch = cpu_seconds(lambda: engine.count_many(grids16, 2), args.repeats)
            print(
                f"{name:12} {budget:10,} {to_sat:6} {show(big):>15} {show(batch):>15}", flush=True
            )


if __name__ == "__main__":
    main()
