"""The rules held-out round 13 asked for (docs/formats.md): producer families no truth file had
before (groff -ms through ps2pdf, an HTML page through cairo, InDesign, a PowerPoint deck,
ConTeXt, OpTeX, minim), read from their typography alone. Each test fails with its rule taken
out."""

from __future__ import annotations

from pdf_maker import Prose, Spec, heading_lines, headings, make_pdf

from skills.formats.read import read_file

BODY = ("Times-Roman", 10.0)
_PROSE = Prose(("yq", "ezh", "ojt", "uxb", "iwd"), BODY)
paragraph = _PROSE.paragraph


def test_a_chapter_line_over_its_name_is_one_heading_and_keeps_its_number() -> None:
    # OpTeX sets "Chapter 1" over "User documentation" in one 17 pt bold type: the first line
    # was taken as a heading, then again as the start of the second; its number counted twice
    # read as a numbered list starting again, and both chapters were dropped
    def chapter(number: int, name: str) -> list[Spec]:
        return [
            (f"Chapter {number}", "Times-Bold", 17, 72),
            (name, "Times-Bold", 17, 98),
            (f"{number}.1 Getting the {name.split()[0].lower()} ready", "Times-Bold", 14, 130),
            *paragraph(160),
            (f"{number}.2 Using the {name.split()[0].lower()}", "Times-Bold", 14, 240),
            *paragraph(270),
        ]

    pages = [chapter(1, "User documentation"), chapter(2, "Technical documentation")]
    assert headings(pages) == [
        "# Chapter 1 User documentation", "## 1.1 Getting the user ready", "## 1.2 Using the user",
        "# Chapter 2 Technical documentation", "## 2.1 Getting the technical ready",
        "## 2.2 Using the technical",
    ]  # fmt: skip


def test_a_heading_that_opens_with_a_date_is_not_numbered_by_its_day() -> None:
    # Charis SIL's version history (an HTML page through cairo) heads each release
    # "9 Feb 2022 (SIL WSTech Team) Charis SIL version 6.101": read as sections 9, 2, 29, 27...
    # the days made a numbered list that starts again, and every release heading was dropped
    def release(day: str, version: str, top: float, change: str) -> list[Spec]:
        return [
            (f"{day} (Type Team) Widget Sans version {version}", "Helvetica-Bold", 14, top),
            (change, "Helvetica-Bold", 11, top + 25),
            *paragraph(top + 45),
        ]

    pages = [
        release("12 Mar 2021", "2.000", 72, "New") + release("3 Jan 2020", "1.100", 200, "Fixes"),
        release("27 Oct 2014", "1.000", 72, "Improved")
        + release("10 Jun 2013", "0.900", 200, "Known issues"),
    ]
    assert headings(pages) == [
        "# 12 Mar 2021 (Type Team) Widget Sans version 2.000", "## New",
        "# 3 Jan 2020 (Type Team) Widget Sans version 1.100", "## Fixes",
        "# 27 Oct 2014 (Type Team) Widget Sans version 1.000", "## Improved",
        "# 10 Jun 2013 (Type Team) Widget Sans version 0.900", "## Known issues",
    ]  # fmt: skip


def test_text_drawn_twice_over_itself_is_read_once() -> None:
    # An InDesign brochure (langchain's duplicate-chars.pdf) draws every text frame twice at
    # the same place: the page's text was written twice, and each line was a line seen again
    page: list[Spec] = [("Portable detectors", "Helvetica-Bold", 16, 72), *paragraph(100),
                        ("Features", "Helvetica-Bold", 16, 180), *paragraph(210)]  # fmt: skip
    text = read_file(make_pdf([page + page]), "brochure.pdf").text
    assert [line for line in text.splitlines() if line.strip()] == [
        line for line in dict.fromkeys(text.splitlines()) if line.strip()
    ]  # no line twice
    assert heading_lines(text) == ["# Features"]  # (the title)


def test_a_tables_first_cells_set_larger_than_their_values_are_no_headings() -> None:
    # The InDesign data sheet sets each row's label in 8 pt over two lines beside its 7 pt
    # value on the first line's baseline: PDFium wrote each label line as a line of its own,
    # and "Sampling" / "method" was a heading. A heading stands alone on its baseline
    rows = [("Sampling", "method", "Drawn by its pump at about 0.3 litres a minute"),
            ("Operating", "humidity", "From none to 95 per cent, not condensing"),
            ("Water and dust", "proofing", "Equivalent to the rating IP 67")]  # fmt: skip
    table: list[Spec] = []
    for n, (first, second, value) in enumerate(rows):
        top = 200 + 40 * n
        table += [(first, "Helvetica", 12, top), (second, "Helvetica", 12, top + 15),
                  (value, "Helvetica", 10, top + 2, 170)]  # fmt: skip
    pages = [
        [("Technical data", "Helvetica-Bold", 16, 72), *paragraph(100), *table],
        [("Ordering", "Helvetica-Bold", 16, 72), *paragraph(100)],
    ]
    assert headings(pages) == ["# Technical data", "# Ordering"]


def test_words_set_a_space_apart_without_a_space_are_two_words() -> None:
    # groff's ms through ps2pdf moves to some words instead of writing a space: PDFium read
    # "2.4.3. Associating aDocument View", which matched no true heading and no search for
    # "document"
    def heading(number: str, first: str, second: str, top: float, right: float) -> list[Spec]:
        return [
            (f"{number} {first}", "Times-Bold", 13, top),
            (second, "Times-Bold", 13, top, right + 2.0),  # 0.15 em off, no space written
        ]

    pages = [
        [*heading("1.", "Creating a", "Document Outline", 72, _right_edge("1. Creating a")),
         *paragraph(100),
         *heading("2.", "Linking a", "Reference Mark", 180, _right_edge("2. Linking a")),
         *paragraph(210)],
    ]  # fmt: skip
    assert headings(pages) == ["# 1. Creating a Document Outline", "# 2. Linking a Reference Mark"]


def _right_edge(text: str, font: str = "Times-Bold") -> float:
    """Where ``text`` in 13 pt ``font`` ends on the page, set at the left margin."""
    import pypdfium2 as pdfium

    from skills.formats.pdf.lines import read_page

    document = pdfium.PdfDocument(make_pdf([[(text, font, 13, 72)]]))
    return read_page(document[0], 0).lines[0].right


def _listing(top: float, lines: int) -> list[Spec]:
    return [
        (f"local function step_{n} (state, rotor) return state.rotors[rotor] + {n} end", "Courier",
         8, top + 10 * n)
        for n in range(lines)
    ]  # fmt: skip


def test_listings_that_outweigh_the_prose_leave_the_prose_as_the_body() -> None:
    # ConTeXt's enigma manual, a literate program, sets 57 % of its characters in 8 pt listings:
    # read from them, the body was 8 pt and every short line of its 10 pt prose "larger"
    def page(name: str) -> list[Spec]:
        return [
            (name, "Times-Bold", 12, 72),
            *paragraph(95),
            *_listing(160, 6),
            ("at the Lua end, not much to see here", *BODY, 225),
            *_listing(250, 6),
        ]

    pages = [page("Prerequisites"), page("Encoding macros"), page("Rotation")]
    assert headings(pages) == ["# Prerequisites", "# Encoding macros", "# Rotation"]


def with_font_renamed(data: bytes, font: str, name: str) -> bytes:
    """``data`` with a standard font's name replaced by ``name`` of the same length (offsets
    stay right): PDFium reads the new name and draws a substitute."""
    assert len(font) == len(name)
    return data.replace(f"/{font}".encode(), f"/{name}".encode())


def test_a_line_in_small_capitals_set_apart_is_a_heading() -> None:
    # The enigma manual sets its sections in a small-capitals face (LMRomanCaps10) at the
    # body's size, centred: no larger, no bolder, they were no headings
    def section(name: str, top: float) -> list[Spec]:
        return [(name, "Helvetica-Oblique", 10, top, 200), *paragraph(top + 20)]

    pages = [
        [*section("loading the module", 72), *section("options explained", 160)],
        [*section("basic functionality", 72), *section("uses and abuses", 160)],
    ]
    data = with_font_renamed(make_pdf(pages), "Helvetica-Oblique", "LMRomanCaps10-Reg")
    text = read_file(data, "manual.pdf").text
    assert heading_lines(text) == [
        "# loading the module", "# options explained", "# basic functionality",
        "# uses and abuses",
    ]  # fmt: skip


SLIDE = (720.0, 540.0)  # PowerPoint's 4:3 slide


def test_a_decks_headings_are_its_slides_titles() -> None:
    # A report deck saved by PowerPoint: each slide opens with an action title over two lines
    # in 24 pt (a bold label, then plain words) and holds boxes headed by bold 18 pt labels;
    # the labels and the titles' second lines were 144 wrong headings
    def slide(label: str, rest: str, more: str, box: str) -> list[Spec]:
        word = _PROSE.word()
        return [
            (f"{label} {rest}", "Helvetica-Bold", 24, 30, 20),
            (more, "Helvetica", 24, 58, 20),
            (box, "Helvetica-Bold", 18, 130, 40),
            *[(f"- The {word} point number {n} says what the box holds", "Helvetica", 14,
               160 + 20 * n, 40) for n in range(4)],
            ("Outcomes to Date", "Helvetica-Bold", 18, 130, 380),
            *[(f"- The {word} outcome number {n} reached by the district", "Helvetica", 14,
               160 + 20 * n, 380) for n in range(4)],
        ]  # fmt: skip

    pages: list[list[Spec]] = [
        [("Research to Action", "Helvetica", 36, 200, 200)],
        [("1 | Summary", "Helvetica", 40, 250, 50)],
        slide("Root cause #1:", "Faculty may lack the expertise", "in teaching reading", "Data"),
        slide("Root cause #2:", "States give minimal guidance", "about their methods", "Policy"),
        slide("Root cause #3:", "Coaching in early literacy", "is limited in schools", "Capacity"),
    ]
    text = read_file(make_pdf(pages, SLIDE), "deck.pdf").text
    assert heading_lines(text) == [
        "# 1 | Summary",
        "## Root cause #1: Faculty may lack the expertise in teaching reading",
        "## Root cause #2: States give minimal guidance about their methods",
        "## Root cause #3: Coaching in early literacy is limited in schools",
    ]


def test_a_heading_wrapped_after_a_dash_joins_its_words_without_a_space() -> None:
    # The deck's "Reading is not a skill that is naturally developed, like speaking—" /
    # "reading must be taught" read "speaking— reading"
    pages = [
        [("Research to Action", "Helvetica-Bold", 24, 72), *paragraph(110)],
        [("Reading is not a skill, like speaking—", "Helvetica-Bold", 16, 72),
         ("reading must be taught", "Helvetica-Bold", 16, 92), *paragraph(120),
         ("Decoding and comprehension", "Helvetica-Bold", 16, 200), *paragraph(228)],
    ]  # fmt: skip
    assert headings(pages) == [
        "# Reading is not a skill, like speaking—reading must be taught",
        "# Decoding and comprehension",
    ]


def test_capitals_spaced_out_for_show_stay_one_word() -> None:
    # InDesign sets the book's sidebar titles in tracked capitals: PDFium put a space of its own
    # in a wider gap between two letters, "CR ATES VS. PACKAGES" (the file's own spaces stay)
    def heading(first: str, rest: str, top: float) -> list[Spec]:
        return [
            (first, "Helvetica-Bold", 13, top),
            (rest, "Helvetica-Bold", 13, top, _right_edge(first, "Helvetica-Bold") + 2.5),
        ]

    pages = [
        [*heading("CR", "ATES VS. PACKAGES", 72), *paragraph(100),
         *heading("PROFILE OVERR", "IDES AT LARGE", 180), *paragraph(210)],
    ]  # fmt: skip
    text = read_file(
        make_pdf([[("Rust for Rustaceans", "Helvetica-Bold", 24, 72)], *pages]), "b.pdf"
    )
    assert heading_lines(text.text) == [
        "# CRATES VS. PACKAGES", "# PROFILE OVERRIDES AT LARGE"
    ]  # fmt: skip
