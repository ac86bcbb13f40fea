"""Small Parquet files that decompress into gigabytes: ``pipeline grade`` reads only what fits in
bounded memory (decided from the file's footer), reports the rest as error rows, and stays well
under 500 MB of peak memory in a real process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.formats import read_puzzles

# one worker builds this module's shared fixtures once (make test: pytest -n auto --dist
# loadgroup), and starts on them first (slow)
pytestmark = [pytest.mark.xdist_group("test_parquet_bombs"), pytest.mark.slow]

SCRIPT = Path(sys.executable).with_name("pipeline")
BOMB_CHARS = 400 << 20  # one value: 400 MB once decompressed, a few KB on disk
PEAK_LIMIT_KB = 500 << 10
PUZZLE = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
#: Runs ``pipeline`` and prints the peak resident memory of it alone (its only child), in KB.
PEAK_OF_CHILD = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:], capture_output=True).returncode\n"
    "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bombs")
    huge = pa.array(["7" * BOMB_CHARS], pa.large_string())
    tables = {
        "huge_value": pa.table({"puzzle": huge}),
        "huge_extra_columns": pa.table(
            {"puzzle": [PUZZLE], "notes": huge, "more": huge.cast(pa.large_binary())}
        ),
    }
    paths = {}
    for name, table in tables.items():
        paths[name] = folder / f"{name}.parquet"
        # no dictionary nor min/max statistics: computing them over 400 MB took seconds
        pq.write_table(
            table, paths[name], compression="zstd", use_dictionary=False, write_statistics=False
        )
        assert paths[name].stat().st_size < 100_000
    return paths


def test_a_huge_value_is_an_error_row_left_unread(bombs: dict[str, Path]) -> None:
    (row,) = [row for chunk in read_puzzles([bombs["huge_value"]]) for row in chunk]
    assert not row.ok and row.line == 1
    assert row.reason.startswith("column 'puzzle' holds 4194") and "not read" in row.reason


def test_huge_extra_columns_are_left_out(bombs: dict[str, Path]) -> None:
    (row,) = [row for chunk in read_puzzles([bombs["huge_extra_columns"]]) for row in chunk]
    assert row.ok and row.puzzle == PUZZLE and row.extra == {}


@pytest.mark.skipif(not SCRIPT.exists(), reason="the installed pipeline script is needed")
@pytest.mark.parametrize(("name", "exit_code"), [("huge_value", 1), ("huge_extra_columns", 0)])
def test_grade_stays_under_500_mb_on_a_bomb(
    bombs: dict[str, Path], tmp_path: Path, name: str, exit_code: int
) -> None:
    command = [sys.executable, "-c", PEAK_OF_CHILD, str(SCRIPT), "grade", str(bombs[name])]
    command += ["-o", str(tmp_path / "graded.parquet"), "-q", "-j", "1"]
    code, peak = map(int, subprocess.run(command, capture_output=True, text=True).stdout.split())
    assert code == exit_code
    assert peak < PEAK_LIMIT_KB, f"peak {peak} KB"
    assert pq.read_table(tmp_path / "graded.parquet").num_rows == 1
