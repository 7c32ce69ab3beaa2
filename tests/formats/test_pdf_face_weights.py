"""A weight no font descriptor declares (Microsoft Print to PDF's 3,816 and 3,900) is read from
the embedded face (``lines.FaceWeights``): each face copied once per document, and no more bytes
of faces than ``FACE_BYTES``. PDFium gives a face only whole, and each page copied its faces:
a 600 KB file of 400 pages drawn in one 30 MB face (a real font and zeros after it, which
compress to nothing) took 20 s, a page's copy for each page."""

from __future__ import annotations

from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from bench.cputime import least_growth
from bench.hostile_files import dejavu_face
from bench.hostile_files import printed_pdf as printed
from skills.formats.pdf.lines import FaceWeights, read_page
from skills.formats.read import read_file

#: Linear: about 4 from ``n`` to ``4 n``; quadratic: about 16.
MAX_GROWTH = 8.0


_face = dejavu_face


def _copies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the faces PDFium copies out from now on."""
    copied: list[int] = []
    real = raw.FPDFFont_GetFontData

    def counted(font: Any, buffer: Any, length: int, out: Any) -> int:
        if buffer:
            copied.append(length)
        return int(real(font, buffer, length, out))

    monkeypatch.setattr(raw, "FPDFFont_GetFontData", counted)
    return copied


def test_the_made_face_reads_no_weight_pdfium_can_use() -> None:
    """(What the tests below stand on: PDFium's weight is outside 100-900.)"""
    textpage = pdfium.PdfDocument(printed(1))[0].get_textpage()
    assert raw.FPDFText_GetFontWeight(textpage.raw, 0) == 3940


def test_an_embedded_face_is_copied_once_per_document_not_once_per_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    copied = _copies(monkeypatch)
    converted = read_file(printed(3), "printed.pdf", isolated=False)
    assert copied == [len(_face())]
    assert "# " not in converted.text  # the face's 400: regular, as every page reads it


def test_each_page_reads_the_face_s_weight_from_the_document_s_one_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    copied = _copies(monkeypatch)
    document, faces = pdfium.PdfDocument(printed(3)), FaceWeights()
    pages = [read_page(document[index], index, faces) for index in range(3)]
    assert [{line.weight for line in page.lines} for page in pages] == [{400}] * 3
    assert len(copied) == 1


def test_a_face_past_the_bytes_left_to_copy_declares_no_weight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    copied = _copies(monkeypatch)
    document = pdfium.PdfDocument(printed(1))
    page = read_page(document[0], 0, FaceWeights(budget=len(_face()) - 1))
    assert {line.weight for line in page.lines} == {-1}
    assert copied == []


def test_a_long_file_in_a_large_face_is_read_in_time_linear_in_its_pages() -> None:
    """Pages and the face's size grow together (``n`` pages, ``n`` x 256 KB of face): a copy
    of the face for each page grew as their product."""

    def made(n: int) -> bytes:
        return printed(n, n * 256 * 1024)

    def run(data: bytes) -> object:
        return read_file(data, "printed.pdf", isolated=False)

    assert least_growth(made, 20, run, MAX_GROWTH) < MAX_GROWTH
