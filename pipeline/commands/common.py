"""What every command shares: options with one meaning everywhere, and errors as one line."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

from pipeline.app import fail
from pipeline.formats import FormatError
from pipeline.parallel import ParallelError
from pipeline.recipe import JOBS_ALLOWED, RecipeError, usable_jobs
from pipeline.render import BookError, PrintOptionError
from pipeline.run import PipelineError
from pipeline.store import StoreError

BAD_ARGUMENTS = 2  # exit code for arguments a command cannot work with (as typer's own)

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


def _usable_jobs(value: int | None) -> int | None:
    """Refuse a worker count joblib would misread, before the command starts."""
    if value is not None and not usable_jobs(value):
        fail(f"--jobs: got {value}; allowed: {JOBS_ALLOWED}", BAD_ARGUMENTS)
    return value


Jobs = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        "-j",
        help="Worker processes; -1 for every core.",
        show_default=False,
        callback=_usable_jobs,
    ),
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
