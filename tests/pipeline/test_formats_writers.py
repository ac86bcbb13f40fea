"""Result writers: Parquet, CSV and JSON lines read back by other tools; atomic on failure."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.formats import FormatError, read_puzzles, write_rows
from tests.conftest import TEST_DATA


def result_rows(count: int) -> list[dict]:
    """Rows shaped like graded output: text, ints, floats, nulls, a nested dict."""
    rows = []
    for i in range(count):
        ok = i % 3 != 0
        rows.append(
            {
                "source": f"file{i % 2}.txt",
                "line": i + 1,
                "puzzle": "." * 80 + str(i % 9 + 1),
                "status": "ok" if ok else "invalid",
                "reason": None if ok else f"bad character at index {i}",
                "score": np.float64(i / 7) if ok else None,
                "techniques": {"naked_single": i, "hidden_single": 2 * i} if ok else None,
            }
        )
    return rows


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_round_trip(tmp_path, suffix):
    rows = result_rows(25)
    path = tmp_path / f"out{suffix}"
    assert write_rows(rows, path, batch_rows=4) == len(rows)
    if suffix == ".csv":
        frame = pl.read_csv(path)
    elif suffix == ".jsonl":
        frame = pl.read_ndjson(path)
    else:
        frame = pl.read_parquet(path)
        assert pq.read_table(path).num_rows == len(rows)
        con = duckdb.connect()
        count, bad = con.execute(
            f"select count(*), count(reason) from read_parquet('{path}')"
        ).fetchone()
        assert (count, bad) == (len(rows), sum(r["reason"] is not None for r in rows))
    assert frame["line"].to_list() == [r["line"] for r in rows]
    assert frame["puzzle"].to_list() == [r["puzzle"] for r in rows]
    reasons = [r or None for r in frame["reason"].to_list()]  # CSV has no null: empty cells
    assert reasons == [r["reason"] for r in rows]
    if suffix != ".csv":
        techniques = frame["techniques"].to_list()
        assert techniques[1] == rows[1]["techniques"]


def test_input_rows_round_trip_through_parquet(tmp_path):
    rows = [
        asdict(row) | {"extra": json.dumps(row.extra)}
        for chunk in read_puzzles([TEST_DATA / "formats" / "mixed.txt"])
        for row in chunk
    ]
    path = tmp_path / "graded.parquet"
    write_rows(rows, path)
    table = pq.read_table(path).to_pylist()
    assert [(r["line"], r["puzzle"], r["reason"]) for r in table] == [
        (r["line"], r["puzzle"], r["reason"]) for r in rows
    ]
    assert table[0]["box"] == [3, 3]


def failing_rows(count: int, fail_at: int):
    for i, row in enumerate(result_rows(count)):
        if i == fail_at:
            raise RuntimeError("grader crashed")
        yield row


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_error_half_way_leaves_the_old_file_and_no_litter(tmp_path, suffix):
    path = tmp_path / f"out{suffix}"
    write_rows(result_rows(5), path)
    before = path.read_bytes()
    with pytest.raises(RuntimeError, match="grader crashed"):
        write_rows(failing_rows(30, fail_at=25), path, batch_rows=10)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_later_rows_must_fit_the_first_rows(tmp_path):
    path = tmp_path / "out.parquet"
    rows = result_rows(6)
    rows[5]["line"] = "six"
    with pytest.raises(FormatError, match=r"rows 5-6 do not fit"):
        write_rows(rows, path, batch_rows=4)
    rows = result_rows(6)
    rows[4]["surprise"] = 1
    with pytest.raises(FormatError, match=r"row 5 has fields \(surprise\)"):
        write_rows(rows, tmp_path / "out.csv")
    assert not path.exists()


def test_null_columns_in_the_first_batch_become_text(tmp_path):
    rows = [{"line": i, "reason": None if i < 10 else "clash"} for i in range(20)]
    path = tmp_path / "out.parquet"
    write_rows(rows, path, batch_rows=10)
    table = pq.read_table(path)
    assert table.schema.field("reason").type == pa.string()
    assert table.column("reason").to_pylist() == [r["reason"] for r in rows]


def test_explicit_schema_and_empty_output(tmp_path):
    schema = pa.schema([("line", pa.int32()), ("puzzle", pa.string())])
    path = tmp_path / "empty.parquet"
    assert write_rows([], path, schema=schema) == 0
    assert pq.read_table(path).schema == schema
    assert pl.read_parquet(path).height == 0
    write_rows([{"line": 1, "puzzle": "x"}], path, schema=schema)
    assert pq.read_table(path).schema.field("line").type == pa.int32()


@pytest.mark.parametrize(
    ("name", "message"),
    [("out.xlsx", r"unknown output suffix '\.xlsx'"), ("nowhere/out.csv", "does not exist")],
)
def test_unusable_output_paths(tmp_path, name, message):
    with pytest.raises(FormatError, match=message):
        write_rows(result_rows(1), Path(tmp_path / name))
