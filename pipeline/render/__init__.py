"""Print-ready PDF books: page geometry, the grid flowable, booklet assembly and imposition.

``render_book(book, path, options)`` is the one entry point for the interior and
``render_cover(book, path, pages, options, cover)`` for its paperback cover;
:mod:`pipeline.render.book` holds the input types and :func:`book_from_rows` maps store rows onto
them.
"""

from pipeline.render.book import (
    Book,
    BookError,
    BookPuzzle,
    Section,
    book_from_rows,
    puzzle_from_row,
)
from pipeline.render.booklet import RenderResult, UnreadableLayout, render_book
from pipeline.render.cover import (
    CoverError,
    CoverOptionError,
    CoverOptions,
    CoverResult,
    cover_path,
    render_cover,
)
from pipeline.render.fonts import UnsupportedText
from pipeline.render.imposition import ImpositionError
from pipeline.render.options import PrintOptionError, PrintOptions
from pipeline.render.page import PageCountError

__all__ = [
    "Book",
    "BookError",
    "BookPuzzle",
    "CoverError",
    "CoverOptionError",
    "CoverOptions",
    "CoverResult",
    "ImpositionError",
    "PageCountError",
    "PrintOptionError",
    "PrintOptions",
    "RenderResult",
    "Section",
    "UnreadableLayout",
    "UnsupportedText",
    "book_from_rows",
    "cover_path",
    "puzzle_from_row",
    "render_book",
    "render_cover",
]
