"""A worker's result against its task's declared return type: plain data fits, anything else is
named by where it departs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.result_types import misfit, returns, shown
from pipeline.tasks import Verdicts, dig_chunk, grade_chunk, grid_chunk
from tests.pipeline import worker_tasks

ROWS = list[dict[str, Any]]
scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
rows = st.lists(st.dictionaries(st.text(), scalars | st.lists(scalars)))


class Sly(str):
    """A string that equals anything: what exact built-in types keep out."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


def test_the_task_functions_declare_what_they_return() -> None:
    assert returns(dig_chunk) == returns(grid_chunk) == ROWS
    assert returns(grade_chunk) is Verdicts
    assert shown(ROWS) == "list[dict[str, Any]]" and shown(Verdicts) == "Verdicts"
    assert returns(worker_tasks.where) == tuple[int, str | None]


@given(rows)
def test_rows_of_plain_data_fit(value: list[dict[str, Any]]) -> None:
    assert misfit(value, ROWS) is None


@given(rows.filter(bool), st.data())
def test_one_wrong_part_is_named(value: list[dict[str, Any]], data: st.DataObject) -> None:
    at = data.draw(st.integers(0, len(value) - 1))
    value[at] = data.draw(scalars | st.lists(scalars) | st.tuples(scalars))
    assert misfit(value, ROWS) == (
        f"the result[{at}] is of type {type(value[at]).__name__}, not dict[str, Any]"
    )


@pytest.mark.parametrize(
    ("value", "hint", "found"),
    [
        ("rows", ROWS, "the result is of type str, not list[dict[str, Any]]"),
        ([{1: "a"}], ROWS, "a key of the result[0] is of type int, not str"),
        ([{Sly("id"): "a"}], ROWS, "a key of the result[0] is of type Sly, not str"),
        ((1, "a", 2), tuple[int, str | None], "the result has 3 items, not 2"),
        ((1, 2.0), tuple[int, str | None], "the result[1] is of type float, not str | None"),
        ((True, None), tuple[int, str | None], "the result[0] is of type bool, not int"),
        ([1, "2"], list[int], "the result[1] is of type str, not int"),
        ((1, 2, "3"), tuple[int, ...], "the result[2] is of type str, not int"),
    ],
)
def test_a_misfit_is_named(value: Any, hint: Any, found: str) -> None:
    assert misfit(value, hint) == found


def test_a_named_tuple_fits_by_its_fields() -> None:
    table = pa.table({"status": ["ok"]})
    assert misfit(Verdicts(table, np.zeros(1)), Verdicts) is None
    assert misfit((table, np.zeros(1)), Verdicts) == "the result is of type tuple, not Verdicts"
    wrong = Verdicts(table, [0.0])
    assert misfit(wrong, Verdicts) == "the result.seconds is of type list, not ndarray"
    assert misfit((1, None), tuple[int, str | None]) is None
