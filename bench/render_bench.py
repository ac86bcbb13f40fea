"""Render time of a book of about 500 pages (target: at most 30 s on the project machine).

Run: ``.venv/bin/python bench/render_bench.py [--trim letter] [--imposition saddle-stitch]``.
The book mixes every layout, a 16x16 section and a kids' 6x6 section, with shaded answers; its
puzzles are sample puzzles (random grids with cells blanked), built before the clock starts.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from pipeline.render.booklet import render_book
from pipeline.render.options import PrintOptions
from pipeline.render.sample import SampleSection, sample_book

TARGET_SECONDS = 30.0
SECTIONS = [
    SampleSection("easy", 9, 1, 100),
    SampleSection("medium", 9, 2, 160),
    SampleSection("hard", 9, 4, 320),
    SampleSection("expert", 9, 6, 300),
    SampleSection("giant", 16, 1, 40),
    SampleSection("kids", 6, 4, 40),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trim", default="letter")
    parser.add_argument("--imposition", default="none", choices=["none", "saddle-stitch"])
    args = parser.parse_args()
    binding = "saddle-stitch" if args.imposition == "saddle-stitch" else "perfect"
    options = PrintOptions(
        trim=args.trim, imposition=args.imposition, binding=binding, shade_answers=True
    )
    start = time.perf_counter()
    book = sample_book(SECTIONS, seed=1, title="Benchmark Book", about="Sample puzzles.")
    built = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.pdf"
        start = time.perf_counter()
        result = render_book(book, path, options)
        seconds = time.perf_counter() - start
        size = path.stat().st_size
    verdict = "ok" if seconds <= TARGET_SECONDS else "SLOWER THAN TARGET"
    print(f"book: {book.puzzle_count} puzzles built in {built:.1f} s")
    print(
        f"render: {result.pages} pages ({result.sheets} PDF pages, trim {args.trim}) in "
        f"{seconds:.1f} s = {result.pages / seconds:.0f} pages/s; {size / 1e6:.1f} MB; "
        f"target <= {TARGET_SECONDS:g} s: {verdict}"
    )


if __name__ == "__main__":
    main()
