"""``pipeline grade`` through the real app: statuses with reasons and line numbers, every row once,
output files read back with polars, exit codes 0 / 1 / 2, one-line errors, 1 vs 2 workers, stdin
in a real subprocess."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import polars as pl
import pytest

import pipeline.commands.grade  # noqa: F401  (registers the command)
from pipeline.grade import SHOWN_PROBLEMS, TOP_PUZZLES
from pipeline.tasks import INVALID, MULTIPLE, NO_SOLUTION, OK, STATUSES
from tests.helpers import (
    CLASH,
    MULTI,
    NO_SOL,
    SHORT,
    SOLUTION,
    UNIQUE,
    Outcome,
    invoke,
    one_blank_per_row,
    one_error_line,
    run_pipeline,
    solution_grid,
)


def grade(*args: object, stdin: str | None = None) -> Outcome:
    return invoke("grade", *args, stdin=stdin)


def test_every_status_with_its_line_and_reason(tmp_path: Path) -> None:
    source = tmp_path / "mixed.txt"
    lines = ["# a comment", f"{UNIQUE} 1.2 easy", MULTI, "", NO_SOL, CLASH, SHORT, UNIQUE]
    source.write_text("\n".join(lines) + "\n")
    out = tmp_path / "graded.parquet"
    code, stdout, stderr = grade(source, "-o", out, "-j", 1, "-q")
    assert code == 1
    assert one_error_line(stderr) == "Error: 4 of 6 rows are not ok"
    table = pl.read_parquet(out)
    assert table["line"].to_list() == [2, 3, 5, 6, 7, 8]
    assert table["status"].to_list() == [OK, MULTIPLE, NO_SOLUTION, INVALID, INVALID, OK]
    assert table["source"].unique().to_list() == [str(source)]
    bad = table.filter(pl.col("status") != OK)
    assert bad["reason"].null_count() == 0 and bad["score"].null_count() == len(bad)
    assert table.filter(pl.col("line") == 7)["raw"].to_list() == [SHORT]
    good = table.filter(pl.col("status") == OK)
    assert good["solution"].to_list() == [SOLUTION, SOLUTION]
    assert good["clues"].to_list() == [72, 72] and good["size"].to_list() == [9, 9]
    assert good["reason"].null_count() == 2 and good["tier"].null_count() == 0
    techniques = good["techniques"].to_list()[0]
    assert sum(techniques.values()) == 9  # one step per blank cell
    for line in (3, 5, 6, 7):
        assert f"{source}:{line}: " in stdout
    assert "ok                          2" in stdout


def test_all_ok_exits_zero_and_writes_csv_and_json_lines(tmp_path: Path) -> None:
    puzzles = [one_blank_per_row(solution_grid(3, 3, shift), 9, shift) for shift in range(5)]
    source = tmp_path / "good.txt"
    source.write_text("\n".join(puzzles) + "\n")
    for name in ("graded.csv", "graded.jsonl"):
        code, stdout, stderr = grade(source, "-o", tmp_path / name, "-j", 1, "-q")
        assert (code, stderr) == (0, "")
        assert stdout.startswith("5 rows\n")
    csv = pl.read_csv(tmp_path / "graded.csv", schema_overrides={"solution": pl.String})
    lines = pl.read_ndjson(tmp_path / "graded.jsonl")
    assert csv["puzzle"].to_list() == lines["puzzle"].to_list() == puzzles
    assert csv["solution"].to_list() == [solution_grid(3, 3, s) for s in range(5)]
    assert [json.loads(t) for t in csv["techniques"]] == lines["techniques"].to_list()


def test_sizes_mixed_in_one_chunk_and_forced_box(tmp_path: Path) -> None:
    shapes = [(2, 2), (2, 3), (3, 3), (4, 4), (3, 2)]
    puzzles = [one_blank_per_row(solution_grid(r, c), r * c) for r, c in shapes]
    source = tmp_path / "sizes.txt"
    source.write_text("\n".join(puzzles[:4]) + "\n")
    out = tmp_path / "sizes.parquet"
    assert grade(source, "-o", out, "-j", 1, "-q")[0] == 0
    table = pl.read_parquet(out)
    assert table["size"].to_list() == [4, 6, 9, 16]
    assert table["solution"].to_list() == [solution_grid(r, c) for r, c in shapes[:4]]
    forced = tmp_path / "forced.txt"
    forced.write_text(puzzles[4] + "\n")  # 3x2 boxes: the default 2x3 reading would clash
    assert grade(forced, "-o", out, "-j", 1, "-q")[0] == 1
    assert grade(forced, "-o", out, "--box", "3x2", "-j", 1, "-q")[0] == 0
    assert pl.read_parquet(out)["solution"].to_list() == [solution_grid(3, 2)]


def test_two_workers_keep_every_row_on_its_line(tmp_path: Path, monkeypatch) -> None:
    """Chunks graded by two workers come back in the file's order: each row keeps its line,
    its status and its own solution. (That any number of workers gives the same rows is
    tested once, where results are put in order: tests/pipeline/test_parallel.py.)"""
    monkeypatch.setattr("pipeline.parallel.WORKER_START", 0.0)  # workers after the first chunk
    solutions = [solution_grid(3, 3, s % 9) for s in range(30)]
    rows = [one_blank_per_row(solution, 9, s) for s, solution in enumerate(solutions)]
    rows[7], rows[19], rows[23] = MULTI, CLASH, NO_SOL
    source = tmp_path / "many.txt"
    source.write_text("\n".join(rows) + "\n")
    out = tmp_path / "graded.parquet"
    code, stdout, _ = grade(source, "-o", out, "-j", 2, "--chunk-size", 4, "-q")
    assert code == 1
    table = pl.read_parquet(out)
    assert table["line"].to_list() == list(range(1, 31))
    bad = {7: MULTIPLE, 19: INVALID, 23: NO_SOLUTION}
    assert table["status"].to_list() == [bad.get(i, OK) for i in range(30)]
    ok = table.filter(pl.col("status") == OK)
    assert ok["puzzle"].to_list() == [row for i, row in enumerate(rows) if i not in bad]
    assert ok["solution"].to_list() == [s for i, s in enumerate(solutions) if i not in bad]
    summary = [line for line in stdout.splitlines() if "slowest" not in line]
    assert len(summary) > 10


def test_strict_stops_at_the_first_bad_row_and_writes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "mixed.txt"
    source.write_text("\n".join([UNIQUE, UNIQUE, CLASH, MULTI] + [UNIQUE] * 16) + "\n")
    out = tmp_path / "graded.parquet"
    code, _, stderr = grade(source, "-o", out, "--strict", "-j", 1, "-q")
    assert code == 1
    assert one_error_line(stderr).startswith(f"Error: {source} line 3: invalid: ")
    assert not out.exists() and list(tmp_path.iterdir()) == [source]
    # with workers, in a real process: the tasks still running are cancelled without a warning
    done = run_pipeline("grade", source, "-o", out, "--strict", "-j", 2, "--chunk-size", 1)
    assert done.returncode == 1
    assert one_error_line(done.stderr.decode()).startswith(f"Error: {source} line 3: ")
    assert not out.exists()


def test_csv_with_header_gzip_and_column(tmp_path: Path) -> None:
    source = tmp_path / "kaggle.csv.gz"
    body = f"quizzes,solutions\n{UNIQUE},{SOLUTION}\n{MULTI},\n"
    source.write_bytes(gzip.compress(body.encode()))
    out = tmp_path / "graded.parquet"
    assert grade(source, "-o", out, "--column", "quizzes", "-j", 1, "-q")[0] == 1
    table = pl.read_parquet(out)
    assert table["status"].to_list() == [OK, MULTIPLE] and table["line"].to_list() == [2, 3]


def test_recipe_tiers_name_the_bands(tmp_path: Path) -> None:
    recipe = tmp_path / "book.toml"
    recipe.write_text(
        'title = "t"\nseed = 1\n[tiers.anything]\nscore = [0.0, 20.0]\n'
        '[[sections]]\ntitle = "s"\ntier = "anything"\ncount = 1\n'
    )
    source = tmp_path / "one.txt"
    source.write_text(UNIQUE + "\n")
    out = tmp_path / "graded.parquet"
    code, stdout, _ = grade(source, "-o", out, "--recipe", recipe, "-j", 1, "-q")
    assert code == 0
    default = grade(source, "-o", tmp_path / "default.parquet", "-j", 1, "-q")[1]
    assert "anything" not in default  # the engine's own bands by default ...
    # ... the recipe's with --recipe, its own first as in a run (else "easy" would claim it)
    assert pl.read_parquet(out)["tier"].to_list() == ["anything"]
    assert "  anything " in stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.txt"], "missing.txt: no such file"),
        (["{src}", "--format", "xml"], "xml"),
        (["{src}", "--box", "3x"], "--box 3x"),
        (["{src}", "--column", "quizzes"], "--column"),
        (["{src}", "-o", "{tmp}/out.xlsx"], "unknown output suffix"),
        (["{src}", "-o", "{tmp}/no/such/folder/out.parquet"], "does not exist"),
        (["{src}", "-j", "0"], "--jobs"),
        (["{src}", "--recipe", "{src}"], "TOML"),
    ],
)
def test_unusable_arguments_exit_2_with_one_line(
    tmp_path: Path, args: list[str], message: str
) -> None:
    source = tmp_path / "p.txt"
    source.write_text("12" + UNIQUE[2:] + "\n")
    filled = [a.format(src=source, tmp=tmp_path) for a in args]
    code, stdout, stderr = grade(*filled, "-q")
    assert code == 2 and stdout == ""
    assert message in one_error_line(stderr)


def test_usage_errors_are_typers_exit_2() -> None:
    assert grade()[0] == 2
    assert grade("x.txt", "--chunk-size", 0)[0] == 2


def test_stdin_in_a_real_subprocess(tmp_path: Path) -> None:
    out = tmp_path / "graded.jsonl"
    stdin = f"{UNIQUE}\n{CLASH}\n\xff{UNIQUE[1:]}\n".encode("latin-1")
    done = run_pipeline("grade", "-", "-o", out, "-j", 1, stdin=stdin)
    assert done.returncode == 1, done.stderr
    assert done.stderr.decode().strip().splitlines()[-1] == "Error: 2 of 3 rows are not ok"
    table = pl.read_ndjson(out)
    assert table["source"].unique().to_list() == ["<stdin>"]
    assert table["status"].to_list() == [OK, INVALID, INVALID]
    assert "undecodable byte 0xFF" in table["reason"][2]
    assert set(table["status"]) <= set(STATUSES)


def test_summary_agrees_with_the_output(tmp_path: Path) -> None:
    good = [one_blank_per_row(solution_grid(3, 3, s % 9), 9, s) for s in range(12)]
    source = tmp_path / "summary.txt"
    source.write_text("\n".join(good + [CLASH] * (SHOWN_PROBLEMS + 3)) + "\n")
    out = tmp_path / "graded.parquet"
    code, stdout, _ = grade(source, "-o", out, "-j", 1, "-q")
    table = pl.read_parquet(out)
    assert code == 1 and stdout.startswith(f"{len(table)} rows\n")
    for tier, count in table["tier"].drop_nulls().value_counts().rows():
        assert f"  {tier:<20}{count:>9}\n" in stdout
    hardest = stdout.split("hardest (score)\n")[1].split("slowest")[0].splitlines()
    top = sorted(table["score"].drop_nulls(), reverse=True)[:TOP_PUZZLES]
    assert [float(line.split()[0]) for line in hardest] == [round(s, 2) for s in top]
    assert stdout.count(": invalid: ") == SHOWN_PROBLEMS and "... and 3 more" in stdout


def test_several_sources_in_order_each_row_once(tmp_path: Path) -> None:
    first, second = tmp_path / "a.sdk", tmp_path / "b.txt"
    first.write_text("\n".join(UNIQUE[r * 9 : r * 9 + 9] for r in range(9)) + "\n")
    second.write_text(f"{MULTI}\n{UNIQUE}\n")
    out = tmp_path / "graded.parquet"
    assert grade(first, second, "-o", out, "-j", 1, "--chunk-size", 1, "-q")[0] == 1
    table = pl.read_parquet(out)
    assert table.select("source", "line", "status").rows() == [
        (str(first), 1, OK),
        (str(second), 1, MULTIPLE),
        (str(second), 2, OK),
    ]
