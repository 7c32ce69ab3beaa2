"""Rules for known misses that are classes (issue 30, ninth pass): headings a bilingual handbook
sets side by side in two columns, underlined in the body's type or in a one-row banner; titles a
document sets in its headings' own type or names by a template's placeholder; contents lists and
labels read as headings. Each test fails with its rule taken out."""

from __future__ import annotations

from pdf_maker import Prose, Spec, heading_lines, make_pdf, with_title
from test_pdf_word_essay_rules import underlined

from skills.formats.read import read_file

BODY = ("Helvetica", 10.0)
BOLD = "Helvetica-Bold"
_PROSE = Prose(("ezz", "iqq", "oww"), BODY)

_LEFT, _RIGHT = 40.0, 310.0  # the two columns' left edges (a US letter page 612 pt wide)


def _column_section(title: str, top: float, left: float) -> list[Spec]:
    """A bold section title over three short lines of prose, all inside one column."""
    word = _PROSE.word()
    lines = [
        f"The {word} rule applies to staff who",
        f"work at {word} sites in every state,",
        f"as the {word} office sets it out.",
    ]
    section: list[Spec] = [(title, BOLD, 10.0, top, left)]
    section += [(line, *BODY, top + 13 * (n + 1), left) for n, line in enumerate(lines)]
    return section


def test_a_page_in_two_columns_may_hold_twice_a_pages_headings() -> None:
    # the bilingual handbook (Word for Microsoft 365) sets each section in English and Spanish
    # side by side: a page of five short sections a column has ten bold titles, more than the
    # eight a page of labels is refused at (a form's fields), and all ten were dropped (18 of the
    # handbook's section titles)
    english = ("Payroll Rules", "Social Insurance", "Jobless Insurance", "Wage Orders", "Care Act")
    spanish = ("Reglas de pago", "Seguro social", "Seguro de paro", "Embargo", "Ley de salud")
    page: list[Spec] = []
    for n, (left_title, right_title) in enumerate(zip(english, spanish, strict=True)):
        top = 72 + 70 * n
        page += _column_section(left_title, top, _LEFT) + _column_section(right_title, top, _RIGHT)
    found = heading_lines(read_file(make_pdf([page]), "handbook.pdf").text)
    assert sorted(found) == sorted(f"# {title}" for title in english + spanish)


def test_a_page_of_one_column_with_a_dozen_bold_labels_is_still_crowded() -> None:
    # the limit stands where the page is one column: ten bold one-line labels, each over two
    # short lines, are a form's or a glossary's entries
    page: list[Spec] = []
    for n in range(10):
        page += _column_section(f"Entry Name {chr(65 + n)}", 72 + 66 * n, _LEFT)[:3]
    assert heading_lines(read_file(make_pdf([page]), "form.pdf").text) == []


def _underlined_page(names: list[str], gap: float) -> list[Spec]:
    """Paragraphs 15 pt a line, each after the first under an underlined name ``gap`` points
    below the paragraph's last line (1.3 lines: a paragraph's space, no more)."""
    page: list[Spec] = [*_PROSE.paragraph(72)]
    top = 72 + 45.0
    for name in names:
        page += [(name, *BODY, top + gap), *_PROSE.paragraph(top + gap + 15)]
        top += gap + 15 + 45
    return page


def test_underlined_subheadings_a_paragraphs_space_under_the_text_are_headings() -> None:
    # the bilingual handbook underlines its subheadings in the body's regular type, each a
    # paragraph's space (1.3 to 1.5 lines) under the paragraph before it, as its paragraphs
    # stand apart: the underline rule wanted 1.6 lines, and 90 of them were not found
    names = ["Drug Testing Rules", "Reasonable Suspicion", "Minimum Wage Rules"]
    pages = [_underlined_page(names, 20.0), [*_PROSE.paragraph(72)]]
    text = read_file(underlined(make_pdf(pages), names), "handbook.pdf").text
    assert heading_lines(text) == [f"# {name}" for name in names]


def test_an_underlined_line_right_under_a_larger_heading_is_a_heading() -> None:
    # 'Our Story' underlined in 10 pt right under the 12 pt bold 'Welcome to Centro!'
    names = ["Our Story", "Our Work"]
    page: list[Spec] = [("Welcome to Centro", BOLD, 13.0, 72), ("Our Story", *BODY, 90)]
    page += [*_PROSE.paragraph(105), ("Our Work", *BODY, 185), *_PROSE.paragraph(200)]
    pages = [_PROSE.paragraph(72), page, _PROSE.paragraph(72)]
    text = read_file(underlined(make_pdf(pages), names), "h.pdf").text
    assert heading_lines(text) == ["# Welcome to Centro", "## Our Story", "## Our Work"]


def test_an_underlined_sentence_that_goes_on_below_is_no_heading() -> None:
    # 'The health and safety of children, families, and staff are' underlined whole, its
    # sentence going on in the next line: stressed words, not a heading
    stressed = ["Staff must keep their status", "Every visitor signs the book"]
    page: list[Spec] = [*_PROSE.paragraph(72)]
    for n, line in enumerate(stressed):
        top = 160 + 110 * n
        page += [(line, *BODY, top), ("up to date in the office log.", *BODY, top + 15)]
        page += _PROSE.paragraph(top + 35)
    text = read_file(underlined(make_pdf([page, _PROSE.paragraph(72)]), stressed), "s.pdf").text
    assert heading_lines(text) == []


def test_a_list_of_underlined_links_is_no_heading() -> None:
    # xfig's manual lists its chapters' links underlined one under the other after a paragraph
    # ('Circles and Ellipses', 'Spline Curves', 'Polylines'): the first of them stood a
    # paragraph's space under a sentence's end
    links = [
        "Circles and Ellipses", "Spline Curves", "Polyline Shapes", "Arc Boxes",
        "Regular Polygons", "Rectangular Boxes", "Picture Objects", "Text Objects",
    ]  # fmt: skip
    page: list[Spec] = [*_PROSE.paragraph(72)]
    page += [(link, *BODY, 157 + 26 * n, 100) for n, link in enumerate(links)]
    pages = [page, _underlined_page(["Drawing Modes"], 20.0), _underlined_page(["Editing"], 20.0)]
    text = read_file(
        underlined(make_pdf(pages), [*links, "Drawing Modes", "Editing"]), "l.pdf"
    ).text
    assert heading_lines(text) == ["# Drawing Modes", "# Editing"]


def test_an_underlined_heading_wrapped_over_two_lines_is_one_heading() -> None:
    # 'Personal de administración de la familia, salud y' / 'bienestar', each line underlined
    names = ["Staff of the family, health and", "Family Services Staff"]
    page: list[Spec] = [*_PROSE.paragraph(72)]
    page += [(names[0], *BODY, 137), ("wellness offices", *BODY, 152), *_PROSE.paragraph(167)]
    page += [(names[1], *BODY, 247), *_PROSE.paragraph(262)]
    data = underlined(make_pdf([page, _PROSE.paragraph(72)]), [*names, "wellness offices"])
    assert heading_lines(read_file(data, "w.pdf").text) == [
        "# Staff of the family, health and wellness offices", "# Family Services Staff",
    ]  # fmt: skip


def _chapters(first: list[Spec], numbered: bool = True) -> list[list[Spec]]:
    """A first page opening with ``first``, then chapters in 11 pt bold, the body's size."""
    names = ("Scope of Cover", "Returns and Refunds", "Repairs in Store")
    pages: list[list[Spec]] = []
    for n, name in enumerate(names, 1):
        chapter: Spec = (f"Chapter {n}: {name}" if numbered else name, BOLD, 10.0)
        pages.append([*(first if n == 1 else []), chapter, *_PROSE.paragraph()])
    return pages


def test_a_first_line_in_the_numbered_chapters_type_is_the_title() -> None:
    # the printed policy manual (Microsoft Print to PDF): 'FictionalTech Global Corporate
    # Policies & Procedures Manual' bold at the body's 12 pt atop page one, over 'Chapter 1:
    # Introduction ...' in the same type, no metadata title: no title, and a first heading over
    # every chapter
    converted = read_file(
        make_pdf(_chapters([("Harbour Works Policy Manual", BOLD, 10.0)])), "p.pdf"
    )
    assert converted.title == "Harbour Works Policy Manual"
    assert heading_lines(converted.text) == [
        "# Chapter 1: Scope of Cover", "# Chapter 2: Returns and Refunds",
        "# Chapter 3: Repairs in Store",
    ]  # fmt: skip


def test_a_first_line_right_over_a_heading_of_its_type_is_the_title() -> None:
    # pdfTeX's FASTA guide: 'The FASTA program package' over 'Introduction', both 14.3 pt bold
    first: list[Spec] = [("The Harbour Program Package", BOLD, 14.0)]
    pages = _chapters(first, numbered=False)
    pages[0][1] = ("Introduction", BOLD, 14.0)
    pages[1][0] = ("Installing", BOLD, 14.0)
    converted = read_file(make_pdf(pages), "guide.pdf")
    assert converted.title == "The Harbour Program Package"
    assert heading_lines(converted.text)[:2] == ["# Introduction", "# Installing"]


def test_a_front_matter_heading_atop_page_one_stays_a_heading() -> None:
    # an unnumbered 'Executive Summary' before numbered chapters in its type names a part of
    # the document, not the document
    converted = read_file(make_pdf(_chapters([("Executive Summary", BOLD, 10.0)])), "r.pdf")
    assert converted.title is None
    assert heading_lines(converted.text)[0] == "# Executive Summary"


def test_a_metadata_title_with_a_templates_placeholder_is_the_cover_line_that_fills_it() -> None:
    # RUP's Word template keeps its Title property 'Use-Case-Realization Specification:
    # <Use-Case Name>' while the cover shows '... <Platz-buchen>'; the template's title, left
    # unfilled atop page 2 over two lines, was read as a heading
    cover: list[Spec] = [
        ("<Company Name>", BOLD, 18.0, 72),
        ("Use-Case Specification: <Seat booking>", BOLD, 18.0, 300),
        ("Version <1.0>", BOLD, 14.0, 340), *_PROSE.paragraph(400),
    ]  # fmt: skip
    body: list[Spec] = [
        ("Use-Case Specification: <Use-Case", BOLD, 18.0, 90), ("Name>", BOLD, 18.0, 112),
        ("1. Introduction", BOLD, 12.0, 140), *_PROSE.paragraph(160),
        ("2. Flow of Events", BOLD, 12.0, 240), *_PROSE.paragraph(260),
    ]  # fmt: skip
    data = with_title(make_pdf([cover, body]), "Use-Case Specification: <Use-Case Name>")
    converted = read_file(data, "ucrs.pdf")
    assert converted.title == "Use-Case Specification: <Seat booking>"
    assert heading_lines(converted.text) == ["# 1. Introduction", "# 2. Flow of Events"]


def test_chapters_numbered_like_the_pages_they_open_are_no_running_header() -> None:
    # one chapter a page, each opening its page at one place in 16 pt bold, numbered as the page
    # is ('3 Configuring' atop page 3): the page-number rule took them all for a running header
    # carrying the page's number, and the guide had no heading
    names = ["Overview", "Installing", "Configuring", "Running", "Upgrading"]
    pages = [
        [(f"{n} {name}", BOLD, 16.0), *_PROSE.paragraph(), *_PROSE.paragraph()]
        for n, name in enumerate(names, 1)
    ]
    converted = read_file(make_pdf(pages), "guide.pdf")
    assert heading_lines(converted.text) == [f"# {n} {name}" for n, name in enumerate(names, 1)]


def test_a_list_of_the_documents_parts_by_label_refers_to_them() -> None:
    # an IEEE project plan printed from Word lists its parts under '1.8 Document Structure' in
    # bold body type, each over a sentence ('Section 3: Managerial Process Plan' / 'In this
    # section we define...'), and sets them as chapters in 13.7 pt ('3. Managerial Process
    # Plans'): six wrong headings, each holding the sentences about its part
    parts = ["Project Overview", "Project Organization", "Managerial Process Plan"]
    listing: list[Spec] = [("1.8 Document Structure", BOLD, 12.0), *_PROSE.paragraph()]
    for n, part in enumerate(parts, 1):
        listing += [(f"Section {n}: {part}", BOLD, 10.0), *_PROSE.paragraph()]
    names = ["Project Overview", "Project Organization", "Managerial Process Plans"]
    chapters = [
        [(f"{n}. {name}", BOLD, 14.0), *_PROSE.paragraph()] for n, name in enumerate(names, 1)
    ]
    converted = read_file(make_pdf([chapters[0], listing, *chapters[1:]]), "plan.pdf")
    assert heading_lines(converted.text) == [
        "# 1. Project Overview", "## 1.8 Document Structure", "# 2. Project Organization",
        "# 3. Managerial Process Plans",
    ]  # fmt: skip
