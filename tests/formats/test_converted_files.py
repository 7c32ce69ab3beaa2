"""Real files made from the samples keep what the engine uses: every heading in some chunk's
heading path, table rows whole with their header, code blocks that fit whole, the right pages."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
from format_fixtures import (
    OPTIONS,
    SAMPLES,
    check_invariants,
    chunk,
    convert,
    fixture,
    markdown_headings,
)

from skills.chunking import ChunkOptions
from skills.formats.registry import by_name

FILES = [
    "widget-api-guide.docx",
    "widget-api-guide.html",
    "widget-api-guide.pptx",
    "error-codes.xlsx",
    "operations-runbook.pdf",
]
_FENCE = re.compile(r"^(`{3,})[^\n]*\n.*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
_ROW = re.compile(r"^\|.*\|[ \t]*$", re.MULTILINE)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"{o.strategy.value}")
@pytest.mark.parametrize("name", FILES)
def test_offsets_caps_and_coverage_hold_as_for_markdown(name: str, options: ChunkOptions) -> None:
    file = convert(name)
    assert file.format is by_name(name)
    check_invariants(file.text, chunk(file, options), options)


@pytest.mark.parametrize("name", ["widget-api-guide.docx", "widget-api-guide.html"])
def test_every_heading_of_the_sample_is_in_some_heading_path(name: str) -> None:
    source = (SAMPLES / "widget-api-guide.md").read_text(encoding="utf-8")
    file = convert(name)
    # leaves small enough that no two sections share one (neighbours that share a leaf keep only
    # their common path)
    small = ChunkOptions(child_max_tokens=64, child_overlap_tokens=0)
    paths = {h for leaf in chunk(file, small).leaves for h in leaf.headings}
    expected = set(markdown_headings(source))
    assert expected and expected <= paths | {file.title}


def test_every_slide_title_is_a_heading_and_every_slide_a_page() -> None:
    from pptx import Presentation

    deck = Presentation(str(SAMPLES.parent / "tests/formats/fixtures/widget-api-guide.pptx"))
    titles = {s.shapes.title.text_frame.text for s in deck.slides if s.shapes.title is not None}
    result = chunk(convert("widget-api-guide.pptx"), ChunkOptions())
    # a title is in a child's heading path, or is the heading line a child holds (the first
    # child starts before the deck's title, at its page marker, so its path is empty)
    for title in titles:
        heading = re.compile(rf"^#+ {re.escape(title)}$", re.MULTILINE)
        assert any(title in leaf.headings or heading.search(leaf.text) for leaf in result.leaves)
    assert {p for leaf in result.leaves for p in leaf.pages} == set(range(1, len(deck.slides) + 1))


def test_every_bookmark_of_the_pdf_is_in_some_heading_path() -> None:
    source = (SAMPLES / "operations-runbook.md").read_text(encoding="utf-8")
    result = chunk(convert("operations-runbook.pdf"), ChunkOptions())
    paths = {h for leaf in result.leaves for h in leaf.headings}
    assert set(markdown_headings(source)) <= paths


def test_the_pdf_chunks_carry_the_pages_their_text_is_on() -> None:
    pdf = pdfium.PdfDocument(fixture("operations-runbook.pdf"))
    pages = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    assert len(pages) > 3
    result = chunk(convert("operations-runbook.pdf"), ChunkOptions())
    for number, text in enumerate(pages, start=1):
        lines = [line.strip() for line in text.splitlines() if len(line.strip()) > 40]
        unique = next(line for line in lines if sum(line in p for p in pages) == 1)
        # (a table's row is written as cells: compared without the pipes and spacing)
        holders = [leaf for leaf in result.leaves if _words(unique) in _words(leaf.text)]
        assert holders and all(number in leaf.pages for leaf in holders), number


def _words(text: str) -> str:
    return " ".join(text.replace("|", " ").split())


@pytest.mark.parametrize(
    "name",
    ["widget-api-guide.docx", "widget-api-guide.html", "widget-api-guide.pptx", "error-codes.xlsx"],
)
@pytest.mark.parametrize("options", OPTIONS[:2], ids=["defaults", "small"])
def test_no_table_row_loses_a_cell_or_its_header(name: str, options: ChunkOptions) -> None:
    file = convert(name)
    result = chunk(file, options)
    tables = re.findall(r"(?:^\|.*\|[ \t]*\n)+", file.text, re.MULTILINE)
    assert tables
    for table in tables:
        header, _, *rows = table.splitlines()
        for row in rows:
            assert any(
                row in leaf.embed_text and header in leaf.embed_text for leaf in result.leaves
            ), row


@pytest.mark.parametrize("name", ["widget-api-guide.docx", "widget-api-guide.html"])
def test_a_code_block_that_fits_is_whole(name: str) -> None:
    file = convert(name)
    options = ChunkOptions()
    result = chunk(file, options)
    blocks = [m.group(0) for m in _FENCE.finditer(file.text)]
    assert len(blocks) >= 2, "the sample's code blocks arrive as fenced blocks"
    for block in blocks:
        assert any(block in leaf.text for leaf in result.leaves), block[:60]


def test_html_boilerplate_is_not_embedded_and_the_title_is_kept() -> None:
    file = convert("widget-api-guide.html")
    for chrome in ("cookies", "Copyright 2026", "analytics", "Home"):
        assert chrome not in file.text
    result = chunk(file, ChunkOptions())
    assert all(leaf.headings[0] == "Widget Service API guide" for leaf in result.leaves)


def test_a_sheet_is_a_heading_and_its_header_row_leads_the_table() -> None:
    file = convert("error-codes.xlsx")
    assert file.text.startswith("# error-codes\n\n| Code | Component | Severity | First action |")
