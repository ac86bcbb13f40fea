"""Fonts: every glyph comes from a TrueType file shipped with a dependency, embedded as a subset.

Print services reject PDFs that lean on the unembedded standard 14 fonts, so nothing here uses
them. Grid symbols use Bitstream Vera (shipped with reportlab). Recipe text (titles, author, the
about page) may be in any script: it uses DejaVu Sans, which matplotlib ships and which covers
Latin, Greek, Cyrillic, Armenian, Georgian and more, and falls back to Vera when matplotlib is
absent. Text with a character the font lacks is refused with :class:`UnsupportedText` rather
than printed as empty boxes.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib.util import find_spec
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

# (registered name, file) pairs; reportlab finds its own Vera files by name.
VERA = ("Vera", "Vera.ttf")
VERA_BOLD = ("VeraBd", "VeraBd.ttf")
DEJAVU_FOLDER = ("mpl-data", "fonts", "ttf")  # inside the matplotlib package
DEJAVU = ("DejaVuSans", "DejaVuSans.ttf")
DEJAVU_BOLD = ("DejaVuSans-Bold", "DejaVuSans-Bold.ttf")
BROAD_FONT_PACKAGE = "matplotlib"


class UnsupportedText(ValueError):
    """Recipe text holds a character that no available embedded font can print."""


@dataclass(frozen=True)
class Fonts:
    """Registered reportlab font names, by role."""

    grid: str  # symbols the solver fills in (answer key)
    grid_bold: str  # givens
    text: str
    text_bold: str
    broad: bool  # True when text uses the broad-coverage font

    def cap_height(self, name: str) -> float:
        """Height of capitals and digits as a fraction of the font size, to centre symbols."""
        return pdfmetrics.getFont(name).face.capHeight / 1000


def _register(name: str, path: str | Path) -> str:
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(path)))
    return name


def _dejavu_folder() -> Path | None:
    spec = find_spec(BROAD_FONT_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(spec.submodule_search_locations[0]).joinpath(*DEJAVU_FOLDER)
    return folder if (folder / DEJAVU[1]).is_file() else None


@cache
def fonts() -> Fonts:
    """Register the fonts once per process and say which serve which role."""
    grid, grid_bold = _register(*VERA), _register(*VERA_BOLD)
    folder = _dejavu_folder()
    if folder is None:
        return Fonts(grid, grid_bold, grid, grid_bold, broad=False)
    text = _register(DEJAVU[0], folder / DEJAVU[1])
    text_bold = _register(DEJAVU_BOLD[0], folder / DEJAVU_BOLD[1])
    return Fonts(grid, grid_bold, text, text_bold, broad=True)


def check_text(text: str, where: str) -> None:
    """Refuse ``text`` (found at ``where``, e.g. ``book title``) if a character has no glyph."""
    chosen = fonts()
    for name in {chosen.text, chosen.text_bold}:
        glyphs = pdfmetrics.getFont(name).face.charToGlyph
        for char in text:
            if char.isspace() or ord(char) in glyphs:
                continue
            hint = (
                "no font shipped with a dependency covers it"
                if chosen.broad
                else f"install {BROAD_FONT_PACKAGE} for DejaVu Sans, which covers many scripts"
            )
            label = unicodedata.name(char, "unnamed character")
            raise UnsupportedText(
                f"{where}: {char!r} (U+{ord(char):04X} {label}) is not in the font {name}; {hint}"
            )
