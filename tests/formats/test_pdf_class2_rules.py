"""Rules for classes of PDF text and structure our truth files still missed after the seventh
pass (issue 30, eighth pass): a piece of a line drawn before the letter it belongs to, a title
centred atop a first page all in the body's size, a clause title whose stop is in the body's
weight, an author's name under the title, a heading wrapped flush right, a chapter numbered in one
level ending in a colon, a changelog's releases. Each test fails with its rule taken out."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from pdf_maker import Prose, Spec, heading_lines, make_pdf

import skills.formats.pdf.convert as pdf_convert
from skills.formats.pdf.lines import Line, _rejoined, read_page
from skills.formats.read import read_file

BODY = ("Times-Roman", 11.0)
BOLD = "Times-Bold"
HEAD = "Helvetica"
_PROSE = Prose(("ozz", "ixx", "eqq", "uvv", "azz"), BODY)


def _piece(text: str, left: float, right: float, base: float, size: float = 9.0) -> Line:
    return Line(0, text, size, 400, False, True, base - size * 0.7, left, right=right, base=base)


def test_a_piece_drawn_back_under_the_lines_last_letter_stays_a_word_of_its_own() -> None:
    # rtklib's manual (Word with MathType): 't₀' is drawn '0' first, then 't' back over it, and
    # PDFium broke the line there; joined as drawn it read 'time 0t' and 'includes st'
    drawn = [_piece("time 0", 103.3, 130.2, 676.3), _piece("t .", 124.8, 133.5, 676.1, 9.3)]
    assert [line.text for line in _rejoined(drawn)] == ["time 0 t ."]
    # a footnote's mark, a kerned logo letter and a combining mark still join as they are
    mark = [
        _piece("in Spain3", 72.0, 130.0, 300.0, 12.0),
        _piece(", and it", 131.2, 170.0, 300.0, 12.0),
    ]
    logo = [_piece("TE", 48.3, 61.4, 301.7, 14.1), _piece("X Live", 59.8, 84.6, 301.7, 14.1)]
    khmer = [_piece("ដ", 100.0, 121.0, 300.0, 36.0), _piece("\u17d2ដ", 106.9, 127.0, 300.0, 36.0)]
    assert [line.text for line in _rejoined(mark)] == ["in Spain3, and it"]
    assert [line.text for line in _rejoined(logo)] == ["TEX Live"]
    assert [line.text for line in _rejoined(khmer)] == ["ដ\u17d2ដ"]


def _width(text: str, font: str, size: float) -> float:
    lines = read_page(pdfium.PdfDocument(make_pdf([[(text, font, size)]]))[0], 0).lines
    return lines[0].right - lines[0].left


def test_bold_lines_centred_atop_a_first_page_all_in_the_bodys_size_are_its_title() -> None:
    # a Word contract (PScript5, Distiller 9.3), every line 11 pt: its label, its number's blank
    # and its name, centred and bold over the agreement, read as three headings and no title
    body = [line for _ in range(3) for line in _PROSE.paragraph()]
    page = read_page(pdfium.PdfDocument(make_pdf([body]))[0], 0)
    middle = (min(line.left for line in page.lines) + max(line.right for line in page.lines)) / 2
    cover = ["Sample Contract", "Contract No.___________", "PROFESSIONAL SERVICES AGREEMENT"]
    centred: list[Spec] = [
        (text, BOLD, 11.0, 72.0 + 14 * n, middle - _width(text, BOLD, 11.0) / 2)
        for n, text in enumerate(cover)
    ]
    pages = [[*centred, *_PROSE.paragraph(130), *_PROSE.paragraph(200)], body]
    converted = read_file(make_pdf(pages), "contract.pdf")
    assert converted.title == "PROFESSIONAL SERVICES AGREEMENT"
    assert heading_lines(converted.text) == []


def test_a_bold_clause_title_whose_stop_is_in_the_bodys_weight_is_a_heading() -> None:
    # the Word contract again: '2. COMPENSATION' in bold and its '.' in the body's regular
    # weight, so the line was of two weights, body text with a bold word, and no heading
    def clause(name: str, top: float) -> list[Spec]:
        return [(name, BOLD, 11.0, top), (".", BODY[0], 11.0, top, 72.0 + _width(name, BOLD, 11))]

    pages: list[list[Spec]] = [
        [*clause("1. DUTIES", 72), *_PROSE.paragraph(90), *clause("2. COMPENSATION", 170),
         *_PROSE.paragraph(188), *clause("3. TERM OF THIS AGREEMENT", 268),
         *_PROSE.paragraph(286)],
    ]  # fmt: skip
    assert heading_lines(read_file(make_pdf(pages), "contract.pdf").text) == [
        "# 1. DUTIES.", "# 2. COMPENSATION.", "# 3. TERM OF THIS AGREEMENT.",
    ]  # fmt: skip


def _title_page(author: str, signed: str) -> list[list[Spec]]:
    return [
        [("Pipes and Filters: A Tutorial", BOLD, 22.0, 60), (author, BOLD, 14.0, 100),
         (signed, *BODY, 125), *_PROSE.paragraph(150), ("Introduction", BOLD, 18.0, 230),
         *_PROSE.paragraph(260)],
        [("Setting the Scene", BOLD, 18.0, 72), *_PROSE.paragraph(100),
         ("Building the Ports", BOLD, 14.0, 180), *_PROSE.paragraph(205)],
    ]  # fmt: skip


def test_an_author_the_line_under_names_again_is_the_titles_byline_not_a_heading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # WeasyPrint's DocBook tutorial: 'Panos Louridas' in 14 pt bold (the subsections' type) two
    # lines under the title, over 'Copyright © 2004 Panagiotis Louridas', read as a section
    pages = _title_page("Ann Example", "Copyright 2004 Ann Example")
    text = read_file(make_pdf(pages), "tutorial.pdf", isolated=False).text
    assert heading_lines(text) == ["# Introduction", "# Setting the Scene", "## Building the Ports"]
    # and when the printer bookmarked every heading tag, the title page's author's too
    marks = {0: [(1, "Pipes and Filters: A Tutorial"), (3, "Ann Example"), (1, "Introduction")],
             1: [(1, "Setting the Scene"), (2, "Building the Ports")]}  # fmt: skip
    monkeypatch.setattr(pdf_convert, "_bookmarks", lambda _pdf: marks)
    text = read_file(make_pdf(pages), "tutorial.pdf", isolated=False).text
    assert "# Ann Example" not in text and "## Ann Example" not in text
    assert "# Introduction" in heading_lines(text)
    # a line under the title that no line under it names again is a heading as before
    pages = _title_page("Getting Started", "This part shows how to start the program.")
    monkeypatch.undo()
    text = read_file(make_pdf(pages), "tutorial.pdf", isolated=False).text
    assert "## Getting Started" in heading_lines(text)


def test_a_heading_wrapped_flush_right_is_one_heading() -> None:
    # ConTeXt's margin headings end at the margin's right edge, wrapped: 'Broken' / 'Hyphens',
    # 'Maximum' / 'Cost' read as two headings each, neither line going on the other as words do
    def flush(words: list[str], top: float) -> list[Spec]:
        return [
            (word, HEAD, 14.0, top + 17 * n, 160.0 - _width(word, HEAD, 14.0))
            for n, word in enumerate(words)
        ]

    pages: list[list[Spec]] = [
        [*flush(["Widows"], 72), *_PROSE.paragraph(100), *flush(["Broken", "Hyphens"], 180),
         *_PROSE.paragraph(225)],
        [*flush(["Maximum", "Cost"], 72), *_PROSE.paragraph(117), *flush(["Orphans"], 200),
         *_PROSE.paragraph(228)],
    ]  # fmt: skip
    assert heading_lines(read_file(make_pdf(pages), "manual.pdf").text) == [
        "# Widows", "# Broken Hyphens", "# Maximum Cost", "# Orphans",
    ]  # fmt: skip


def test_a_chapter_numbered_in_one_level_and_set_larger_may_end_in_a_colon() -> None:
    # the OpenOffice 3.2 specification of round 19: its chapter '2 Treatment rules:' in 16 pt
    # bold over '2.1 Basic IGate rules:' in 14 pt, both as its heading styles wrote them; the
    # chapter stayed a label (a one-level number was not enough)
    bold = "Helvetica-Bold"
    pages: list[list[Spec]] = [
        [("2 Treatment rules:", bold, 16, 72), *_PROSE.paragraph(98),
         ("2.1 Basic gateway rules:", bold, 14, 170), *_PROSE.paragraph(192)],
        [("3 Configuration", bold, 16, 72), *_PROSE.paragraph(98),
         ("3.1 Interfaces", bold, 14, 170), *_PROSE.paragraph(192)],
    ]  # fmt: skip
    assert heading_lines(read_file(make_pdf(pages), "specification.pdf").text) == [
        "# 2 Treatment rules:", "## 2.1 Basic gateway rules:", "# 3 Configuration",
        "## 3.1 Interfaces",
    ]  # fmt: skip


def test_a_changelogs_releases_set_larger_are_its_headings() -> None:
    # lua-widow-control's changelog (ConTeXt): 'v3.0.0 (2022-11-22)' in 16.9 pt over the
    # release's list, 21 of them, each refused for being mostly digits
    pages: list[list[Spec]] = [
        [("The Widow Manual", BOLD, 24, 60), *_PROSE.paragraph(100), ("Usage", BOLD, 18, 180),
         *_PROSE.paragraph(210)],
        [("Changelog", BOLD, 18, 72), *_PROSE.paragraph(100),
         ("v3.0.0 (2022-11-22)", HEAD, 16, 170), *_PROSE.paragraph(195),
         ("v2.2.2 (2022-08-23)", HEAD, 16, 270), *_PROSE.paragraph(295)],
        [("[2.2.1] - 2022-07-28", HEAD, 16, 72), *_PROSE.paragraph(97)],
    ]  # fmt: skip
    assert heading_lines(read_file(make_pdf(pages), "manual.pdf").text) == [
        "# Usage", "# Changelog", "## v3.0.0 (2022-11-22)", "## v2.2.2 (2022-08-23)",
        "## [2.2.1] - 2022-07-28",
    ]  # fmt: skip
