"""Page geometry, print options and imposition order, as pure functions."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reportlab.lib.units import inch, mm

from pipeline.render.imposition import ImpositionError, saddle_stitch_sides
from pipeline.render.options import PrintOptionError, PrintOptions
from pipeline.render.page import (
    BLEED_OUTSIDE,
    MAX_PAGES,
    MIN_OUTER_MARGIN,
    MIN_OUTER_MARGIN_BLEED,
    OUTER_MARGIN,
    PERFECT,
    SADDLE_STITCH,
    PageCountError,
    gutter_for,
    padded_page_count,
    page_frame,
)
from pipeline.render.slots import SLOT_GAP, arrange, best_columns

# The print service's table, written out independently of the module's.
GUTTERS_IN = [(24, 0.375), (150, 0.375), (151, 0.5), (300, 0.5), (301, 0.625), (500, 0.625)]
GUTTERS_IN += [(501, 0.75), (700, 0.75), (701, 0.875), (828, 0.875)]


@pytest.mark.parametrize(("pages", "inches"), GUTTERS_IN)
def test_gutter_by_page_count(pages: int, inches: float) -> None:
    assert gutter_for(pages, SADDLE_STITCH) == pytest.approx(inches * inch)


@pytest.mark.parametrize(("pages", "inches"), GUTTERS_IN)
def test_perfect_binding_gutter_grows_from_the_outer_margin(pages: int, inches: float) -> None:
    """A workbook's spine side is never narrower than its outside: 0.5 in at 108 pages."""
    expected = OUTER_MARGIN + inches * inch - GUTTERS_IN[0][1] * inch
    assert gutter_for(pages, PERFECT) == pytest.approx(expected)
    assert gutter_for(pages, PERFECT) >= OUTER_MARGIN
    if pages < MAX_PAGES:
        assert gutter_for(pages + 1, PERFECT) >= gutter_for(pages, PERFECT)


def test_too_many_pages_is_refused() -> None:
    with pytest.raises(PageCountError, match="829 pages; a bound book holds at most 828"):
        gutter_for(MAX_PAGES + 1, PERFECT)


@given(st.integers(1, 900), st.sampled_from(["perfect", "saddle-stitch"]))
def test_padding_is_the_least_count_the_binding_takes(pages: int, binding: str) -> None:
    unit, minimum = (2, 24) if binding == "perfect" else (4, 4)
    padded = padded_page_count(pages, binding)
    assert padded % unit == 0 and padded >= max(pages, minimum)
    assert padded - unit < max(pages, minimum)


@given(st.integers(1, 200).map(lambda sheets: 4 * sheets))
def test_saddle_stitch_sides_fold_into_reading_order(pages: int) -> None:
    """Stack the sheets, fold them, and read: pages come out 1, 2, 3 ... in order."""
    sides = saddle_stitch_sides(pages)
    sheets = [sides[k : k + 2] for k in range(0, len(sides), 2)]
    # folding a stack: the first half of the booklet reads the right half of each front, then
    # the left half of its back, sheet by sheet from the outside in; the second half reads
    # back inwards-out: right half of each back, then left half of each front
    first_half = [page for (front, back) in sheets for page in (front[1], back[0])]
    second_half = [page for (front, back) in reversed(sheets) for page in (back[1], front[0])]
    assert first_half + second_half == list(range(1, pages + 1))


@pytest.mark.parametrize("pages", [0, 6, 10])
def test_saddle_stitch_needs_a_multiple_of_four(pages: int) -> None:
    with pytest.raises(ImpositionError, match=f"got {pages}"):
        saddle_stitch_sides(pages)


@given(
    pages=st.integers(1, 828),
    bleed=st.booleans(),
    trim=st.sampled_from([(8.5 * inch, 11 * inch), (6 * inch, 9 * inch), (210 * mm, 297 * mm)]),
)
def test_frames_mirror_and_respect_minimum_margins(pages: int, bleed: bool, trim) -> None:
    gutter = gutter_for(max(pages, 24), PERFECT)
    recto = page_frame(pages | 1, trim, bleed, gutter)  # an odd number
    verso = page_frame((pages | 1) + 1, trim, bleed, gutter)
    assert recto.recto and not verso.recto
    assert recto.size == verso.size
    assert recto.size == pytest.approx(
        (trim[0] + (BLEED_OUTSIDE if bleed else 0), trim[1] + (0.25 * inch if bleed else 0))
    )
    outer = MIN_OUTER_MARGIN_BLEED if bleed else MIN_OUTER_MARGIN
    for frame in (recto, verso):
        inside = frame.live.x0 - frame.trim.x0 if frame.recto else frame.trim.x1 - frame.live.x1
        outside = frame.media.x1 - frame.live.x1 if frame.recto else frame.live.x0
        assert inside == pytest.approx(gutter)
        assert outside >= outer
        assert frame.live.y0 >= outer and frame.media.y1 - frame.live.y1 >= outer
        assert frame.trim.width == pytest.approx(trim[0])
    # mirrored: a verso is a recto reflected about the middle of the media box
    assert verso.live.x0 == pytest.approx(recto.media.x1 - recto.live.x1)
    assert verso.live.width == pytest.approx(recto.live.width)


def test_print_options_name_the_bad_field() -> None:
    assert PrintOptions().trim_size == (612, 792)
    assert PrintOptions(trim="custom", width=7, height=10).trim_size == (504, 720)
    cases = [
        ({"trim": "b5"}, "'trim': 'b5' is not one of letter, a4"),
        ({"trim": "custom", "width": 7}, "'height': a custom trim needs"),
        ({"trim": "custom", "width": 1, "height": 9}, "'width': 1 in is outside"),
        ({"trim": "custom", "width": "7", "height": 9}, "'width': expected a number"),
        ({"trim": "a4", "width": 5}, "'width': width and height are for trim 'custom'"),
        ({"binding": "spiral"}, "'binding': 'spiral' is not one of perfect, saddle-stitch"),
        ({"imposition": "4-up"}, "'imposition': '4-up' is not one of none, saddle-stitch"),
        ({"imposition": "saddle-stitch"}, "'imposition': saddle-stitch imposition needs"),
        ({"bleed": "yes"}, "'bleed': expected true or false"),
        ({"answers_per_page": 0}, "'answers_per_page': 0 is outside 1-16"),
        ({"answers_per_page": 2.5}, "'answers_per_page': expected a whole number"),
    ]
    for kwargs, message in cases:
        with pytest.raises(PrintOptionError, match=message):
            PrintOptions(**kwargs)


@given(count=st.integers(1, 16), n=st.sampled_from([4, 9, 16, 25]))
def test_slots_fit_the_area_without_overlap(count: int, n: int) -> None:
    frame = page_frame(1, (8.5 * inch, 11 * inch), False, gutter_for(24, PERFECT))
    area = frame.live
    band = 14.0
    slots = arrange(count, area, band, n)
    assert len(slots) == count
    _, side = best_columns(count, area, band)
    for slot in slots:
        box = slot.grid
        assert box.width == pytest.approx(box.height) and box.width <= side + 1e-9
        assert area.x0 - 1e-9 <= box.x0 and box.x1 <= area.x1 + 1e-9
        assert area.y0 - 1e-9 <= box.y0 and slot.label_y < box.y1 + band <= area.y1 + 1e-9
    for a, b in itertools.pairwise(slots):
        apart_x = a.grid.x1 + SLOT_GAP <= b.grid.x0 + 1e-9
        apart_y = b.grid.y1 + band + SLOT_GAP <= a.grid.y0 + 1e-9
        assert apart_x or apart_y


def test_print_option_errors_carry_the_field_for_the_caller_to_name() -> None:
    with pytest.raises(PrintOptionError) as caught:
        PrintOptions(imposition="saddle-stitch")
    assert (caught.value.field, caught.value.problem) == (
        "imposition",
        "saddle-stitch imposition needs binding 'saddle-stitch'",
    )
