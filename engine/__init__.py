"""Sudoku engine: pure computation (no files, no terminal), deterministic, seeded explicitly.

Strings are the boundary: a puzzle is one string of n*n symbols (see ``engine.text``).
"""

from engine.geometry import SYMBOLS, Geometry, geometry, geometry_for
from engine.grids import random_grid, random_grid_array
from engine.solver import MultipleSolutions, NoSolution, count_many, count_solutions, solve
from engine.text import Grid, InvalidPuzzle, parse, to_text

__all__ = [
    "SYMBOLS",
    "Geometry",
    "Grid",
    "InvalidPuzzle",
    "MultipleSolutions",
    "NoSolution",
    "count_many",
    "count_solutions",
    "geometry",
    "geometry_for",
    "parse",
    "random_grid",
    "random_grid_array",
    "solve",
    "to_text",
]
