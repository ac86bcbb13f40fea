"""Sudoku production pipeline: everything that touches files, terminals and workers."""
