"""The rules held-out round 19 asked for (docs/formats.md): Word-family PDFs on templates no
truth file had before (a Word contract through Distiller, a page printed by macOS's Quartz, a
DokuWiki page through mPDF, OpenOffice and LibreOffice manuals typed by direct formatting), read
from their typography alone. Each test fails with its rule taken out."""

from __future__ import annotations

from pdf_maker import Prose, Spec, headings, make_pdf

from skills.formats.read import read_file

BODY = ("Times-Roman", 11.0)
_PROSE = Prose(("pf", "gx", "jw", "vq", "zk"), BODY)
paragraph = _PROSE.paragraph


def _markdown(pages: list[list[Spec]]) -> str:
    return read_file(make_pdf(pages), "document.pdf").text


def test_headings_drawn_after_the_text_are_read_in_their_places() -> None:
    # sumaclust's manual, printed from MacDown by Quartz: each font's runs are drawn in turn, so
    # the page's text came first and its bold headings after it, heading nothing
    text = [*paragraph(130), *paragraph(260)]
    bold = "Helvetica-Bold"
    pages = [
        [*text, ("Introduction", bold, 18, 100), ("Installation", bold, 18, 230)],
        [("Usage", bold, 18, 72), *paragraph(100)],
    ]
    assert headings(pages) == ["# Introduction", "# Installation", "# Usage"]
    markdown = _markdown(pages)
    first, second = text[0][0], text[4][0]  # each paragraph's first line
    assert markdown.index("# Introduction") < markdown.index(first)
    assert markdown.index(first) < markdown.index("# Installation") < markdown.index(second)


def test_lines_that_share_a_band_keep_their_drawn_order() -> None:
    # two columns: the left one drawn first, then the right one beside it; read top to bottom
    # they would interleave
    left = [(f"Left column line {word} number {n}.", *BODY, 100 + 15 * n, 72) for n, word in
            enumerate(("one", "two", "three", "four"))]  # fmt: skip
    right = [(f"Right column line {word} number {n}.", *BODY, 100 + 15 * n, 320) for n, word in
             enumerate(("one", "two", "three", "four"))]  # fmt: skip
    markdown = _markdown([[*left, *right]])
    assert markdown.index("Left column line four") < markdown.index("Right column line one")


def test_a_heading_at_a_pages_foot_over_the_footer_heads_the_next_page() -> None:
    # cd-hit's guide, through mPDF: "Examples" ends page 20 over the wiki's footer line, its
    # text starts page 21; read in place, the footer came right after the heading
    footer = ("https://wiki.example.org/ printed 2017/05/01", "Helvetica", 8, 760)
    bold = "Helvetica-Bold"
    pages = [
        [("Overview", bold, 14, 72), *paragraph(100), *paragraph(400),
         ("Examples", bold, 14, 700), footer],
        [*paragraph(72), *paragraph(200), footer],
        [("Details", bold, 14, 72), *paragraph(100), footer],
    ]  # fmt: skip
    assert headings(pages) == ["# Overview", "# Examples", "# Details"]
