"""Rules for known misses that are classes (issue 30, tenth pass): headings a producer draws
after its page's text, margin running heads drawn last, numbered lines and colon labels that the
document's own contents list names. Each test fails with its rule taken out."""

from __future__ import annotations

import ctypes
from typing import Any

import pypdfium2.raw as raw
import pytest
from pdf_maker import Prose, Spec, heading_lines, make_pdf
from test_pdf_line_steps_linear import MAX_GROWTH

from bench.cputime import least_growth
from skills.formats.pdf.lines import Line, _in_reading_order
from skills.formats.read import read_file

BODY = ("Helvetica", 9.0)
BOLD = "Helvetica-Bold"
_PROSE = Prose(("ayx", "eyq", "uyw"), BODY)


def _calibre_page(chapter: str, sections: list[str]) -> list[Spec]:
    """A page as calibre's Qt WebKit output draws it: its text top-down (a bold sentence among
    it), then its chapter title and section titles, each in its place over its paragraph."""
    text: list[Spec] = []
    headings: list[Spec] = [(chapter, BOLD, 17.0, 40.0)]
    top = 76.0
    for n, section in enumerate(sections):
        text += _PROSE.paragraph(top)
        if n == 0:
            text.append((f"The {_PROSE.word()} sentence is set in bold.", BOLD, 9.0, top + 60))
        headings.append((section, BOLD, 15.0, top + 90))
        top += 120
    text += _PROSE.paragraph(top)
    return text + headings


def test_headings_drawn_after_their_pages_text_head_it() -> None:
    # calibre 1.47 (round 24's Building Web Apps with Go): `Introduction`, `Prerequisites` and
    # `Required Packages` drawn after page 3's text, so all three stood at the page's end, over
    # nothing (10 of 41 headings missed, 90 % of children in their section)
    pages = [
        _calibre_page("Introduction", ["Prerequisites", "Required Packages"]),
        _calibre_page("Go Makes Things Simple", ["The Go Way", "Power in Simplicity"]),
    ]
    text = read_file(make_pdf(pages), "book.pdf").text
    assert heading_lines(text) == [
        "# Introduction", "## Prerequisites", "## Required Packages",
        "# Go Makes Things Simple", "## The Go Way", "## Power in Simplicity",
    ]  # fmt: skip
    assert text.index("sentence is set in bold") < text.index("## Prerequisites")
    last_section = text[text.index("## Required Packages") : text.index("# Go Makes")]
    assert "part ends here" in last_section  # the page's last paragraph, under its heading


def test_lines_drawn_last_beside_the_text_stay_where_they_were_drawn() -> None:
    # 3B2 draws its running heads in the margin after the page's text (`Shift work` /
    # `interventions`, 13 pt): beside the text, not over a paragraph, they are not put in it
    page: list[Spec] = [*_PROSE.paragraph(80), *_PROSE.paragraph(160), *_PROSE.paragraph(240)]
    page.append(("Margin head", "Helvetica", 13.0, 138.0, 480.0))
    text = read_file(make_pdf([page, _PROSE.paragraph()]), "article.pdf").text
    assert text.split("Margin head")[0].count("part ends here") == 3


def _text_then_headings(n: int) -> list[Line]:
    """``n`` lines of text 12 points apart (one bold), then ``n`` larger headings drawn after
    them, each in the gap under a line of text."""

    def line(text: str, top: float, size: float, bold: bool) -> Line:
        return Line(0, text, size, 700 if bold else 400, bold, True, top, 72.0, right=400.0)

    text = [line("Text of the page", 30.0 * k, 9.0, k == 0) for k in range(n)]
    return text + [line("Heading", 30.0 * k + 12, 12.0, True) for k in range(n)]


def test_headings_drawn_last_are_put_in_place_in_time_linear_in_the_lines() -> None:
    assert [ln.text for ln in _in_reading_order(_text_then_headings(2))] == [
        "Text of the page", "Heading", "Text of the page", "Heading",
    ]  # fmt: skip
    growth = least_growth(_text_then_headings, 2_000, _in_reading_order, MAX_GROWTH)
    assert growth < MAX_GROWTH


def _journal_page(n: int) -> list[Spec]:
    """A journal page as 3B2 draws it: the text, then the running head in the outer margin (the
    journal's name and volume on odd pages, the article's short title on even ones, over two
    lines each) and the folio under it, in 13 pt beside 9 pt text."""
    page: list[Spec] = [*_PROSE.paragraph(80), *_PROSE.paragraph(160), *_PROSE.paragraph(240)]
    words, left = (("Shift work", "interventions"), 440.0) if n % 2 else (("ER", "29,2"), 20.0)
    head: list[Spec] = [(words[0], "Helvetica", 13.0, 82.0, left)]
    head.append((words[1], "Helvetica", 13.0, 96.0, left))
    return [*page, *head, (str(161 + n), "Helvetica", 13.0, 148.0, left)]


def test_running_heads_in_the_margin_beside_the_text_are_furniture() -> None:
    # round 24's Emerald article (3B2 Total Publishing System): `Shift work` / `interventions`
    # and `ER` / `29,2` in the outer margin, drawn last with the folio: three lines where the
    # edges' test reads two, and on half the pages less the first and last; 16 of its 18 wrong
    # headings
    text = read_file(make_pdf([_journal_page(n) for n in range(7)]), "article.pdf").text
    assert heading_lines(text) == []
    assert "Shift work" not in text and "ER" not in text.split()


def _policy_pages() -> list[list[Spec]]:
    """A contents list typed as a numbered list, and its chapters numbered on from it by Word's
    list numbering (``2. Product Policy`` listed, ``5. Product Policy`` shown), only the first
    bold, the others regular at the body's size; their sections bold under them."""
    listed = ["1. Company", "a. History", "b. Places", "2. Product Policy", "a. Brand Rules"]
    listed += ["b. Media Rules", "3. Common Policy", "a. Review Rules", "b. Other Rules"]
    contents: list[Spec] = [("Company Policy", BOLD, 20.0), ("Contents", BOLD, 14.0)]
    contents += [(entry, *BODY) for entry in listed]
    pages = [contents]
    chapters = {"4. Company": (BOLD, 12.0), "5. Product Policy": BODY, "6. Common Policy": BODY}
    sections = {
        "4. Company": ["A. History", "B. Places"],
        "5. Product Policy": ["A. Brand Rules", "B. Media Rules"],
        "6. Common Policy": ["A. Review Rules", "B. Other Rules"],
    }
    for chapter, (font, size) in chapters.items():
        page: list[Spec] = [(chapter, font, size), *_PROSE.paragraph()]
        for section in sections[chapter]:
            page += [(section, BOLD, 10.0), *_PROSE.paragraph()]
        pages += [page, _PROSE.paragraph()]  # (no chapter's number runs with its page's)
    return pages


def test_chapters_numbered_on_from_their_contents_list_are_headings_of_the_first_ones_level() -> (
    None
):
    # round 23's Korean product policy (Word for Microsoft 365): `5. 상품 정책` and `6. 공통 정책`
    # regular at the body's size, listed as `2.` and `3.` in a contents list that is one list
    # with them; 2 of its 18 headings missed, and their sections filed under the first chapter
    found = heading_lines(read_file(make_pdf(_policy_pages()), "policy.pdf").text)
    chapters = [line for line in found if line.lstrip("#").strip()[0].isdigit()]
    assert chapters == ["## 4. Company", "## 5. Product Policy", "## 6. Common Policy"]
    assert "### A. Brand Rules" in found  # under its chapter, a level deeper


def _renamed_without_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    """PDFium's answers for a 3B2 file: every face renamed (``AdvPS405B6``, ``B8``), no weight
    known (-1), the same flags; the glyphs are still Helvetica's and Helvetica-Bold's."""
    real_info = raw.FPDFText_GetFontInfo

    def info(handle: Any, index: int, buffer: Any, length: int, flags: Any) -> int:
        found = int(real_info(handle, index, buffer, length, flags))
        if not buffer or not found:
            return found
        renamed = b"AdvPS405B8" if buffer.value == BOLD.encode() else b"AdvPS405B6"
        ctypes.memmove(buffer, renamed + b"\0", len(renamed) + 1)
        return len(renamed) + 1

    monkeypatch.setattr(raw, "FPDFText_GetFontInfo", info)
    monkeypatch.setattr(raw, "FPDFText_GetFontWeight", lambda handle, index: -1)


def test_bold_known_only_from_the_glyphs_makes_headings(monkeypatch: pytest.MonkeyPatch) -> None:
    # round 24's Emerald article (3B2 7.51a): its bold faces renamed, weight 0, no Weight in the
    # embedded fonts: 0 of its 13 headings found, 0.7 % of children in their section
    _renamed_without_weights(monkeypatch)
    pages = []
    for name in ("Method", "Results", "Discussion"):
        pages.append([*_PROSE.paragraph(), (name, BOLD, 9.0), *_PROSE.paragraph()])
    converted = read_file(make_pdf(pages), "article.pdf", isolated=False)
    assert heading_lines(converted.text) == ["# Method", "# Results", "# Discussion"]


def test_a_face_of_another_family_in_the_same_weight_is_not_bold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Helvetica's glyphs hold 1.48 times the ink of Times-Roman's, but fill 1.18 times the share
    # of their boxes: a sans line among serif text, no weight known, is not read bold
    _renamed_without_weights(monkeypatch)
    body = Prose(("ayz", "eyz", "uyz"), ("Times-Roman", 9.0))
    pages = [[*body.paragraph(), (name, "Helvetica", 9.0), *body.paragraph()]
             for name in ("Method", "Results", "Discussion")]  # fmt: skip
    converted = read_file(make_pdf(pages), "article.pdf", isolated=False)
    assert heading_lines(converted.text) == []
