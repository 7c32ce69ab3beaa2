"""The rules held-out round 24 asked for (docs/formats.md): PDFs from public repositories by
producers no truth file had before (FrameMaker, calibre, PowerPoint 2007 and 2010, beamer,
Go's present slides through cairo, an OCR layer, 3B2, the GPO's iText, a Hangul word
processor through Distiller), read from their typography alone. Each test fails with its rule
taken out."""

from __future__ import annotations

from pdf_maker import Prose, Spec, heading_lines, headings, make_pdf

from skills.formats.read import read_file

BODY = ("Times-Roman", 10.5)
BOLD = "Helvetica-Bold"
_PROSE = Prose(("zb", "xq", "vj", "qk", "wz"), BODY)
paragraph = _PROSE.paragraph


def _errata_page(chapter: str, section: str, pages: tuple[int, ...]) -> list[Spec]:
    """A page of an errata list: a chapter, a section, then one entry a corrected page, each
    ``Page N`` in bold over its instruction (Adobe's errata for the PDF Reference)."""
    lines: list[Spec] = [(chapter, BOLD, 18, 72), (section, BOLD, 15, 100)]
    top = 130.0
    for number in pages:
        lines += [(f"Page {number}", BOLD, 11, top), *paragraph(top + 20)]
        top += 90
    return lines


def test_a_page_named_past_the_documents_last_page_heads_its_entry() -> None:
    # "Page 48" in a document of two pages cannot be a page label ("PAGE 1", refused): it
    # names the corrected document's page, and heads the correction under it
    pages = [
        [("Errata for the Reference", BOLD, 24, 72), *paragraph(120), *paragraph(200)],
        _errata_page("Chapter 3, Syntax", "3.2, Objects", (48, 59)),
    ]
    assert [line.lstrip("# ") for line in headings(pages)] == [
        "Chapter 3, Syntax", "3.2, Objects", "Page 48", "Page 59",
    ]  # fmt: skip


def test_a_page_label_within_the_documents_pages_is_still_no_heading() -> None:
    # the guard: "Page 2" in bold in a document of three pages may be its own page's label
    pages = [
        [("A Short Guide", BOLD, 24, 72), *paragraph(120), *paragraph(200)],
        [("Setting up", BOLD, 15, 72), *paragraph(100), ("Page 2", BOLD, 11, 190), *paragraph(210)],
        [("Running", BOLD, 15, 72), *paragraph(100), *paragraph(200)],
    ]
    assert headings(pages) == ["# Setting up", "# Running"]


def test_a_chapter_a_section_and_a_page_entry_in_a_row_are_no_run_of_labels() -> None:
    # three unnumbered headings one under the other with no text between are a diagram's
    # labels or a cover's lines, and all were dropped; a "Page 232" entry is numbered
    pages = [
        [("Errata for the Reference", BOLD, 24, 72), *paragraph(120), *paragraph(200)],
        [("Chapter 4, Graphics", BOLD, 18, 72), ("Section 4.4, Paths", BOLD, 15, 100),
         ("Page 232", BOLD, 11, 125), *paragraph(145)],
    ]  # fmt: skip
    assert [line.lstrip("# ") for line in headings(pages)] == [
        "Chapter 4, Graphics", "Section 4.4, Paths", "Page 232",
    ]  # fmt: skip


def test_page_entries_in_turn_stay_on_a_page_crowded_with_headings() -> None:
    # a chapter, a section and eight entries: more than eight headings make a page a form's,
    # whose body-size labels go; entries whose pages go up are an errata list's
    pages = [
        [("Errata for the Reference", BOLD, 24, 72), *paragraph(120), *paragraph(200)],
        [("Chapter 3, Syntax", BOLD, 18, 40), ("3.1, Lexical Conventions", BOLD, 15, 62)]
        + [
            line
            for n, number in enumerate((48, 59, 90, 98, 115, 120, 122, 129))
            for line in (
                (f"Page {number}", BOLD, 11, 85 + 85 * n),
                *paragraph(100 + 85 * n),
            )
        ],
    ]
    found = [line.lstrip("# ") for line in headings(pages)]
    assert found[2:] == [f"Page {n}" for n in (48, 59, 90, 98, 115, 120, 122, 129)]


SLIDE = (720.0, 540.0)
_POINTS = Prose(("kz", "qj", "xv", "zw", "jb"), ("Helvetica", 20.0))


def _deck_headings(slides: list[list[Spec]]) -> list[str]:
    """The slides' headings after the first slide's (which may be the deck's title or a heading:
    not what these tests are about)."""
    found = heading_lines(read_file(make_pdf(slides, SLIDE), "deck.pdf").text)
    return [line.lstrip("# ") for line in found][1 - len(slides) :]


def _slide(title: str, banner: str = "") -> list[Spec]:
    top: list[Spec] = [(banner, "Helvetica", 12, 20)] if banner else []
    return [*top, (title, BOLD, 32, 50), *_POINTS.paragraph(130)]


def test_a_slide_title_repeated_on_three_slides_is_each_slides_title() -> None:
    # beamer repeats a frame's title on each page of a frame that goes on: at one place on
    # three slides, the running header's test took it, and the slide's first point stood in
    titles = ["Go in a Nutshell", "Functions", "Concurrent Programming", "Concurrent Programming",
              "Concurrent Programming", "Channels", "Interfaces", "Next Time"]  # fmt: skip
    assert _deck_headings([_slide(title) for title in titles]) == titles[1:]


def test_a_banner_on_every_slide_is_still_no_title() -> None:
    # the guard: a conference's name atop every slide, over each slide's own title
    titles = ["Go in a Nutshell", "Functions", "Methods", "Channels", "Interfaces"]
    assert _deck_headings([_slide(title, "GopherCon Europe") for title in titles]) == titles[1:]
