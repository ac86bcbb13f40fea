"""The reader of Solo's Killer descriptions: a description worked out by hand, Solo's own output
where sgt-solo is installed, and one clear error per kind of bad input."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from engine.cages import Cage
from pipeline.formats.solo import SoloFormatError, solo_killer

SOLO = shutil.which("sgt-solo") or shutil.which("/usr/games/sgt-solo")
#: ``sgt-solo --generate 1 2x3kdb``: cages worked out by hand from the edge code below
SIX = "2x3k:zj,aab_________a___a___ab_aaa___a___aa_baaa_,6a7a8a10a7_7_8_10_5f10a5a8_9_7b14b5d"
SIX_CAGE_OF = (
    "001122",
    "334567",
    "834567",
    "899a6b",
    "cddaeb",
    "cffeee",
)


def test_a_six_by_six_reads_as_worked_out_by_hand() -> None:
    geo, puzzle = solo_killer(SIX)
    assert (geo.n, geo.variant, puzzle) == (6, "killer", "." * 36)
    names = "".join(SIX_CAGE_OF)
    by_name: dict[str, list[int]] = {}
    for cell, name in enumerate(names):
        by_name.setdefault(name, []).append(cell)
    assert sorted(c.cells for c in geo.cages) == sorted(tuple(v) for v in by_name.values())
    assert geo.cages[0] == Cage(6, (0, 1))
    assert Cage(14, (28, 33, 34, 35)) in geo.cages
    assert Cage(10, (6, 7, 13)) in geo.cages


def test_givens_flags_and_jigsaw_regions() -> None:
    body = SIX.partition(":")[2].split(",")
    geo, puzzle = solo_killer("2x3xkdi:3z4h," + ",".join(body[1:]))
    assert geo.variant == "killer+x"
    assert puzzle == "3" + "." * 26 + "4" + "." * 8
    with pytest.raises(SoloFormatError, match="regions: 2 edges read"):
        solo_killer("6jk:zj,a," + ",".join(body[1:]))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3x3k", "no ':'"),
        ("3x3dk:zzzc,a,b", "not a Killer"),
        ("4x4k:zzzzzzzzzz,a,a", "up to 9x9"),
        ("2x3k:zj,aab", "3 comma-separated parts"),
        ("2x3k:zi," + SIX.split(",", 1)[1], "givens: 35 cells"),
        ("2x3k:7zi," + SIX.split(",", 1)[1], "givens: 7 at cell 1 is out of range"),
        ("2x3k:zj,aa!" + SIX.split(",")[1][3:] + "," + SIX.split(",")[2], "bad character '!'"),
        ("2x3k:zj,aab" + "," + SIX.split(",")[2], "cages: 7 edges read"),
        ("2x3k:zj," + SIX.split(",")[1] + ",6a7a8a10a7_7_8_10_5f10a5a8_9_7b14b4_1c", "2 sums"),
        (
            "2x3k:zj,"
            + SIX.split(",")[1]
            + ",6a7a8a10a7_7_8_10_5f10a5a8_9_7b14b5d".replace("6a", "12a"),
            "cannot add up to 12",
        ),
    ],
)
def test_bad_descriptions_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(SoloFormatError, match=message):
        solo_killer(text)


@pytest.mark.skipif(SOLO is None, reason="sgt-solo (Debian sgt-puzzles) is not installed")
@pytest.mark.parametrize("params", ["3x3kdb", "3x3kda", "2x3kdb", "3x3xkdb"])
def test_solo_output_reads(params: str) -> None:
    made = subprocess.run(
        [SOLO, "--generate", "3", params], capture_output=True, text=True, check=True
    ).stdout.split()
    for description in made:
        geo, puzzle = solo_killer(description)
        n = geo.n
        assert sum(c.total for c in geo.cages) == n * n * (n + 1) // 2
        assert sorted(cell for c in geo.cages for cell in c.cells) == list(range(n * n))
        assert all(2 <= len(c.cells) <= n for c in geo.cages)
        assert len(puzzle) == n * n
