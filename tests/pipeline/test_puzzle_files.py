"""Reading puzzle files for `stats`, `verify` and `render` (lazy polars scans): the figures equal a
plain Python reference, verify numbers rows across its batches and names grade output's rows by
their store ids, and wrong files are one `Error:` line naming the file and the column."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from pipeline.app import BAD_ARGUMENTS, SOME_ROWS_BAD
from pipeline.commands import stats as stats_command
from pipeline.puzzle_files import OK as OK_READ
from pipeline.puzzle_files import read_puzzle_rows
from pipeline.report import NO_TIER, Group, cut_points, format_summary, summarize
from pipeline.source_sections import RankedPuzzles
from pipeline.store import PUZZLE_SCHEMA, puzzle_id, read_rows, write_table
from pipeline.tasks import OK
from tests.conftest import TEST_DATA
from tests.helpers import (
    invoke,
)

COLLECTION = TEST_DATA / "golden_counts.txt"  # unique puzzles of every tier, and some not ok


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """`pipeline grade` output of the collection and `pipeline dig` output of 6x6 grids."""
    folder = tmp_path_factory.mktemp("tables")
    graded, grids, dug = (folder / name for name in ("graded.parquet", "g.parquet", "d.parquet"))
    assert invoke("grade", COLLECTION, "-o", graded, "-j", 1, "-q")[0] == SOME_ROWS_BAD
    assert invoke("generate", "-o", grids, "-n", 5, "--size", 6, "--seed", 2, "-j", 1, "-q")[0] == 0
    assert invoke("dig", grids, "-o", dug, "--seed", 2, "-j", 1, "-q")[0] == 0
    return {"graded": graded, "dug": dug, "folder": folder}


def reference_groups(rows: list[Mapping[str, Any]]) -> list[Group]:
    """The figures of each (size, tier) group, computed plainly in Python."""
    groups: dict[tuple[int, str], list[Mapping[str, Any]]] = {}
    for row in rows:
        groups.setdefault((int(row["size"]), str(row.get("tier") or NO_TIER)), []).append(row)
    result = []
    for (size, tier), members in sorted(groups.items(), key=lambda item: item[0][0]):
        scores = sorted(r["score"] for r in members if r.get("score") is not None)
        clues = [r["clues"] for r in members if r.get("clues") is not None]
        iterations = Counter(r["iterations"] for r in members if r.get("iterations") is not None)
        hardest = Counter(r["hardest"] for r in members if r.get("hardest") is not None)
        result.append(
            Group(
                size=size,
                tier=tier,
                count=len(members),
                score_min=scores[0] if scores else None,
                score_quartiles=tuple(statistics.quantiles(scores)) if len(scores) > 1 else (),
                score_max=scores[-1] if scores else None,
                iterations=dict(sorted(iterations.items())),
                clues_mean=statistics.fmean(clues) if clues else None,
                hardest=dict(hardest.most_common()),
            )
        )
    return result


summary_rows = st.lists(
    st.fixed_dictionaries(
        {
            "size": st.sampled_from([4, 9, 16]),
            "tier": st.sampled_from(["easy", "hard", "", None]),
            "score": st.none() | st.floats(0, 10, allow_nan=False).map(lambda x: round(x, 3)),
            "clues": st.none() | st.integers(0, 81),
            "iterations": st.none() | st.integers(1, 6),
            "hardest": st.none() | st.sampled_from(["naked_single", "x_wing", "trial_and_error"]),
        }
    ),
    max_size=40,
)


@given(summary_rows)
@settings(max_examples=200, deadline=None)
def test_summary_equals_the_python_reference(rows: list[dict[str, Any]]) -> None:
    summary = summarize(rows)
    assert summary.total == len(rows)
    assert list(summary.groups) == reference_groups(rows)


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=60))
def test_cut_points_are_those_of_statistics_quantiles(values: list[float]) -> None:
    values.sort()
    cuts = tuple(
        (values[j - 1] * (4 - delta) + values[j] * delta) / 4
        for j, delta in cut_points(len(values))
    )
    assert cuts == tuple(statistics.quantiles(values))


def test_stats_of_grade_output_equals_the_reference(files: dict[str, Path]) -> None:
    rows = [
        {"size": r["size"], "tier": r["tier"], "score": r["score"], "clues": r["clues"]}
        | {"iterations": r["iterations"], "hardest": r["hardest"]}
        for r in read_rows(files["graded"])
        if r["status"] == OK
    ]
    code, out, err = invoke("stats", files["graded"])
    assert code == 0 and "skipped" in err
    assert out == format_summary(summarize(rows))
    assert summarize(rows).groups == tuple(reference_groups(rows))
    assert OK_READ == OK  # the reader's own copy of the status name


def test_verify_numbers_rows_across_batches_and_ids_grade_output(
    files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = pq.read_table(files["graded"])
    status = table.column("status").to_pylist()
    solutions = table.column("solution").to_pylist()
    ok_rows = [index for index, value in enumerate(status) if value == OK]
    wrong = ok_rows[-1]  # the last puzzle, in the last batch
    solutions[wrong] = solutions[wrong][1] + solutions[wrong][0] + solutions[wrong][2:]
    tampered = files["folder"] / "tampered.parquet"
    pq.write_table(
        table.set_column(table.schema.get_field_index("solution"), "solution", [solutions]),
        tampered,
    )
    monkeypatch.setattr(stats_command, "VERIFY_BATCH", 3)
    code, out, err = invoke("verify", tampered)
    assert code == SOME_ROWS_BAD
    puzzle = table.column("puzzle")[wrong].as_py()
    box = (table.column("box_rows")[wrong].as_py(), table.column("box_cols")[wrong].as_py())
    expected_id = puzzle_id(*box, engine.canonical(puzzle, box))
    position = len(ok_rows) - 1  # rows are numbered among the file's puzzles
    assert out == f"row {position} (id {expected_id}): stored solution is wrong\n"
    assert err.endswith(f"Error: 1 of {len(ok_rows)} puzzles failed verification\n")


def test_verify_names_bad_rows_of_each_shape_in_one_file(files: dict[str, Path]) -> None:
    rows = read_rows(files["dug"])
    four = {**rows[0], "size": 4, "box_rows": 2, "box_cols": 2, "givens": "1" + "." * 15}
    rows[3]["givens"] = "." * 35  # wrong length for 6x6
    mixed = files["folder"] / "mixed.parquet"
    write_table([*rows, four], mixed, PUZZLE_SCHEMA)
    code, out, _ = invoke("verify", mixed)
    assert code == SOME_ROWS_BAD
    lines = out.splitlines()
    assert lines[0].startswith(f"row 3 (id {rows[3]['id']}): ")
    assert lines[1] == f"row 5 (id {four['id']}): more than one solution"
    assert len(lines) == 2


@pytest.mark.parametrize("command", ["stats", "verify", "render"])
@pytest.mark.parametrize("source", ["dug", "graded"])
def test_a_text_score_is_one_error_naming_file_and_column(
    files: dict[str, Path], command: str, source: str
) -> None:
    table = pq.read_table(files[source])
    position = table.schema.get_field_index("score")
    texts = pa.array([None if s is None else str(s) for s in table.column("score").to_pylist()])
    bad = files["folder"] / f"text-score-{source}.parquet"
    pq.write_table(table.set_column(position, "score", texts), bad)
    args = (
        (command, bad, "-o", files["folder"] / "x.pdf") if command == "render" else (command, bad)
    )
    code, out, err = invoke(*args)
    assert (code, out) == (BAD_ARGUMENTS, "")
    assert err == f"Error: {bad}: column score holds String, not numbers\n"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.drop_columns(["tier"]), "no column tier; expected a run's puzzles"),
        (
            lambda t: t.rename_columns(["puzzle" if n == "givens" else n for n in t.column_names]),
            "no column givens (a puzzle column is there, as in grade output, but no status column)",
        ),
        (
            lambda t: t.set_column(1, "size", pa.array(["6"] * t.num_rows)),
            "column size holds String, not whole numbers",
        ),
    ],
)
@pytest.mark.parametrize("command", ["stats", "verify", "render"])
def test_a_wrong_column_is_one_error(
    files: dict[str, Path], change, message: str, command: str
) -> None:
    bad = files["folder"] / "wrong.parquet"
    pq.write_table(change(pq.read_table(files["dug"])), bad)
    args = (
        (command, bad, "-o", files["folder"] / "x.pdf") if command == "render" else (command, bad)
    )
    code, _, err = invoke(*args)
    assert code == BAD_ARGUMENTS
    assert err.startswith(f"Error: {bad}: {message}") and err.count("\n") == 1


def test_grade_output_without_a_column_names_it(files: dict[str, Path]) -> None:
    bad = files["folder"] / "graded-no-clues.parquet"
    pq.write_table(pq.read_table(files["graded"]).drop_columns(["clues"]), bad)
    code, _, err = invoke("stats", bad)
    assert code == BAD_ARGUMENTS and err.startswith(f"Error: {bad}: grade output without clues")


def test_puzzles_without_a_size_are_one_error(files: dict[str, Path]) -> None:
    table = pq.read_table(files["dug"])
    sizes = [None, *table.column("size").to_pylist()[1:]]
    bad = files["folder"] / "no-size.parquet"
    pq.write_table(table.set_column(1, "size", pa.array(sizes, pa.int32())), bad)
    code, _, err = invoke("stats", bad)
    assert (code, err) == (BAD_ARGUMENTS, f"Error: {bad}: 1 puzzles have no size\n")


def test_render_takes_the_first_puzzles_of_the_tiers_asked(files: dict[str, Path]) -> None:
    rows = [r for r in read_rows(files["graded"]) if r["status"] == OK]
    wanted = [r["puzzle"] for r in rows if r["tier"] in ("medium", "hard")][:5]
    book = files["folder"] / "some.pdf"
    code, out, _ = invoke(
        "render", files["graded"], "-o", book, "--tier", "medium", "--tier", "hard", "-n", 5
    )
    assert code == 0 and out.endswith(f"5 puzzles written to {book}\n")
    taken = read_puzzle_rows(files["graded"], ("medium", "hard"), 5)
    assert [r["givens"] for r in taken.rows] == wanted
    assert taken.skipped == sum(r["status"] != OK for r in read_rows(files["graded"]))


def test_ranked_puzzles_become_rows_a_slice_at_a_time() -> None:
    ranked = RankedPuzzles(pl.DataFrame({"puzzle": ["a", "b", "c"], "line": [3, 1, 2]}))
    assert len(ranked) == 3
    assert ranked[0:2] == [{"puzzle": "a", "line": 3}, {"puzzle": "b", "line": 1}]
    assert ranked[-1] == {"puzzle": "c", "line": 2} and ranked[5:] == []
    assert [row["line"] for row in ranked] == [3, 1, 2]
    with pytest.raises(IndexError):
        ranked[3]


def test_a_grid_file_with_a_wrong_column_is_one_error(files: dict[str, Path]) -> None:
    grids = pq.read_table(files["folder"] / "g.parquet")
    no_box = files["folder"] / "grids-no-box.parquet"
    pq.write_table(grids.drop_columns(["box_cols"]), no_box)
    text_box = files["folder"] / "grids-text-box.parquet"
    position = grids.schema.get_field_index("box_rows")
    pq.write_table(
        grids.set_column(position, "box_rows", pa.array(["2"] * grids.num_rows)), text_box
    )
    out = files["folder"] / "never.parquet"
    code, _, err = invoke("dig", no_box, "-o", out, "-j", 1, "-q")
    assert (code, err) == (
        BAD_ARGUMENTS,
        f"Error: {no_box}: no column box_cols; is it a file of grids (`pipeline generate`)?\n",
    )
    code, _, err = invoke("dig", text_box, "-o", out, "-j", 1, "-q")
    assert code == BAD_ARGUMENTS
    assert (
        err
        == f"Error: {text_box}: row 1: box_rows, box_cols are '2', 3; expected positive integers\n"
    )
    assert not out.exists()
