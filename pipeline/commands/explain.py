"""``pipeline explain``: a puzzle's worked solution, step by step, grouped by pass."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal

import typer

from pipeline.app import app, fail

EXPLAIN_FORMATS = ("text", "json")
ExplainFormat = Literal[EXPLAIN_FORMATS]  # type: ignore[valid-type]
ExplainOrder = Literal["person", "grader"]  # pipeline.explain.ORDERS


@app.command("explain")
def explain_command(
    puzzle: Annotated[
        str | None,
        typer.Argument(
            help="Puzzle string (n*n symbols, . or 0 for a blank), or a variant puzzle as a "
            "line of a puzzle file: 'x: <puzzle>', 'jigsaw: <layout> <puzzle>', "
            "'killer: <cage map> <totals> [<givens>]' (docs/puzzle-files.md).",
        ),
    ] = None,
    puzzle_id: Annotated[
        str | None,
        typer.Option("--id", help="Id (or its printed first characters) of a puzzle in --from."),
    ] = None,
    source: Annotated[
        Path | None,
        typer.Option(
            "--from", exists=True, dir_okay=False, help="A run's puzzles.parquet, for --id."
        ),
    ] = None,
    box: Annotated[
        str | None, typer.Option(help="Box shape ROWSxCOLS, e.g. 3x4, instead of inferring it.")
    ] = None,
    order: Annotated[
        ExplainOrder,
        typer.Option(
            help="person: techniques in the order players learn them (HoDoKu's); grader: the "
            "path the score is built on (Sudoku Explainer's order)."
        ),
    ] = "person",
    fmt: Annotated[ExplainFormat, typer.Option("--format", help="text, or json for machines.")] = (
        "text"
    ),
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", dir_okay=False, help="Write here instead of stdout."),
    ] = None,
) -> None:
    """Print how PUZZLE is solved as a person would: each step's technique, the cells involved
    and what it places (r3c5=7) or removes (r1c2<>4), grouped by pass. The grade printed above
    the steps is the grader's (see --order)."""
    import engine
    from pipeline.explain import explain, find_row, format_text, to_json
    from pipeline.formats.reader import read_variant_argument
    from pipeline.formats.writers import atomic_path
    from pipeline.prepare import EXPLAIN, prepare_engine
    from pipeline.store import read_rows
    from pipeline.variants import row_geometry

    if (puzzle is None) == (puzzle_id is None) or (puzzle_id is None) != (source is None):
        fail("give either a PUZZLE or --id ID with --from FILE")
    # what the engine says of a puzzle the user gave: one line, exit code 2 (as a UserError)
    unexplainable = (
        engine.InvalidPuzzle,
        engine.NoSolution,
        engine.MultipleSolutions,
    )
    try:
        if puzzle_id is not None and source is not None:
            row = find_row(read_rows(source), puzzle_id)
            puzzle, box = str(row["givens"]), row_geometry(row)  # with the row's variant
        assert puzzle is not None
        try:
            tagged = read_variant_argument(puzzle, box if isinstance(box, str) else None)
        except ValueError as exc:  # the line's fault, as `pipeline grade` reports it
            fail(f"PUZZLE: {exc}")
        if tagged is not None:
            puzzle, box = tagged
        engine.parse(puzzle, box)  # bad text fails here, before any kernel compiles
        prepare_engine(EXPLAIN)
        explained = explain(puzzle, box, order)
    except unexplainable as exc:
        fail(str(exc))
    if fmt == "json":
        text = json.dumps(to_json(explained), indent=1) + "\n"
    else:
        text = format_text(explained)
    if output is None:
        typer.echo(text, nl=False)
        return
    with atomic_path(output) as temporary:
        temporary.write_text(text)
