"""PDFs written line by line with PDFium, to test what the converter reads from typography:
each line has its font (one of the standard 14), its size and its place; no bookmarks, no tags.

>>> data = make_pdf([[("Title", "Helvetica-Bold", 20), ("Body text.", "Times-Roman", 10)]])
>>> data[:5]
b'%PDF-'
"""

from __future__ import annotations

import ctypes
import io
import math
import re
from collections.abc import Sequence

#: One line: (text, font, size), or with ``top`` in points from the top, ``left`` from the
#: page's left edge (the margin otherwise) and an angle in degrees (a watermark's); a tab in the
#: text starts a cell 150 points further right (a table's columns).
Spec = (
    tuple[str, str, float]
    | tuple[str, str, float, float]
    | tuple[str, str, float, float, float]
    | tuple[str, str, float, float, float, float]
)

WIDTH, HEIGHT, MARGIN = 612.0, 792.0, 72.0


class Prose:
    """Body paragraphs in made-up words no other paragraph of a test module uses, so that no
    line repeats like a running header. Each module makes its own supply (its ``endings``): one
    supply shared by several modules ran out when the whole suite ran."""

    def __init__(self, endings: Sequence[str], body: tuple[str, float]) -> None:
        self._words = (f"{a}{b}{c}" for c in "aeiou" for a in "bcdfghklmnprstvz" for b in endings)
        self.body = body

    def word(self) -> str:
        return next(self._words)

    def paragraph(self, top: float | None = None) -> list[Spec]:
        """Four lines of body text (a page with fewer is a cover), from ``top`` when given."""
        word = self.word()
        lines = [
            f"The {word} part runs on over a full line of the page, as body text does here.",
            f"It goes on about {word} for a second line, so the body's type is plain to see.",
            f"A third line of the {word} part, still in the body's own size and weight.",
            f"The {word} part ends here.",
        ]
        if top is None:
            return [(line, *self.body) for line in lines]
        return [(line, *self.body, top + 15 * n) for n, line in enumerate(lines)]


def make_pdf(pages: Sequence[Sequence[Spec]], size: tuple[float, float] = (WIDTH, HEIGHT)) -> bytes:
    """A PDF whose pages hold these lines, from the top margin down (or at their ``top``), on
    pages of ``size`` (width, height: a slide's 720 x 540)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument.new()
    height = size[1]
    for lines in pages:
        page = pdf.new_page(*size)
        top = MARGIN
        for spec in lines:
            text, font, points = spec[0], spec[1], spec[2]
            at = spec[3] if len(spec) >= 4 else top
            left = spec[4] if len(spec) >= 5 else MARGIN
            turn = math.radians(spec[5]) if len(spec) == 6 else 0.0
            cos, sin = math.cos(turn), math.sin(turn)
            for column, cell in enumerate(text.split("\t")):
                obj = raw.FPDFPageObj_NewTextObj(
                    pdf.raw, font.encode("ascii"), ctypes.c_float(points)
                )
                units = (cell + "\0").encode("utf-16-le")
                raw.FPDFText_SetText(
                    obj, ctypes.cast(ctypes.c_char_p(units), ctypes.POINTER(raw.FPDF_WCHAR))
                )
                x = left + 150 * column
                raw.FPDFPageObj_Transform(obj, cos, sin, -sin, cos, x, height - at - points)
                raw.FPDFPage_InsertObject(page.raw, obj)
            top = at + points * 1.5
        raw.FPDFPage_GenerateContent(page.raw)
        page.close()
    out = io.BytesIO()
    pdf.save(out)
    pdf.close()
    return out.getvalue()


_HEADING_LINE = re.compile(r"^#{1,6} .*$", re.MULTILINE)


def headings(pages: Sequence[Sequence[Spec]], isolated: bool = True) -> list[str]:
    """The Markdown heading lines the skill writes for a PDF of these pages, converted in a
    worker or (``isolated=False``) in this process, where a test's patches of PDFium reach: what
    the heading-rule tests compare."""
    from skills.formats.read import read_file  # the converter under test, not a PDF maker's need

    return heading_lines(read_file(make_pdf(pages), "document.pdf", isolated=isolated).text)


def heading_lines(markdown: str) -> list[str]:
    """The heading lines of a converted file's Markdown, marks and all (``## Scope``)."""
    return _HEADING_LINE.findall(markdown)


def with_title(data: bytes, title: str) -> bytes:
    """``data`` with ``title`` as its metadata title (an Info dictionary added as an incremental
    update; PDFium's writer sets none).

    >>> import pypdfium2 as pdfium
    >>> pdf = pdfium.PdfDocument(with_title(make_pdf([[("Body", "Helvetica", 10)]]), "Old (1)"))
    >>> pdf.get_metadata_dict()["Title"]
    'Old (1)'
    """
    number = next_object(data)
    info = b"<</Title <FEFF%s>>>" % title.encode("utf-16-be").hex().upper().encode("ascii")
    return incremental_update(data, {number: info}, trailer=b"/Info %d 0 R" % number)


def letter_spaced(data: bytes, lines: dict[str, float], spaces: bool = True) -> bytes:
    """``data`` (from ``make_pdf``) with each of these ``lines`` drawn letter by letter, each
    advanced by its extra gap in ems (a ``TJ`` array's kerns, as ConTeXt, soul's ``\\so`` and a
    browser's ``letter-spacing`` set a tracked line), its spaces written as spaces (``spaces``)
    or, as TeX sets them, as a wider move with no space character.

    >>> import pypdfium2 as pdfium
    >>> data = letter_spaced(make_pdf([[("Big Title", "Helvetica-Bold", 20)]]), {"Big Title": 0.3})
    >>> pdfium.PdfDocument(data)[0].get_textpage().get_text_range()
    'B i g T i t l e'
    """
    import zlib

    streams = re.finditer(
        rb"(\d+) 0 obj\r?\n<</Filter/FlateDecode/Length \d+>>stream\r?\n(.*?)endstream", data, re.S
    )
    objects: dict[int, bytes] = {}
    for stream in streams:
        content = zlib.decompress(stream.group(2))
        for text, ems in lines.items():
            whole = b"[<%s>] TJ" % text.encode("cp1252").hex().upper().encode("ascii")
            content = content.replace(whole, _tracked(text, ems, spaces))
        objects[int(stream.group(1))] = b"<</Length %d>>stream\n%s\nendstream" % (
            len(content), content,
        )  # fmt: skip
    return incremental_update(data, objects)


def _tracked(text: str, ems: float, spaces: bool) -> bytes:
    """A ``TJ`` that draws ``text`` letter by letter, ``ems`` apart (a word's gap: a space as
    tracked, or a move of a quarter of an em more than two letters' gaps).

    >>> _tracked("ab c", 0.2, True), _tracked("ab c", 0.2, False)
    (b'[<61> -200 <62> -200 <20> -200 <63>] TJ', b'[<61> -200 <62> -650 <63>] TJ')
    """
    kern = b" %d " % round(-ems * 1000)
    words = [kern.join(b"<%02X>" % c for c in word.encode("cp1252")) for word in text.split()]
    gap = kern + b"<20>" + kern if spaces else b" %d " % round(-(2 * ems + 0.25) * 1000)
    return b"[%s] TJ" % gap.join(words)


def with_form_field(data: bytes) -> bytes:
    """``data`` with a text field's widget on its first page, added as an incremental update
    (PDFium's writer makes no form fields): a form's page, as a tax form's pages are.

    >>> import pypdfium2 as pdfium
    >>> from skills.formats.pdf.lines import read_page
    >>> pdf = pdfium.PdfDocument(with_form_field(make_pdf([[("Amount", "Helvetica", 10)]])))
    >>> read_page(pdf[0], 0).form
    True
    """
    import re

    page = re.search(rb"(\d+) 0 obj\r?\n(<<(?:(?!endobj).)*?/Type/Page>>)", data, re.S)
    if page is None:
        raise ValueError("not a PDF written by make_pdf")
    number, widget = int(page.group(1)), next_object(data)
    body = page.group(2)[:-2] + b"/Annots[%d 0 R]>>" % widget
    objects = {
        number: body,
        widget: b"<</Type/Annot/Subtype/Widget/FT/Tx/T(field)/Rect[300 700 400 716]/P %d 0 R>>"
        % number,
    }
    return incremental_update(data, objects)


def next_object(data: bytes) -> int:
    """The number the next object added to ``data`` (from ``make_pdf``) takes: its trailer's
    ``/Size``."""
    import re

    size = re.search(rb"/Size (\d+)", data)
    if size is None:
        raise ValueError("not a PDF written by make_pdf")
    return int(size.group(1))


def incremental_update(data: bytes, objects: dict[int, bytes], trailer: bytes = b"") -> bytes:
    """``data`` (from ``make_pdf``) with ``objects`` (number: dictionary) written over or added
    as an incremental update, ``trailer`` the new trailer's entries beyond ``/Size``, ``/Root``
    and ``/Prev``: how the helpers here add what PDFium's writer makes no API for."""
    import re

    root = re.search(rb"/Root (\d+ 0 R)", data)
    start = re.findall(rb"startxref\r?\n(\d+)", data)
    if root is None or not start:
        raise ValueError("not a PDF written by make_pdf")
    out = bytearray(data if data.endswith(b"\n") else data + b"\n")
    offsets = {}
    for n, text in objects.items():
        offsets[n] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (n, text)
    xref = len(out)
    out += b"xref\n"
    for n in sorted(offsets):
        out += b"%d 1\n%010d 00000 n \n" % (n, offsets[n])
    size = max(next_object(data), max(offsets) + 1)
    out += b"trailer\n<</Size %d/Root %s%s/Prev %s>>\nstartxref\n%d\n%%%%EOF\n" % (
        size, root.group(1), trailer, start[-1], xref,
    )  # fmt: skip
    return bytes(out)
