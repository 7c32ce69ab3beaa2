"""The deadline is checked inside long units: every row of a sheet and every shape of a slide,
not only between sheets and slides; and what a file declares does not cost work it does not hold.

A sheet of 61 rows by 16,384 columns ran 106 s when the deadline was checked only between
sheets. Here a clock that advances one second per look makes the stop deterministic: the
conversion must stop inside the one sheet or slide, keep what it read, and say where it stopped.
"""

from __future__ import annotations

import io
import itertools
import re
import zipfile

import pytest
from office_xml import with_part

from bench.hostile_files import sheet
from skills.formats import conversion
from skills.formats.conversion import ConversionError, Limits
from skills.formats.read import read_file


class _Clock:
    """``time.monotonic`` that advances one second each time it is read (in this process: the
    files are converted here, ``isolated=False``)."""

    def __init__(self) -> None:
        self.ticks = itertools.count()

    def monotonic(self) -> float:
        return float(next(self.ticks))


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    fake = _Clock()
    monkeypatch.setattr(conversion, "time", fake)
    return fake


def test_a_wide_sheet_stops_at_the_row_where_time_ran_out(clock: _Clock) -> None:
    converted = read_file(
        sheet(60, 300, "wide"), "wide.xlsx", limits=Limits(deadline=20.0), isolated=False
    )
    said = re.search(r"after (\d+) rows of sheet 'wide'", converted.warnings[0])
    assert said, converted.warnings
    read = int(said.group(1))
    assert 5 < read < 20
    assert f"r{read - 1}c299" in converted.text and f"r{read}c0" not in converted.text
    assert "time budget" in converted.warnings[0]


def test_a_slide_of_many_shapes_stops_at_the_shape_where_time_ran_out(clock: _Clock) -> None:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    for k in range(200):
        box = slide.shapes.add_textbox(Inches(0), Inches(k * 0.01), Inches(1), Inches(0.01))
        box.text_frame.text = f"shape{k}"
    out = io.BytesIO()
    deck.save(out)
    converted = read_file(out.getvalue(), "deck.pptx", limits=Limits(deadline=60.0), isolated=False)
    shown = re.findall(r"shape\d+", converted.text)
    assert 0 < len(shown) < 200
    assert shown == [f"shape{k}" for k in range(len(shown))]
    assert "time budget" in converted.warnings[0]


def test_a_sheet_that_declares_every_column_costs_only_the_cells_it_has() -> None:
    """openpyxl pads each row to the sheet's declared size: 200 one-cell rows declared 16,384
    columns wide counted 3.3 million cells against the 1,000,000 one file may read."""
    from openpyxl import Workbook

    book = Workbook()
    for r in range(200):
        book.active.append([f"row {r}"])
    out = io.BytesIO()
    book.save(out)
    declared = with_part(
        out.getvalue(),
        "xl/worksheets/sheet1.xml",
        lambda xml: re.sub(r'<dimension ref="[^"]*"', '<dimension ref="A1:XFD200"', xml),
    )
    converted = read_file(declared, "sparse.xlsx")
    assert converted.warnings == ()
    assert "row 199" in converted.text


def test_a_deck_of_five_thousand_slides_is_refused_by_its_slide_count() -> None:
    package = io.BytesIO()
    with zipfile.ZipFile(package, "w") as deck:
        deck.writestr("[Content_Types].xml", "<Types/>")
        deck.writestr("ppt/presentation.xml", "<p:presentation/>")
        for k in range(1, 5001):
            deck.writestr(f"ppt/slides/slide{k}.xml", "<p:sld/>")
            deck.writestr(f"ppt/slides/_rels/slide{k}.xml.rels", "<Relationships/>")
    with pytest.raises(ConversionError, match="the deck has 5000 slides, more than the 2000"):
        read_file(package.getvalue(), "huge.pptx")


def test_a_deck_of_too_much_xml_is_refused_before_it_is_parsed() -> None:
    """python-pptx holds about 16 bytes per byte of XML: 40 MB of it (a 0.1 MB zip) is refused."""
    package = io.BytesIO()
    with zipfile.ZipFile(package, "w", zipfile.ZIP_DEFLATED) as deck:
        deck.writestr("[Content_Types].xml", "<Types/>")
        deck.writestr("ppt/presentation.xml", "<p:presentation/>")
        deck.writestr("ppt/slides/slide1.xml", "<p:sld>" + " " * (40 * 2**20) + "</p:sld>")
    assert len(package.getvalue()) < 2**20
    with pytest.raises(ConversionError, match="the deck is 40 MB of XML, more than the 32 MB"):
        read_file(package.getvalue(), "big.pptx")
