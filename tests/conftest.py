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


@pytest.fixture(scope="session", autouse=True)
def prepared_engine() -> None:
    """Start as ``make test`` does, with every kernel family compiled into numba's cache (a no-op
    once the machine is prepared). On an empty cache the first test to need the engine would
    otherwise pay minutes of compiling: whichever test the order put first then broke its time
    limits (a run killed at a stage, a file-size limit, subprocess timeouts). The cold path
    itself is tested with caches of its own (tests/pipeline/test_prepare.py)."""
    from numba import config

    if config.DISABLE_JIT:  # coverage runs: no kernels to compile
        return
    from pipeline.prepare import ALL_FAMILIES, prepare_engine

    prepare_engine(ALL_FAMILIES)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` first, each part in pytest-randomly's order (a stable sort after its
    shuffle): spread over the workers (``make test``: pytest-xdist), the long tests start at
    once while the short ones fill the gaps, so a long test drawn last does not leave one
    worker busy alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


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
