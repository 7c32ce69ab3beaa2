"""The rules held-out round 19 asked for (docs/formats.md): Word-family PDFs on templates no
truth file had before (a Word contract through Distiller, a page printed by macOS's Quartz, a
DokuWiki page through mPDF, OpenOffice and LibreOffice manuals typed by direct formatting), read
from their typography alone. Each test fails with its rule taken out."""

from __future__ import annotations

from pdf_maker import Prose, Spec, heading_lines, headings, make_pdf
from test_pdf_word_essay_rules import underlined

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


def _article(*head: Spec) -> list[list[Spec]]:
    """A two-page article: the lines under test atop page 1 over its text, a bold
    ``Bibliography`` on page 2 over the references."""
    return [
        [*head, *paragraph(170), *paragraph(250), *paragraph(330)],
        [*paragraph(72), ("Bibliography", "Times-Bold", 12, 160), *paragraph(185)],
    ]


def test_a_title_line_that_fills_the_text_width_goes_on_in_the_next() -> None:
    # an article typed in Word's look, through OpenOffice: "INVERTED HONOR: A READING OF THE
    # LIFE OF ESTEBANILLO" / "GONZÁLEZ" in 14 pt bold, no joining word; the second line alone
    # was a heading over the whole article
    bold = "Times-Bold"
    pages = _article(
        ("ROGUES AND HONOUR: A READING OF THE LIFE OF ESTEBAN", bold, 14, 72),
        ("GONZALEZ", bold, 14, 94),
    )
    converted = read_file(make_pdf(pages), "document.pdf")
    assert converted.title == "ROGUES AND HONOUR: A READING OF THE LIFE OF ESTEBAN GONZALEZ"
    assert headings(pages) == ["# Bibliography"]


def test_a_short_title_line_is_no_part_of_the_title_line_under_it() -> None:
    # the wrap is read only off a full line: a short title keeps its own line (a second heading
    # in the title's type stays one)
    bold = "Times-Bold"
    pages = _article(("Rogues and Honour", bold, 14, 72), ("The Picaro", bold, 14, 94))
    assert read_file(make_pdf(pages), "document.pdf").title == "Rogues and Honour"


def test_an_authors_name_marked_for_a_footnote_goes_with_the_title() -> None:
    # the same article: "Na'aman Hirschfeld¹" in bold 12 pt set right, a line and a half under
    # the title; read as a heading it held every child of the article
    bold = "Helvetica-Bold"
    pages = _article(
        ("A Reading of the Rogue's Life", bold, 16, 72),
        ("Ana Ruiz", bold, 12, 112, 380),
        ("1", bold, 7, 111, 430.5),
    )
    assert headings(pages) == ["# Bibliography"]


def test_a_contracts_clause_titles_end_in_a_full_stop() -> None:
    # a Word contract through PScript5 and Distiller 9.3: "1. DUTIES.", "17. MODIFICATION OF
    # AGREEMENT." in bold capitals of the body's size over each clause's text
    bold = "Times-Bold"
    pages = [
        [("1. DUTIES.", bold, 11, 72), *paragraph(90), ("2. PAYMENT TERMS.", bold, 11, 170),
         *paragraph(188), ("3. TERM OF THIS AGREEMENT.", bold, 11, 268), *paragraph(286)],
    ]  # fmt: skip
    assert headings(pages) == [
        "# 1. DUTIES.", "# 2. PAYMENT TERMS.", "# 3. TERM OF THIS AGREEMENT.",
    ]  # fmt: skip


def test_a_bold_note_in_square_brackets_is_no_heading() -> None:
    # cd-hit's guide: "[CD-HIT-PARA is no longer supported, since the multi-threaded cd-hit
    # become available.]" in bold under the program's heading
    bold = "Times-Bold"
    pages = [
        [("A Guide to the Clustering Tools", bold, 20, 40), ("Overview of the tools", bold, 14, 72),
         *paragraph(95),
         ("[This tool is no longer kept, since the threaded one does its work.]", bold, 11, 175),
         *paragraph(193), ("Incremental runs", bold, 14, 268), *paragraph(290)],
    ]  # fmt: skip
    assert headings(pages) == ["# Overview of the tools", "# Incremental runs"]


def test_an_underlined_web_address_is_a_link_not_a_heading() -> None:
    # LibreOffice's ExaML manual cites a paper by its address, underlined alone on its line,
    # among headings Word-style made by underlining the body's text
    link = "http://www.example.org/content/346/6215/1320.abstract"
    pages = [
        [("Timing Problems", *BODY, 72), *paragraph(90), (link, *BODY, 170), *paragraph(188),
         ("Unused Paths", *BODY, 268), *paragraph(286)],
    ]  # fmt: skip
    data = underlined(make_pdf(pages), ["Timing Problems", link, "Unused Paths"])
    text = read_file(data, "manual.pdf").text
    assert heading_lines(text) == ["# Timing Problems", "# Unused Paths"]


def test_a_section_numbered_in_two_levels_and_set_larger_may_end_in_a_colon() -> None:
    # an OpenOffice 3.2 specification: "2.1 Basic IGate rules:", "2.2 Low-Level Transmission
    # Rules:" in 14 pt bold over 11 pt text, as its heading styles wrote them
    bold = "Helvetica-Bold"
    pages = [
        [("2 Treatment rules", bold, 16, 72), *paragraph(98),
         ("2.1 Basic gateway rules:", bold, 14, 170), *paragraph(192),
         ("2.2 Low-level transmission rules:", bold, 14, 268), *paragraph(290)],
        [("2.3 Receiving rules", bold, 14, 72), *paragraph(94)],
    ]  # fmt: skip
    assert headings(pages) == [
        "# 2 Treatment rules", "## 2.1 Basic gateway rules:",
        "## 2.2 Low-level transmission rules:", "## 2.3 Receiving rules",
    ]  # fmt: skip


def test_an_unnumbered_label_set_larger_still_ends_in_its_colon() -> None:
    bold = "Helvetica-Bold"
    pages = [
        [("The Gateway Specification", bold, 22, 36), ("Basic rules", bold, 16, 72),
         *paragraph(98), ("Before you start:", bold, 14, 170),
         *paragraph(192), ("Transmission", bold, 16, 268), *paragraph(290)],
    ]  # fmt: skip
    assert headings(pages) == ["# Basic rules", "# Transmission"]
