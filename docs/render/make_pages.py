"""Regenerate the page images in this folder from a sample book.

Run: ``.venv/bin/python docs/render/make_pages.py`` (needs ``pdftoppm`` from poppler-utils).
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from pipeline.render import PrintOptions, render_book
from pipeline.render.sample import SampleSection, sample_book

HERE = Path(__file__).resolve().parent
DPI = 80
SECTIONS = [
    SampleSection("easy", 9, 1, 2),
    SampleSection("medium", 9, 2, 2),
    SampleSection("hard", 9, 4, 4),
    SampleSection("expert", 9, 6, 6),
    SampleSection("giant", 16, 1, 1),
    SampleSection("kids", 6, 4, 4),
]
# image name -> heading of the page to show (the first page under that heading)
IMAGES = {
    "layout-1.png": "Easy",
    "layout-2.png": "Medium",
    "layout-4.png": "Hard",
    "layout-6.png": "Expert",
    "giant-16x16.png": "Giant",
    "kids-6x6.png": "Kids",
    "answers.png": "Answers: Expert",
}


def main() -> None:
    book = sample_book(
        SECTIONS,
        seed=2,
        title="Sample Sudoku",
        author="sudoku-pipeline",
        about="Puzzles get harder section by section.",
    )
    with tempfile.TemporaryDirectory() as folder:
        pdf = Path(folder) / "sample.pdf"
        result = render_book(book, pdf, PrintOptions(shade_answers=True))
        first_pages = dict(result.contents) | {"title": 1, "contents": 2}
        for name, heading in {"title.png": "title", "contents.png": "contents", **IMAGES}.items():
            page = str(first_pages[heading])
            stem = HERE / Path(name).stem
            command = ["pdftoppm", "-png", "-r", str(DPI), "-f", page, "-l", page, "-singlefile"]
            subprocess.run([*command, str(pdf), str(stem)], check=True)
            print(f"{name}: page {page}")


if __name__ == "__main__":
    main()
