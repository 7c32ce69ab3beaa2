"""Hostile PDF shapes the converter's newer paths meet: each ends with a correct output, in
time that grows linearly with the file (``n`` against ``4 n``, ``bench/cputime.py``'s
``least_growth``, as ``test_converters_linear_time.py``).

The PDFs are written byte by byte here (a page's content stream and a font whose ``ToUnicode``
map sends a code to a character outside the Basic Multilingual Plane, as Word's equations write
math italic ``𝑥``): ``pdf_maker``'s standard fonts cannot show such a character.
"""

from __future__ import annotations

from bench.cputime import least_growth
from skills.formats.read import read_file

#: Linear: about 4 from ``n`` to ``4 n``; quadratic: about 16.
MAX_GROWTH = 8.0
#: code A is U+1D465 (MATHEMATICAL ITALIC SMALL X, a surrogate pair in UTF-16), code B is "a"
_MATH_CMAP = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Math def "
    b"1 begincodespacerange <00> <FF> endcodespacerange "
    b"2 beginbfchar <41> <D835DC65> <42> <0061> endbfchar "
    b"endcmap CMapName currentdict /CMap defineresource pop end end"
)


def raw_pdf(content: bytes, cmap: bytes) -> bytes:
    """A one-page PDF drawing ``content`` with /F1, Helvetica whose ``ToUnicode`` is ``cmap``."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(cmap), cmap),
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def math_page(pairs: int) -> bytes:
    """A page of ``pairs`` times ``𝑥a`` in 6-point lines of 20 pairs each."""
    lines = [
        b"BT /F1 6 Tf 20 %d Td (%s) Tj ET" % (780 - (k * 7) % 760, b"AB" * 20)
        for k in range(pairs // 20)
    ]
    return raw_pdf(b"\n".join(lines), _MATH_CMAP)


def test_characters_outside_the_bmp_read_whole_and_in_time_linear_in_their_number() -> None:
    """PDFium counts ``𝑥`` as two characters and its text as one: the walk that aligns the two
    looked at every spare character for each of them (1,000 on a page took 0.09 s, 4,000 took
    1.1 s: quadratic). Now each is the pair it is."""
    text = read_file(math_page(400), "math.pdf", isolated=False).text
    assert text.count("𝑥a") == 400
    run = lambda data: read_file(data, "math.pdf", isolated=False)  # noqa: E731
    assert least_growth(math_page, 2_000, run, MAX_GROWTH) < MAX_GROWTH
