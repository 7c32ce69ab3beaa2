"""Large and hostile files, made on the spot (nothing downloaded, nothing committed): what the
reliability tests and ``bench/load.py --large-files`` feed the converters.

Each maker takes a size and returns the file's bytes; the sizes in :func:`large_batch` are those
of the issue that found the converters' limits (issue 32: a wide sheet, a 2-million-operation PDF
page, nested HTML, a long deck).
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "formats" / "fixtures"


#: The fonts a made page's text may name: ``/R`` Helvetica, ``/B`` Helvetica-Bold, ``/C``
#: Courier-Bold (standard fonts: no file embedded).
_FONTS = b"/Font << /R 5 0 R /B 6 0 R /C 7 0 R >>"


def one_page_pdf(content: bytes, height: int = 792, width: int = 612) -> bytes:
    """A PDF of one page of ``width`` x ``height`` points whose content stream is ``content``,
    compressed; its text may use the fonts of ``_FONTS``."""
    stream = zlib.compress(content, 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents 4 0 R /Resources << %s >> >>"
        % (width, height, _FONTS),
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier-Bold /Encoding /WinAnsiEncoding >>",
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    size = len(objects) + 1
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    return bytes(out)


def path_operations(count: int) -> bytes:
    """``count`` stroked lines: a content stream PDFium parses into ``count`` page objects."""
    return b"".join(
        b"%d %d m %d %d l S\n" % (i % 600, i % 700, i % 500, i % 300) for i in range(count)
    )


def pdf_pages(copies: int) -> bytes:
    """The runbook fixture's pages (text with headings) repeated ``copies`` times."""
    import pypdfium2 as pdfium

    source = pdfium.PdfDocument(FIXTURES / "operations-runbook.pdf")
    pdf = pdfium.PdfDocument.new()
    for _ in range(copies):
        pdf.import_pages(source)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def html_sections(count: int) -> bytes:
    """A page of ``count`` sections: a heading, a paragraph with a link, a list, a table."""
    body = "".join(
        f"<h2>Section {k}</h2><p>Paragraph {k} says <a href='#s{k}'>something</a>.</p>"
        f"<ul><li>item {k}.1</li><li>item {k}.2</li></ul>"
        f"<table><tr><th>Key</th><th>Value</th></tr><tr><td>k{k}</td><td>v{k}</td></tr></table>\n"
        for k in range(count)
    )
    return f"<!DOCTYPE html><html><body><main>{body}</main></body></html>".encode()


def nested_html(count: int, opening: str = "<div>", closing: str = "</div>") -> bytes:
    """``count`` levels of ``opening``, each holding one numbered word."""
    inner = "".join(f"{opening}w{k} " for k in range(count)) + closing * count
    return f"<!DOCTYPE html><html><body>{inner}</body></html>".encode()


def sheet(rows: int, columns: int, name: str = "data") -> bytes:
    """One sheet ``name`` of ``rows`` x ``columns`` short text cells (61 x 16,384: the widest
    Excel has)."""
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    data = book.create_sheet(name)
    for r in range(rows):
        data.append([f"r{r}c{c}" for c in range(columns)])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
_DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_TYPES = (
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships'
    '+xml"/><Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml"'
    ' ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    "</Types>"
)


def column(number: int) -> str:
    """Excel's letters of a column (1 -> A, 16384 -> XFD)."""
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def workbook(rows: dict[int, list[str]], merges: Sequence[str] = ()) -> bytes:
    """A one-sheet workbook written from its XML: row number -> its cells from column A, and
    merged ranges (openpyxl refuses to write overlapping ranges, or rows past Excel's last)."""
    data = "".join(
        f'<row r="{number}">'
        + "".join(
            f'<c r="{column(k)}{number}" t="inlineStr"><is><t>{text}</t></is></c>'
            for k, text in enumerate(cells, start=1)
        )
        + "</row>"
        for number, cells in sorted(rows.items())
    )
    merged = "".join(f'<mergeCell ref="{ref}"/>' for ref in merges)
    sheet = (
        f'<worksheet xmlns="{_MAIN}"><sheetData>{data}</sheetData>'
        + (f'<mergeCells count="{len(merges)}">{merged}</mergeCells>' if merges else "")
        + "</worksheet>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("[Content_Types].xml", _TYPES)
        package.writestr(
            "_rels/.rels",
            f'<Relationships xmlns="{_RELS}"><Relationship Id="rId1" '
            f'Type="{_DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        )
        package.writestr(
            "xl/workbook.xml",
            f'<workbook xmlns="{_MAIN}" xmlns:r="{_DOC}"><sheets>'
            '<sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>',
        )
        package.writestr(
            "xl/_rels/workbook.xml.rels",
            f'<Relationships xmlns="{_RELS}"><Relationship Id="rId1" '
            f'Type="{_DOC}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
        )
        package.writestr("xl/worksheets/sheet1.xml", sheet)
    return out.getvalue()


def side_by_side_blocks(count: int) -> bytes:
    """``count`` blocks of three columns side by side, an empty column between, each under a
    label merged across it, over the same three names and three rows (4,096 blocks fill
    Excel's 16,384 columns)."""
    rows: dict[int, list[str]] = {1: [], 2: [], 3: [], 4: [], 5: []}
    for k in range(count):
        rows[1] += [f"Group {k}", "", "", ""]
        rows[2] += ["No.", "Item", "Qty", ""]
        for number in (3, 4, 5):
            rows[number] += [str(number - 2), f"item {number}", str(number * 2), ""]
    merges = [f"{column(1 + 4 * k)}1:{column(3 + 4 * k)}1" for k in range(count)]
    return workbook(rows, merges)


def deck(count: int) -> bytes:
    """``count`` slides of a title and three bullets."""
    from pptx import Presentation

    presentation = Presentation()
    for k in range(count):
        slide = presentation.slides.add_slide(presentation.slide_layouts[1])
        slide.shapes.title.text = f"Slide {k}"
        slide.placeholders[1].text = f"point {k}.1\npoint {k}.2\npoint {k}.3"
    out = io.BytesIO()
    presentation.save(out)
    return out.getvalue()


def two_column_slide(count: int) -> bytes:
    """One slide of ``count`` text boxes stacked in two columns side by side (a comparison
    slide's, read column by column), written as copies of one box: python-pptx's
    ``add_textbox`` looks at every shape's id for each new one."""
    from copy import deepcopy

    from pptx import Presentation
    from pptx.util import Emu

    presentation = Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[6])
    box = slide.shapes.add_textbox(Emu(0), Emu(0), Emu(4_000_000), Emu(900))
    box.text_frame.text = "box"
    template = box._element
    tree = template.getparent()
    tree.remove(template)
    for k in range(count):
        shape = deepcopy(template)
        shape.xpath("./p:nvSpPr/p:cNvPr")[0].set("id", str(k + 2))
        place = shape.xpath("./p:spPr/a:xfrm/a:off")[0]
        place.set("x", str(100 + k % 2 * 5_000_000))
        place.set("y", str(100 + k // 2 * 1_000))
        shape.xpath(".//a:t")[0].text = f"Shape {k} on side {k % 2}"
        tree.append(shape)
    out = io.BytesIO()
    presentation.save(out)
    return out.getvalue()


def _text(font: bytes, size: float, left: float, base: float, shown: bytes) -> bytes:
    """One text object of a made page: ``shown`` (a ``Tj``) from (left, base)."""
    return b"BT /%s %g Tf 1 0 0 1 %g %g Tm %s ET\n" % (font, size, left, base, shown)


def bold_drawn_last(count: int) -> bytes:
    """One page of ``count`` regular lines, then ``count`` bold ones drawn after them, all
    below them, in 4 pt type (a page 144,000 points high at 12,000): each bold line looked
    for the regular lines' extent again (seventh pass's reading order for Quartz's pages)."""
    step = 6.0
    height = int(2 * count * step + 100)
    regular = [
        _text(b"R", 4, 72, height - 40 - k * step, b"(Regular text of a line number) Tj")
        for k in range(count)
    ]
    bold = [
        _text(b"B", 4, 72, height - 40 - (count + k) * step, b"(Bold) Tj") for k in range(count)
    ]
    return one_page_pdf(b"".join(regular + bold), height)


def code_heading(count: int) -> bytes:
    """One page: a 14 pt bold heading, then ``count`` bold monospaced lines in that size, each
    ending in a comma (a heading naming code that goes on: one heading of ``count`` lines,
    whose lines were joined in quadratic time), then prose in 12 pt."""
    height = int(32 * count + 200)
    lines = [_text(b"B", 14, 72, height - 50, b"(Font Configuration) Tj")]
    lines += [
        _text(b"C", 14, 72, height - 80 - 16 * k, b"(<tag%d name=x%d,) Tj" % (k, k))
        for k in range(count)
    ]
    prose = b"(The body text goes on over the whole line of the page, as prose does here) Tj"
    lines += [_text(b"R", 12, 72, height - 100 - 16 * count - 14 * k, prose) for k in range(count)]
    return one_page_pdf(b"".join(lines), height)


def printed_pdf(pages: int, padding: int = 0) -> bytes:
    """``pages`` pages of five lines in one embedded face with ``padding`` zero bytes after it,
    whose descriptor's stem width makes PDFium read a weight of 3,940, as a printer's does
    (Microsoft Print to PDF): a face PDFium gives only whole, which each page copied again (400
    pages in a 30 MB face: 20 s). The face is :func:`dejavu_face`."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    face = dejavu_face() + bytes(padding)
    pdf = pdfium.PdfDocument.new()
    data = (ctypes.c_uint8 * len(face)).from_buffer_copy(face)
    font = raw.FPDFText_LoadFont(pdf.raw, data, len(face), raw.FPDF_FONT_TRUETYPE, 0)
    for number in range(pages):
        page = pdf.new_page(612, 792)
        for k in range(5):
            obj = raw.FPDFPageObj_CreateTextObj(pdf.raw, font, ctypes.c_float(11))
            text = f"Line {k} of page {number} goes on in the face the printer embedded.\0"
            units = ctypes.c_char_p(text.encode("utf-16-le"))
            raw.FPDFText_SetText(obj, ctypes.cast(units, ctypes.POINTER(raw.FPDF_WCHAR)))
            raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 72, 700 - 14 * k)
            raw.FPDFPage_InsertObject(page.raw, obj)
        raw.FPDFPage_GenerateContent(page.raw)
        page.close()
    out = io.BytesIO()
    pdf.save(out)
    pdf.close()
    written = out.getvalue()
    assert written.count(b"/StemV 70") == 1, "PDFium's writer gives the face a stem width of 70"
    return written.replace(b"/StemV 70", b"/StemV 950")


def dejavu_face() -> bytes:
    """A real TrueType face (DejaVu Sans, Book: weight 400) from matplotlib's data."""
    import matplotlib

    return (Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf").read_bytes()


_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def word_body(blocks: str) -> bytes:
    """The Word fixture with its body replaced by ``blocks`` (``w:p`` and ``w:tbl`` XML)."""
    body = f'<w:document xmlns:w="{_W}"><w:body>{blocks}<w:sectPr/></w:body></w:document>'
    out = io.BytesIO()
    fixture = FIXTURES / "widget-api-guide.docx"
    with (
        zipfile.ZipFile(fixture) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy,
    ):
        for item in source.infolist():
            part = source.read(item)
            copy.writestr(item, body.encode() if item.filename == "word/document.xml" else part)
    return out.getvalue()


def _para(text: str) -> str:
    return f"<w:p><w:r><w:t xml:space='preserve'>{text}</w:t></w:r></w:p>"


def word_cell(count: int) -> bytes:
    """A form: a table of one row, a label beside a cell of ``count`` paragraphs (notes pasted
    into a form's box: each asked again whether its cell was a band, 20,000 took 12 s)."""
    sentence = "A note pasted into the box goes on over its own paragraph."
    grid = '<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="7000"/></w:tblGrid>'
    notes = _para("Notes") + "".join(_para(f"{k}. {sentence}") for k in range(count))
    row = f"<w:tr><w:tc>{_para('Remarks')}</w:tc><w:tc>{notes}</w:tc></w:tr>"
    return word_body(_para("Referral form") + f"<w:tbl>{grid}{row}</w:tbl>" + _para(sentence))


def nested_layout(depth: int, blanks: int = 20) -> bytes:
    """Layout tables nested ``depth`` deep (each one cell holding the next table), each cell's
    ``blanks`` blank runs before its table and a line after it: each level read the text of
    all the tables inside it again (600 deep, 200 runs each: 129 s)."""
    grid = '<w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>'
    blank = "<w:r><w:t xml:space='preserve'> </w:t></w:r>" * blanks
    inner = _para("The innermost cell.")
    for k in reversed(range(depth)):
        cell = f"<w:p>{blank}</w:p>{inner}{_para(f'Step {k} is done after the steps inside it.')}"
        inner = f"<w:tbl>{grid}<w:tr><w:tc>{cell}</w:tc></w:tr></w:tbl>"
    return word_body(_para("Procedure") + inner + _para("End."))


def large_batch() -> list[tuple[str, bytes]]:
    """Ten large files for one call: the issue's hostile shapes at their reported sizes."""
    return [
        ("operations.pdf", one_page_pdf(path_operations(2_000_000))),
        ("runbook-x150.pdf", pdf_pages(150)),  # 1,800 pages: 2,000 is the limit
        ("sections.html", html_sections(20_000)),
        ("nested-divs.html", nested_html(100_000)),
        ("nested-tables.html", nested_html(5_000, "<table><tr><td>", "</td></tr></table>")),
        ("wide.xlsx", sheet(61, 16_384)),
        ("tall.xlsx", sheet(100_000, 5)),
        ("deck.pptx", deck(1_000)),
        ("guide.docx", (FIXTURES / "widget-api-guide.docx").read_bytes()),
        ("notes.md", ("# Notes\n\n" + "A line of notes.\n" * 300_000).encode()),
    ]
