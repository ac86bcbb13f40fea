"""What re-verifying a worker's rows costs, beside digging them: CPU seconds per chunk.

Run: .venv/bin/python bench/recheck_bench.py [--count 50]
One process. For each shape and tier, digs ``count`` puzzles as a run's chunk does
(``pipeline.run.dig_chunk``) and then re-verifies them as the parent does for a chunk from a
worker (``pipeline.recheck.check_dug``: one grade and one canonical form per puzzle), and prints
both times and their ratio. The engine is warmed first, so compile time counts in neither.
"""

from __future__ import annotations

import argparse
import time

from pipeline.prepare import RUN, prepare_engine
from pipeline.recheck import check_dug
from pipeline.recipe import SectionSpec
from pipeline.tasks import Chunk, DigJob, dig_chunk, section_tiers

#: size, box rows, box cols, tier, minimal (16x16 easy/medium is dug non-minimal, as runs do)
CASES = (
    (9, 3, 3, "easy", True),
    (9, 3, 3, "medium", True),
    (9, 3, 3, "hard", True),
    (16, 4, 4, "medium", False),
)
SEED = 20261122


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50, help="puzzles per case")
    count = parser.parse_args().count
    prepare_engine(RUN)
    print(f"{'case':<14}{'dig s':>9}{'recheck s':>11}{'overhead':>10}")
    for size, rows, cols, tier, minimal in CASES:
        section = SectionSpec(tier, size, rows, cols, tier, count, minimal=minimal)
        job = DigJob(Chunk(0, 0, count), section, SEED, "bench", section_tiers(section))
        dig_chunk(DigJob(Chunk(0, 1, 1), section, SEED, "bench", job.tiers))  # warm the path
        start = time.process_time()
        dug = dig_chunk(job)
        mark = time.process_time()
        check_dug(job, dug)
        end = time.process_time()
        case = f"{size}x{size} {tier}"
        dig, check = mark - start, end - mark
        print(f"{case:<14}{dig:>9.2f}{check:>11.3f}{check / dig:>10.1%}")


if __name__ == "__main__":
    main()
