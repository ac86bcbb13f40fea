"""Files others can read: every output follows the umask; CSV ends lines with \\n; and `pipeline
grade` shows its progress against a total (rows or bytes)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.formats import InputSize, input_size
from tests.conftest import TEST_DATA
from tests.helpers import (
    invoke,
    small_recipe,
)

PIPELINE = Path(sys.executable).parent / "pipeline"
COLLECTION = TEST_DATA / "golden_counts.txt"  # 47 puzzles, some not ok


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def modes(folder: Path) -> dict[str, str]:
    """Permission bits of everything under ``folder``, by relative path."""
    return {
        str(path.relative_to(folder)): oct(stat.S_IMODE(path.stat().st_mode))
        for path in sorted(folder.rglob("*"))
    }


@pytest.mark.usefixtures("umask_022")
def test_every_output_follows_the_umask(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    recipe = small_recipe(tmp_path, nine=2)
    assert invoke("run", recipe, "-o", out / "runs", "-q", "-j", 1).code == 0
    assert (
        invoke("generate", "-o", out / "grids.parquet", "-n", 2, "--size", 4, "-j", 1, "-q").code
        == 0
    )
    assert invoke("dig", out / "grids.parquet", "-o", out / "dug.parquet", "-j", 1, "-q").code == 0
    for name in ("graded.parquet", "graded.csv", "graded.jsonl"):
        assert invoke("grade", COLLECTION, "-o", out / name, "-j", 1, "-q").code == 1
    assert invoke("render", out / "dug.parquet", "-o", out / "book.pdf").code == 0
    found = modes(out)
    assert {"book.pdf", "graded.csv", "dug.parquet", "runs/catalog.sqlite"} <= found.keys()
    assert any(name.endswith(".pdf") and name.startswith("runs/") for name in found)
    wrong = {
        name: mode
        for name, mode in found.items()
        if mode != ("0o755" if (out / name).is_dir() else "0o644")
    }
    assert wrong == {}


def test_csv_output_ends_lines_with_newline_only(tmp_path: Path) -> None:
    output = tmp_path / "graded.csv"
    assert invoke("grade", COLLECTION, "-o", output, "-j", 1, "-q").code == 1
    data = output.read_bytes()
    assert b"\r" not in data and data.count(b"\n") == 48  # header and 47 rows


def test_input_size_is_rows_for_parquet_and_bytes_for_text(tmp_path: Path) -> None:
    graded = tmp_path / "graded.parquet"
    assert invoke("grade", COLLECTION, "-o", graded, "-j", 1, "-q").code == 1
    size = COLLECTION.stat().st_size
    assert input_size([COLLECTION]) == InputSize(None, size)
    assert input_size([graded]) == InputSize(47, graded.stat().st_size)
    assert input_size([graded, graded]).rows == 94
    assert input_size([graded, COLLECTION]) == InputSize(None, size + graded.stat().st_size)
    assert input_size(["-"]) == InputSize(None, None)


@pytest.mark.parametrize("unit", ["bytes", "rows"])
def test_progress_shows_a_total(tmp_path: Path, unit: str) -> None:
    """The bar as a terminal shows it (rich is told the terminal is there)."""
    source = COLLECTION
    if unit == "rows":
        source = tmp_path / "graded.parquet"
        assert invoke("grade", COLLECTION, "-o", source, "-j", 1, "-q").code == 1
    done = subprocess.run(
        [PIPELINE, "grade", source, "-j", "1"],
        capture_output=True,
        text=True,
        env=os.environ | {"TTY_COMPATIBLE": "1", "COLUMNS": "100"},
    )
    assert done.returncode == 1, done.stderr
    total = COLLECTION.stat().st_size if unit == "bytes" else 47
    label = "bytes read" if unit == "bytes" else "rows graded"
    assert f"{total}/{total}" in done.stderr and label in done.stderr
    assert "/?" not in done.stderr
