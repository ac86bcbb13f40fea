"""Catalog transactions at scale: how long a run's catalog steps take with N ids already printed.

Run: ``.venv/bin/python bench/catalog_bench.py [--ids 10000000] [--books 10]``. Commits ``--books``
books of random 9x9 entries (ids and 81-character canonical forms) into a temporary output, then
times what a run does: ``known_ids`` (every id into a Python set), ``reserve`` of a 1,000-id
book, ``commit`` of it; then ``catalog check`` (``PRAGMA integrity_check``) and ``export``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from pipeline.catalog import Catalog

BOOK = 1_000  # ids in the book whose reservation is timed


def entries(count: int, rng: np.random.Generator) -> list[dict]:
    ids = rng.integers(0, 2**63, size=count)
    digits = rng.integers(0, 10, size=(count, 81), dtype=np.uint8) + ord("0")
    forms = digits.view(f"S{81}").ravel()
    return [
        {"id": f"{i:016x}", "box_rows": 3, "box_cols": 3, "canonical": f.decode(), "tier": "easy"}
        for i, f in zip(ids.tolist(), forms.tolist(), strict=True)
    ]


def timed(label: str, call) -> object:
    start = time.perf_counter()
    result = call()
    print(f"{label:<28} {time.perf_counter() - start:8.2f} s", flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", type=int, default=10_000_000)
    parser.add_argument("--books", type=int, default=10)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    with tempfile.TemporaryDirectory() as folder:
        catalog = Catalog(Path(folder))
        per_book = args.ids // args.books
        start = time.perf_counter()
        for number in range(args.books):
            catalog.commit(f"book-{number}", "bench", entries(per_book, rng))
        size = catalog.database.stat().st_size / 2**20
        print(f"built {args.ids:,} ids in {time.perf_counter() - start:.1f} s ({size:,.0f} MiB)")
        known = timed("known_ids", catalog.known_ids)
        print(f"{'':<28} {len(known):,} ids")
        del known
        book = entries(BOOK, rng)
        taken = timed(
            f"reserve {BOOK:,} ids", lambda: catalog.reserve("new", [e["id"] for e in book])
        )
        assert not taken
        timed(f"commit {BOOK:,} ids", lambda: catalog.commit("new", "bench", book))
        timed("check", catalog.check)
        timed("export", lambda: catalog.export(Path(folder) / "printed.parquet"))


if __name__ == "__main__":
    main()
