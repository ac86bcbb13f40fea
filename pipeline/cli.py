"""The ``pipeline`` command: importing the command modules registers them on the app."""

from pipeline.app import app
from pipeline.commands import dig, generate, render, run, stats  # noqa: F401  (register commands)

__all__ = ["app"]
