"""Rules for Word documents printed to PDF through a printer driver (issue 30, eighth pass):
Microsoft Print to PDF renames every face (``CIDFont+F1``, ``CIDFont+F2``) and writes font
descriptors whose weight PDFium reads in thousands. Each test fails with its rule taken out."""

from __future__ import annotations

import ctypes
from typing import Any

import pypdfium2.raw as raw
import pytest
from pdf_maker import Prose, Spec, heading_lines, make_pdf

from skills.formats.read import read_file

BODY = ("Helvetica", 11.0)
BOLD = "Helvetica-Bold"
_PROSE = Prose(("ivv", "ojj", "uxx"), BODY)
paragraph = _PROSE.paragraph

#: What PDFium reads from Microsoft Print to PDF's descriptors of Aptos (the policy manual): a
#: weight from the stem width, for the bold face and the regular one alike, and the names the
#: printer gives the faces.
_PRINTER_WEIGHTS = {BOLD: 3900, "Helvetica": 3816}
_PRINTER_NAMES = {BOLD: b"CIDFont+F1", "Helvetica": b"CIDFont+F2"}


def _face(weight: int) -> bytes:
    """A TrueType font's first bytes, as far as its OS/2 table's weight (``usWeightClass``)."""
    table = bytes(4) + weight.to_bytes(2, "big")
    directory = b"OS/2" + bytes(4) + (28).to_bytes(4, "big") + len(table).to_bytes(4, "big")
    return b"\x00\x01\x00\x00" + (1).to_bytes(2, "big") + bytes(6) + directory + table


def _printed(monkeypatch: pytest.MonkeyPatch) -> None:
    """PDFium's answers for a printed file: faces renamed ``CIDFont+F1`` and ``F2``, a weight in
    thousands for both, and embedded faces that declare 700 and 400."""
    real_info = raw.FPDFText_GetFontInfo
    real_weight, real_data = raw.FPDFText_GetFontWeight, raw.FPDFFont_GetFontData

    def name(handle: Any, index: int) -> str:
        buffer = ctypes.create_string_buffer(96)
        real_info(handle, index, buffer, 96, None)
        return buffer.value.decode("latin-1")

    def info(handle: Any, index: int, buffer: Any, length: int, flags: Any) -> int:
        found = int(real_info(handle, index, buffer, length, flags))
        renamed = _PRINTER_NAMES.get(name(handle, index))
        if renamed is None or not buffer:
            return found
        ctypes.memmove(buffer, renamed + b"\0", len(renamed) + 1)
        return len(renamed) + 1

    def weight(handle: Any, index: int) -> int:
        return _PRINTER_WEIGHTS.get(name(handle, index)) or int(real_weight(handle, index))

    def data(font: Any, buffer: Any, length: int, out: Any) -> int:
        base = ctypes.create_string_buffer(96)
        raw.FPDFFont_GetBaseFontName(font, base, 96)
        if base.value.decode("latin-1") not in _PRINTER_WEIGHTS:
            return int(real_data(font, buffer, length, out))
        face = _face(700 if base.value.decode("latin-1") == BOLD else 400)
        ctypes.cast(out, ctypes.POINTER(ctypes.c_size_t))[0] = len(face)
        if buffer and length >= len(face):
            ctypes.memmove(buffer, face, len(face))
        return 1

    monkeypatch.setattr(raw, "FPDFText_GetFontInfo", info)
    monkeypatch.setattr(raw, "FPDFText_GetFontWeight", weight)
    monkeypatch.setattr(raw, "FPDFFont_GetFontData", data)


def _policy() -> list[list[Spec]]:
    """Three pages of a policy manual whose chapters and sections are bold in the body's size."""
    pages: list[list[Spec]] = []
    chapters = (("Warranty Coverage", ("Scope", "Terms")), ("Employee Leave", ("Sick", "Travel")),
                ("Internal Audit", ("Reports",)))  # fmt: skip
    for chapter, (name, sections) in enumerate(chapters, 1):
        page: list[Spec] = [*paragraph(), (f"Chapter {chapter}: {name}", BOLD, 11.0)]
        page += paragraph()
        for n, section in enumerate(sections, 1):
            page += [(f"{chapter}.{n} {section} Rules", BOLD, 11.0), *paragraph()]
        pages.append(page)
    return pages


def test_a_printers_weights_in_thousands_are_read_from_the_embedded_faces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Microsoft Print to PDF (the fifteenth question set's policy manual, 32 pages): PDFium read
    # 3,900 for Aptos Bold and 3,816 for Aptos Regular, every line was bold, and of 144 headings
    # 9 were found; the embedded faces declare 700 and 400
    _printed(monkeypatch)
    converted = read_file(make_pdf(_policy()), "printed.pdf", isolated=False)
    assert heading_lines(converted.text) == [
        "## Chapter 1: Warranty Coverage", "## 1.1 Scope Rules", "## 1.2 Terms Rules",
        "## Chapter 2: Employee Leave", "## 2.1 Sick Rules", "## 2.2 Travel Rules",
        "## Chapter 3: Internal Audit", "## 3.1 Reports Rules",
    ]  # fmt: skip
