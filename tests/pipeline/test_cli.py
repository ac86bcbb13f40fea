"""The CLI contract through the real `pipeline` app: version and help (-h, flags, choices, fast),
and every command's usage errors as one `Error:` line with exit code 2."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.app import BAD_ARGUMENTS
from pipeline.cli import app
from tests.helpers import (
    one_error_line,
    runner,
)

PIPELINE = Path(sys.executable).parent / "pipeline"  # the installed entry point
COMMANDS = (
    "dig",
    "explain",
    "generate",
    "grade",
    "prepare",
    "render",
    "run",
    "stats",
    "verify",
)
#: Command groups and their commands (``pipeline catalog check``).
GROUPS = {"catalog": ("check", "export", "import", "rebuild")}
#: Arguments a group command takes before an extra one is refused.
GROUP_ARGUMENTS = {"export": ["x.parquet"], "import": ["."]}
GROUP_CALLS = [[group] for group in GROUPS] + [[g, c] for g, cs in GROUPS.items() for c in cs]
#: Modules `pipeline --help` must not wait for.
HEAVY = (
    "numba",
    "numpy",
    "pyarrow",
    "reportlab",
    "joblib",
    "rich",
    "engine",
    "pipeline.run",
    "pipeline.grade",
    "pipeline.render",
    "pipeline.store",
    "pipeline.formats",
    "pipeline.recipe",
    "pipeline.catalog",
)


def command_names() -> list[str]:
    return sorted(c.name or c.callback.__name__ for c in app.registered_commands)


def test_every_command_is_walked_below() -> None:
    assert command_names() == sorted(COMMANDS)


def test_every_group_is_walked_below() -> None:
    walked = {
        group.name: tuple(
            sorted(c.name or c.callback.__name__ for c in group.typer_instance.registered_commands)
        )
        for group in app.registered_groups
    }
    assert walked == GROUPS


@pytest.mark.parametrize("words", GROUP_CALLS, ids=" ".join)
def test_group_commands_have_help_and_refuse_bad_arguments(words: list[str], tmp_path) -> None:
    result = runner.invoke(app, [*words, "--help"])
    assert result.exit_code == 0 and re.match(
        rf"Usage: \S+ {' '.join(words)} \[OPTIONS\]", result.stdout
    )
    assert runner.invoke(app, [*words, "-h"]).stdout == result.stdout
    assert "catalog" in result.stdout and "Traceback" not in result.output
    if len(words) == 1:  # a bare group shows its help, as a bare `pipeline` does
        assert runner.invoke(app, words).stdout == result.stdout
        return
    for args, message in (
        (["--no-such-option"], "No such option: --no-such-option"),
        (["-o", str(tmp_path / "none")], "does not exist"),
        (
            [*GROUP_ARGUMENTS.get(words[-1], []), "extra"],
            "Got unexpected extra argument(s) (extra)",
        ),
    ):
        bad = runner.invoke(app, [*words, *args])
        assert bad.exit_code == BAD_ARGUMENTS and bad.stdout == "", (words, args, bad.output)
        assert message in one_error_line(bad.stderr)


def test_version_and_help() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and re.fullmatch(r"pipeline \d+\.\d+\.\d+\n", result.output)
    for args in (["--help"], ["-h"], []):  # a bare `pipeline` shows the help too
        result = runner.invoke(app, args)
        assert result.exit_code == 0 and "Make Sudoku books" in result.stdout, args
        assert all(f"  {name} " in result.stdout for name in COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_help_with_h(name: str) -> None:
    result = runner.invoke(app, [name, "--help"])
    assert result.exit_code == 0 and re.match(rf"Usage: \S+ {name} \[OPTIONS\]", result.stdout)
    assert runner.invoke(app, [name, "-h"]).stdout == result.stdout
    command = next(c for c in app.registered_commands if (c.name or c.callback.__name__) == name)
    summary = " ".join((command.callback.__doc__ or "").split()[:4])
    assert summary and summary in " ".join(result.stdout.split())
    assert "<bool>" not in result.stdout and "Traceback" not in result.output
    assert re.search(r"^  -h, --help +Show this message and exit\.$", result.stdout, re.M)


def test_flags_show_no_value_and_choices_are_listed() -> None:
    dig = runner.invoke(app, ["dig", "--help"]).stdout
    assert re.search(r"^  -q, --quiet +No progress bar", dig, re.M)
    assert "--minimal / --no-minimal  " in dig and "-o, --output <file>" in dig
    assert "--tier <easy|medium|hard|expert|extreme>" in dig
    assert "--symmetry <none|rotate180|rotate90|mirror_horizontal|" in dig
    render = runner.invoke(app, ["render", "--help"]).stdout
    for listed in ("<1|2|4|6>", "<letter|a4|6x9|8.5x11|5.5x8.5>", "<none|saddle-stitch>"):
        assert listed in render
    assert (
        "--format <lines|sdk|ss|grid|csv|tsv|parquet>" in runner.invoke(app, ["grade", "-h"]).stdout
    )
    assert "--backend <loky|dask>" in runner.invoke(app, ["run", "-h"]).stdout


def test_choices_match_the_modules_that_own_them() -> None:
    import engine
    import pipeline.grade
    import pipeline.recipe_schema as schema
    import pipeline.store
    from engine.dig import SYMMETRIES
    from engine.geometry import CLASSIC, MAX_SIZE, MIN_SIZE
    from pipeline.commands import choices
    from pipeline.formats import FORMATS
    from pipeline.render.book import LAYOUTS
    from pipeline.render.options import IMPOSITIONS
    from pipeline.render.page import TRIMS

    assert choices.TIERS == engine.TIERS and choices.SYMMETRIES == SYMMETRIES
    assert choices.BACKENDS == schema.BACKENDS and choices.FORMATS == FORMATS
    assert tuple(TRIMS) == choices.TRIMS and choices.LAYOUTS == LAYOUTS
    assert choices.IMPOSITIONS == IMPOSITIONS
    assert (choices.MIN_SIZE, choices.MAX_SIZE) == (MIN_SIZE, MAX_SIZE)
    assert choices.ALL_CORES == schema.ALL_CORES
    assert choices.CLASSIC == CLASSIC
    assert choices.MAX_SEED == schema.MAX_SEED
    assert choices.PUZZLES_FILE == pipeline.store.PUZZLES_FILE
    assert choices.DEFAULT_CHUNK_SIZE == schema.DEFAULT_CHUNK_SIZE
    assert choices.DEFAULT_GRADE_CHUNK == pipeline.grade.DEFAULT_CHUNK


def test_help_imports_nothing_heavy() -> None:
    """Every command's --help in a fresh process: none of the engine, numba, Arrow, reportlab."""
    script = (
        "import sys; from typer.testing import CliRunner; from pipeline.cli import app\n"
        f"for words in {[[name] for name in COMMANDS] + GROUP_CALLS + [[]]!r}:\n"
        "    result = CliRunner().invoke(app, [*words, '--help'])\n"
        "    assert result.exit_code == 0, result.output\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"


#: For each command: a call missing its required argument or option, and one naming a file that
#: does not exist (no library work happens before either is refused).
USAGE_ERRORS = {
    "dig": ((["-o", "p.parquet"], "Missing argument 'grids'."), (["no.parquet", "-o", "p"], None)),
    "explain": (
        ([], "give either a PUZZLE or --id ID with --from FILE"),
        (["--id", "x", "--from", "no.parquet"], None),
    ),
    "generate": (([], "Missing option '--output' / '-o'."), (["-o", "g", "-n", "0"], None)),
    "prepare": ((["x"], "Got unexpected extra argument(s) (x)"),),
    "grade": (([], "Missing argument 'sources'."), (["x", "--chunk-size", "0"], None)),
    "render": ((["-o", "b.pdf"], "Missing argument 'puzzles'."), (["no.parquet", "-o", "b"], None)),
    "run": (([], "Missing argument 'recipe'."), (["no.toml"], None)),
    "stats": (([], "Missing argument 'source'."), (["no.parquet"], None)),
    "verify": (([], "Missing argument 'source'."), (["no.parquet"], None)),
}


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_refuses_bad_arguments_in_one_line(name: str) -> None:
    cases = [
        (["--no-such-option"], "No such option: --no-such-option"),
        (["--jobs", "x"] if name in ("dig", "generate", "grade", "run") else ["a", "b", "c"], None),
        *USAGE_ERRORS[name],
    ]
    for args, message in cases:
        result = runner.invoke(app, [name, *args])
        assert result.exit_code == BAD_ARGUMENTS, (name, args, result.output)
        line = one_error_line(result.stderr)
        assert result.stdout == "" and "Usage:" not in result.output
        if message is not None:
            assert line == f"Error: {message}"


def test_the_installed_script_keeps_the_contract(tmp_path: Path) -> None:
    """The console script (not only CliRunner): no panel, no usage block, no traceback."""
    for args, message in (
        (["dig", str(tmp_path / "no.parquet"), "-o", "x"], "does not exist"),
        (["render", str(tmp_path), "-o", "x.pdf", "--trim", "a5"], "'a5' is not one of"),
        (["frobnicate"], "No such command 'frobnicate'"),
    ):
        done = subprocess.run([PIPELINE, *args], capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == BAD_ARGUMENTS and done.stdout == ""
        assert message in one_error_line(done.stderr)


def test_bad_recipe_is_one_error_line(tmp_path: Path) -> None:
    recipe = tmp_path / "bad.toml"
    recipe.write_text('title = "x"\nseed = 1\n[[sections]]\ntier = "easy"\ncount = 0\n')
    result = runner.invoke(app, ["run", str(recipe)])
    assert result.exit_code == BAD_ARGUMENTS
    assert "sections[0].count" in one_error_line(result.stderr)
