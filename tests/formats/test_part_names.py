"""Packages whose zip entries are named otherwise than their relationships name them
(skills/formats/office/part_names.py): Office compares part names without regard to case, and some
writers separate folders with backslashes; the readers look parts up by exact name."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import pytest
from office_xml import docx, para

from skills.formats.conversion import ConversionError, Limits
from skills.formats.office.part_names import usual_part_names
from skills.formats.read import read_file


def _renamed(data: bytes, rename: Callable[[str], str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            target.writestr(rename(item.filename), source.read(item))
    return out.getvalue()


def _workbook() -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    book.active.title = "Stock"
    book.active.append(["Item", "Count"])
    book.active.append(["Lamp", 3255])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_a_workbook_named_with_backslashes_and_lower_case_is_read() -> None:
    # an Apache POI bug's qPCR export: '[content_types].xml', 'xl\\_rels\\workbook.xml.rels'
    data = _renamed(_workbook(), lambda name: name.lower().replace("/", "\\"))
    text = read_file(data, "export.xlsx", isolated=False).text
    assert "# Stock" in text and "| Lamp | 3255 |" in text


def test_a_part_whose_case_differs_from_its_relationship_is_found() -> None:
    # as a 1C stock list: its relationship says sharedStrings.xml, its entry SharedStrings.xml
    data = _renamed(_workbook(), lambda name: name.replace("sheet1.xml", "Sheet1.xml"))
    text = read_file(data, "stock.xlsx", isolated=False).text
    assert "| Item | Count |" in text and "| Lamp | 3255 |" in text


def test_a_word_document_with_backslash_names_is_read() -> None:
    data = _renamed(
        docx([para("Scope", outline=0), para("The text.")]), lambda n: n.replace("/", "\\")
    )
    text = read_file(data, "scope.docx", isolated=False).text
    assert "# Scope" in text and "The text." in text


def test_a_deck_with_upper_case_part_names_is_read() -> None:
    from pptx import Presentation

    deck = Presentation()
    deck.slides.add_slide(deck.slide_layouts[5]).shapes.title.text = "Survey results"
    out = io.BytesIO()
    deck.save(out)
    data = _renamed(out.getvalue(), lambda name: name.replace("slides/slide1", "slides/Slide1"))
    assert "# Survey results" in read_file(data, "survey.pptx", isolated=False).text


def test_a_package_whose_names_agree_is_returned_as_it_is() -> None:
    data = _workbook()
    assert usual_part_names(data) is data


def test_the_renaming_of_a_packages_parts_stops_at_the_deadline() -> None:
    """A package is renamed part by part before any of it is read; a large one (a media part
    of hundreds of MB) was copied to its end whatever the time left. Past the deadline, the
    copy stops and the record says why."""
    data = _renamed(_workbook(), lambda name: name.replace("sheet1.xml", "Sheet1.xml"))
    with pytest.raises(ConversionError, match="ran out while the converter renamed the package"):
        read_file(data, "stock.xlsx", isolated=False, limits=Limits(deadline=0))
