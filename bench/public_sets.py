"""Where the public puzzle sets live (../shared/data beside the project) and how to read them."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def read(path: Path) -> list[str]:
    """The first field of every line that is neither blank nor a ``#`` comment."""
    with path.open() as handle:
        return [line.split()[0] for line in handle if line.strip() and not line.startswith("#")]
