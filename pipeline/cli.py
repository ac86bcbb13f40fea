"""The ``pipeline`` command: importing the command modules registers them on the app."""

from pipeline.app import app
from pipeline.commands import (  # noqa: F401  (register)
    catalog,
    dig,
    explain,
    generate,
    grade,
    prepare,
    render,
    run,
    stats,
)

__all__ = ["app"]
