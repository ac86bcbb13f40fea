"""What every command shares: options with one meaning everywhere, and errors as one line."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

from pipeline.app import fail
from pipeline.formats import FormatError
from pipeline.parallel import ParallelError
from pipeline.recipe import RecipeError
from pipeline.render import BookError, PrintOptionError
from pipeline.run import PipelineError
from pipeline.store import StoreError

#: Errors the library raises with a message fit for users: shown as ``Error: ...``, exit 1.
USER_ERRORS = (
    PipelineError,
    StoreError,
    RecipeError,
    ParallelError,
    FormatError,
    PrintOptionError,
    BookError,
)

Quiet = Annotated[
    bool, typer.Option("--quiet", "-q", help="No progress bar (it is also off when not a TTY).")
]
Jobs = Annotated[
    int | None,
    typer.Option("--jobs", "-j", help="Worker processes; -1 for every core.", show_default=False),
]
ChunkSize = Annotated[int, typer.Option(min=1, help="Items per task sent to a worker.")]
Seed = Annotated[int, typer.Option(min=0, help="Seed: the same seed gives the same output.")]


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the library's user-facing errors into one ``Error: ...`` line and exit code 1."""
    try:
        yield
    except USER_ERRORS as exc:
        fail(str(exc))
