"""Sudoku engine: pure computation (no files, no terminal), deterministic, seeded explicitly.

Strings are the boundary: a puzzle is one string of n*n symbols (see ``engine.text``).
"""

from engine.canon import Canonical, canonical, canonical_many, canonical_transform
from engine.dig import DigFailed, DigResult, ImpossibleBand, dig
from engine.geometry import SYMBOLS, Geometry, geometry, geometry_for
from engine.grade import Grade, grade, grade_within
from engine.grade_table import GradeTable, grade_many
from engine.grids import random_grid, random_grid_array, random_grids
from engine.logic import TECHNIQUE_NAMES, TECHNIQUES
from engine.solver import MultipleSolutions, NoSolution, count_many, count_solutions, solve
from engine.text import Grid, InvalidPuzzle, parse, to_text
from engine.tiers import TIERS, InvalidTiers, Tier, tiers_from_mapping

__all__ = [
    "SYMBOLS",
    "TECHNIQUES",
    "TECHNIQUE_NAMES",
    "TIERS",
    "Canonical",
    "DigFailed",
    "DigResult",
    "Geometry",
    "Grade",
    "GradeTable",
    "Grid",
    "ImpossibleBand",
    "InvalidPuzzle",
    "InvalidTiers",
    "MultipleSolutions",
    "NoSolution",
    "Tier",
    "canonical",
    "canonical_many",
    "canonical_transform",
    "count_many",
    "count_solutions",
    "dig",
    "geometry",
    "geometry_for",
    "grade",
    "grade_many",
    "grade_within",
    "parse",
    "random_grid",
    "random_grid_array",
    "random_grids",
    "solve",
    "tiers_from_mapping",
    "to_text",
]
