"""The rules held-out round 12 asked for (docs/formats.md): Word documents of other templates than
the manuals (essays, a FAQ, a software catalogue, technical notes through Acrobat PDFMaker 6 and
through PScript5 and Ghostscript), whose headings are underlined or numbered lines in the body's
own type, whose titles Word tagged as headings, and whose contents pages have no page numbers. Each
test fails with its rule taken out."""

from __future__ import annotations

import pytest
from pdf_maker import Prose, Spec, heading_lines, headings, make_pdf, with_title

from skills.formats.conversion import Limits
from skills.formats.pdf.convert import pdf_to_markdown
from skills.formats.read import read_file

BODY = ("Helvetica", 10.0)
BOLD = "Helvetica-Bold"
_PROSE = Prose(("ulm", "orn", "apt", "yth", "iff"), BODY)
paragraph = _PROSE.paragraph


def test_a_numbered_title_naming_a_model_is_a_heading() -> None:
    # SimH's sample software: '2.2 RT-11', '7 IBM 1401' have more figures than letters
    pages: list[list[Spec]] = [
        [("1 Operating Systems", BOLD, 16), *paragraph(100), ("2 RT-11", BOLD, 16, 200),
         *paragraph(230)],
        [("3 IBM 1401", BOLD, 16), *paragraph(100), ("4 Other Kits", BOLD, 16, 200),
         *paragraph(230)],
    ]  # fmt: skip
    assert headings(pages) == [
        "# 1 Operating Systems", "# 2 RT-11", "# 3 IBM 1401", "# 4 Other Kits"
    ]  # fmt: skip


def test_a_byline_tagged_as_a_heading_stays_with_the_title(monkeypatch: pytest.MonkeyPatch) -> None:
    # Word's essays through PDFMaker: the author gave the date line under the title a heading
    # style, so the structure tree tags it H2 under the title's H1
    byline = "Bob Writer, 24-Mar-2002 (updated 26-Jan-2005)"
    pages: list[list[Spec]] = [
        [("Adventures in Debugging", BOLD, 20), (byline, *BODY, 94), ("Timing", BOLD, 14, 130),
         *paragraph(160)],
        [("Configurations", BOLD, 14), *paragraph(100)],
    ]  # fmt: skip
    tags = {
        0: [(1, "Adventures in Debugging"), (2, byline), (3, "Timing")],
        1: [(3, "Configurations")],
    }
    monkeypatch.setattr(
        "skills.formats.pdf.convert.tagged_headings", lambda pdf, count, expired: tags
    )
    # pdf_to_markdown in this process: read_file would convert in a worker, beyond the patch
    converted = pdf_to_markdown(make_pdf(pages), Limits())
    found = heading_lines(converted.text)
    assert not any("Bob Writer" in line for line in found)
    assert "### Timing" in found and "### Configurations" in found


def test_a_contents_page_without_page_numbers_gives_no_headings() -> None:
    # SIMH's FAQ: its questions listed in bold capitals on the pages before, no page numbers
    questions = ["1.1 What is the simulator?", "1.2 Why was it written?", "1.3 Who keeps it?"]
    contents: list[Spec] = [("1 GENERAL QUESTIONS", "Times-Bold", 12.0)]
    contents += [(question.upper(), "Times-Bold", 12.0) for question in questions]
    pages: list[list[Spec]] = [
        [*contents, *paragraph(200)],
        [("1 General Questions", BOLD, 16), *paragraph(100)],
        *[[(question, BOLD, 14), *paragraph(100)] for question in questions],
    ]
    assert headings(pages) == ["# 1 General Questions", *[f"## {q}" for q in questions]]


def _outline(gap: float) -> list[list[Spec]]:
    """Numbered lines in the body's type, ``gap`` points from the text around them."""
    pages: list[list[Spec]] = []
    for titles in (["1. Interval timer", "2. Extended memory"], ["3. Protection", "3.1 User mode"]):
        lines: list[Spec] = []
        top = 72.0
        for title in titles:
            lines += [(title, *BODY, top), *paragraph(top + gap)]
            top += gap + 45 + gap
        pages.append(lines)
    return pages


def test_a_numbered_outline_in_the_body_type_gives_headings() -> None:
    # CTSS Hardware (Word through PDFMaker): every heading is Normal text, numbered, set apart
    assert headings(_outline(28)) == [
        "# 1. Interval timer", "# 2. Extended memory", "# 3. Protection", "## 3.1 User mode"
    ]  # fmt: skip


def test_numbered_lines_in_the_body_type_not_set_apart_are_text() -> None:
    assert headings(_outline(15)) == []


def test_a_bold_first_line_a_little_larger_than_the_body_is_the_title() -> None:
    # Word's essays: a 14 pt bold title over 12 pt text (here 11.5 over 10), sections in bold
    pages: list[list[Spec]] = [
        [("Adventures in Debugging", BOLD, 11.5), ("Timing", BOLD, 10, 110), *paragraph(135)],
        [("Configurations", BOLD, 10), *paragraph(100)],
    ]
    converted = read_file(make_pdf(pages), "essay.pdf")
    assert converted.title == "Adventures in Debugging"
    assert "Adventures" not in " ".join(heading_lines(converted.text))


def test_a_metadata_title_of_an_earlier_version_gives_way_to_the_title_shown() -> None:
    # 'Bug, Feature, or Rot' in the metadata, 'Bug, Feature, or Code Rot? ...' on the page
    pages: list[list[Spec]] = [
        [("Harbour Works Report 2005", BOLD, 20), ("Scope", BOLD, 14, 110), *paragraph(135),
         ("The plan of the harbour works was set out the year before.", *BODY, 220)],
        [("Limits", BOLD, 14), *paragraph(100)],
    ]  # fmt: skip
    data = with_title(make_pdf(pages), "Harbour Works Plan")
    assert read_file(data, "report.pdf").title == "Harbour Works Report 2005"


def underlined(data: bytes, texts: list[str]) -> bytes:
    """``data`` with a thin rule drawn under each of ``texts`` (the first line holding it), from
    its first character to its last: Word's underline, a filled path under the baseline."""
    import io

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument(data)
    for page in pdf:
        textpage = page.get_textpage()
        for text in texts:
            searcher = textpage.search(text, match_case=True)
            hit = searcher.get_next()
            if hit is None:
                continue
            first, count = hit
            left, bottom, _, _ = textpage.get_charbox(first)
            _, _, right, _ = textpage.get_charbox(first + count - 1)
            rule = raw.FPDFPageObj_CreateNewRect(left, bottom - 2.0, right - left, 0.6)
            raw.FPDFPath_SetDrawMode(rule, raw.FPDF_FILLMODE_WINDING, False)
            raw.FPDFPage_InsertObject(page.raw, rule)
        raw.FPDFPage_GenerateContent(page.raw)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_underlined_lines_in_the_body_type_are_headings() -> None:
    # Word's essays: 'Timing Problems', 'Unused Paths' are Normal text, underlined
    pages: list[list[Spec]] = [
        [("Timing Problems", *BODY), *paragraph(100), ("Unused Paths", *BODY, 190),
         *paragraph(220)],
        [("Impractical Configurations", *BODY), *paragraph(100)],
    ]  # fmt: skip
    names = ["Timing Problems", "Unused Paths", "Impractical Configurations"]
    text = read_file(underlined(make_pdf(pages), names), "essay.pdf").text
    assert heading_lines(text) == [f"# {name}" for name in names]
    assert headings(pages) == []  # the same lines without their underline: text


def test_underlined_entries_over_figures_are_no_headings() -> None:
    # Decoding the H316's instructions: a table of underlined entries over their octal codes
    entries = ["NOP: no operation", "CRA (clear A): A to 0", "SSM (set sign minus): A1 to 1"]
    codes = "140000 140010 140020 140030 140040 140041 140043"
    lines: list[Spec] = [*paragraph(72)]
    for n, entry in enumerate(entries):
        lines += [(entry, *BODY, 160.0 + 60 * n), (codes, *BODY, 175.0 + 60 * n)]
    pages: list[list[Spec]] = [[*lines, *paragraph(360)], [*paragraph(72)]]
    text = read_file(underlined(make_pdf(pages), entries), "table.pdf").text
    assert heading_lines(text) == []
