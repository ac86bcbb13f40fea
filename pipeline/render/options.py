"""How a book is printed: trim, bleed, binding, imposition and the answer key, validated up front
(and the cover's paper and colours, which a recipe checks without loading the cover's layout).

A recipe's ``[print]`` table maps onto :class:`PrintOptions` field by field; a bad value raises
:class:`PrintOptionError` naming the field, so the recipe or the CLI can say which key to fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

from reportlab.lib.units import inch

from pipeline.errors import UserError
from pipeline.render.page import BINDINGS, CUSTOM, SADDLE_STITCH, TRIMS

NO_IMPOSITION = "none"
IMPOSITIONS = (NO_IMPOSITION, SADDLE_STITCH)
MAX_ANSWERS_PER_PAGE = 16
# Custom trims: anything a desktop printer or a print service might take.
MIN_TRIM_INCHES = 3.0
MAX_TRIM_INCHES = 20.0
#: A cover's paper: thickness per page, inches (KDP's spine-width table).
PAPER_INCHES = {"white": 0.002252, "cream": 0.0025, "colour": 0.002347}
PAPERS = tuple(PAPER_INCHES)
#: A cover's colours where the recipe names none.
DEFAULT_BACKGROUND = "#1d4a6b"  # deep blue: C73 M31 Y0 K58
DEFAULT_ACCENT = "#ffcc33"  # warm yellow: C0 M20 Y80 K0


class PrintOptionError(UserError):
    """A print option is out of range; the message names the field (``field``, ``problem``)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"print option {field!r}: {problem}")
        self.field = field
        self.problem = problem


@dataclass(frozen=True)
class PrintOptions:
    """Print settings for one book. Lengths of custom trims are inches."""

    trim: str = "letter"
    width: float | None = None  # custom trim only, inches
    height: float | None = None  # custom trim only, inches
    bleed: bool = False
    imposition: str = NO_IMPOSITION
    binding: str = "perfect"
    shade_answers: bool = False
    answers_per_page: int = 6
    hints: bool = False  # a hints section: each puzzle's first step beyond the singles
    worked_solutions: tuple[str, ...] = ()  # tiers whose puzzles get a worked solution
    large_print: bool = False  # 1-2 puzzles a page, clues of 24 pt or more, 16 pt text
    region_tint: bool = False  # Jigsaw regions tinted in light greys, neighbours apart

    def __post_init__(self) -> None:
        """The one check of print options: recipes (``pipeline.recipe``) and the CLI build them
        from raw values and report this error under their own key or option."""
        names = (*TRIMS, CUSTOM)
        if self.trim not in names:
            _fail("trim", f"{self.trim!r} is not one of {', '.join(names)}")
        if self.trim == CUSTOM:
            for field in ("width", "height"):
                value = getattr(self, field)
                if value is None:
                    _fail(field, "a custom trim needs both width and height (inches)")
                if isinstance(value, bool) or not isinstance(value, int | float):
                    _fail(field, f"expected a number of inches, got {value!r}")
                if not MIN_TRIM_INCHES <= value <= MAX_TRIM_INCHES:
                    _fail(field, f"{value} in is outside {MIN_TRIM_INCHES}-{MAX_TRIM_INCHES} in")
        elif self.width is not None or self.height is not None:
            _fail("width", f"width and height are for trim 'custom', not {self.trim!r}")
        if self.binding not in BINDINGS:
            _fail("binding", f"{self.binding!r} is not one of {', '.join(BINDINGS)}")
        if self.imposition not in IMPOSITIONS:
            _fail("imposition", f"{self.imposition!r} is not one of {', '.join(IMPOSITIONS)}")
        if self.imposition == SADDLE_STITCH and self.binding != SADDLE_STITCH:
            _fail("imposition", "saddle-stitch imposition needs binding 'saddle-stitch'")
        for field in ("bleed", "shade_answers", "hints", "large_print", "region_tint"):
            if not isinstance(getattr(self, field), bool):
                _fail(field, f"expected true or false, got {getattr(self, field)!r}")
        count = self.answers_per_page
        if isinstance(count, bool) or not isinstance(count, int):
            _fail("answers_per_page", f"expected a whole number, got {count!r}")
        if not 1 <= count <= MAX_ANSWERS_PER_PAGE:
            _fail("answers_per_page", f"{count} is outside 1-{MAX_ANSWERS_PER_PAGE}")
        tiers = self.worked_solutions
        if isinstance(tiers, list):  # as TOML gives it
            tiers = tuple(tiers)
            object.__setattr__(self, "worked_solutions", tiers)
        if not isinstance(tiers, tuple) or not all(isinstance(t, str) and t for t in tiers):
            _fail("worked_solutions", f"expected a list of tier names, got {tiers!r}")

    @property
    def trim_size(self) -> tuple[float, float]:
        """Trim width and height in points."""
        if self.trim == CUSTOM:
            assert self.width is not None and self.height is not None  # checked on creation
            return (self.width * inch, self.height * inch)
        return TRIMS[self.trim]


def _fail(field: str, problem: str) -> NoReturn:
    raise PrintOptionError(field, problem)
