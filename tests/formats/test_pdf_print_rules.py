"""Rules for Word documents printed to PDF through a printer driver (issue 30, eighth pass):
Microsoft Print to PDF renames every face (``CIDFont+F1``, ``CIDFont+F2``) and writes font
descriptors whose weight PDFium reads in thousands. Each test fails with its rule taken out."""

from __future__ import annotations

import ctypes
from typing import Any

import pypdfium2.raw as raw
import pytest
from pdf_maker import Prose, Spec, heading_lines, make_pdf

from skills.formats.pdf.lines import _unmapped_ligatures
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
        "# Chapter 1: Warranty Coverage", "## 1.1 Scope Rules", "## 1.2 Terms Rules",
        "# Chapter 2: Employee Leave", "## 2.1 Sick Rules", "## 2.2 Travel Rules",
        "# Chapter 3: Internal Audit", "## 3.1 Reports Rules",
    ]  # fmt: skip


def test_a_chapter_numbered_with_a_colon_is_a_level_over_its_sections() -> None:
    # the printed policy manual sets 'Chapter 2: Consumer Hardware Warranty Policy' and '2.1
    # Standard Warranty Coverage' in one bold body type: levels came from the numbering, and the
    # chapter, numbered only after 'Chapter ' and before a colon, was a section's level
    lines = heading_lines(read_file(make_pdf(_policy()), "policy.pdf").text)
    assert [line for line in lines if "Chapter" in line] == [
        "# Chapter 1: Warranty Coverage", "# Chapter 2: Employee Leave",
        "# Chapter 3: Internal Audit",
    ]  # fmt: skip
    assert "## 2.2 Travel Rules" in lines


class _PrintedFace:
    """PDFium's answers for a printed page whose face is renamed ``CIDFont+F2``: the font inside
    names its family, and no character has a Unicode map."""

    def __init__(self, family: bytes) -> None:
        self.family = family

    def FPDFText_HasUnicodeMapError(self, handle: Any, index: int) -> int:
        return 1

    def FPDFText_GetFontInfo(self, handle: Any, index: int, name: Any, size: int, _: Any) -> int:
        ctypes.memmove(name, b"CIDFont+F2\0", 11)
        return 11

    def FPDFText_GetTextObject(self, handle: Any, index: int) -> int:
        return 1

    def FPDFTextObj_GetFont(self, text_object: Any) -> int:
        return 1

    def FPDFFont_GetFamilyName(self, font: Any, name: Any, size: int) -> int:
        ctypes.memmove(name, self.family + b"\0", len(self.family) + 1)
        return len(self.family) + 1


def test_aptos_ff_ligature_without_a_unicode_value_is_spelled_out_by_the_face_inside() -> None:
    # Aptos, Word's body font since 2024, printed through Microsoft Print to PDF: its ff ligature
    # has no Unicode value and PDFium reads the glyph's number, U+01AF ('oƯice', 'staƯ': 55
    # words of the policy manual), in a face the printer names CIDFont+F2
    text = "the oƯice staƯ oƯer eƯective help"
    spelled = _unmapped_ligatures(_PrintedFace(b"Aptos"), None, text, range(len(text)), 0, 34, text)
    assert spelled == "the office staff offer effective help"


def test_a_letter_u_with_horn_in_another_face_stays() -> None:
    # the same character is a letter of Vietnamese ('Ưu tiên'): only Aptos' glyph is a ligature
    text = "Ưu tiên"
    kept = _unmapped_ligatures(_PrintedFace(b"Arial"), None, text, range(len(text)), 0, 7, text)
    assert kept == "Ưu tiên"


def test_a_section_title_set_larger_by_hand_among_its_siblings_is_their_sibling() -> None:
    # the bilingual handbook (Word for Microsoft 365, the fifteenth question set) sets four of its
    # section titles at 11 pt among 10 pt ones, each after its chapter's first sections: ranked a
    # level between, the last held every later section (330 of 598 children under 'Colorado
    # (HFWA)', a ten-line section on sick leave)
    def section(title: str, size: float) -> list[Spec]:
        return [(title, BOLD, size), *paragraph()]

    pages: list[list[Spec]] = [
        [("EMPLOYMENT BENEFITS", BOLD, 14), *section("Holiday Pay", 11), *section("Paid Time", 11)],
        [*section("Colorado Sick Leave", 12), *section("Bereavement Leave", 11)],
        [("EMPLOYMENT RULES", BOLD, 14), *section("Staff Duties", 11), *section("Hiring", 11)],
    ]  # fmt: skip
    assert heading_lines(read_file(make_pdf(pages), "handbook.pdf").text) == [
        "# EMPLOYMENT BENEFITS", "## Holiday Pay", "## Paid Time", "## Colorado Sick Leave",
        "## Bereavement Leave", "# EMPLOYMENT RULES", "## Staff Duties", "## Hiring",
    ]  # fmt: skip
