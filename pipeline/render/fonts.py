"""Fonts: every glyph comes from a TrueType file in a package, embedded as a subset.

Print services reject PDFs that lean on the unembedded standard 14 fonts, so nothing here uses
them. Grid symbols use Bitstream Vera (shipped with reportlab). Recipe text (titles, author, the
about page) may be in any script: it uses DejaVu Sans (regular and bold, shipped in
``typefaces/`` beside this module under their licence, ``typefaces/LICENSE``: Bitstream Vera's
terms plus public-domain DejaVu changes, free to redistribute with the notice), which covers
Latin, Greek, Cyrillic, Armenian, Georgian and more. Text with a character the font lacks is
refused with :class:`UnsupportedText` rather than printed as empty boxes.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pipeline.errors import UserError

# (registered name, file) pairs; reportlab finds its own Vera files by name.
VERA = ("Vera", "Vera.ttf")
VERA_BOLD = ("VeraBd", "VeraBd.ttf")
TYPEFACES = Path(__file__).with_name("typefaces")
DEJAVU = ("DejaVuSans", TYPEFACES / "DejaVuSans.ttf")
DEJAVU_BOLD = ("DejaVuSans-Bold", TYPEFACES / "DejaVuSans-Bold.ttf")


class UnsupportedText(UserError):
    """Recipe text holds a character that no embedded font can print."""


@dataclass(frozen=True)
class Fonts:
    """Registered reportlab font names, by role."""

    grid: str  # symbols the solver fills in (answer key)
    grid_bold: str  # givens
    text: str
    text_bold: str

    def cap_height(self, name: str) -> float:
        """Height of capitals and digits as a fraction of the font size, to centre symbols."""
        return pdfmetrics.getFont(name).face.capHeight / 1000


def _register(name: str, path: str | Path) -> str:
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(path)))
    return name


@cache
def fonts() -> Fonts:
    """Register the fonts once per process and say which serve which role."""
    return Fonts(
        grid=_register(*VERA),
        grid_bold=_register(*VERA_BOLD),
        text=_register(*DEJAVU),
        text_bold=_register(*DEJAVU_BOLD),
    )


def check_text(text: str, where: str) -> None:
    """Refuse ``text`` (found at ``where``, e.g. ``book title``) if a character has no glyph."""
    chosen = fonts()
    for name in {chosen.text, chosen.text_bold}:
        glyphs = pdfmetrics.getFont(name).face.charToGlyph
        for char in text:
            if char.isspace() or ord(char) in glyphs:
                continue
            label = unicodedata.name(char, "unnamed character")
            raise UnsupportedText(
                f"{where}: {char!r} (U+{ord(char):04X} {label}) is not in the font {name}, "
                "which covers Latin, Greek, Cyrillic and more but not this script"
            )
