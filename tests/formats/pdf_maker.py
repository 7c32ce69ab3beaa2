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


def make_pdf(pages: Sequence[Sequence[Spec]]) -> bytes:
    """A PDF whose pages hold these lines, from the top margin down (or at their ``top``)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument.new()
    for lines in pages:
        page = pdf.new_page(WIDTH, HEIGHT)
        top = MARGIN
        for spec in lines:
            text, font, size = spec[0], spec[1], spec[2]
            at = spec[3] if len(spec) >= 4 else top
            left = spec[4] if len(spec) >= 5 else MARGIN
            turn = math.radians(spec[5]) if len(spec) == 6 else 0.0
            cos, sin = math.cos(turn), math.sin(turn)
            for column, cell in enumerate(text.split("\t")):
                obj = raw.FPDFPageObj_NewTextObj(
                    pdf.raw, font.encode("ascii"), ctypes.c_float(size)
                )
                units = (cell + "\0").encode("utf-16-le")
                raw.FPDFText_SetText(
                    obj, ctypes.cast(ctypes.c_char_p(units), ctypes.POINTER(raw.FPDF_WCHAR))
                )
                x = left + 150 * column
                raw.FPDFPageObj_Transform(obj, cos, sin, -sin, cos, x, HEIGHT - at - size)
                raw.FPDFPage_InsertObject(page.raw, obj)
            top = at + size * 1.5
        raw.FPDFPage_GenerateContent(page.raw)
        page.close()
    out = io.BytesIO()
    pdf.save(out)
    pdf.close()
    return out.getvalue()
