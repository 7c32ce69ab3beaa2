"""The rules held-out round 9 asked for (docs/formats.md): pages from desktop and office producers
the earlier rounds never met (Apple Pages through Quartz, Word through PScript5 and Distiller,
LibreOffice without bookmarks, Microsoft Print To PDF, an Excel sheet through PDFMaker). Each test
fails with its rule taken out."""

from __future__ import annotations

import re

from pdf_maker import Prose, Spec, headings, incremental_update, make_pdf, next_object

from skills.chunking import chunk_document
from skills.formats.read import read_file

BODY = ("Times-Roman", 11.0)
BOLD = "Helvetica-Bold"
_PROSE = Prose(("ard", "elm", "ost", "uvy", "izz"), BODY)
paragraph = _PROSE.paragraph


def with_unicode_map(data: bytes, font_name: str, code: str, unicode: int) -> bytes:
    """``data`` (from ``make_pdf``) with a ToUnicode map on its font ``font_name`` that reads
    the character code of ``code`` as ``unicode``, added as an incremental update: a font whose
    map sends a glyph to a control character, as Print To PDF's CID fonts do."""
    name = font_name.encode("ascii")
    font = re.search(rb"(\d+) 0 obj\r?\n(<</BaseFont/%s/[^>]*/Type/Font>>)" % name, data)
    if font is None:
        raise ValueError("not a PDF written by make_pdf")
    number, cmap = int(font.group(1)), next_object(data)
    table = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Test def "
        b"1 begincodespacerange <00> <FF> endcodespacerange "
        b"1 beginbfchar <%02X> <%04X> endbfchar endcmap "
        b"CMapName currentdict /CMap defineresource pop end end"
    ) % (ord(code), unicode)
    objects = {
        number: font.group(2)[:-2] + b"/ToUnicode %d 0 R>>" % cmap,
        cmap: b"<</Length %d>>stream\n%s\nendstream" % (len(table), table),
    }
    return incremental_update(data, objects)


def test_a_glyph_mapped_to_a_control_character_does_not_make_the_file_unreadable() -> None:
    # Alkalami's features (Print To PDF): Arabic samples whose glyphs map to U+0004
    lines: list[Spec] = [
        ("Stylistic Sets", BOLD, 16),
        *paragraph(),
        ("Samples: ab#cd ef#gh", "Helvetica", 11, 200),
        *paragraph(230),
    ]
    data = with_unicode_map(make_pdf([lines, paragraph()]), "Helvetica", "#", 0x04)
    text = read_file(data, "samples.pdf").text
    assert "ab cd ef gh" in text and "\x04" not in text
    assert chunk_document(text, format="markdown").leaves  # the chunker takes it


def test_a_running_header_naming_its_chapter_does_not_make_the_heading_a_label() -> None:
    # Dai Banna's guide (Word through Ghostscript): each chapter's name in 8 pt atop its pages
    pages: list[list[Spec]] = []
    for chapter in ("Installation", "Known Issues", "Technical Support"):
        header: Spec = (chapter, "Helvetica", 8, 36, 400)
        pages += [[header, (chapter, BOLD, 18, 72), *paragraph(110)], [header, *paragraph(72)]]
    assert headings(pages) == ["# Installation", "# Known Issues", "# Technical Support"]


def test_a_fonts_samples_set_large_do_not_outsize_the_first_pages_title() -> None:
    # the Mondulkiri family's guide: a 22 pt title, 13 pt headings, samples of single glyphs
    # in 36 pt further on; no metadata title (Word's "Microsoft Word - ...doc")
    pages: list[list[Spec]] = [
        [("The Khumba Font Family", BOLD, 22), ("Khumba Regular", BOLD, 13, 110),
         *paragraph(135)],
        [("Khumba Book", BOLD, 13), *paragraph(), ("ab", "Times-Roman", 36, 200),
         ("cd ef", "Times-Roman", 36, 250), *paragraph(300)],
    ]  # fmt: skip
    converted = read_file(make_pdf(pages), "family.pdf")
    assert converted.title == "The Khumba Font Family"
    found = re.findall(r"^#{1,6} (.*)$", converted.text, re.MULTILINE)
    assert "The Khumba Font Family" not in found and "Khumba Regular" in found


def test_a_footers_letterhead_on_every_page_still_makes_its_words_a_label() -> None:
    # a complaint (Corel): the firm's name in a 6 pt footer on each page, bold over the signature
    footer: Spec = ("LAW OFFICES OF ANN LEE, LLC", BOLD, 6, 720, 400)
    last = [*paragraph(72), ("LAW OFFICES OF ANN LEE, LLC", BOLD, 11, 160, 250),
            ("Of Attorneys for Plaintiff", *BODY, 175, 250), footer]  # fmt: skip
    pages = [[*paragraph(72), footer], [*paragraph(72), footer], last]
    assert headings(pages) == []


def test_a_heading_that_fills_its_line_goes_on_on_the_next() -> None:
    # Apple Pages: "Recommendations for the implementations of Khmer" / "Unicode", left-aligned
    wide = "A line of body text set from the left margin right across to the right margin."
    first: list[Spec] = [
        ("Recommended settings of the Khumba", BOLD, 18),
        ("Toolkit", BOLD, 18, 94),
        *paragraph(125),
        (wide, *BODY, 190),
    ]
    pages = [first, [("Lists of syllables", BOLD, 18), *paragraph()]]
    assert headings(pages) == [
        "# Recommended settings of the Khumba Toolkit", "# Lists of syllables",
    ]  # fmt: skip


def test_a_headings_footnote_mark_set_smaller_leaves_it_a_heading_without_the_mark() -> None:
    # Apple Pages: "The order of components in Khmer orthographical syllables¹"
    first: list[Spec] = [
        ("Order of the components", BOLD, 18, 72),
        ("1", BOLD, 10, 72, 284),  # the footnote's mark, right after the last word
        *paragraph(110),
        ("1 The terms follow the standard.", *BODY, 700),
    ]
    pages = [first, [("Rules for rendering", BOLD, 18), *paragraph()]]
    assert headings(pages) == ["# Order of the components", "# Rules for rendering"]


def test_the_lines_a_caption_wraps_onto_are_not_headings() -> None:
    # Word's bold centred captions: "Figure 4: encroachment of Word 1" / "into Word 2"
    caption: list[Spec] = [
        ("Figure 4: encroachment of the first word", "Times-Bold", 11, 200, 200),
        ("into the second word", "Times-Bold", 11, 214, 250),
    ]
    pages = [[("5. Collisions", BOLD, 14), *paragraph(), *caption, *paragraph(240)],
             [("6. Vowel positions", BOLD, 14), *paragraph()]]  # fmt: skip
    assert headings(pages) == ["# 5. Collisions", "# 6. Vowel positions"]


def test_a_fonts_samples_set_large_are_not_headings() -> None:
    # font guides (LibreOffice, Word): Tifinagh pairs "ⵏⵏ ⵏⵏ ⵏⵏ", an alphabet in 16 pt
    samples: list[Spec] = [
        ("ab cd ef gh", "Times-Roman", 16, 200),
        *paragraph(230),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "Times-Roman", 16, 310),
        *paragraph(340),
    ]
    pages = [[("Character set", BOLD, 16), *paragraph(), *samples],
             [("Features", BOLD, 16), *paragraph()]]  # fmt: skip
    assert headings(pages) == ["# Character set", "# Features"]


def test_an_appendixs_numbers_are_numbering() -> None:
    # RTKLIB's manual (Word): "Appendix A" chapters, "A.1 ...", "E.1 Time System" sections
    pages: list[list[Spec]] = [
        [("1 Overview", BOLD, 14), *paragraph(), ("1.1 Scope", BOLD, 12, 160), *paragraph(180),
         ("1.2 Terms", BOLD, 12, 260), *paragraph(280)],
        [("Appendix A Formats", BOLD, 14), *paragraph(), ("A.1 Binary files", BOLD, 11, 160),
         *paragraph(180)],
    ]  # fmt: skip
    assert headings(pages)[-1] == "## A.1 Binary files"


def test_labels_seen_once_under_each_larger_heading_are_headings() -> None:
    # RTKLIB's appendix of man pages (Word): SYNOPSIS, DESCRIPTION under each command, while a
    # NOTE seen twice in one section stays a label
    pages: list[list[Spec]] = []
    for n, command in enumerate(("RTKRCV", "CONVBIN", "STR2STR")):
        page: list[Spec] = [*paragraph(), (f"A.{n + 1} {command}", BOLD, 13, 140 + 30 * n)]
        for k, label in enumerate(("SYNOPSIS", "DESCRIPTION")):
            top = 170 + 30 * n + 100 * k  # (not at one place on each page: not furniture)
            page += [(label, "Courier-Bold", 12, top), *paragraph(top + 18)]
        if n == 1:
            for k in range(2):
                page += [("NOTE", "Courier-Bold", 12, 400 + 90 * k), *paragraph(418 + 90 * k)]
        pages.append(page)
    found = [heading.lstrip("# ") for heading in headings(pages)]
    assert found.count("SYNOPSIS") == 3 and found.count("DESCRIPTION") == 3
    assert "NOTE" not in found


def test_texs_ligature_codes_in_a_font_without_a_unicode_map_are_spelled_out() -> None:
    # the lefty guide (dvipsk, bitmap fonts): OT1's fi at code 12, read by PDFium as U+000C
    lines: list[Spec] = [
        ("Language Speci#cation", BOLD, 16),
        *paragraph(),
        ("The grammar speci#es each #eld.", "Helvetica", 11, 200),
        *paragraph(230),
    ]
    pages = [lines, [("Examples", BOLD, 16), *paragraph()]]
    data = with_unicode_map(make_pdf(pages), "Helvetica", "#", 0x0C)
    text = read_file(data, "guide.pdf").text
    assert "The grammar specifies each field." in text
    data = with_unicode_map(make_pdf(pages), "Helvetica-Bold", "#", 0x0C)
    assert "# Language Specification" in read_file(data, "guide.pdf").text


def test_a_man_pages_name_in_its_header_is_its_title_when_nothing_else_names_it() -> None:
    # groff through Ghostscript: "DOT(1) General Commands Manual DOT(1)" atop every page
    header: Spec = ("TILT(1)\tGeneral Commands\tTILT(1)", "Times-Roman", 10, 40)
    pages = [[header, ("NAME", "Times-Bold", 11, 80), *paragraph(100)],
             [header, ("OPTIONS", "Times-Bold", 11, 80), *paragraph(100)],
             [header, ("FILES", "Times-Bold", 11, 80), *paragraph(100)]]  # fmt: skip
    assert read_file(make_pdf(pages), "tilt.1.pdf").title == "TILT(1)"
