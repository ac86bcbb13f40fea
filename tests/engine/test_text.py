"""Geometry tables and the puzzle text form: round trips and error messages that say where."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.geometry import SYMBOLS, default_box, geometry_for

SHAPES = [(2, 2), (2, 3), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5), (6, 6), (7, 8), (8, 8)]


@pytest.mark.parametrize(("rows", "cols"), SHAPES)
def test_units_and_peers(rows: int, cols: int) -> None:
    geo = engine.geometry(rows, cols)
    n = rows * cols
    assert geo.units.shape == (3 * n, n)
    # every unit holds each cell once; every cell is in exactly one row, column and box
    assert all(sorted(unit) == sorted(set(unit)) for unit in geo.units.tolist())
    assert (np.bincount(geo.units.ravel(), minlength=n * n) == 3).all()
    for cell in (0, n * n // 2, n * n - 1):
        shared = set()
        for unit in geo.cell_units[cell]:
            shared |= set(geo.units[unit].tolist())
        assert set(geo.peers[cell].tolist()) == shared - {cell}
    box0 = set(geo.units[2 * n].tolist())
    assert box0 == {r * n + c for r in range(rows) for c in range(cols)}
    assert not geo.units.flags.writeable and not geo.peers.flags.writeable


def test_default_boxes_and_sizes() -> None:
    assert [default_box(n) for n in (4, 6, 8, 9, 12, 16, 25, 36)] == [
        (2, 2), (2, 3), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5), (6, 6)
    ]  # fmt: skip
    with pytest.raises(ValueError, match="prime"):
        geometry_for(7)
    with pytest.raises(ValueError, match="does not fit"):
        geometry_for(9, box="2x3")
    assert str(engine.geometry(2, 3)) == "6x6 (2x3 boxes)"


@st.composite
def grids(draw: st.DrawFn) -> tuple[tuple[int, int], str]:
    rows, cols = draw(st.sampled_from(SHAPES))
    n = rows * cols
    alphabet = "." + SYMBOLS[:n]
    return (rows, cols), draw(st.text(alphabet, min_size=n * n, max_size=n * n))


@given(grids())
def test_round_trip_is_exact(case: tuple[tuple[int, int], str]) -> None:
    box, text = case
    geo = engine.geometry(*box)
    values = engine.text._table(geo.n)[np.frombuffer(text.encode(), dtype=np.uint8)]
    assert engine.to_text(geo, values) == text
    if engine.text.find_clash(geo, values) is None:
        grid = engine.parse(text, box=box)
        assert grid.to_text() == text
        assert engine.parse("\n " + text.replace(".", "0") + "\n", box=box).to_text() == text


def test_lengths_infer_the_geometry() -> None:
    for n, box in [(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (12, (3, 4)), (16, (4, 4)), (25, (5, 5))]:
        grid = engine.parse("." * n * n)
        assert (grid.geometry.box_rows, grid.geometry.box_cols) == box


def test_wrong_length_names_the_length_and_accepted_sizes() -> None:
    with pytest.raises(engine.InvalidPuzzle, match=r"80 symbols; expected .*81 \(9x9\)"):
        engine.parse("." * 80)
    with pytest.raises(engine.InvalidPuzzle, match=r"49 symbols: 7x7 grids have no boxes"):
        engine.parse("." * 49)
    with pytest.raises(engine.InvalidPuzzle, match=r"36 symbols; 9x9 \(3x3 boxes\) needs 81"):
        engine.parse("." * 36, box="3x3")


def test_bad_character_names_index_and_cell() -> None:
    with pytest.raises(engine.InvalidPuzzle, match=r"bad character 'x' at index 12 \(r2c4\)"):
        engine.parse("." * 12 + "x" + "." * 68)
    with pytest.raises(engine.InvalidPuzzle, match=r"'é' at index 80 \(r9c9\)"):
        engine.parse("." * 80 + "é")
    with pytest.raises(engine.InvalidPuzzle, match=r"'G' at index 0 \(r1c1\).*123456789ABCDEF"):
        engine.parse("G" + "." * 224)


def test_clash_names_both_cells_and_the_unit() -> None:
    row = "5" + "." * 5 + "5" + "." * 74
    with pytest.raises(engine.InvalidPuzzle, match=r"'5' is given twice in row 1: r1c1 and r1c7"):
        engine.parse(row)
    box = "." * 10 + "7" + "." * 9 + "7" + "." * 60
    with pytest.raises(engine.InvalidPuzzle, match=r"twice in box 1: r2c2 and r3c3"):
        engine.parse(box)


def test_lower_case_letters_read_as_symbols_up_to_35() -> None:
    grid = engine.parse("a" + "." * 255)
    assert grid.values[0] == 10 and grid.to_text()[0] == "A"
    big = engine.geometry(6, 6)
    assert engine.parse("a" + "." * 1295, box=(6, 6)).values[0] == 36 == big.symbols.index("a") + 1
