"""Rules from held-out round 23 (issue 30, ninth pass): PDFs made by Microsoft Word's own export,
from public GitHub repositories. Each test fails with its rule taken out."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pdf_maker import Prose, Spec, headings, make_pdf

import skills.formats.pdf.convert as pdf_convert
from skills.formats.pdf.headings.bookmarks import from_bookmarks
from skills.formats.pdf.lines import Page, read_page

BODY = ("Helvetica", 11.0)
BOLD = "Helvetica-Bold"
_PROSE = Prose(("ypp", "eww", "azz"), BODY)
paragraph = _PROSE.paragraph


def _pages(data: bytes) -> list[Page]:
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


def test_a_paragraph_in_words_title_style_is_the_documents_title_not_a_heading() -> None:
    # Word writes a paragraph in its Title style as '/S /Title' and maps Title to H1 in the
    # role map: PDFium's (mapped) type says H1, and the Korean policy's 28 pt title was taken
    # for its first section, the file left without a title
    from pdf_maker import incremental_update

    from skills.formats.pdf.tags import tagged_headings

    data = (Path(__file__).parent / "fixtures" / "tagged-report.pdf").read_bytes()
    assert b"5 0 obj\n<</Type/StructElem\n/S/H1\n" in data  # LibreOffice's H1, 'Harbour Works'
    word_like = incremental_update(
        data,
        {
            5: b"<</Type/StructElem/S/Title/P 4 0 R/Pg 1 0 R/A 31 0 R/K[0 ]>>",
            30: b"<</Type/StructTreeRoot/ParentTree 43 0 R/RoleMap<</H3/H3/H2/H2/Text#20body/P"
            b"/H1/H1/Title/H1/Document/Document>>/K[4 0 R ]>>",
        },
    )
    for pdf_bytes, first in ((data, (1, "Harbour Works")), (word_like, (2, "Silt in the channel"))):
        pdf = pdfium.PdfDocument(pdf_bytes)
        try:
            assert tagged_headings(pdf, len(pdf))[0][0] == first
        finally:
            pdf.close()


def test_a_contents_lists_own_entries_are_no_headings_without_leaders() -> None:
    # the design document's contents entries are bold, their page numbers far right, which
    # PDFium reads as lines of their own: 'Overview', 'Controllers' read as headings on the
    # contents page (so did the Korean policy's '1. Focusmedia', a list with no page numbers)
    chapters = ["Overview", "Controllers", "Functional Modules"]
    contents: list[Spec] = [("Table of Contents", BOLD, 16, 72)]
    for n, chapter in enumerate(chapters):
        contents += [
            (chapter, BOLD, 11, 110 + 40 * n),
            (str(3 + 4 * n), BOLD, 11, 110 + 40 * n, 520),
        ]
        contents += [(f"Part {n + 1} of the tool", *BODY, 130 + 40 * n, 90)]
    cover = [("Data Collection Tool", BOLD, 26), ("Detailed Design Document", BOLD, 26)]
    body = [
        [*paragraph(), ("Overview", BOLD, 16), *paragraph()],
        [*paragraph(), ("Controllers", BOLD, 16), *paragraph(),
         ("Functional Modules", BOLD, 16), *paragraph()],
    ]  # fmt: skip
    assert headings([cover, contents, *body], isolated=False) == [
        "# Table of Contents", "# Overview", "# Controllers", "# Functional Modules",
    ]  # fmt: skip
    # a chapter that starts on the contents page, its text under it, keeps its heading
    first = [*contents, ("Overview", BOLD, 16, 250), *paragraph(280)]
    found = headings([cover, first, body[1]], isolated=False)
    assert found.count("# Overview") == 1


def test_a_first_pages_lines_the_contents_list_leaves_out_are_the_covers_untagged_too() -> None:
    # the Portuguese report's cover: the course in 20 pt bold over the project's name in the
    # same type and the authors in bold, read as sections over the front matter (the rule was
    # the tagged headings' only: Word tags a cover's heading styles, the contents leaves it out)
    cover: list[Spec] = [
        ("Universidade do Minho", *BODY, 72), ("Escola de Engenharia", *BODY, 88),
        ("Licenciatura em Engenharia Informática", *BODY, 104),
        ("Unidade Curricular de Laboratórios", BOLD, 20, 300),
        ("Belos Moveis", BOLD, 20, 400),
        ("Ana Example (A104437), Rafael Example (A76350)", BOLD, 12, 440),
        ("Setembro, 2024", *BODY, 700),
    ]  # fmt: skip
    chapters = ["1. Introduction", "2. Requirements", "3. Design"]
    contents: list[Spec] = [("Contents", BOLD, 18, 72)]
    contents += [(f"{chapter} {3 + n}", *BODY, 110 + 20 * n) for n, chapter in enumerate(chapters)]
    body = [[*paragraph(), (chapter, BOLD, 18), *paragraph()] for chapter in chapters]
    found = headings([cover, contents, *body], isolated=False)
    assert found == ["# Contents", "# 1. Introduction", "# 2. Requirements", "# 3. Design"]
