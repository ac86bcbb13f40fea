"""What a run hands a print shop: the single-page PDF always, the imposed sheets beside it when
the recipe imposes, and a manifest that counts pages and sheets the same way for every binding."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline.recipe import parse_recipe
from pipeline.render.page import PAGES_PER_UNIT
from pipeline.run import run_book

PRINT = {
    "perfect": {"about": False},
    "saddle-stitch": {
        "about": False,
        "binding": "saddle-stitch",
        "imposition": "saddle-stitch",
        "hints": True,
    },
}


@pytest.mark.parametrize("binding", sorted(PRINT))
def test_manifest_names_pages_and_sheets_alike(binding: str, tmp_path: Path) -> None:
    recipe = parse_recipe(
        {
            "title": "Shop Test",
            "seed": 3,
            "output": str(tmp_path / "out"),
            "parallel": {"n_jobs": 1},
            "print": PRINT[binding],
            "sections": [{"size": 4, "tier": "easy", "count": 4, "minimal": False}],
        }
    )
    result = run_book(recipe)
    pdf = result.manifest["pdf"]
    assert set(pdf) == {"file", "imposed", "pages", "sheets"}
    single = result.folder / pdf["file"]
    assert len(PdfReader(single).pages) == pdf["pages"]
    assert pdf["sheets"] * PAGES_PER_UNIT[binding] == pdf["pages"]
    if binding == "perfect":
        assert pdf["imposed"] is None
    else:
        assert pdf["imposed"] == "shop-test-imposed.pdf"
        assert len(PdfReader(result.folder / pdf["imposed"]).pages) == 2 * pdf["sheets"]
