"""Print-ready PDF books: page geometry, the grid flowable, booklet assembly and imposition.

:func:`pipeline.render.booklet.render_book` is the one entry point for the interior and
:func:`pipeline.render.cover.render_cover` for its paperback cover; :mod:`pipeline.render.book`
holds the input types and ``book_from_rows`` maps store rows onto them, and
:mod:`pipeline.render.options` the print options a recipe checks. Import each from its module:
this package imports nothing itself, so a process that only reads a recipe (a worker,
``pipeline grade``) does not load reportlab's page layout (0.1 s).
"""
