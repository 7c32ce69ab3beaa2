"""Hostile PDF shapes the converter's newer paths meet: each ends with a correct output, in
time that grows linearly with the file (``n`` against ``4 n``, ``bench/cputime.py``'s
``least_growth``, as ``test_converters_linear_time.py``).

The PDFs are written byte by byte here (a page's content stream and a font whose ``ToUnicode``
map sends a code to a character outside the Basic Multilingual Plane, as Word's equations write
math italic ``𝑥``): ``pdf_maker``'s standard fonts cannot show such a character.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from pdf_maker import Spec, make_pdf

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


def pdf_of(objects: list[bytes]) -> bytes:
    """A PDF of these objects, numbered from 1 (the first the catalog), with its xref table."""
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


def raw_pdf(content: bytes, cmap: bytes) -> bytes:
    """A one-page PDF drawing ``content`` with /F1, Helvetica whose ``ToUnicode`` is ``cmap``."""
    return pdf_of(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(cmap), cmap),
        ]
    )


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


def table_pages(count: int) -> bytes:
    """``count`` pages of 40 rows of three cells each and nothing else: every page a table
    whose rows go on at the top of the next (the page-break join chains over all of them)."""
    rows = [
        [(f"r{p}x{k}\tv{p}y{k}\tw{p}z{k}", "Helvetica", 10) for k in range(40)]
        for p in range(count)
    ]
    return make_pdf(rows)


def test_a_table_going_on_over_every_page_costs_time_linear_in_its_pages() -> None:
    text = read_file(table_pages(3), "rows.pdf", isolated=False).text
    # (each page's first two and last two rows repeat at one place with other digits: they
    # are taken for running headers and footers, as page numbers are)
    assert all(
        f"| r{p}x{k} | v{p}y{k} | w{p}z{k} |" in text for p in range(3) for k in range(2, 38)
    )
    run = lambda data: read_file(data, "rows.pdf", isolated=False)  # noqa: E731
    assert least_growth(table_pages, 25, run, MAX_GROWTH) < MAX_GROWTH


@pytest.mark.parametrize("size", [0.0, -10.0, 1e-9, 1e9, 1e30, math.nan, math.inf])
def test_absurd_font_sizes_keep_every_line_pdfium_reads(size: float) -> None:
    """Three lines at a size no font has, over six lines of body text: the body is kept, and
    so is every line PDFium gives (it gives none of the lines at size 0, nan or inf: nothing is
    drawn)."""
    import pypdfium2 as pdfium

    lines: list[Spec] = [(f"Odd line {k}", "Helvetica-Bold", size, 100 + 40 * k) for k in range(3)]
    lines += [
        (f"Body text line {k} of the page here.", "Times-Roman", 10, 300 + 14 * k) for k in range(6)
    ]
    data = make_pdf([lines])
    pdf = pdfium.PdfDocument(data)
    try:
        textpage = pdf[0].get_textpage()
        given = textpage.get_text_range().count("Odd line")
        textpage.close()
    finally:
        pdf.close()
    text = read_file(data, "sizes.pdf").text
    assert text.count("Odd line") == given
    assert all(f"Body text line {k} of the page here." in text for k in range(6))


def turned_lines(count: int) -> bytes:
    """``count`` short lines at every angle, over one page."""
    lines: list[Spec] = [
        (
            f"turned {k} words",
            "Helvetica",
            10,
            100 + (k % 60) * 10,
            100 + (k % 7) * 30,
            (k * 37) % 360,
        )
        for k in range(count)
    ]
    return make_pdf([lines])


def test_rotated_text_keeps_its_words_in_time_linear_in_its_lines() -> None:
    text = read_file(turned_lines(30), "turned.pdf", isolated=False).text
    assert all(f"turned {k} words" in text for k in range(30))
    run = lambda data: read_file(data, "turned.pdf", isolated=False)  # noqa: E731
    assert least_growth(turned_lines, 300, run, MAX_GROWTH) < MAX_GROWTH


def structure_tree(depth: int, cycle: bool = False) -> bytes:
    """A tagged page whose one heading element (``H1``, marked content 0) is nested ``depth``
    ``Div`` elements deep; with ``cycle``, the deepest ``Div`` also names the first as its
    child."""
    content = (
        b"/H1 <</MCID 0>> BDC BT /F1 18 Tf 72 700 Td (Deep heading) Tj ET EMC\n"
        b"BT /F1 10 Tf 72 650 Td (Body text under the heading on the page.) Tj ET"
    )
    first = 8
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 6 0 R /MarkInfo << /Marked true >> >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 "
        b"0 R >> >> /Contents 5 0 R /StructParents 0 >>",
        4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        5: b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        6: b"<< /Type /StructTreeRoot /K %d 0 R /ParentTree 7 0 R >>" % first,
        7: b"<< /Nums [0 [%d 0 R]] >>" % (first + depth),
    }
    for k in range(depth):
        number = first + k
        kid = b"%d 0 R" % (number + 1)
        if cycle and k == depth - 1:
            kid = b"[%s %d 0 R]" % (kid, first)
        parent = 6 if k == 0 else number - 1
        objects[number] = b"<< /Type /StructElem /S /Div /P %d 0 R /K %s >>" % (parent, kid)
    last = first + depth
    objects[last] = b"<< /Type /StructElem /S /H1 /P %d 0 R /Pg 3 0 R /K 0 >>" % (last - 1)
    return pdf_of([objects[n] for n in sorted(objects)])


@pytest.mark.parametrize("cycle", [False, True], ids=["deep", "deep-and-cyclic"])
def test_a_structure_tree_nested_without_end_keeps_the_text_in_linear_time(cycle: bool) -> None:
    """PDFium reads a structure tree only so deep (its heading is then found by typography or
    not at all); the text stays whole, and the time grows with the file, not faster."""
    assert "Deep heading" in read_file(structure_tree(3, cycle), "tagged.pdf").text
    for depth in (1_000, 100_000):
        text = read_file(structure_tree(depth, cycle), "tagged.pdf").text
        assert "Deep heading" in text and "Body text under the heading on the page." in text
    make = lambda depth: structure_tree(depth, cycle)  # noqa: E731
    run = lambda data: read_file(data, "tagged.pdf", isolated=False)  # noqa: E731
    assert least_growth(make, 5_000, run, MAX_GROWTH) < MAX_GROWTH


def cell_grid(columns: int, rows: int = 400) -> bytes:
    """A page of ``rows`` lines of ``columns`` short cells each, in 1-point type: every line a
    table's row, and the table as wide as the page lets it be."""
    step = 600 / columns
    content = b"\n".join(
        b"BT /F1 1 Tf 1 0 0 1 %.2f %.2f Tm (c%d) Tj ET"
        % (5 + c * step, 780 - r * 700 / rows, c % 10)
        for r in range(rows)
        for c in range(columns)
    )
    return pdf_of(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        ]
    )


def test_a_table_of_many_columns_costs_time_linear_in_its_cells() -> None:
    """Each cell was matched against every column of its table (``pdf.tables._column``): a page
    of 100 columns and 400 rows took 8 s, C columns cost C times their cells. Columns are sorted
    and apart, so a cell's column is found by bisection."""
    text = read_file(cell_grid(20, 40), "grid.pdf", isolated=False).text
    assert text.count("c7") == 2 * 40
    run = lambda data: read_file(data, "grid.pdf", isolated=False)  # noqa: E731
    assert least_growth(cell_grid, 25, run, MAX_GROWTH) < MAX_GROWTH


#: code A is U+000C and C is U+000E (TeX's OT1 fi and ffi, as PDFium reads a font without a
#: Unicode map), B is "a"
_LIGATURE_CMAP = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Lig def "
    b"1 begincodespacerange <00> <FF> endcodespacerange "
    b"3 beginbfchar <41> <000C> <42> <0061> <43> <000E> endbfchar "
    b"endcmap CMapName currentdict /CMap defineresource pop end end"
)


def ligature_page(words: int) -> bytes:
    """A page of ``words`` words, each with one of TeX's ligature codes inside."""
    line = b"BBBBBABBBBBB BBBBBBCBBBBB " * 5
    lines = [
        b"BT /F1 6 Tf 20 %d Td (%s) Tj ET" % (780 - (k * 7) % 760, line) for k in range(words // 10)
    ]
    return raw_pdf(b"\n".join(lines), _LIGATURE_CMAP)


def test_thousands_of_ligature_codes_are_spelled_out_in_time_linear_in_them() -> None:
    text = read_file(ligature_page(100), "ligatures.pdf", isolated=False).text
    assert text.count("aaaaafiaaaaaa") == 50 and text.count("aaaaaaffiaaaaa") == 50
    run = lambda data: read_file(data, "ligatures.pdf", isolated=False)  # noqa: E731
    assert least_growth(ligature_page, 2_000, run, MAX_GROWTH) < MAX_GROWTH


_HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def pages_pdf(contents: list[bytes], size: tuple[int, int] = (612, 792)) -> bytes:
    """A PDF of one page per content stream, drawn with /F1 (Helvetica), of ``size`` points."""
    kids = b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(len(contents)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(contents)),
        _HELVETICA,
    ]
    for i, content in enumerate(contents):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources << /Font "
            b"<< /F1 3 0 R >> >> /Contents %d 0 R >>" % (*size, 5 + 2 * i)
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
    return pdf_of(objects)


def _prose(lines: int) -> bytes:
    return b"".join(
        b"BT /F1 10 Tf 72 %d Td (Body line %d of the page goes on as body text does.) Tj ET\n"
        % (700 - 12 * k, k)
        for k in range(lines)
    )


def underlines(count: int) -> bytes:
    """A page of prose over ``count`` stroked lines (path objects: what an underline is)."""
    rules = b"".join(
        b"72 %d m %d %d l S\n" % (300 - k % 200, 100 + k % 400, 300 - k % 200) for k in range(count)
    )
    return pages_pdf([_prose(20) + rules])


def one_baseline(count: int) -> bytes:
    """A page of prose and ``count`` words drawn on one baseline, each a text object."""
    words = b"".join(
        b"BT /F1 10 Tf %.2f 100 Td (w%d) Tj ET\n" % (72 + k * 0.05, k) for k in range(count)
    )
    return pages_pdf([_prose(20) + words])


def drawn_twice(count: int) -> bytes:
    """``count`` lines, each drawn twice at its place (as InDesign writes some text)."""
    lines = b"".join(
        b"BT /F1 10 Tf 72 %d Td (Line %d drawn twice here.) Tj ET\n" % (780 - k % 60 * 12, k) * 2
        for k in range(count)
    )
    return pages_pdf([lines])


def slides(count: int) -> bytes:
    """``count`` pages of a slide's shape (720 x 540): a title and five bullets each."""
    return pages_pdf(
        [
            b"BT /F1 28 Tf 40 460 Td (Slide title %d) Tj ET\n" % p
            + b"".join(
                b"BT /F1 16 Tf 60 %d Td (Bullet %d on slide %d) Tj ET\n" % (400 - 30 * k, k, p)
                for k in range(5)
            )
            for p in range(count)
        ],
        size=(720, 540),
    )


@pytest.mark.parametrize(
    ("make", "n"),
    [(underlines, 10_000), (one_baseline, 800), (drawn_twice, 600), (slides, 60)],
    ids=["path objects", "one baseline", "text drawn twice", "slide-shaped pages"],
)
def test_the_fifth_passs_page_shapes_cost_time_linear_in_them(
    make: Callable[[int], bytes], n: int
) -> None:
    """What the fifth pass's heading rules look at, by the thousand: path objects (underlined
    lines), words on one baseline (rows, spaced words), every line drawn twice (text read
    once), pages of a slide's shape (a deck's titles). Each costs time linear in it (the
    hostile pass found none that grew faster); the text is kept."""
    text = read_file(make(n // 10), "shape.pdf", isolated=False).text
    assert text.strip()
    run = lambda data: read_file(data, "shape.pdf", isolated=False)  # noqa: E731
    assert least_growth(make, n, run, MAX_GROWTH) < MAX_GROWTH
