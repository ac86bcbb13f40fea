"""The ``pipeline`` command: importing the command modules registers them on the app."""

from pipeline.app import app
from pipeline.commands import run  # noqa: F401  (registers `run`)

__all__ = ["app"]
