"""The real `pipeline` app through typer's runner: version, help, and the run command."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from pipeline.cli import app

runner = CliRunner()


def test_version_and_help() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and re.fullmatch(r"pipeline \d+\.\d+\.\d+\n", result.output)
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0 and "Make Sudoku books" in result.output


def test_every_command_has_help() -> None:
    for command in app.registered_commands:
        name = command.name or command.callback.__name__
        result = runner.invoke(app, [name, "--help"])
        assert result.exit_code == 0, name
        summary = " ".join((command.callback.__doc__ or "").split()[:4])
        assert summary and summary in " ".join(result.output.split())


def test_bad_recipe_is_one_error_line(tmp_path: Path) -> None:
    recipe = tmp_path / "bad.toml"
    recipe.write_text('title = "x"\nseed = 1\n[[sections]]\ntier = "easy"\ncount = 0\n')
    result = runner.invoke(app, ["run", str(recipe)])
    assert result.exit_code == 2
    assert result.output.startswith("Error: ") and "sections[0].count" in result.output
    assert "Traceback" not in result.output
