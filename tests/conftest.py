"""Shared fixtures: where the public data sets live, and how to skip when they are absent."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
TEST_DATA = Path(__file__).resolve().parent / "data"


def read_puzzles(path: Path) -> list[str]:
    """First field of every non-comment line of a shared data file."""
    with path.open() as handle:
        return [line.split()[0] for line in handle if line.strip() and not line.startswith("#")]


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """../shared/data beside the project root; tests that need it skip when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"public data sets not present at {SHARED_DATA} (CI always has them)")
    return SHARED_DATA
