"""What every command shares: options with one meaning everywhere, and errors as one line.

Light on purpose (see :mod:`pipeline.app`): the library modules are imported where a command
runs, never at the top of a command module.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pipeline.app import fail
from pipeline.commands.choices import MAX_SEED, PUZZLES_FILE, Backend

if TYPE_CHECKING:
    from pipeline.recipe import ParallelSpec


def _usable_jobs(value: int | None) -> int | None:
    """Refuse a worker count joblib would misread, before the command starts."""
    if value is None:
        return value
    from pipeline.recipe import usable_jobs
    from pipeline.recipe_schema import JOBS_ALLOWED

    if not usable_jobs(value):
        raise typer.BadParameter(f"got {value}; allowed: {JOBS_ALLOWED}")
    return value


Quiet = Annotated[
    bool, typer.Option("--quiet", "-q", help="No progress bar (it is also off when not a TTY).")
]
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
ChunkSize = Annotated[
    int,
    typer.Option(
        min=1,
        help="Items per task sent to a worker, in whole seeded chunks of 25: it changes how the "
        "work is shared out, never the output.",
    ),
]
Seed = Annotated[
    int,
    typer.Option(min=0, max=MAX_SEED, help="Seed: the same seed gives the same output."),
]
Variant = Annotated[
    str,
    typer.Option(
        help="The rules: classic, or jigsaw, windoku, x joined by '+' (jigsaw+x); windoku is "
        "9x9 only, and a Jigsaw grid's regions replace the boxes.",
    ),
]
BackendOption = Annotated[
    Backend | None, typer.Option("--backend", help="Where tasks run (default: local processes).")
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        help="Dask scheduler for --backend dask: tls://host:port (with --tls-ca/--tls-cert); "
        "plain tcp:// only with --insecure. Without one, --backend dask starts a private "
        "cluster on this machine (TLS, certificates held by this process only)."
    ),
]
Insecure = Annotated[
    bool,
    typer.Option(
        "--insecure",
        help="Allow a plain tcp:// scheduler, even on 127.0.0.1: anyone who can reach its port "
        "(any user of this machine, for a loopback one) can run code here and forge rows.",
    ),
]


def _tls_file(flag: str, what: str) -> typer.models.OptionInfo:
    return typer.Option(flag, exists=True, dir_okay=False, help=f"{what} (tls:// scheduler).")


TlsCa = Annotated[Path | None, _tls_file("--tls-ca", "CA certificate that signed the cluster's")]
TlsCert = Annotated[Path | None, _tls_file("--tls-cert", "This process's certificate")]
TlsKey = Annotated[Path | None, _tls_file("--tls-key", "Its private key, if not in --tls-cert")]


def parallel_spec(
    jobs: int | None,
    chunk_size: int | None,
    backend: str | None,
    scheduler: str | None,
    insecure: bool,
    tls: tuple[Path | None, Path | None, Path | None],
) -> ParallelSpec:
    """The tasks' backend from a command's options, checked as a recipe's ``[parallel]`` is (a
    plain tcp:// scheduler is refused without ``--insecure``)."""
    from pipeline.recipe import parallel_options

    ca, cert, key = tls
    options = {"n_jobs": jobs, "chunk_size": chunk_size, "backend": backend}
    options |= {"scheduler": scheduler, "insecure": insecure or None}
    options |= {"tls_ca": ca, "tls_cert": cert, "tls_key": key}
    return parallel_options(options)


def output_option(what: str) -> typer.models.OptionInfo:
    """The ``-o/--output`` option of every command that writes a file."""
    return typer.Option("--output", "-o", dir_okay=False, help=what, show_default=False)


def refuse_overwrite(output: Path | None, *inputs: str | Path) -> None:
    """Fail (exit 2) when ``output`` is one of ``inputs`` (a folder input: its puzzles file):
    writing it would destroy what is being read."""
    if output is None or not output.exists():
        return
    for spec in inputs:
        if str(spec) == "-":
            continue
        read = Path(spec) / PUZZLES_FILE if Path(spec).is_dir() else Path(spec)
        if read.exists() and os.path.samefile(read, output):
            fail(f"{output}: is also an input ({spec}); write the output to another file")
