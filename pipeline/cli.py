"""The ``pipeline`` command: importing the command modules registers them on the app."""

from pipeline.app import app
from pipeline.commands import dig, generate, grade, render, run, stats  # noqa: F401  (register)

__all__ = ["app"]
