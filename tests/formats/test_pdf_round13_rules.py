"""The rules held-out round 13 asked for (docs/formats.md): producer families no truth file had
before (groff -ms through ps2pdf, an HTML page through cairo, InDesign, a PowerPoint deck,
ConTeXt, OpTeX, minim), read from their typography alone. Each test fails with its rule taken
out."""

from __future__ import annotations

import re

from pdf_maker import Prose, Spec, make_pdf

from skills.formats.read import read_file

BODY = ("Times-Roman", 10.0)
_PROSE = Prose(("yq", "ezh", "ojt", "uxb", "iwd"), BODY)
paragraph = _PROSE.paragraph


def headings(pages: list[list[Spec]]) -> list[str]:
    text = read_file(make_pdf(pages), "manual.pdf").text
    return re.findall(r"^#{1,6} .*$", text, re.MULTILINE)


def test_a_chapter_line_over_its_name_is_one_heading_and_keeps_its_number() -> None:
    # OpTeX sets "Chapter 1" over "User documentation" in one 17 pt bold type: the first line
    # was taken as a heading, then again as the start of the second; its number counted twice
    # read as a numbered list starting again, and both chapters were dropped
    def chapter(number: int, name: str) -> list[Spec]:
        return [
            (f"Chapter {number}", "Times-Bold", 17, 72),
            (name, "Times-Bold", 17, 98),
            (f"{number}.1 Getting the {name.split()[0].lower()} ready", "Times-Bold", 14, 130),
            *paragraph(160),
            (f"{number}.2 Using the {name.split()[0].lower()}", "Times-Bold", 14, 240),
            *paragraph(270),
        ]

    pages = [chapter(1, "User documentation"), chapter(2, "Technical documentation")]
    assert headings(pages) == [
        "# Chapter 1 User documentation", "## 1.1 Getting the user ready", "## 1.2 Using the user",
        "# Chapter 2 Technical documentation", "## 2.1 Getting the technical ready",
        "## 2.2 Using the technical",
    ]  # fmt: skip
