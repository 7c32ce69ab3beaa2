"""Rules from held-out round 23 (issue 30, ninth pass): PDFs made by Microsoft Word's own export,
from public GitHub repositories. Each test fails with its rule taken out."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from pdf_maker import Prose, headings, make_pdf

import skills.formats.pdf.convert as pdf_convert
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


def test_sections_numbered_under_a_one_level_outline_are_headings_under_its_chapters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Word bookmarks the paragraphs styled as headings only: the test plan's ten chapters,
    # none of its 41 sections set bold by hand ('1.1 Objectives', '5.1.1.1 Login Interface')
    pages = [
        [("1. INTRODUCTION", BOLD, 14), *paragraph(), ("1.1 Objectives", BOLD, 11),
         *paragraph(), ("1.2 Scope", BOLD, 11), *paragraph()],
        [("2. APPROACH", BOLD, 14), *paragraph(), ("2.1 Component Testing", BOLD, 11),
         *paragraph(), ("2.1.1 Login Interface", BOLD, 11), *paragraph(),
         ("Notes on the approach", BOLD, 11), *paragraph()],
    ]  # fmt: skip
    marks = {0: [(1, "1. Introduction")], 1: [(1, "2. Approach")]}
    monkeypatch.setattr(pdf_convert, "_bookmarks", lambda _pdf: marks)
    assert headings(pages, isolated=False) == [
        "# 1. INTRODUCTION", "## 1.1 Objectives", "## 1.2 Scope",
        "# 2. APPROACH", "## 2.1 Component Testing", "### 2.1.1 Login Interface",
    ]  # fmt: skip
    # an outline of two levels is the author's whole outline: nothing is added to it
    marks = {0: [(1, "1. Introduction")], 1: [(1, "2. Approach"), (2, "2.1 Component Testing")]}
    found = headings(pages, isolated=False)
    assert "## 1.1 Objectives" not in found and "## 2.1 Component Testing" in found
