"""``pipeline prepare``: compile the engine for this machine now, not in a command's first task."""

from __future__ import annotations

import typer

from pipeline.app import app


@app.command()
def prepare() -> None:
    """Compile the engine's kernels for this machine (a few minutes, once).

    Every command does this itself when it must, saying so; run it ahead, e.g. after an install
    or on a new Dask worker machine, so that no later command waits. It also says where numba
    keeps the compiled code (NUMBA_CACHE_DIR moves it).
    """
    from pipeline.prepare import ALL_FAMILIES, cache_folder, prepare_engine

    compiled = prepare_engine(ALL_FAMILIES)
    state = "compiled" if compiled else "already compiled"
    typer.echo(f"engine {state} for this machine; kernel cache: {cache_folder()}")
