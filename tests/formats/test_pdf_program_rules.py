"""The rules held-out round 8 asked for (docs/formats.md): pages made by programs (Prawn, Apache
FOP, rst2pdf through ReportLab, rinohtype), read from their typography alone. Each test fails
with its rule taken out."""

from __future__ import annotations

import ctypes

from pdf_maker import Prose, Spec, heading_lines, headings, make_pdf

from skills.formats.read import read_file

BODY = ("Helvetica", 11.0)
_PROSE = Prose(("ax", "eg", "iv", "oq", "uz"), BODY)
paragraph = _PROSE.paragraph


def _example(title: str) -> list[Spec]:
    """A manual's example page: its title, its prose, a listing in Courier that holds more
    text than the prose, and what the listing draws (in 12 pt: larger than the prose)."""
    word = _PROSE.word()
    code: list[Spec] = [
        (f"pdf.text '{word} sample number {n}', size: {10 + n}, at: [{n * 20}, 300]", "Courier",
         9.5, 240 + 12 * n)
        for n in range(7)
    ]  # fmt: skip
    drawn: list[Spec] = [(f"Sample text number {n} at size twelve", *BODY[:1], 12, 400 + 16 * n)
                         for n in range(3)]  # fmt: skip
    return [
        (title, "Helvetica-Bold", 16, 72),
        *paragraph(100),
        (f"The {word} sample below draws a line of text on the page", *BODY, 170),
        ("at the cursor and moves the cursor down", *BODY, 185),
        *code,
        *drawn,
    ]


def test_code_listings_that_outweigh_the_prose_do_not_set_the_body_type() -> None:
    # Prawn's manual: 9.5 pt Courier listings hold more text than the 11 pt Helvetica prose; read
    # as the body, they made every line of prose "larger than the body", a heading
    pages = [_example("Drawing text"), _example("Moving the cursor"), _example("Adding pages")]
    assert headings(pages) == ["# Drawing text", "# Moving the cursor", "# Adding pages"]


def test_a_file_path_set_as_a_pages_title_is_a_heading() -> None:
    # Prawn's manual heads each example with its file's path in 18 pt: the section's title, not
    # an address in the text (a path at the body's size stays no heading)
    pages: list[list[Spec]] = [
        [(name, "Helvetica", 18, 72), *paragraph(110), ("See shared/helpers.rb", *BODY, 180),
         ("shared/helpers.rb", *BODY, 200), *paragraph(230)]
        for name in ("graphics/rectangle.rb", "graphics/polygon.rb", "text/font_size.rb")
    ]  # fmt: skip
    assert headings(pages) == [
        "# graphics/rectangle.rb", "# graphics/polygon.rb", "# text/font_size.rb"
    ]  # fmt: skip


def test_a_heading_in_the_running_headers_words_set_larger_is_a_heading() -> None:
    # Erlang's reference (Apache FOP): the module page opens with "eldap" in 15 pt right under
    # the 9 pt running header "eldap" every page carries; it heads the module's sections
    def page(*lines: Spec) -> list[Spec]:
        return [("ledger", "Helvetica", 9, 40, 480), *lines, *paragraph(300)]

    pages = [
        page(("Installing the ledger", "Helvetica", 18, 72), *paragraph(110)),
        page(("ledger", "Helvetica", 15, 72), *paragraph(110), ("Exports", "Helvetica", 13, 200),
             *paragraph(230)),
        page(*paragraph(72)),
        page(*paragraph(72)),
    ]  # fmt: skip
    assert headings(pages) == ["# ledger", "## Exports"]  # (the first page's line: the title)


def test_a_heading_seen_on_every_module_in_a_larger_type_is_still_a_heading() -> None:
    # Erlang's reference: "Exports" (13.3 pt) under each module; rst2pdf's "Detail 1" under
    # each section. A line seen as often in the body's bold type is still a label
    pages: list[list[Spec]] = [
        [(name, "Helvetica-Bold", 16, 72), *paragraph(100), ("Exports", "Helvetica-Bold", 13, 180),
         *paragraph(205), ("Returns", "Helvetica-Bold", 11, 280), *paragraph(300)]
        for name in ("ledger_a", "ledger_b", "ledger_c")
    ]  # fmt: skip
    found = headings(pages)
    assert found == [f"{level} {text}" for name in ("ledger_a", "ledger_b", "ledger_c")
                     for level, text in (("#", name), ("##", "Exports"))]  # fmt: skip


def test_a_front_matters_roman_page_number_alone_on_its_page_is_no_heading() -> None:
    # rinohtype's Sphinx output: the blank back of the contents page carries only "ii", in the
    # bold of its footers; too few pages to be found as furniture
    pages: list[list[Spec]] = [
        [("Contents", "Helvetica-Bold", 16, 72), *paragraph(100)],
        [("ii", "Helvetica-Bold", 11, 740)],
        paragraph(72),  # (a list of figures: text under no heading of its own)
        [("Introduction", "Helvetica-Bold", 16, 72), *paragraph(100)],
    ]
    assert headings(pages) == ["# Contents", "# Introduction"]


def test_a_chapters_label_numbers_it_over_its_sections_in_the_same_type() -> None:
    # rinohtype: "Chapter 1 One" and "1.1 Section A" both in 14 pt bold
    def section(text: str) -> list[Spec]:
        return [(text, "Helvetica-Bold", 14, 72), *paragraph(100)]

    names = ("Chapter 1 Basics", "1.1 Setting up", "1.2 First use", "Chapter 2 Further",
             "2.1 Going on")  # fmt: skip
    assert headings([section(name) for name in names]) == [
        "# Chapter 1 Basics", "## 1.1 Setting up", "## 1.2 First use", "# Chapter 2 Further",
        "## 2.1 Going on",
    ]  # fmt: skip


def test_a_running_header_of_the_title_on_a_few_pages_is_no_heading() -> None:
    # rinohtype (Sphinx): "References, Release" atop the even pages only, in the bold of its
    # footers, over the text going on from the page before: too few pages for furniture
    names = ("Installing", "Configuring", "Running", "Tuning")
    pages: list[list[Spec]] = [[("Widgetry", "Helvetica-Bold", 28, 300)]]
    for n, name in enumerate(names):
        pages.append([(name, "Helvetica-Bold", 16, 72), *paragraph(100), *paragraph(200)])
        header = [("Widgetry, Release", "Helvetica-Bold", 11, 40)] if n in (1, 3) else []
        pages.append([*header, *paragraph(72), *paragraph(150)])
    assert headings(pages) == [f"# {name}" for name in names]


def test_a_heading_ending_in_a_name_in_codes_type_is_one_heading() -> None:
    # ReportLab's User Guide: "Chapter 2 Graphics and Text with pdfgen", "pdfgen" in Courier of
    # the heading's size; a bold label over code at the body's size stays text
    def heading(words: str, code: str, top: float) -> list[Spec]:
        return [(words, "Times-Bold", 18, top), (code, "Courier", 18, top, 72 + 11 * len(words))]

    pages: list[list[Spec]] = [
        [*heading("Graphics drawn with", "pdfgen", 72), *paragraph(110),
         ("Return type", "Helvetica-Bold", 11, 180), ("Drawing", "Courier", 11, 180, 150),
         *paragraph(200)],
        [*heading("Charts drawn with", "graphics", 72), *paragraph(110)],
    ]  # fmt: skip
    assert headings(pages) == ["# Graphics drawn with pdfgen", "# Charts drawn with graphics"]


def test_a_heading_over_a_smaller_code_listing_heads_it() -> None:
    # ReportLab's User Guide: "Line methods" (12 pt bold italic) right over 8 pt Courier lines,
    # short ones: the listing is the text it heads, not a drawing's labels
    def methods(name: str, top: float) -> list[Spec]:
        calls = [(f"canvas.{name}{n}(x1, y1)", "Courier", 8, top + 22 + 10 * n) for n in range(4)]
        return [(f"{name.title()} methods", "Times-BoldItalic", 12, top), *calls]

    pages = [[*paragraph(72), *methods("line", 150), *methods("shape", 230), *paragraph(300)]]
    assert headings(pages) == ["# Line methods", "# Shape methods"]


def _stroked(data: bytes, texts: set[str]) -> bytes:
    """The PDF with the text objects saying ``texts`` filled and stroked (render mode 2)."""
    import io

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument(data)
    for page in pdf:
        textpage = page.get_textpage()
        for obj in page.get_objects():
            if obj.type == raw.FPDF_PAGEOBJ_TEXT:
                size = raw.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)  # bytes
                buffer = (ctypes.c_ushort * (size // 2 + 1))()
                raw.FPDFTextObj_GetText(obj.raw, textpage.raw, buffer, size)
                text = bytes(buffer)[: max(0, size - 2)].decode("utf-16-le")
                if text in texts:
                    raw.FPDFTextObj_SetTextRenderMode(obj.raw, raw.FPDF_TEXTRENDERMODE_FILL_STROKE)
        raw.FPDFPage_GenerateContent(page.raw)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_text_thickened_by_a_stroke_is_bold() -> None:
    # ABBYY FineReader's UDHR (and Word, for a font without a bold face): "Preamble" and
    # "Article 1" in the body's regular face, filled and stroked
    names = ("Preamble", "Article 1", "Article 2")
    pages = [[*paragraph(72), (name, *BODY, 160), *paragraph(190)] for name in names]
    data = _stroked(make_pdf(pages), set(names))
    text = read_file(data, "udhr.pdf").text
    assert heading_lines(text) == [f"# {name}" for name in names]
