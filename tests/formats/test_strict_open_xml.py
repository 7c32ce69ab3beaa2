"""Files saved as Strict Open XML read as the usual ones (skills/formats/office/strict.py): the same
parts under ``http://purl.oclc.org/ooxml/...`` names, which the readers do not know."""

from __future__ import annotations

import io

from office_xml import docx, para, strict

from skills.formats.conversion import Limits
from skills.formats.office.docx import docx_to_markdown
from skills.formats.office.pptx import pptx_to_markdown
from skills.formats.office.strict import _rename
from skills.formats.office.xlsx import xlsx_to_markdown


def test_a_strict_workbook_has_its_sheets() -> None:
    from openpyxl import Workbook

    book = Workbook()
    book.active.title = "ag data"
    book.active.append(["station", "depth"])
    book.active.append(["Coffs Harbour", 12])
    out = io.BytesIO()
    book.save(out)
    text = xlsx_to_markdown(strict(out.getvalue()), Limits()).text
    assert "# ag data" in text and "| Coffs Harbour | 12 |" in text


def test_a_strict_word_document_has_its_headings_and_text() -> None:
    data = docx([para("Scope", outline=0), para("The text of the scope.")])
    text = docx_to_markdown(strict(data), Limits()).text
    assert "# Scope" in text and "The text of the scope." in text


def test_a_strict_deck_has_its_slides() -> None:
    from pptx import Presentation

    deck = Presentation()
    deck.slides.add_slide(deck.slide_layouts[5]).shapes.title.text = "Survey results"
    out = io.BytesIO()
    deck.save(out)
    assert "# Survey results" in pptx_to_markdown(strict(out.getvalue()), Limits()).text


def test_a_name_cut_by_a_block_s_end_is_renamed() -> None:
    name = b"http://purl.oclc.org/ooxml/spreadsheetml/main"
    source = io.BytesIO(b"x" * ((1 << 20) - 30) + b'<a xmlns="' + name + b'"/>')  # cut inside
    copy = io.BytesIO()
    _rename(source, copy)
    assert b"schemas.openxmlformats.org/spreadsheetml/2006/main" in copy.getvalue()
    assert b"purl.oclc.org" not in copy.getvalue()
