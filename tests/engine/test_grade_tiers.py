"""Tier bands: parsing from TOML tables, errors naming the dotted key, band matching, and grading
against a band's top score (``engine.grade_within``)."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.dig import ImpossibleBand, check_possible
from engine.geometry import geometry
from engine.grade import rate_within
from engine.logic.state import TECHNIQUES
from engine.tiers import (
    DEFAULT_TIERS,
    InvalidTiers,
    Tier,
    techniques_clash,
    tier_of,
    tiers_from_mapping,
)
from tests.conftest import read_puzzles


def test_default_tier_names_easiest_first() -> None:
    assert engine.TIERS == ("easy", "medium", "hard", "expert", "extreme")
    assert tuple(DEFAULT_TIERS) == engine.TIERS


@pytest.mark.parametrize("score", [1.0, 2.6, 3.2, 4.2, 5.45, 6.6, 7.2, 8.0, 11.5])
def test_default_bands_cover_every_score(score: float) -> None:
    hardest = "hidden_single" if score < 2.5 else "aic"
    assert tier_of(DEFAULT_TIERS, score, 10, 25, hardest) is not None


def test_default_bands_rise_with_score() -> None:
    names = [tier_of(DEFAULT_TIERS, s, 10, 25, "aic") for s in (2.7, 4.0, 6.6, 9.0)]
    assert names == ["medium", "hard", "expert", "extreme"]


def test_a_singles_puzzle_is_easy_and_a_harder_one_is_not() -> None:
    assert tier_of(DEFAULT_TIERS, 2.3, 30, 25, "hidden_single") == "easy"
    assert tier_of(DEFAULT_TIERS, 2.6, 30, 25, "locked_pointing") == "medium"


def test_bands_from_toml_keep_order_and_fields() -> None:
    table = tomllib.loads(
        """
        [tiers.gentle]
        hardest = "hidden_single"
        clues = [30, 81]
        [tiers.tough]
        score = [3, 9.5]
        iterations = [5, 200]
        needs = "x_wing"
        """
    )["tiers"]
    bands = tiers_from_mapping(table)
    assert list(bands) == ["gentle", "tough"]
    assert bands["gentle"] == Tier("gentle", clues=(30, 81), hardest="hidden_single")
    assert bands["tough"].score == (3.0, 9.5)
    assert bands["tough"].iterations == (5, 200)
    assert tier_of(bands, 4.0, 12, 25, "xy_wing") == "tough"
    assert tier_of(bands, 4.0, 12, 25, "naked_pair") is None  # needs x_wing at least
    assert tier_of(bands, 2.0, 12, 25, "hidden_single") is None  # too few clues for gentle


@given(st.sampled_from(TECHNIQUES), st.sampled_from(TECHNIQUES))
def test_one_needs_versus_hardest_rule_for_the_parser_and_the_digger(
    hardest: str, needs: str
) -> None:
    band = Tier("band", hardest=hardest, needs=needs)
    ranks = range(-1, len(TECHNIQUES))
    satisfiable = any(band.admits_rank(0.0, 0, 0, rank) for rank in ranks)
    clash = techniques_clash(band)
    assert (clash is None) == satisfiable
    if clash is None:
        assert tiers_from_mapping({"band": {"hardest": hardest, "needs": needs}}) == {"band": band}
        check_possible(band, geometry(3, 3), minimal=False)
        return
    with pytest.raises(InvalidTiers) as parsed:
        tiers_from_mapping({"band": {"hardest": hardest, "needs": needs}})
    assert str(parsed.value) == f"tiers.band.needs: {clash}"
    with pytest.raises(ImpossibleBand) as dug:
        check_possible(band, geometry(3, 3), minimal=False)
    assert str(dug.value).endswith(f": needs = {clash}")


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"hard": {"score": [1]}}, "tiers.hard.score: expected [min, max] floats"),
        ({"hard": {"score": "4-5"}}, "tiers.hard.score: expected [min, max] floats"),
        ({"hard": {"iterations": [1.5, 3]}}, "tiers.hard.iterations: expected [min, max] integers"),
        ({"hard": {"clues": [40, 20]}}, "tiers.hard.clues: min 40 is above max 20"),
        ({"hard": {"hardest": "x-wing"}}, "tiers.hard.hardest: unknown technique 'x-wing'"),
        ({"easy": {"needs": 3}}, "tiers.easy.needs: unknown technique 3"),
        ({"easy": {"colour": "red"}}, "tiers.easy.colour: unknown key"),
        ({"easy": 5}, "tiers.easy: expected a table"),
    ],
)
def test_bad_tables_name_the_dotted_key(table: dict, message: str) -> None:
    with pytest.raises(InvalidTiers) as info:
        tiers_from_mapping(table)
    assert str(info.value).startswith(message)
    assert isinstance(info.value, ValueError)


def test_grade_uses_the_bands_it_is_given() -> None:
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    everything = {"all": Tier("all", score=(0.0, math.inf))}
    nothing = {"none": Tier("none", clues=(80, 81))}
    assert engine.grade(puzzle, tiers=everything).tier == "all"
    assert engine.grade(puzzle, tiers=nothing).tier is None


@pytest.mark.parametrize("max_score", [1.5, 2.5, 3.5, 4.3, 6.0, 6.6, 7.5])
def test_grade_within_is_grade_or_certainly_above(shared_data: Path, max_score: float) -> None:
    """A shortened ladder gives grade()'s very grade, or None only for puzzles scoring above."""
    puzzles = read_puzzles(shared_data / "17_clue.txt")[:150]
    puzzles += read_puzzles(shared_data / "magictour_top1465.txt")[:40]
    nones = 0
    for text in puzzles:
        full = engine.grade(text)
        within = engine.grade_within(text, max_score)
        if within is None:
            nones += 1
            assert full.score > max_score, text
        else:
            assert (within.score, within.iterations, within.hardest, within.tier) == (
                full.score,
                full.iterations,
                full.hardest,
                full.tier,
            )
            assert within.steps_per_technique == full.steps_per_technique
    assert nones or max_score >= 7.5  # the shortened ladders do stop short


def test_a_rating_completes_into_the_grade_even_after_other_gradings() -> None:
    """rate_within's figures are the grade's; its full grade is copied from the workspace while
    it holds that run, and graded again once another puzzle has replaced it."""
    puzzles = [
        engine.dig(engine.random_grid(9, seed=[4, i]), tier, seed=[4, i]).puzzle
        for i, tier in enumerate(("medium", "hard", "expert", "extreme"))
    ]
    grades = [engine.grade(text) for text in puzzles]
    ratings = [rate_within(text, math.inf) for text in puzzles]  # each replaces the last run
    for rating, full in zip(ratings, grades, strict=True):
        assert rating is not None
        figures = (rating.score, rating.tier, rating.iterations, rating.hardest, rating.clues)
        assert figures == (full.score, full.tier, full.iterations, full.hardest, full.clues)
        completed = rating.grade()  # the first three: the workspace holds a later puzzle
        assert completed == full
        assert completed.record.steps.tobytes() == full.record.steps.tobytes()
        assert completed.path == full.path
    fresh = rate_within(puzzles[0], math.inf)
    assert fresh is not None and fresh.grade().path == grades[0].path
    assert rate_within(puzzles[-1], 3.5) is None  # the extreme one scores above 3.5
