"""The benchmark's reading of qqwing's output (on captured text, no qqwing needed) and, where
qqwing is installed, our check of its levels against its own generator."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


qqwing_cli = _load("qqwing_cli")

# captured from qqwing 1.3.4: --generate 2 --csv, then --solve --stats --csv --nosolution
GENERATED = """Puzzle,
2...9..34.......1....48....49..7.18.3.7...9.....6.....9..1..8.2..1...47.7.3......,
.862..........4291.......6.....3.9...67.....4...1.......49..3.6..8.2....3...4.12.,
"""
STATS = """Givens,Singles,Hidden Singles,Naked Pairs,Hidden Pairs,Pointing Pairs/Triples,\
Box/Line Intersections,Guesses,Backtracks,Difficulty
17,44,20,0,0,0,0,0,0,Easy,
17,40,24,4,0,1,0,0,0,Intermediate,
"""


def test_generated_puzzles_and_stats_are_read() -> None:
    puzzles = [row["Puzzle"] for row in qqwing_cli.parse_csv(GENERATED)]
    assert [len(p) for p in puzzles] == [81, 81]
    assert puzzles[0].startswith("2...9..34")
    rows = qqwing_cli.parse_csv(STATS)
    assert [row["Difficulty"] for row in rows] == ["Easy", "Intermediate"]
    assert rows[1]["Naked Pairs"] == "4"


def test_a_short_row_is_named_by_its_line() -> None:
    with pytest.raises(qqwing_cli.QqwingOutputError, match="line 3: 2 fields"):
        qqwing_cli.parse_csv("A,B,C\n1,2,3,\n1,2,\n")


field_text = st.text(
    st.characters(blacklist_characters=",\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
)
column = st.from_regex(r"[A-Za-z][A-Za-z /]*", fullmatch=True)


@given(
    st.lists(column, min_size=1, max_size=5, unique=True).flatmap(
        lambda header: st.tuples(
            st.just(header),
            st.lists(st.lists(field_text, min_size=len(header), max_size=len(header))),
            st.booleans(),
        )
    )
)
def test_rows_come_back_as_written(case) -> None:
    header, rows, header_comma = case
    text = ",".join(header) + ("," if header_comma else "") + "\n"
    text += "".join(",".join(row) + ",\n" for row in rows)
    parsed = qqwing_cli.parse_csv(text)
    assert parsed == [dict(zip(header, row, strict=True)) for row in rows]


@pytest.mark.skipif(shutil.which("qqwing") is None, reason="qqwing not installed")
def test_our_check_agrees_with_qqwing_on_its_own_puzzles() -> None:
    levels = _load("qqwing_levels")
    for level in qqwing_cli.LEVELS:
        puzzles, seconds = qqwing_cli.generate(level, 4)
        assert seconds >= 0
        assert qqwing_cli.levels(puzzles) == [level] * 4
        assert [levels.level_of(p) for p in puzzles] == [level] * 4
