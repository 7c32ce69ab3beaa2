"""The rules held-out round 20 asked for (docs/formats.md): Word 2013-365, Word for Mac and
Google Docs files from GitHub repositories (students' specifications, plans, manuals, minutes
and briefs), read from their typography alone. Each test fails with its rule taken out."""

from __future__ import annotations

import re
import zlib

import pytest
from pdf_maker import Prose, Spec, heading_lines, headings, incremental_update, make_pdf

from skills.formats.conversion import Limits
from skills.formats.pdf.convert import pdf_to_markdown
from skills.formats.read import read_file

BODY = ("Helvetica", 10.0)
_PROSE = Prose(("qb", "xd", "wm", "jy", "vk"), BODY)
paragraph = _PROSE.paragraph


def _markdown(data: bytes) -> str:
    return read_file(data, "document.pdf").text


def quartz_words(data: bytes, line: str) -> bytes:
    """``data`` (from ``make_pdf``) with ``line`` drawn as Word for Mac printed by Quartz draws
    a line: its words apart by a tab, a carriage return, a space and a no-break space that
    advance a word space in all (PDFium reads the carriage return as a line's end)."""
    streams = re.finditer(
        rb"(\d+) 0 obj\r?\n<</Filter/FlateDecode/Length \d+>>stream\r?\n(.*?)endstream", data, re.S
    )
    objects: dict[int, bytes] = {}
    for stream in streams:
        content = zlib.decompress(stream.group(2))
        whole = b"[<%s>] TJ" % line.encode("cp1252").hex().upper().encode("ascii")
        words = [
            b"<%s>" % word.encode("cp1252").hex().upper().encode("ascii") for word in line.split()
        ]
        content = content.replace(whole, b"[%s] TJ" % b" <090D20A0> 880 ".join(words))
        objects[int(stream.group(1))] = b"<</Length %d>>stream\n%s\nendstream" % (
            len(content), content,
        )  # fmt: skip
    return incremental_update(data, objects)


def test_words_a_producer_broke_into_lines_read_as_one_line() -> None:
    # drasive's project brief, Word for Mac through Quartz: every word of the page was a line of
    # its own, and a bold date's last word, ``Lektion``, became a heading
    line = "Alle Veranstaltungen werden chronologisch auf der Seite gelistet."
    data = quartz_words(make_pdf([[("Programm", "Helvetica-Bold", 14), (line, *BODY)]]), line)
    assert line in _markdown(data).splitlines()


def _contents_pages(entries: list[str], heads: list[Spec]) -> list[list[Spec]]:
    listed = [
        (f"{entry} {'-' * 40} {n + 3}", *BODY, 100 + 15 * n) for n, entry in enumerate(entries)
    ]
    pages: list[list[Spec]] = [
        [("Fieldhouse Developers Manual", "Helvetica-Bold", 20), *paragraph(120)],
        [("Table of Contents", *BODY, 72, 260), *listed],
    ]
    return pages + [[head, *paragraph(100), *paragraph(200)] for head in heads]


def test_a_contents_list_names_headings_set_in_the_body_type() -> None:
    # mwoolery's developers manual through Google Docs: every line Arial 11, each section's
    # name only centred at its page's top, and the contents page names them all
    names = ["Getting Setup Locally", "Mailgun Setup", "Heroku Deployment", "Site Assets"]
    pages = _contents_pages(names, [(name, *BODY, 72, 250) for name in names])
    assert headings(pages) == ["# Table of Contents", *(f"# {name}" for name in names)]


def test_a_contents_list_mostly_not_found_names_nothing() -> None:
    # two of five entries seen again as lines of their own: no outline to trust
    names = ["Overview", "Mail Relay Setup", "Cloud Database", "Continuous Builds", "Assets"]
    pages = _contents_pages(names, [(name, *BODY, 72, 250) for name in names[:2]])
    assert headings(pages) == []


def test_a_captions_list_after_the_contents_names_no_heading() -> None:
    # an SRS's contents page goes on with a list of figures: a caption matches its entry, but it
    # is set smaller than the body, and the list of figures is no list of sections
    names = ["Purpose of the System", "Functional Requirements", "Design Constraints"]
    pages = _contents_pages([*names, "List of Figures", "Figure 1 Provided functions"], [])
    pages[2:] = [
        [
            (name, *BODY, 72, 250),
            *paragraph(100),
            ("Figure 1 Provided functions", "Helvetica", 8, 200),
        ]
        for name in names
    ]
    assert headings(pages) == ["# Table of Contents", *(f"# {name}" for name in names)]


def test_a_bold_field_with_a_time_is_no_heading() -> None:
    # mdesaibu's meeting minutes through Google Docs: each meeting's date heads its page, and its
    # bold ``Meeting Start Time: 01:10 PM`` is a field of the minutes
    days = ["Friday, October 1, 2021", "Sunday, October 17, 2021", "Monday, December 13, 2021"]
    pages: list[list[Spec]] = [
        [(day, "Times-Roman", 16, 72, 220 + 5 * n),
         ("Meeting Start Time: 01:10 PM", "Times-Bold", 12, 110 + 20 * n),
         ("Meeting End Time: 01:30 PM", "Times-Bold", 12, 130 + 20 * n), *paragraph(160 + 20 * n)]
        for n, day in enumerate(days)
    ]  # fmt: skip
    assert headings(pages) == [f"# {day}" for day in days]


def test_a_title_line_ending_in_a_colon_goes_on_in_the_next() -> None:
    # KyriakosTsalia's specification through Google Docs: ``Έγγραφο SRS:`` over ``Software
    # Requirements Specification``, both 26 pt bold
    bold = "Helvetica-Bold"
    pages: list[list[Spec]] = [
        [("Project Document:", bold, 26), ("Software Requirements Specification", bold, 26, 110),
         ("1. Purpose of the system", bold, 18, 160), *paragraph(190)],
        [("2. Use Cases", bold, 18), *paragraph(100)],
    ]  # fmt: skip
    converted = read_file(make_pdf(pages), "document.pdf")
    assert converted.title == "Project Document: Software Requirements Specification"
    assert "Software Requirements Specification" not in "".join(
        line for line in converted.text.splitlines() if line.startswith("#")
    )


def _problem(n: int, top: float, bold: str = "Helvetica-Bold") -> list[Spec]:
    question = [f"Answer the questions of problem {n} in a short paragraph:"] + [
        f"• Question {word} of problem {n} asks what the answer is?" for word in "abc"
    ]
    return [(f"Problem {n}", bold, 10, top), *((q, bold, 10, top + 13 * (k + 1)) for k, q in
            enumerate(question)), *paragraph(top + 80)]  # fmt: skip


def test_lines_counting_problem_1_2_3_are_headings_over_bold_questions() -> None:
    # dmoini's homework, Word's stroked bold: each ``Problem N`` over its bold questions, a
    # block of bold lines shaped like an address, and refused as one
    pages = [[*_problem(2 * p + 1, 150), *_problem(2 * p + 2, 400)] for p in range(2)]
    assert headings(pages) == [f"# Problem {n}" for n in range(1, 5)]


def test_problems_opening_pages_are_no_running_header() -> None:
    # the homework's ``Problem 5`` and ``Problem 10`` open pages 3 and 5, ``Problem 3`` ends
    # page 1: digits aside, the same words at a page's edge on half its pages
    pages = [[*_problem(2 * p + 1, 72), *_problem(2 * p + 2, 400)] for p in range(4)]
    assert headings(pages) == [f"# Problem {n}" for n in range(1, 9)]


def _width(text: str, font: str, size: float) -> float:
    import pypdfium2 as pdfium

    from skills.formats.pdf.lines import read_page

    line = read_page(pdfium.PdfDocument(make_pdf([[(text, font, size)]]))[0], 0).lines[0]
    return line.right - line.left


def _centred(text: str, top: float, text_right: float) -> Spec:
    return (text, *BODY, top, (72 + text_right - _width(text, *BODY)) / 2)


def test_centred_plain_lines_over_paragraphs_are_headings() -> None:
    # Wesasaurus's proposal in Word, APA's plain centred headings: ``Problem Statement`` in the
    # body's own 12 pt over an indented paragraph; the cover's centred lines are no headings
    right = 72 + _width(paragraph()[0][0], *BODY)
    names = ["Problem Statement", "Project Description", "Outline of Future Efforts"]
    cover = [_centred(line, 300 + 20 * n, right) for n, line in
             enumerate(["Wesley Cassel", "Bachelor of Applied Computing", "May 2025"])]  # fmt: skip
    pages = [cover] + [[_centred(name, 72, right), *paragraph(100)] for name in names]
    assert headings(pages) == [f"# {name}" for name in names]


def test_a_centred_looking_line_that_goes_on_the_sentence_above_is_no_heading() -> None:
    # a policy manual printed through Microsoft Print to PDF: an item's second line, set in under
    # its bullet and ragged at the right, stands about the middle in the body's type over a full
    # line; it goes on the item's sentence (lower case), so it heads nothing
    right = 72 + _width(paragraph()[0][0], *BODY)
    names = ["Problem Statement", "Project Description", "Outline of Future Efforts"]
    going_on = _centred("information, staff clear their desks", 214, right)
    item = [("Clean Desk Policy: To prevent inadvertent disclosure of the", *BODY, 200, 90),
            going_on, *paragraph(228)]  # fmt: skip
    pages = [[("Cover", *BODY)]] + [[_centred(name, 72, right), *paragraph(100)] for name in names]
    pages[1] += item
    assert headings(pages) == [f"# {name}" for name in names]


def test_an_essays_title_under_its_name_block_is_the_title() -> None:
    # dmoini's homework in MLA's form: name, teacher, course and date at the margin, then
    # ``Assignment 2`` centred in 14 pt bold over 12 pt text (short of the 1.3 times a title
    # lower on the page needs)
    block = [(line, *BODY, 72 + 14 * n) for n, line in
             enumerate(["Alexia Writer", "Dr. Johnson", "CMSI 401", "10/30/2019"])]  # fmt: skip
    pages: list[list[Spec]] = [
        [*block, ("Assignment 2", "Helvetica-Bold", 12, 130, 270),
         ("Problem One", "Helvetica-Bold", 10, 160), *paragraph(180)],
        [("Problem Two", "Helvetica-Bold", 10), *paragraph(100)],
    ]  # fmt: skip
    converted = read_file(make_pdf(pages), "document.pdf")
    assert converted.title == "Assignment 2"
    assert heading_lines(converted.text) == ["# Problem One", "# Problem Two"]


def test_cover_lines_tagged_as_headings_that_the_contents_list_leaves_out_are_the_covers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # FatimaAlawami3's SRS, Word's tagged export: the cover's 28 pt title is tagged H1, and the
    # contents list, built from the same heading styles, starts at ``1. Introduction``
    bold = "Helvetica-Bold"
    names = ["1. Introduction", "2. Overall description", "3. Specific requirements"]
    listed = [(f"{name} {'.' * 30} {n + 3}", *BODY, 100 + 15 * n) for n, name in enumerate(names)]
    pages: list[list[Spec]] = [
        [("Software Requirements Specification", bold, 28, 200), ("Task tracker", bold, 20, 260)],
        [("Table of Contents", bold, 16), *listed],
        [(names[0], bold, 14), *paragraph(100), (names[1], bold, 14, 200), *paragraph(230)],
        [(names[2], bold, 14), *paragraph(100)],
    ]
    tags = {0: [(1, "Software Requirements Specification")]}
    tags.update({2: [(1, names[0]), (1, names[1])], 3: [(1, names[2])]})
    monkeypatch.setattr(
        "skills.formats.pdf.convert.tagged_headings", lambda pdf, count, expired: tags
    )
    # pdf_to_markdown in this process: read_file would convert in a worker, beyond the patch
    converted = pdf_to_markdown(make_pdf(pages), Limits())
    assert converted.title == "Software Requirements Specification"
    assert [line for line in heading_lines(converted.text) if "Requirements Spec" in line] == []


def test_a_version_placeholder_filled_in_is_no_heading() -> None:
    # the RUP template's cover: ``Version <1.0>`` in 14 pt bold Arial
    bold = "Helvetica-Bold"
    pages: list[list[Spec]] = [
        [("Derived Requirements", bold, 16), *paragraph(100), ("Version <1.0>", bold, 14, 200),
         *paragraph(230)],
        [("Flow of Events", bold, 16), *paragraph(100)],
    ]  # fmt: skip
    assert headings(pages) == ["# Derived Requirements", "# Flow of Events"]
