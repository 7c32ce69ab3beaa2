"""The rules held-out round 16 asked for (docs/formats.md): producer families no truth file had
before (Asciidoctor PDF, htmldoc's HTML-to-PDF, Firefox's print, ConTeXt LMTX, QuarkXPress 4),
read from their typography alone. Each test fails with its rule taken out."""

from __future__ import annotations

from pdf_maker import Prose, Spec, heading_lines, headings, make_pdf
from test_pdf_word_essay_rules import underlined

from skills.formats.read import read_file

BODY = ("Times-Roman", 10.0)
BOLD = "Helvetica-Bold"
_PROSE = Prose(("qoz", "ujy", "exv", "iqf", "awz"), BODY)
paragraph = _PROSE.paragraph


def _chapter(name: str, sections: list[str]) -> list[list[Spec]]:
    """A chapter as htmldoc sets it: its title in 20 pt on a new page, its sections in 14 pt,
    and on every page the chapter's name in the body's type atop the page, written last."""
    first: list[Spec] = [(name, BOLD, 20, 90), *paragraph(120), (sections[0], BOLD, 14, 200),
                         *paragraph(225)]  # fmt: skip
    pages = [first] + [[(section, BOLD, 14, 90), *paragraph(115)] for section in sections[1:]]
    return [[*page, (name, *BODY, 40, 450)] for page in pages]


def test_a_chapter_named_again_atop_each_of_its_pages_is_a_heading() -> None:
    # htmldoc (xfig's manual) names the chapter in 11 pt atop each of its pages, the body's
    # size: 'Introduction' was seen four times, taken for a label, and every chapter was lost
    pages = _chapter("Introduction", ["Starting up", "The windows", "Leaving"]) + _chapter(
        "Drawing", ["Circles", "Boxes", "Texts"]
    )
    assert headings(pages) == [
        "# Introduction", "## Starting up", "## The windows", "## Leaving",
        "# Drawing", "## Circles", "## Boxes", "## Texts",
    ]  # fmt: skip


def test_an_underlined_line_naming_a_larger_heading_is_a_link_to_it() -> None:
    # htmldoc's contents page underlines each chapter's link in the body's type over its
    # sections' entries: the links were read as Word's underlined headings
    entries = ["Introduction", "Drawing"]
    contents: list[Spec] = [("Contents", BOLD, 20, 72), *paragraph(100)]
    for n, entry in enumerate(entries):
        contents += [(entry, *BODY, 200.0 + 60 * n),
                     (f"The {entry.lower()} chapter: starting, windows and leaving it again.",
                      *BODY, 215.0 + 60 * n)]  # fmt: skip
    contents += paragraph(340)
    pages = [contents, *_chapter("Introduction", ["Starting up", "The windows"]),
             *_chapter("Drawing", ["Circles", "Boxes"])]  # fmt: skip
    text = read_file(underlined(make_pdf(pages), entries), "manual.pdf").text
    assert heading_lines(text) == [
        "# Contents", "# Introduction", "## Starting up", "## The windows",
        "# Drawing", "## Circles", "## Boxes",
    ]  # fmt: skip


def test_a_label_beside_its_paragraph_is_no_section_label() -> None:
    # Asciidoctor PDF sets 'CAUTION' left of its warning, once in each section that warns:
    # seen once under each larger heading, it was read as a man page's SYNOPSIS
    def section(name: str) -> list[Spec]:
        return [
            (name, BOLD, 16, 72), *paragraph(100),
            ("CAUTION", BOLD, 10, 188, 72),
            (f"The {name.lower()} may change before the next release of the tools here.",
             *BODY, 180, 150),
            ("Use it with care, and read its notes again.", *BODY, 197, 150),
            *paragraph(230),
        ]  # fmt: skip

    pages = [section(name) for name in ("Appendices", "Deep levels", "Inline headings")]
    assert headings(pages) == ["# Appendices", "# Deep levels", "# Inline headings"]


def test_a_heading_wrapped_at_the_texts_edge_is_one_though_a_listing_runs_past_it() -> None:
    # xfig's FAQ: a patch's Courier lines run 18 pt past the margin the text wraps at, so the
    # question 'Arc-boxes don't appear correctly when viewing an exported' / 'PostScript file
    # with GhostScript' looked unwrapped and was two headings
    prose = [
        "The warning is given each time the file is opened and read by the program, whatever",
        "its version, and it goes away once the old file is saved again in the newest format.",
    ]
    code = (
        "*** XPolyReg.c.orig  if (numRects && pts->x == rects->x1 && pts->y == rects->y2 && i > 0)"
    )
    page: list[Spec] = [
        ("Frequent questions", BOLD, 20, 72),
        *paragraph(100),
        ("Arc-boxes do not appear correctly when viewing an exported", BOLD, 14, 180),
        ("PostScript file with the viewer", BOLD, 14, 198),
        *[(line, *BODY, 228.0 + 14 * n) for n, line in enumerate(prose)],
        (code, "Courier", 9, 268),
        ("Spline curves are drawn in another way", BOLD, 14, 300),
        *paragraph(325),
    ]
    assert headings([page, paragraph()]) == [
        "# Arc-boxes do not appear correctly when viewing an exported PostScript file with the "
        "viewer",
        "# Spline curves are drawn in another way",
    ]
