"""The rules held-out round 18 asked for (docs/formats.md): report generators and PDF-writing
libraries no truth file had before (WeasyPrint, wkhtmltopdf, dompdf, fpdf2, pandoc's HTML), read
from their typography alone. Each test fails with its rule taken out."""

from __future__ import annotations

from pdf_maker import Prose, Spec, headings, make_pdf

from skills.formats.read import read_file

BODY = ("Times-Roman", 10.0)
_PROSE = Prose(("gy", "fw", "jh", "vq", "kx"), BODY)
paragraph = _PROSE.paragraph
BOLD, MONO, MONO_BOLD = "Helvetica-Bold", "Courier", "Courier-Bold"


def test_a_bold_monospaced_line_in_a_headings_type_is_a_heading_naming_code() -> None:
    # fontconfig's fonts-conf through WeasyPrint: its elements' headings, <fontconfig>,
    # <dir prefix="default" salt="">, in 14 pt bold DejaVu Sans Mono as its other subsections
    # are in 14 pt bold DejaVu Serif, over 12 pt text and 12 pt listings; code by their face,
    # they were all refused
    pages: list[list[Spec]] = [
        [
            ("The Configuration Manual", BOLD, 20, 72),
            ("Configuration File Format", BOLD, 14, 120),
            *paragraph(145),
            ('<?xml version="1.0"?>', MONO, 10, 215),
            ("<fontconfig>", MONO, 10, 230),
            ("</fontconfig>", MONO, 10, 245),
            ("<fontconfig>", MONO_BOLD, 14, 285),
            *paragraph(310),
            ('<dir prefix="default">', MONO_BOLD, 14, 390),
            *paragraph(415),
        ],
        [("Lang Tags", BOLD, 14, 72), *paragraph(100)],
    ]
    assert headings(pages) == [
        "# Configuration File Format", "# <fontconfig>", '# <dir prefix="default">',
        "# Lang Tags",
    ]  # fmt: skip


def test_a_bold_monospaced_line_that_reads_as_a_sentence_stays_code() -> None:
    # htmldoc's FAQ: "XPointer is undefined or unknown when I compile xfig" opens in Courier
    # bold (the line's face is its first word's) but is a question in words, not a name
    pages: list[list[Spec]] = [
        [
            ("The Questions Asked", BOLD, 20, 72),
            ("Compiling the Program", BOLD, 14, 120),
            *paragraph(145),
            ("make install", MONO, 10, 215),
            ("XPointer is undefined when I compile", MONO_BOLD, 14, 255),
            *paragraph(280),
        ],
    ]
    assert headings(pages) == ["# Compiling the Program"]


def test_a_heading_wrapped_at_a_loose_line_height_is_one_when_it_goes_on_in_lower_case() -> None:
    # pandoc's HTML through wkhtmltopdf keeps the page's line height in its headings:
    # "Notes on resolvability of user and group" / "names" 1.67 sizes apart, top to top, were
    # two headings (the wrap allowed 1.6)
    pages: list[list[Spec]] = [
        [
            ("Users and Groups", BOLD, 20, 72),
            ("Special Linux Ranges", BOLD, 14, 120),
            *paragraph(145),
            ("Notes on resolvability of user and group", BOLD, 14, 230),
            ("names", BOLD, 14, 252),
            *paragraph(280),
            ("Summary of the Ranges", BOLD, 14, 360),
            ("Considerations for Containers", BOLD, 14, 383.5),
            *paragraph(410),
        ],
    ]
    assert headings(pages) == [
        "# Special Linux Ranges", "# Notes on resolvability of user and group names",
        "# Summary of the Ranges", "# Considerations for Containers",
    ]  # fmt: skip


def test_the_title_said_again_as_the_first_heading_under_it_is_the_title() -> None:
    # pandoc's standalone HTML prints the front matter's title centred, then the document's own
    # top heading, the same words, at the margin: one title shown twice, not a section
    title = "Users, Groups and Their Ranges"
    pages: list[list[Spec]] = [
        [
            (title, BOLD, 20, 72, 180),
            (title, BOLD, 20, 120),
            *paragraph(150),
            ("Special Linux Ranges", BOLD, 14, 230),
            *paragraph(255),
        ],
        [("Summary of the Ranges", BOLD, 14, 72), *paragraph(100)],
    ]
    converted = read_file(make_pdf(pages), "document.pdf")
    assert converted.title == title
    assert headings(pages) == ["# Special Linux Ranges", "# Summary of the Ranges"]


def test_an_admonitions_label_set_in_from_the_margin_is_no_heading() -> None:
    # dompdf's print of xsltproc's DocBook man page: "Important" and "Note" in 14 pt bold, 65
    # pt in from the options' margin, over their indented paragraphs, were sections
    pages: list[list[Spec]] = [
        [
            ("The Options", BOLD, 20, 72),
            ("OPTIONS", BOLD, 14, 120),
            *paragraph(145),
            ("Important", BOLD, 12, 225, 140),
            ("The given directory must already exist before it is used.", *BODY, 250, 140),
            *paragraph(280),
            ("ENVIRONMENT", BOLD, 14, 360),
            *paragraph(385),
        ],
    ]
    assert headings(pages) == ["# OPTIONS", "# ENVIRONMENT"]


def test_a_section_named_like_an_admonition_at_the_margin_stays_a_heading() -> None:
    pages: list[list[Spec]] = [
        [
            ("The Options", BOLD, 20, 72),
            ("OPTIONS", BOLD, 14, 120),
            *paragraph(145),
            ("Warning", BOLD, 14, 225),
            *paragraph(250),
        ],
    ]
    assert headings(pages) == ["# OPTIONS", "# Warning"]


def test_a_heading_named_again_in_code_only_is_not_a_label_seen_again() -> None:
    # Ninja's manual through wkhtmltopdf: its subsections "depfile" and "deps" are named again
    # as Courier terms of its rule variables; with the contents entry, three sightings, and
    # both headings were refused as labels seen again and again
    pages: list[list[Spec]] = [
        [
            ("The Build Manual", BOLD, 20, 72),
            ("Header Dependencies", BOLD, 14, 120),
            *paragraph(145),
            ("depfile", BOLD, 12, 225),
            *paragraph(250),
        ],
        [
            ("Rule Variables", BOLD, 14, 72),
            *paragraph(100),
            ("depfile", MONO, 10, 170),
            ("The path to an optional Makefile of the dependencies.", *BODY, 185, 108),
            *paragraph(215),
            ("depfile", MONO, 10, 285),
            *paragraph(300),
        ],
    ]
    assert headings(pages) == ["# Header Dependencies", "## depfile", "# Rule Variables"]


_ENTRIES = ("Introduction", "Using the System", "Writing Your Files", "File Reference")


def _manual(first: str) -> list[list[Spec]]:
    """An HTML manual printed whole: ``first`` in its chapters' 20 pt atop page 1, over a
    linked contents list in the body's type, then the chapters."""
    contents: list[Spec] = [(entry, *BODY, 110 + 15 * n) for n, entry in enumerate(_ENTRIES)]
    return [
        [(first, BOLD, 20, 72), *contents, ("Introduction", BOLD, 20, 200), *paragraph(230)],
        [
            ("Using the System", BOLD, 20, 72),
            *paragraph(100),
            ("Writing Your Files", BOLD, 20, 200),
            *paragraph(230),
        ],
        [("File Reference", BOLD, 20, 72), *paragraph(100)],
    ]


def test_the_first_line_over_the_contents_is_the_title_though_chapters_are_as_large() -> None:
    # Ninja's manual through wkhtmltopdf: "The Ninja build system" in 32 px, as its chapters
    # are, over the linked list of them: read as the first chapter, no title
    pages = _manual("The Build System Manual")
    assert read_file(make_pdf(pages), "document.pdf").title == "The Build System Manual"
    assert headings(pages) == [
        "# Introduction", "# Using the System", "# Writing Your Files", "# File Reference",
    ]  # fmt: skip


def test_a_contents_heading_over_its_entries_is_no_title() -> None:
    pages = _manual("Table of Contents")
    assert read_file(make_pdf(pages), "document.pdf").title != "Table of Contents"
