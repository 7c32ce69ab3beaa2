"""Every converter's time grows linearly with its file: a file four times longer costs less than
``MAX_GROWTH`` times as much CPU.

A converter runs before the engine and inside the skill's time budget, so a quadratic path in one
(a list that is searched for every element added to it, a string rebuilt per page) would let one
long file hold an instance. Each test builds a file of ``n`` and of ``4 n`` units of one ordinary
shape (sections of a web page, paragraphs and tables of a Word body, slides, rows, PDF pages,
notebook cells, Layout sections) with the libraries the project already has, and times
:func:`~skills.formats.read.read_file` (Layout's sections: ``layout_to_markdown``) on both in one
run (``bench/cputime.py``: CPU time, best of three, as ``tests/chunking/test_linear_time.py``
times the engine; a ratio above the bound is measured again, up to three times:
``least_growth``). A linear converter grows by about 4, a quadratic one by about 16; ``n`` is
large enough that opening a package is a small part of the time at ``n``.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from format_fixtures import fixture
from office_xml import docx, para, strict, with_part

from bench.cputime import least_growth
from bench.hostile_files import nested_layout, pdf_pages, word_cell
from skills.formats.layout import layout_to_markdown
from skills.formats.office.freed_blocks import free_block
from skills.formats.office.pptx import _reading_order
from skills.formats.office.word_outline import Outline, W
from skills.formats.read import read_file

#: Linear: about 4 from ``n`` to ``4 n``; quadratic: about 16.
MAX_GROWTH = 8.0


def html_page(sections: int) -> bytes:
    """A saved page: chrome around ``sections`` sections of a heading, a paragraph, a list, a
    small table and a code block."""
    body = "".join(
        f"<h2>Section {k}</h2><p>Paragraph {k} says <a href='#s{k}'>something</a> in "
        f"<em>a few</em> words.</p><ul><li>item {k}.1</li><li>item {k}.2</li></ul>"
        f"<table><tr><th>Key</th><th>Value</th></tr><tr><td>k{k}</td><td>v{k}</td></tr></table>"
        f"<pre><code class='language-python'>x = {k}\n</code></pre>\n"
        for k in range(sections)
    )
    head = "<!DOCTYPE html><html><head><title>Guide</title></head>"
    return f"{head}<body><nav>Home</nav><main>{body}</main></body></html>".encode()


def word_body(copies: int) -> bytes:
    """The Word fixture (headings, lists, tables, code) with its body repeated ``copies`` times."""

    def repeated(xml: str) -> str:
        match = re.search(r"<w:body>(.*)(<w:sectPr[^>]*/>)</w:body>", xml, re.DOTALL)
        assert match, "the fixture's body ends with its section properties"
        return xml[: match.start(1)] + match.group(1) * copies + xml[match.start(2) :]

    return with_part(fixture("widget-api-guide.docx"), "word/document.xml", repeated)


def _nested(depth: int, inside: Callable[[int, str], str]) -> str:
    """Tables nested ``depth`` deep, one cell each, the cell of level ``k`` written by
    ``inside(k, the table of level k + 1)``."""
    grid = '<w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>'
    inner = para("The innermost cell.")
    for k in reversed(range(depth)):
        inner = f"<w:tbl>{grid}<w:tr><w:tc>{inside(k, inner)}</w:tc></w:tr></w:tbl>"
    return inner


def nested_cells(depth: int) -> bytes:
    """A data table whose second cell holds tables nested ``depth`` deep, three paragraphs in
    each cell: the flattened cell looked up from each of its paragraphs to the cell for a text
    box, and freeing the table rewrote it whole while the parser still held a paragraph."""

    def inside(k: int, inner: str) -> str:
        return "".join(para(f"Note {k}.{j} on this level.") for j in range(3)) + inner

    grid = '<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="7000"/></w:tblGrid>'
    row = f"<w:tr><w:tc>{para('Notes')}</w:tc><w:tc>{_nested(depth, inside)}</w:tc></w:tr>"
    return docx([para("Record"), f"<w:tbl>{grid}{row}</w:tbl>", para("End.")])


def slides(count: int) -> bytes:
    """``count`` slides of a title, three bullets and a small table."""
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    for k in range(count):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = f"Slide {k}"
        slide.placeholders[1].text = f"point {k}.1\npoint {k}.2\npoint {k}.3"
        table = slide.shapes.add_table(2, 2, Inches(1), Inches(4), Inches(4), Inches(1)).table
        for row, cells in enumerate((("Key", "Value"), (f"k{k}", f"v{k}"))):
            for column, text in enumerate(cells):
                table.cell(row, column).text = text
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def workbook(rows: int) -> bytes:
    """One sheet of a header and ``rows`` rows of five columns: text, numbers, a date."""
    from datetime import date

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["Item", "Count", "Price", "Supplier", "Delivered"])
    for k in range(rows):
        sheet.append([f"item {k}", k, k * 1.5, f"supplier {k % 7}", date(2026, 1 + k % 12, 1)])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def renamed_workbook(rows: int) -> bytes:
    """``workbook(rows)`` with its entries named in lower case with backslashes, as an Apache
    POI bug's qPCR export names them (``[content_types].xml``, ``xl\\worksheets\\sheet1.xml``)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(workbook(rows))) as source, zipfile.ZipFile(out, "w") as copy:
        for item in source.infolist():
            copy.writestr(item.filename.lower().replace("/", "\\"), source.read(item))
    return out.getvalue()


def beside_workbook(rows: int) -> bytes:
    """A table of ``rows`` rows and, after an empty column, a summary of a tenth as many rows
    from the second row (openxlsx's pivot beside its data)."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["Length", "Width", "Species"])
    for k in range(rows):
        row: list[object] = [k * 0.1, k * 0.2, f"kind {k % 3}"]
        if k < rows // 10:
            row += [None, f"label {k}", k * 3]
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def league_workbook(tables: int) -> bytes:
    """``tables`` league tables side by side, an empty column between, each under a caption
    merged across it, with the same header (kreuzberg's excel.xlsx, round office-6)."""
    from openpyxl import Workbook
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    sheet.cell(row=1, column=1, value="Part A")
    for t in range(tables):
        first = 2 + t * 5
        sheet.cell(row=2, column=first, value=f"Table {t}")
        end = get_column_letter(first + 3)
        sheet.merge_cells(f"{get_column_letter(first)}2:{end}2")
        for k, name in enumerate(["POS", "TEAM", "P", "PTS"]):
            sheet.cell(row=4, column=first + k, value=name)
        for r in range(20):
            for k, value in enumerate([r + 1, f"Team {(r + t) % 20}", 38, 90 - r]):
                sheet.cell(row=5 + r, column=first + k, value=value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def formatted_workbook(rows: int) -> bytes:
    """``rows`` rows of which one in fifty holds data and the others only a number format in
    column I, then as many formatted rows again below the data (BMW's price workbook formats a
    sheet down to row 1,048,187, round office-7)."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["Modelo", "Motor", "Precio"])
    for number in range(2, 2 + 2 * rows):
        if number < rows and number % 50 == 0:
            for column, value in enumerate([f"Serie {number % 7}", f"{number}i", 21334.21], 1):
                sheet.cell(row=number, column=column, value=value)
        else:
            sheet.cell(row=number, column=9).number_format = "0.00"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def grouped_workbook(groups: int) -> bytes:
    """``groups`` blocks of three columns side by side, an empty column between, each under a
    label merged across it over the same three names and three numbered rows: the blocks fill
    the same rows and are one table, whose header was read again for each block joining it
    (1,000 blocks: 0.2 s; 4,000, 16,000 columns: 35 s)."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for t in range(groups):
        first = 1 + 4 * t
        sheet.cell(row=1, column=first, value=f"Group {t}")
        sheet.merge_cells(start_row=1, start_column=first, end_row=1, end_column=first + 2)
        for k, name in enumerate(["No.", "Item", "Qty"]):
            sheet.cell(row=2, column=first + k, value=name)
        for r in range(3, 6):
            for k, value in enumerate([r - 2, f"item {r}", r * 2]):
                sheet.cell(row=r, column=first + k, value=value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def merged_workbook(groups: int) -> bytes:
    """A contents sheet as ISS's open data writes it: a note merged across columns, a header
    merged over columns and down two rows, and ``groups`` sheets named down three rows each
    beside one variable a row, each name and description merged over columns."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet["B2"] = "N.B. a total under five is written as <5"
    sheet.merge_cells("B2:J2")
    for ref, name in (("B3:D4", "Sheet"), ("E3:J4", "Content"), ("K3:Q4", "Variables")):
        sheet[ref.split(":")[0]] = name
        sheet.merge_cells(ref)
    for k in range(groups):
        top = 5 + 3 * k
        sheet.cell(row=top, column=2, value=f"sheet_{k}")
        sheet.cell(row=top, column=5, value=f"Cases by date of sheet {k}")
        sheet.merge_cells(start_row=top, start_column=2, end_row=top + 2, end_column=4)
        sheet.merge_cells(start_row=top, start_column=5, end_row=top + 2, end_column=10)
        for row in range(top, top + 3):
            sheet.cell(row=row, column=11, value=f"VARIABLE_{row}: what it counts")
            sheet.merge_cells(start_row=row, start_column=11, end_row=row, end_column=17)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def notebook(cells: int) -> bytes:
    """``cells`` pairs of a Markdown cell and a code cell with an output."""
    body: list[dict[str, Any]] = []
    for k in range(cells):
        text = [f"## Step {k}\n", "Load it."]
        body.append({"cell_type": "markdown", "metadata": {}, "source": text})
        body.append(
            {
                "cell_type": "code",
                "metadata": {},
                "execution_count": k,
                "source": [f"df{k} = load({k})\n", "df.head()"],
                "outputs": [{"output_type": "stream", "name": "stdout", "text": ["ok\n"]}],
            }
        )
    document = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": body}
    return json.dumps(document).encode("utf-8")


def layout_sections(count: int) -> list[dict[str, Any]]:
    """Document Layout's ``markdown_document``: ``count`` sections under changing headings, a
    page each."""
    return [
        {
            "content": f"Text of section {k}.\n\n| a | b |\n|---|---|\n| {k} | x |",
            "sections": {"h1": f"Part {k // 10}", "h2": f"Section {k}", "h3": ""},
            "ordinal_position": k,
            "locationMetadata": {"pageNumber": k + 1},
        }
        for k in range(count)
    ]


#: format -> (the file of size n, the name it is read by, n)
FILES: dict[str, tuple[Callable[[int], bytes], str, int]] = {
    "html": (html_page, "page.html", 100),
    "docx": (word_body, "guide.docx", 2),
    "docx-cell": (word_cell, "form.docx", 2_000),
    "docx-layout": (nested_layout, "procedure.docx", 150),  # 4 n: near libxml2's depth bound
    "docx-nested": (nested_cells, "record.docx", 150),
    "pptx": (slides, "deck.pptx", 40),
    "xlsx": (workbook, "sheet.xlsx", 500),
    "xlsx-merged": (merged_workbook, "contents.xlsx", 150),
    "xlsx-strict": (lambda rows: strict(workbook(rows)), "strict.xlsx", 500),
    "xlsx-renamed": (renamed_workbook, "export.xlsx", 500),
    "xlsx-beside": (beside_workbook, "pivot.xlsx", 500),
    "xlsx-league": (league_workbook, "league.xlsx", 40),
    "xlsx-formatted": (formatted_workbook, "formatted.xlsx", 5_000),
    "xlsx-groups": (grouped_workbook, "groups.xlsx", 1000),
    "pdf": (pdf_pages, "runbook.pdf", 2),
    "notebook": (notebook, "analysis.ipynb", 800),
}


@pytest.mark.parametrize("name", FILES)
def test_a_converter_reads_a_longer_file_in_linear_time(name: str) -> None:
    make, file_name, n = FILES[name]

    def run(data: bytes) -> object:  # in this thread: its CPU time is the converter's
        return read_file(data, file_name, isolated=False)

    assert least_growth(make, n, run, MAX_GROWTH) < MAX_GROWTH


def test_layout_sections_are_rebuilt_in_linear_time() -> None:
    assert least_growth(layout_sections, 500, layout_to_markdown, MAX_GROWTH) < MAX_GROWTH


def body_with_table(paragraphs: int) -> bytes:
    """A Word body: a paragraph, then a table of one cell of ``paragraphs`` paragraphs."""
    cell = "".join(para(f"Line {k} of the cell.") for k in range(paragraphs))
    table = f"<w:tbl><w:tr><w:tc>{cell}</w:tc></w:tr></w:tbl>"
    body = f"<w:body>{para('Before')}{table}</w:body>"
    return f'<w:document xmlns:w="{W[1:-1]}">{body}</w:document>'.encode()


def test_a_read_block_is_freed_in_linear_time_while_an_element_in_it_is_held() -> None:
    """``iterparse`` keeps its latest events' elements alive, so a body block may be freed while
    one of its paragraphs is still referenced: lxml then rewrote the namespaces of the whole
    subtree, in time growing with the square of its elements (a cell of 64,000 paragraphs:
    14.7 s, when the parser's buffer ended in it). Freed from the leaves up, it is linear."""

    def run(xml: bytes) -> object:
        from lxml import etree

        table = etree.fromstring(xml)[0][1]
        held = table[0][0][-1]  # the cell's last paragraph, as the parser's last event holds it
        free_block(table)
        return held

    assert least_growth(body_with_table, 1_000, run, MAX_GROWTH) < MAX_GROWTH


def typed_sections(count: int) -> bytes:
    """A Word body of two typed sections ("Section 1", 14 pt bold, over a line of prose), then
    a run of ``count`` lines of the same look ("Point k": a run, so no headings) and prose."""
    prose = para("Text of it goes on for a while here, so that it reads as a sentence.")
    typed = [p for k in (1, 2) for p in (para(f"Section {k}", bold=True, size=28), prose)]
    points = [para(f"Point {k}", bold=True, size=28) for k in range(count)]
    body = "".join([*typed, *points, *[prose] * count])  # (more prose than points: the body)
    return f'<w:document xmlns:w="{W[1:-1]}"><w:body>{body}</w:body></w:document>'.encode()


def test_lines_set_as_typed_headings_are_found_in_time_linear_in_them() -> None:
    """Office round 9's rule (an unnumbered line of the typed headings' look is one too) looked
    for each such line's neighbours in the list of them, and through all the typed headings for
    those of its look: 8,000 sections of a typed heading and such a line took 43 s in it."""
    outline = Outline.read(typed_sections(2), None, None)
    found = [(p.text, p.level) for p in outline.paragraphs if p.level]
    assert found == [("Section 1", 1), ("Section 2", 1)]
    read = lambda count: Outline.read(typed_sections(count), None, None)  # noqa: E731
    typed = [0, 2]  # the two typed headings (the rule's input: the rule alone is timed)
    assert least_growth(read, 2_000, lambda made: made._like_typed(typed), MAX_GROWTH) < MAX_GROWTH


@dataclass(frozen=True)
class Shape:
    """A slide's shape as the reading order sees it: its place and size (EMU), compared by
    value as python-pptx compares its shapes (by their XML element), not by identity."""

    left: int
    top: int
    width: int
    height: int
    text: str


def two_columns(count: int) -> list[Shape]:
    """``count`` shapes stacked in two columns, side by side (a comparison slide's)."""
    return [
        Shape(100 + k % 2 * 5_000_000, 100 + k // 2 * 1_000, 4_000_000, 900, f"{k}")
        for k in range(count)
    ]


def test_two_columns_of_stacked_shapes_are_ordered_in_linear_time() -> None:
    """Each shape was looked for in the left column's list, comparing it with each shape there:
    a slide of 10,000 shapes in two columns took 8.6 s."""
    assert [s.text for s in _reading_order(two_columns(4))] == ["0", "2", "1", "3"]
    assert least_growth(two_columns, 1_000, _reading_order, MAX_GROWTH) < MAX_GROWTH


@pytest.mark.parametrize("name", FILES)
def test_the_longer_file_holds_four_times_the_text(name: str) -> None:
    """The inputs grow as the tests say: the 4 n file converts to about four times the text."""
    make, file_name, n = FILES[name]
    small, large = (len(read_file(make(size), file_name).text) for size in (n, 4 * n))
    assert 3.5 * small < large < 4.5 * small
