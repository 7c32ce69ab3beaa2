"""A PDF page's lines are read in time linear in what the page holds, whatever their shape.

``read_page`` runs inside the worker's deadline, but a step quadratic in a page's lines spends
the whole budget on one page and the file's other pages are lost. The seventh pass added steps
over a page's lines (letters spaced out, margin headings, lines broken at a raised letter, bold
lines drawn last): each is timed here on a shape of ``n`` and of ``4 n`` (``least_growth``:
about 4 for a linear step, about 16 for a quadratic one, however busy the machine is), on
``Line`` objects for a step alone and on a made page for the whole reading.
"""

from __future__ import annotations

from collections.abc import Callable

import pypdfium2 as pdfium

from bench.cputime import least_growth
from bench.hostile_files import one_page_pdf
from skills.formats.pdf.lines import (
    Line,
    Page,
    _in_reading_order,
    _rejoined,
    _underlined,
    read_page,
)

#: Linear: about 4 from ``n`` to ``4 n``; quadratic: about 16.
MAX_GROWTH = 8.0


def line(text: str, top: float, left: float = 72.0, bold: bool = False, right: float = 0.0) -> Line:
    weight, right = 700 if bold else 400, right or left + len(text) * 5.0
    return Line(0, text, 10.0, weight, bold, True, top, left, right=right, base=top + 8)


def regular_then_bold_below(n: int) -> list[Line]:
    """``n`` regular lines, then ``n`` bold ones drawn after them, all below them."""
    regular = [line("Regular text of the page", 12.0 * k) for k in range(n)]
    return regular + [line("Bold", 12.0 * (n + k), bold=True) for k in range(n)]


def test_bold_lines_drawn_last_are_ordered_in_time_linear_in_the_lines() -> None:
    """The regular lines' highest and lowest places were found again for each bold line: a page
    of 16,000 regular lines and 16,000 bold ones under them took 6 s."""
    quartz = [line("Text above", 0), line("Text below", 30), line("Heading", 15, bold=True)]
    assert [ln.text for ln in _in_reading_order(quartz)] == ["Text above", "Heading", "Text below"]
    assert _in_reading_order(regular_then_bold_below(3)) == regular_then_bold_below(3)
    assert least_growth(regular_then_bold_below, 2_000, _in_reading_order, MAX_GROWTH) < MAX_GROWTH


def pieces_of_one_line(n: int) -> list[Line]:
    """One line PDFium broke into ``n`` pieces of 200 characters, each where the last ends."""
    return [line("x" * 200, 10.0, 72.0 + 10 * k, right=81.9 + 10 * k) for k in range(n)]


def test_a_line_broken_into_many_pieces_is_rejoined_in_time_linear_in_its_text() -> None:
    """Each piece made the line's text so far again with the piece added."""
    assert [ln.text for ln in _rejoined(pieces_of_one_line(3))] == ["x" * 600]
    assert least_growth(pieces_of_one_line, 2_000, _rejoined, MAX_GROWTH) < MAX_GROWTH


def text(font: bytes, size: float, left: float, base: float, shown: bytes) -> bytes:
    """One text object: ``shown`` (a ``Tj`` or ``TJ`` operation) from (left, base)."""
    return b"BT /%s %g Tf 1 0 0 1 %g %g Tm %s ET\n" % (font, size, left, base, shown)


def tracked(word: str) -> bytes:
    """``word`` drawn letter by letter, each a third of an em further apart."""
    return b"[%s] TJ" % b" -300 ".join(b"<%02X>" % ord(letter) for letter in word)


def page_height(lines: int) -> int:
    return max(792, 14 * lines + 100)


def tracked_lines(n: int) -> bytes:
    """``n`` lines, each a word of eight bold capitals spaced out (``C H A P T E R S``)."""
    top = page_height(n) - 40
    return one_page_pdf(
        b"".join(text(b"B", 10, 72, top - 14 * k, tracked("CHAPTERS")) for k in range(n)),
        page_height(n),
    )


def margin_headings(n: int) -> bytes:
    """``n`` paragraphs of three lines, each with a bold heading in the margin on its first
    line's baseline (ConTeXt's subsections)."""
    top, out = page_height(3 * n) - 40, []
    for k in range(n):
        base = top - 42 * k
        out += [
            text(b"B", 14, 20, base, b"(Head) Tj"),
            text(b"R", 10, 72, base, b"(The paragraph starts here beside its margin heading) Tj"),
            text(b"R", 10, 72, base - 14, b"(and goes on under it for another line of prose) Tj"),
            text(b"R", 10, 72, base - 28, b"(and a third line of the same paragraph of prose) Tj"),
        ]
    return one_page_pdf(b"".join(out), page_height(3 * n))


def lowered_letters(n: int) -> bytes:
    """``n`` lines, each opening with TeX's logo, its ``E`` lowered (``TE`` / ``X Live``)."""
    top = page_height(n) - 40
    return one_page_pdf(
        b"".join(
            b"BT /R 10 Tf 1 0 0 1 72 %d Tm (T) Tj 0 -2 Td (E) Tj 0 2 Td (X Live text) Tj ET\n"
            % (top - 14 * k)
            for k in range(n)
        ),
        page_height(n),
    )


def bold_drawn_last(n: int) -> bytes:
    """``n`` regular lines, then ``n`` bold ones between them, drawn after them (Quartz)."""
    top = page_height(2 * n) - 40
    regular = [text(b"R", 10, 72, top - 28 * k, b"(Regular text of a line) Tj") for k in range(n)]
    bold = [text(b"B", 10, 72, top - 28 * k - 14, b"(Bold) Tj") for k in range(n)]
    return one_page_pdf(b"".join(regular + bold), page_height(2 * n))


def read(data: bytes) -> Page:
    pdf = pdfium.PdfDocument(data)
    page = pdf[0]
    try:
        return read_page(page, 0)
    finally:
        page.close()
        pdf.close()


def first_lines(make: Callable[[int], bytes]) -> list[str]:
    return [ln.text for ln in read(make(2)).lines[:4]]


def test_letters_spaced_out_are_read_in_time_linear_in_the_page() -> None:
    assert first_lines(tracked_lines) == ["CHAPTERS", "CHAPTERS"]
    assert least_growth(tracked_lines, 400, read, MAX_GROWTH) < MAX_GROWTH


def test_margin_headings_are_read_in_time_linear_in_the_page() -> None:
    assert first_lines(margin_headings)[:2] == [
        "Head",
        "The paragraph starts here beside its margin heading",
    ]
    assert least_growth(margin_headings, 200, read, MAX_GROWTH) < MAX_GROWTH


def test_lines_broken_at_a_lowered_letter_are_read_in_time_linear_in_the_page() -> None:
    assert first_lines(lowered_letters) == ["TEX Live text", "TEX Live text"]
    assert least_growth(lowered_letters, 400, read, MAX_GROWTH) < MAX_GROWTH


def test_bold_lines_drawn_last_are_read_in_time_linear_in_the_page() -> None:
    assert first_lines(bold_drawn_last) == ["Regular text of a line", "Bold"] * 2
    assert least_growth(bold_drawn_last, 400, read, MAX_GROWTH) < MAX_GROWTH


def lines_over_rules(n: int) -> tuple[list[Line], list[tuple[float, float, float]]]:
    """``n`` short lines and ``n`` rules, none of them under a line (a form's ruled boxes in the
    margin beside a list): each line looked at every rule of the page."""
    lines = [line(f"Item {k}", 12.0 * k) for k in range(n)]
    rules = [(12.0 * k + 6, 400.0, 430.0) for k in range(n)]
    return lines, rules


def test_underlined_lines_are_found_in_time_linear_in_the_lines_and_the_rules() -> None:
    underlined = [(8.0 + 2, 70.0, 106.0)]  # 'Item 0' underlined, from its first letter to its last
    assert _underlined([line("Item 0", 0.0), line("Item 1", 12.0)], underlined) == (0,)
    assert _underlined(*lines_over_rules(3)) == ()
    run = lambda shape: _underlined(*shape)  # noqa: E731
    assert least_growth(lines_over_rules, 2_000, run, MAX_GROWTH) < MAX_GROWTH
