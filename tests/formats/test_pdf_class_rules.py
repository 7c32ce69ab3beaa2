"""Rules for classes of text a PDF's text layer hides from its headings (issue 30, seventh
pass): letters spaced out for show, a title page after the cover, headings set in the margin
beside their paragraph, a line PDFium breaks at a raised or lowered letter, ligatures with no
Unicode value, a title only a browser's print header shows, a long heading's second line. Each
test fails with its rule taken out."""

from __future__ import annotations

import ctypes
from typing import Any

import pypdfium2 as pdfium
from pdf_maker import Prose, Spec, heading_lines, letter_spaced, make_pdf

from skills.formats.pdf.lines import Line, _rejoined, _unmapped_ligatures, read_page
from skills.formats.read import read_file

BODY = ("Times-Roman", 10.0)
BOLD = "Helvetica-Bold"
_PROSE = Prose(("ygg", "awj", "ekk", "oww", "uhh"), BODY)
paragraph = _PROSE.paragraph


def _converted(pages: list[list[Spec]], spaced: dict[str, float], spaces: bool = True) -> str:
    return read_file(letter_spaced(make_pdf(pages), spaced, spaces), "spaced.pdf").text


def test_letters_spaced_out_for_show_read_as_their_words() -> None:
    # ConTeXt LMTX sets its sections letter by letter a fifth of an em apart, and PDFium, finding
    # a gap after each letter, wrote 'w i d o w s a n d o r p h a n s': 82 of the manual's 90
    # headings were lost, and keyword search found no word of them
    pages = [
        [("CHAPTER ONE", BOLD, 20, 72), *paragraph(110), ("Widows and Orphans", BOLD, 14, 190),
         *paragraph(215)],
        [("CHAPTER TWO", BOLD, 20, 72), *paragraph(110), ("Broken Hyphens", BOLD, 14, 190),
         *paragraph(215)],
    ]  # fmt: skip
    spaced = {"CHAPTER ONE": 0.3, "CHAPTER TWO": 0.3}
    text = _converted(pages, {**spaced, "Widows and Orphans": 0.2, "Broken Hyphens": 0.2})
    assert heading_lines(text) == [
        "# CHAPTER ONE", "## Widows and Orphans", "# CHAPTER TWO", "## Broken Hyphens",
    ]  # fmt: skip
    # TeX writes no spaces: its word gaps are only wider moves
    text = _converted(pages, {"Widows and Orphans": 0.2, "Broken Hyphens": 0.2}, spaces=False)
    assert "## Widows and Orphans" in heading_lines(text)


def test_single_letters_of_prose_or_of_a_glyph_table_stay_apart() -> None:
    # a line of prose set by moves (TeX) has its one-letter words ('a b c d') a word's gap
    # apart: they are words; a font's glyph table ('Ä Å Ç É á à', ReportLab's guide) spaces its
    # letters as evenly, but no word is cased so
    prose = "Say a b c d in turn, then the rest of the words on the line."
    glyphs = "ÄÅÇÉáàâä"
    pages = [[("Samples", BOLD, 16, 72), *paragraph(100), (prose, *BODY, 170), (glyphs, *BODY, 190),
              *paragraph(210)]]  # fmt: skip
    text = _converted(pages, {prose: 0.0, glyphs: 0.4}, spaces=False)
    assert "Say a b c d in turn" in text
    assert "Ä Å Ç É á à â ä" in text


def test_a_title_page_after_the_cover_gives_no_headings() -> None:
    # No Starch's book repeats its cover's title on page 3 over the author's name, then the
    # copyright notice in 8 pt: 'RUST FOR RUSTACEANS' and 'JON GJENGSET' were headings
    small = Prose(("yzz", "abb"), ("Times-Roman", 8.0))
    cover: list[Spec] = [("WIDGET HANDBOOK", BOLD, 40, 100), ("A GUIDE FOR MAKERS", BOLD, 14, 160)]
    title: list[Spec] = [("WIDGET HANDBOOK", BOLD, 18, 100), ("ANN SMITH", BOLD, 14, 121),
                         *small.paragraph(200), *small.paragraph(260)]  # fmt: skip
    chapters = [[(name, BOLD, 16, 72), *paragraph(100), *paragraph(170)] for name in
                ("Foundations", "Types and Traits")]  # fmt: skip
    converted = read_file(make_pdf([cover, title, *chapters]), "book.pdf")
    assert heading_lines(converted.text) == ["# Foundations", "# Types and Traits"]


def _margin_headed(name: str, top: float) -> list[Spec]:
    """A paragraph with its heading set in the left margin on its first line's baseline, as
    ConTeXt sets its subsections."""
    word = _PROSE.word()
    return [
        (name, "Times-Roman", 14, top, 30),
        (f"The {word} options are set when the package is loaded, or at any later", *BODY,
         top + 4, 110),
        (f"point of the {word} document, with the command that sets up the package for", *BODY,
         top + 19, 110),
        (f"the {word} paragraphs that follow it, until the options are set again.", *BODY,
         top + 34, 110),
    ]  # fmt: skip


def test_a_heading_in_the_margin_is_a_line_apart_from_its_paragraph() -> None:
    # ConTeXt LMTX's subsections: PDFium read 'Overview LATEX users can set the options...' as
    # one line of mixed sizes, no heading
    lines = [*_margin_headed("Overview", 110), *_margin_headed("Disabling", 180)]
    read = read_page(pdfium.PdfDocument(make_pdf([lines]))[0], 0).lines
    assert [(line.text, line.size) for line in read[:2]] == [("Overview", 14), (lines[1][0], 10)]


def _line(text: str, left: float, right: float, base: float, size: float = 14.1) -> Line:
    return Line(0, text, size, 400, False, True, base - size * 0.7, left, right=right, base=base)


def test_a_line_broken_at_a_lowered_letter_is_one_line() -> None:
    # TeX's logo lowers its E, LATEX's raises a small A, and at a line's start PDFium began a new
    # line there: ConTeXt's margin headings 'TE' / 'X Live' and 'L' / 'ATE' / 'X' (the numbers
    # are the manual's)
    broken = [_line("TE", 48.3, 61.4, 301.7), _line("X Live", 59.8, 84.6, 301.7)]
    assert [line.text for line in _rejoined(broken)] == ["TEX Live"]
    latex = [_line("L", 68.2, 76.8, 171.1), _line("ATE", 71.1, 92.3, 168.4, 9.0),
             _line("X", 87.4, 95.6, 171.1)]  # fmt: skip
    assert [line.text for line in _rejoined(latex)] == ["LATEX"]
    # a line further on, or on another baseline, is a line of its own
    apart = [_line("Widows", 48.3, 95.0, 301.7), _line("A widow occurs", 107.7, 400.0, 301.7)]
    under = [_line("Broken", 54.9, 99.0, 195.0), _line("Hyphens", 44.6, 99.0, 212.0)]
    assert len(_rejoined(apart)) == len(_rejoined(under)) == 2


def test_a_heading_in_the_margin_beside_its_paragraph_is_a_heading() -> None:
    # apart from its paragraph, ConTeXt's margin heading stood on a longer line's baseline like
    # a table's first cell ('Sampling' / 'method' beside its values): no heading still
    pages = [
        [("Options", BOLD, 18, 72, 110), *_margin_headed("Overview", 110),
         *_margin_headed("Disabling", 180)],
        [("Presets", BOLD, 18, 72, 110), *_margin_headed("Balanced", 110),
         *_margin_headed("Strict", 180)],
    ]  # fmt: skip
    assert heading_lines(read_file(make_pdf(pages), "margin.pdf").text) == [
        "# Options", "## Overview", "## Disabling", "# Presets", "## Balanced", "## Strict",
    ]  # fmt: skip


class _Calibri:
    """PDFium's answers for a page of Calibri whose ligatures have no Unicode map."""

    def FPDFText_HasUnicodeMapError(self, handle: Any, index: int) -> int:
        return 1

    def FPDFText_GetFontInfo(self, handle: Any, index: int, name: Any, size: int, _: Any) -> int:
        ctypes.memmove(name, b"JJLENB+Calibri\0", 15)
        return 15


def test_calibris_ligatures_without_a_unicode_value_are_spelled_out() -> None:
    # a Windows printer driver's PDF of a Word file maps Calibri's 'ti', 'tt', 'ft' and 'tti'
    # to nothing, and PDFium reads the glyphs' numbers: 'HarmaƩan', 'opƟonal', 'MicrosoŌ',
    # 'seƫngs' (SIL's Harmattan guide, round 17), which no keyword search finds
    text = "HarmaƩan opƟonal MicrosoŌ seƫngs"
    spelled = _unmapped_ligatures(_Calibri(), None, text, range(len(text)), 0, len(text), text)
    assert spelled == "Harmattan optional Microsoft settings"


class _Printed:
    """PDFium's answers for a page a printer driver wrote: every font renamed ``CIDFont+F2``, its
    family (the embedded font's own name) ``family``; ``mapped``: whether glyphs have a map."""

    def __init__(self, family: bytes, mapped: bool = False) -> None:
        self.family, self.mapped = family, mapped

    def FPDFText_HasUnicodeMapError(self, handle: Any, index: int) -> int:
        return 0 if self.mapped else 1

    def FPDFText_GetFontInfo(self, handle: Any, index: int, name: Any, size: int, _: Any) -> int:
        ctypes.memmove(name, b"CIDFont+F2\0", 11)
        return 11

    def FPDFText_GetTextObject(self, handle: Any, index: int) -> object:
        return object()

    def FPDFTextObj_GetFont(self, text_object: Any) -> object:
        return object()

    def FPDFFont_GetFamilyName(self, font: Any, name: Any, size: int) -> int:
        ctypes.memmove(name, self.family + b"\0", len(self.family) + 1)
        return len(self.family) + 1


def test_aptos_ff_ligature_in_a_font_a_printer_renamed_is_spelled_out() -> None:
    # Microsoft Print to PDF of a Word file in Aptos (Word's body font since 2024) names every
    # font CIDFont+Fn and maps Aptos' ff to nothing: PDFium reads glyph 431 as U+01AF, 'oƯice',
    # 'staƯ' (a policy manual of the word-exports set); the family is the embedded font's own
    text = "OƯice staƯ oƯer"

    def spelled(raw: Any) -> str:
        return _unmapped_ligatures(raw, None, text, range(len(text)), 0, len(text), text)

    assert spelled(_Printed(b"Aptos")) == "Office staff offer"
    assert spelled(_Printed(b"Segoe UI")) == text  # another font's glyph 431 is not Aptos' ff
    assert spelled(_Printed(b"Aptos", mapped=True)) == text  # a real Ư (Vietnamese) stays
    # Calibri's ligatures are found by the family too when the printer renamed the font
    calibri = "opƟonal seƫngs"
    assert (
        _unmapped_ligatures(
            _Printed(b"Calibri"), None, calibri, range(len(calibri)), 0, len(calibri), calibri
        )
        == "optional settings"
    )


def test_the_title_a_browsers_print_header_shows_is_the_title() -> None:
    # Firefox prints the page's title left and its address right atop each page, the page
    # count and the date at its foot (mkgrkindex.nw, round 16): the document named itself
    # nowhere else, and had no title
    def page(number: int) -> list[Spec]:
        return [
            ("mkgrkindex.nw\tfile:///home/ann/tex/mkgrkindex.html", "Helvetica", 8, 20, 18),
            *paragraph(72), *paragraph(150),
            (f"{number} of 3\t25/08/2009 02:17", "Helvetica", 8, 760, 18),
        ]  # fmt: skip

    converted = read_file(make_pdf([page(n) for n in (1, 2, 3)]), "print.pdf")
    assert converted.title == "mkgrkindex.nw"


def test_the_second_line_of_a_question_too_long_for_a_heading_is_no_heading() -> None:
    # xfig's FAQ (htmldoc, round 16) sets its questions in 14 pt bold over two lines: the first,
    # ending on a comma, was no heading, and the second alone was one
    questions = [
        ("X error occurs with the clipping call named as the request code,",
         "or thick line shows through arrowhead in certain orientations"),
        ('A warning about some action not found occurs when it starts, like "Warning:',
         'Actions not found: ModeOpenCompound"'),
    ]  # fmt: skip
    faq: list[Spec] = [("Frequently Asked Questions", BOLD, 20, 72), *paragraph(100)]
    for n, (first, second) in enumerate(questions):
        top = 180.0 + 120 * n
        faq += [(first, BOLD, 14, top), (second, BOLD, 14, top + 19), *paragraph(top + 45)]
    pages = [faq, [("Installation", BOLD, 20, 72), *paragraph(100)]]
    text = read_file(make_pdf(pages), "faq.pdf").text
    assert heading_lines(text) == ["# Frequently Asked Questions", "# Installation"]
