"""Shared fixtures: where the public data sets live, and how to skip when they are absent."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest
from hypothesis import settings

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
TEST_DATA = Path(__file__).resolve().parent / "data"

# No per-example deadline anywhere: whichever property test first calls a kernel pays its load
# (or compile) from numba's cache, so a deadline failed or passed by test order, not by the code.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


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


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> Generator[None, None, None]:
    """Repeat pytest-randomly's seed after the failures' summary, where it is read (``-q`` hides
    the header that prints it), with the command that runs the same order again."""
    yield
    seed = config.getoption("randomly_seed", None)
    if isinstance(seed, int):
        terminalreporter.write_line(
            f"test order: pytest-randomly seed {seed}; "
            f"`pytest -p randomly --randomly-seed={seed}` repeats it"
        )
