"""Rules from held-out round 23 (issue 30, ninth pass): PDFs made by Microsoft Word's own export,
from public GitHub repositories. Each test fails with its rule taken out."""

from __future__ import annotations

import pypdfium2 as pdfium
from pdf_maker import Prose, make_pdf

from skills.formats.pdf.headings.bookmarks import from_bookmarks
from skills.formats.pdf.lines import read_page

BODY = ("Helvetica", 11.0)
BOLD = "Helvetica-Bold"
_PROSE = Prose(("ypp", "eww", "azz"), BODY)
paragraph = _PROSE.paragraph


def _pages(data: bytes) -> list:  # type: ignore[type-arg]
    pdf = pdfium.PdfDocument(data)
    return [read_page(pdf[i], i) for i in range(len(pdf))]


def test_a_numbered_heading_tagged_over_two_lines_is_found_with_its_number() -> None:
    # Word tags (and bookmarks) a wrapped numbered heading whole, number and all: the Portuguese
    # report's 'H2' '4.1. Apresentação geral da estrutura (esquema) do sistema de dados'
    data = make_pdf(
        [
            [
                ("4. Data design", BOLD, 18),
                *paragraph(),
                ("4.1. A general view of the structure (schema) of the", BOLD, 16),
                ("data system", BOLD, 16),
                *paragraph(),
            ]
        ]
    )
    pages = _pages(data)
    marks = {0: [(2, "4.1. A general view of the structure (schema) of the data system")]}
    found = from_bookmarks(pages, marks, set())
    assert [(h.text, h.lines) for h in found.values()] == [
        ("4.1. A general view of the structure (schema) of the data system", 2)
    ]
