"""Puzzle files in, result files out: every common puzzle format, every size, no row dropped.

``read_puzzles`` streams :class:`InputRow` chunks from lines, ``.sdk``, ``.ss``, blank-line
grids, CSV/TSV and Parquet files (gzip or not, or stdin); ``write_rows`` writes result rows to
Parquet, CSV or JSON lines, atomically.
"""

from pipeline.formats.detect import FORMATS
from pipeline.formats.reader import InputSize, input_size, read_puzzles
from pipeline.formats.rows import FormatError, InputRow
from pipeline.formats.sources import ReadMeter
from pipeline.formats.writers import write_rows

__all__ = [
    "FORMATS",
    "FormatError",
    "InputRow",
    "InputSize",
    "ReadMeter",
    "input_size",
    "read_puzzles",
    "write_rows",
]
